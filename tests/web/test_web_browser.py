"""The pages in a real browser: Debian's chromium driven by Playwright.

Expected numbers come from the CLI's own ``--json`` for the same question, never
from the page. Screenshots of each page are kept in a temporary folder
(``HAMMERLAB_SCREENSHOTS`` chooses another) to look at.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from typer.testing import CliRunner
from web_kit import EXAMPLES, ROOT, cli_json, live_server

from hammerlab.analysis.odds import calculator
from hammerlab.cli.app import app as cli

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(os.environ.get("HAMMERLAB_SCREENSHOTS") or tempfile.mkdtemp(prefix="hammerlab-shots-"))
TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with live_server() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert errors == []


def _open(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _numbers(page: Page) -> tuple[str, str, list[list[str]]]:
    rows = page.locator("#dist tbody tr").all()
    table = [[cell.inner_text() for cell in row.locator("td").all()] for row in rows]
    return page.inner_text("#mean"), page.inner_text("#p-destroyed"), table


def _expected(answer: dict[str, object]) -> tuple[str, str, list[list[str]]]:
    killed = answer["models_killed"]
    assert isinstance(killed, list)
    table, at_least = [], 1.0
    for index, p in enumerate(killed):
        table.append([str(index), f"{p * 100:.2f}%", f"{max(0.0, at_least) * 100:.2f}%"])
        at_least -= p
    mean, destroyed = answer["mean_models_killed"], answer["p_unit_destroyed"]
    assert isinstance(mean, float) and isinstance(destroyed, float)
    return f"{mean:.3f}", f"{destroyed * 100:.2f}%", table


def test_every_page_loads_without_errors(page: Page, server: str) -> None:
    for name in ("index", "odds", "lab", "viewer", "play", "docs"):
        page.goto(f"{server}/" if name == "index" else f"{server}/{name}")
        if name != "index":
            page.wait_for_selector("body[data-ready='1']" if name != "docs" else "#paths h2")
        assert page.locator("h1").count() == 1
        _shot(page, f"page-{name}")
    # The docs page shows the docstrings' ``literal`` markup as code, not as backticks.
    assert "``" not in page.inner_text("#paths")
    assert "hammerlab odds ... --json" in page.locator("#paths code").all_inner_texts()
    page.set_viewport_size({"width": 390, "height": 844})
    _open(page, f"{server}/odds")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the odds page is {width}px wide on a phone"
    _shot(page, "phone-odds")


def test_odds_page_numbers_are_the_cli_json_and_the_share_link_repeats_them(
    page: Page, server: str, browser: Browser
) -> None:
    _open(page, f"{server}/odds")
    page.select_option("#ruleset", "core11")
    page.select_option("#form-kind", "plain")
    flags = {"attacks": "10", "bs": "3", "strength": "4", "ap": "-1", "damage": "1",
             "toughness": "4", "save": "3", "wounds": "2", "target-models": "5"}  # fmt: skip
    for name, value in flags.items():
        page.locator(f"#odds-form [name='{name}']:visible").fill(value)
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])")
    cli_flags = (f"--{k}={v}" for k, v in flags.items())
    expected = _expected(cli_json("odds", "--ruleset=core11", *cli_flags))
    assert _numbers(page) == expected
    _shot(page, "odds-plain")
    link = page.get_attribute("#share", "href")
    assert link is not None
    other = browser.new_page()
    other.set_default_timeout(TIMEOUT_MS)
    _open(other, f"{server}{link}")
    other.wait_for_selector("#result:not([hidden])")
    assert _numbers(other) == expected
    other.close()


def test_odds_library_compare_swap_and_engine_badge(page: Page, server: str) -> None:
    query = (
        "ruleset=waffle&form=library&attacker=Heavy+Weapons+Squad&weapon=Lascannon&target=Ork+Boyz"
    )
    _open(page, f"{server}/odds?{query}")
    page.wait_for_selector("#result:not([hidden])")
    flags = ["--ruleset=waffle", "--attacker=Heavy Weapons Squad", "--weapon=Lascannon"]
    assert _numbers(page) == _expected(cli_json("odds", *flags, "--target=Ork Boyz"))
    assert page.input_value("#trials") == "10000"  # the full check by default
    page.click("#check")
    page.wait_for_selector("#badge.ok", timeout=60_000)
    assert "matches a simulation of the real engine" in page.inner_text("#badge")
    assert "10000 volleys" in page.inner_text("#badge")
    assert "p = " in page.inner_text("#badge")
    page.click("#compare-add")
    page.fill("#target", "Tactical Squad")
    page.click("#ask")
    page.wait_for_function("document.querySelector('#question').textContent.includes('Tactical')")
    assert page.locator("#chart polyline").count() == 2
    assert "also=" in (page.get_attribute("#share", "href") or "")
    _shot(page, "odds-compare")
    page.click("#swap")
    page.wait_for_function("document.querySelectorAll('#weapon option').length > 0")
    assert page.input_value("#attacker") == "Tactical Squad"
    assert page.input_value("#target") == "Heavy Weapons Squad"


def test_the_odds_weapon_list_and_swap_choose_weapons_the_odds_answer(
    page: Page, server: str
) -> None:
    # A user review: swap asked at once with the Boyz' Kustom Choppa ("is a melee
    # weapon"), and an uploaded catalogue's Boyz began on Stikkbombs (a Blast: no answer
    # until Hits is filled in).
    query = "ruleset=core11&form=library&attacker=Intercessor+Squad&weapon=Bolt+Pistol&target=Boyz"
    _open(page, f"{server}/odds?{query}")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#swap")
    page.wait_for_function("document.querySelector('#question').textContent.includes('(Boyz)')")
    assert page.input_value("#weapon") == "Kombi-skorcha"  # the Boyz' first ranged weapon
    assert page.is_hidden("#error")
    melee = page.eval_on_selector_all(
        "#weapon option:disabled", "options => options.map(o => o.value)"
    )
    assert melee == ["Kustom Choppa", "Choppa"]
    page.select_option("#form-kind", "upload")
    page.set_input_files("#upload-file", str(ROOT / "tests/data/bsdata-7e/Orks - Codex.cat"))
    page.wait_for_function("document.querySelector('#upload-info').textContent.includes('units')")
    page.fill("#attacker", "")
    page.press("#attacker", "Tab")
    page.fill("#attacker", "Boyz")
    page.press("#attacker", "Tab")
    page.wait_for_selector("#weapon option[value='Close Combat Weapon']", state="attached")
    # Stikkbombs (a Blast, needs Hits), Close Combat Weapon (melee), Slugga (Pistol).
    assert page.input_value("#weapon") == "Slugga"
    texts = page.eval_on_selector_all("#weapon option", "options => options.map(o => o.text)")
    assert texts[0].endswith("— give the Hits")


def test_a_scenario_uploaded_for_units_on_the_odds_page_is_said_to_be_one(
    page: Page, server: str
) -> None:
    # A user review: a scenario .toml chosen as "units from a BattleScribe file" read
    # "mysupp.toml: 0 units", with nothing saying why no unit could be picked.
    _open(page, f"{server}/odds")
    page.select_option("#form-kind", "upload")
    page.set_input_files("#upload-file", str(EXAMPLES / "guard_suppress_terminators.toml"))
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == (
        "guard_suppress_terminators.toml is a scenario, not a BattleScribe file "
        "(.cat .gst .ros .rosz)"
    )
    assert page.inner_text("#upload-info") == "" and page.input_value("#upload") == ""


def test_odds_form_follows_the_ruleset_an_upload_switches_to(
    page: Page, server: str, tmp_path: Path
) -> None:
    _open(page, f"{server}/odds")
    page.select_option("#ruleset", "core11")
    page.select_option("#form-kind", "upload")
    broken = tmp_path / "notxml.cat"
    broken.write_text("this is not a catalogue")
    page.set_input_files("#upload-file", str(broken))
    page.wait_for_selector("#error:not([hidden])")
    assert "notxml.cat" in page.inner_text("#error")
    page.set_input_files("#upload-file", str(ROOT / "tests/data/bsdata-7e/Orks - Codex.cat"))
    page.wait_for_function("document.querySelector('#upload-info').textContent.includes('units')")
    # A web review: the import's notes (no game system beside the file) went unshown.
    assert "(.gst) was not found next to the file" in page.inner_text("#upload-notes")
    assert page.input_value("#ruleset") == "waffle"  # a 7th-edition catalogue
    assert page.is_hidden("#error")  # the failed upload's message is gone
    boxes = page.eval_on_selector_all("#situations input", "els => els.map(e => e.value)")
    assert boxes == list(calculator("waffle").situations)
    assert "cover" not in boxes and "stationary" not in boxes  # core11's
    assert page.is_visible("input[name=cover]") and page.is_visible("input[name=hits]")
    page.fill("#attacker", "Tankbustas")
    page.press("#attacker", "Tab")
    page.wait_for_function("document.querySelectorAll('#weapon option').length > 0")
    page.fill("#target", "Boyz")
    page.fill("input[name=cover]", "5")
    page.check("#situations input[value=half-range]")
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])")
    assert page.is_hidden("#error")
    assert "in cover 5+" in page.inner_text("#question")


def test_an_upload_that_switches_the_ruleset_lists_the_chosen_attacker_s_weapons_at_once(
    page: Page, server: str
) -> None:
    # A lead of session 21: after an upload switched the ruleset the weapon list kept the
    # library unit's weapons (core11's Boyz: Kustom Choppa, ..., Shoota, Slugga) until
    # the attacker was typed again.
    query = "ruleset=core11&form=library&attacker=Boyz&weapon=Kombi-skorcha&target=Boyz"
    _open(page, f"{server}/odds?{query}")
    page.wait_for_selector("#result:not([hidden])")
    page.select_option("#form-kind", "upload")
    page.set_input_files("#upload-file", str(ROOT / "tests/data/bsdata-7e/Orks - Codex.cat"))
    page.wait_for_function("document.querySelector('#upload-info').textContent.includes('units')")
    assert page.input_value("#ruleset") == "waffle" and page.input_value("#attacker") == "Boyz"
    # The catalogue's Boyz (its 'Ork Boy' entry): Stikkbombs (a Blast: needs the Hits),
    # a Close Combat Weapon (melee) and a Slugga (a Pistol, the first answered as it is).
    page.wait_for_selector("#weapon option[value='Stikkbombs']", state="attached", timeout=5_000)
    names = page.eval_on_selector_all("#weapon option", "options => options.map(o => o.value)")
    assert names == ["Stikkbombs", "Close Combat Weapon", "Slugga"]
    assert page.input_value("#weapon") == "Slugga"


def test_a_ruleset_the_uploaded_units_are_not_for_leaves_the_upload_form_and_says_why(
    page: Page, server: str
) -> None:
    # A web review: under core11 the page still listed the Waffle catalogue's Boyz and
    # their weapons, which Ask then refused.
    _open(page, f"{server}/odds")
    page.select_option("#form-kind", "upload")
    page.set_input_files("#upload-file", str(ROOT / "tests/data/bsdata-7e/Orks - Codex.cat"))
    page.wait_for_function("document.querySelector('#upload-info').textContent.includes('units')")
    page.fill("#attacker", "Boyz")
    page.press("#attacker", "Tab")
    page.wait_for_selector("#weapon option[value='Close Combat Weapon']", state="attached")
    page.select_option("#ruleset", "core11")
    assert page.input_value("#form-kind") == "library"
    assert page.inner_text("#form-note") == (
        "Orks - Codex.cat's units are waffle datasheets, which core11 odds cannot use: the "
        "form shows the library's units (ruleset waffle takes the file's)"
    )
    # core11's own Boyz (the 11th-edition data): a Kustom Choppa, no Close Combat Weapon.
    page.wait_for_selector("#weapon option[value='Kustom Choppa']", state="attached")
    names = page.eval_on_selector_all("#weapon option", "options => options.map(o => o.value)")
    assert "Close Combat Weapon" not in names
    page.fill("#target", "Boyz")
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])")
    assert page.is_hidden("#error") and "(core11)" in page.inner_text("#question")
    # The file's units again: with the file's ruleset, as the upload chose it.
    page.select_option("#form-kind", "upload")
    assert page.input_value("#ruleset") == "waffle" and page.inner_text("#form-note") == ""
    page.wait_for_selector("#weapon option[value='Close Combat Weapon']", state="attached")


@pytest.mark.parametrize(
    ("query", "situation"),
    [
        ("ruleset=waffle&form=library&attacker=Tactical+Squad&weapon=Boltgun&target=Ork+Boyz",
         "half-range"),
        ("ruleset=core11&form=library&attacker=Intercessor+Squad&weapon=Bolt+Pistol&target=Boyz",
         "cover"),
    ],
)  # fmt: skip
def test_compared_set_ups_differing_by_a_situation_are_told_apart(
    page: Page, server: str, query: str, situation: str
) -> None:
    _open(page, f"{server}/odds?{query}")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#compare-add")
    page.check(f"#situations input[value={situation}]")
    page.click("#ask")
    # The legend shows the comparison as soon as it is added: wait for the new answer's
    # (its question names the situation, or the label adds "· situation").
    page.wait_for_selector(f".chart-legend li:nth-child(2):has-text('{situation}')")
    first, second = page.locator(".chart-legend li").all_inner_texts()
    assert first != second
    assert situation not in first and situation in second
    chart = page.locator("#chart svg").bounding_box()
    legend = page.locator(".chart-legend").bounding_box()
    assert chart is not None and legend is not None
    assert legend["y"] >= chart["y"] + chart["height"]  # below the plot, not over it
    _shot(page, f"odds-compare-{situation}")


def test_lab_page_progress_bar_reaches_the_end_with_the_cli_report(page: Page, server: str) -> None:
    _open(page, f"{server}/lab?scenario=guard_suppress_terminators.toml")
    page.check("input[name=rule][value=suppressive_fire]")
    page.fill("#runs", "6")
    page.click("#run")
    page.wait_for_selector("#report:not([hidden])", timeout=60_000)
    bar = page.get_attribute("#progress", "value"), page.get_attribute("#progress", "max")
    assert bar == ("12", "12")
    report = cli_json(
        "lab", str(EXAMPLES / "guard_suppress_terminators.toml"), "--rule", "suppressive_fire",
        "--runs", "6",
    )  # fmt: skip
    cells = [row.locator("td").all()[2:4] for row in page.locator("#units tbody tr").all()]
    shown = [(a.inner_text(), b.inner_text()) for a, b in cells]
    # A sixth is no whole number of 0.01%: the 6 battles' means are rounded to 0.001,
    # as the CLI prints them (and the page says so, as the CLI does).
    assert shown == [
        (f"{u['baseline_mean_models_left']:.3f}", f"{u['variant_mean_models_left']:.3f}")
        for u in report["units"]
    ]
    assert "rounded: a mean of 6 battles" in page.inner_text("#alike")
    alike = report["paired_battles_ended_alike"]
    assert f"ended alike (every unit's models left, and the winner): {alike} of 6." in (
        page.inner_text("#alike")
    )
    # A web review: the page's Winner table had no intervals and no difference. (No
    # COLUMNS: tables printed whole, also where pytest-xdist sets it to 80.)
    printed_wins = CliRunner().invoke(
        cli, ["lab", str(EXAMPLES / "guard_suppress_terminators.toml"),
              "--rule", "suppressive_fire", "--runs", "6"], env={"COLUMNS": None},
    ).stdout  # fmt: skip
    for row in page.locator("#wins tbody tr").all():
        outcome, *rates = [cell.inner_text() for cell in row.locator("td").all()]
        line = next(x for x in printed_wins.splitlines() if outcome in x and "%" in x)
        assert len(rates) == 3 and all(rate in line for rate in rates)
    assert "played by the heuristic AI" in page.inner_text("#report-title")
    # Why nothing changed: each arm's settings, the rule's choices and the warnings, as
    # the CLI prints them.
    printed = CliRunner().invoke(
        cli, ["lab", str(EXAMPLES / "guard_suppress_terminators.toml"),
              "--rule", "suppressive_fire", "--runs", "6"], env={"COLUMNS": "400"},
    ).stdout  # fmt: skip
    assert page.inner_text("#arms") and page.inner_text("#arms") in printed
    choices = [
        [c["choice"], f"chosen {c['baseline_chosen']} of {c['baseline_offered']}",
         f"chosen {c['variant_chosen']} of {c['variant_offered']}"]
        for c in report["rule_choices"]
    ]  # fmt: skip
    assert choices and choices[0][0] == "action: suppressive fire"
    rows = page.locator("#choices tbody tr").all()
    assert [row.locator("td").all_inner_texts() for row in rows] == choices
    assert page.locator("#warnings li").all_inner_texts() == report["warnings"]
    html = page.request.get(server + (page.get_attribute("#dl-html", "href") or "")).text()
    assert all(f"<td>{cell}</td>" in html for cell in choices[0][1:])
    _shot(page, "lab-report")


def test_a_set_up_added_to_the_comparison_is_drawn_and_asked_once(page: Page, server: str) -> None:
    # A user review ("odds set-up twice in comparison"): the set-up just added to the
    # comparison was drawn twice (two bars, two lines, the legend naming it twice), and
    # its share link named it twice, so that opening the link asked it twice.
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/odds") else None)
    query = "ruleset=waffle&form=library&attacker=Heavy+Weapons+Squad&weapon=Lascannon"
    _open(page, f"{server}/odds?{query}&target=Ork+Boyz")
    page.wait_for_selector("#result:not([hidden])")
    page.click("#compare-add")
    assert page.locator("#chart polyline").count() == 1
    assert page.locator(".chart-legend").count() == 0
    assert page.is_disabled("#compare-add")  # it is in the comparison already
    assert "also=" not in (page.get_attribute("#share", "href") or "")
    page.fill("#target", "Tactical Squad")
    page.click("#ask")
    page.wait_for_function("document.querySelector('#question').textContent.includes('Tactical')")
    assert page.locator("#chart polyline").count() == 2
    assert page.is_enabled("#compare-add")
    link = page.get_attribute("#share", "href") or ""
    assert link.count("also=") == 1
    # A link saved before, naming the shown set-up as compared too, asks it once.
    twice = f"{server}/odds?{query}&target=Ork+Boyz&also=" + quote(f"{query}&target=Ork+Boyz")
    asked.clear()
    _open(page, twice)
    page.wait_for_selector("#result:not([hidden])")
    assert len(asked) == 1
    assert page.locator("#chart polyline").count() == 1


def test_the_lab_page_says_why_an_uploaded_scenario_is_refused(
    page: Page, server: str, tmp_path: Path
) -> None:
    # A user review: a scenario of ruleset "nosuch" was taken, and the page then showed
    # a JavaScript error ("Cannot read properties of undefined").
    text = (EXAMPLES / "guard_suppress_terminators.toml").read_text(encoding="utf-8")
    bad = tmp_path / "nosuch.toml"
    bad.write_text(text.replace('ruleset = "waffle"', 'ruleset = "nosuch"'), encoding="utf-8")
    _open(page, f"{server}/lab")
    page.set_input_files("#scenario-file", str(bad))
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == (
        "nosuch.toml: ruleset: unknown ruleset 'nosuch'; known: core11, waffle"
    )
    assert page.input_value("#scenario-file") == ""  # the form shows no file it does not use


def test_the_lab_s_scenario_list_names_an_uploaded_scenario_in_use(
    page: Page, server: str, tmp_path: Path
) -> None:
    # A user review: after an upload the list still showed its first file, which could
    # then not be picked (no change event), and a reopened address showed it too.
    text = (EXAMPLES / "guard_suppress_terminators.toml").read_text(encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace("Guardsmen lay down", "My copy:", 1), encoding="utf-8")
    chosen = "s => s.selectedOptions[0].textContent"
    in_use = "My copy: Suppressive Fire on Terminators (uploaded, not on this server)"
    _open(page, f"{server}/lab")
    first = page.input_value("#scenario")
    page.set_input_files("#scenario-file", str(mine))
    page.wait_for_function("document.querySelector('#scenario-about').textContent.includes('My')")
    assert page.eval_on_selector("#scenario", chosen) == in_use
    # A refused second upload leaves the first in use, and the list says so.
    garbage = tmp_path / "garbage.cat"
    garbage.write_text("not a scenario", encoding="utf-8")
    page.set_input_files("#scenario-file", str(garbage))
    page.wait_for_selector("#error:not([hidden])")
    assert page.eval_on_selector("#scenario", chosen) == in_use
    upload = page.evaluate("uploadId")
    # The file the list showed before the upload can be picked again.
    page.select_option("#scenario", first)
    page.wait_for_function("!document.querySelector('#scenario-about').textContent.includes('My')")
    assert page.evaluate("uploadId") is None
    assert page.locator("#scenario option.uploaded").count() == 0
    # An address naming the upload shows it in the list.
    _open(page, f"{server}/lab?upload={upload}&runs=2")
    assert page.eval_on_selector("#scenario", chosen) == in_use


def test_a_lab_run_reopens_from_the_page_s_address(page: Page, server: str) -> None:
    # A user review: a lab report could not be reloaded or shared. The address holds the
    # settings and the job: opened again, the form is filled in and the report shown.
    _open(page, f"{server}/lab?scenario=guard_suppress_terminators.toml")
    page.check("input[name=rule][value=suppressive_fire]")
    page.fill("#rule-extra", "suppressive_fire.ld_penalty_per_wound=2")
    page.fill("#set", "fiery_charge")
    page.fill("#runs", "2")
    page.fill("#seed", "5")
    page.click("#run")
    page.wait_for_selector("#report:not([hidden])", timeout=60_000)
    address = page.url
    title, rows = (
        page.inner_text("#report-title"),
        page.locator("#units tbody tr").all_inner_texts(),
    )

    def form() -> tuple[object, ...]:
        ticked = page.eval_on_selector_all(
            "input[name=rule]:checked", "boxes => boxes.map(b => b.value)"
        )
        values = [page.input_value(f"#{name}") for name in ("rule-extra", "set", "runs", "seed")]
        return page.input_value("#scenario"), ticked, *values

    filled = form()
    assert filled == (
        "guard_suppress_terminators.toml", ["suppressive_fire"],
        "suppressive_fire.ld_penalty_per_wound=2", "fiery_charge", "2", "5",
    )  # fmt: skip
    _open(page, f"{server}/lab")
    assert form() != filled
    _open(page, address)
    page.wait_for_selector("#report:not([hidden])")
    assert form() == filled
    assert page.inner_text("#report-title") == title
    assert page.locator("#units tbody tr").all_inner_texts() == rows
    assert page.get_attribute("#progress", "value") == "4"  # 2 runs, 2 arms
    # A job the server no longer keeps: the form filled in from the address, ready to run.
    gone = address.split("job=")[0] + "job=forgotten"
    _open(page, gone)
    assert form() == filled
    assert page.is_hidden("#report")
    assert page.inner_text("#error").startswith("lab run forgotten: no such lab job")


def test_viewer_steps_and_shows_the_casualties_of_the_log(
    page: Page, server: str, tmp_path: Path
) -> None:
    _open(page, f"{server}/viewer?scenario=marines_vs_orks_ruins.toml&seed=7")
    page.click("#run")
    page.wait_for_selector("#battle:not([hidden])")
    assert page.get_attribute("#step-info", "data-casualties") == "0"
    page.click("#end")
    log = tmp_path / "l.jsonl"
    scenario = str(EXAMPLES / "marines_vs_orks_ruins.toml")
    CliRunner().invoke(cli, ["battle", scenario, "--seed", "7", "--log-json", str(log)])
    casualties = log.read_text().count('"kind":"casualty"')
    assert casualties > 0
    assert page.get_attribute("#step-info", "data-casualties") == str(casualties)
    assert page.locator("#field g.model.dead").count() == casualties
    _shot(page, "viewer-end")
    page.click("#back")
    page.click("#fwd")
    assert page.get_attribute("#step-info", "data-casualties") == str(casualties)
    page.click("#start")
    assert page.locator("#field g.model.dead").count() == 0
    # A web review: after a jump to a later turn, «start left the Turn list on it.
    turns = page.eval_on_selector_all("#turn option", "els => els.map(e => e.value)")
    page.select_option("#turn", turns[-1])
    page.click("#start")
    assert page.input_value("#turn") == turns[0]


def test_the_viewer_s_form_names_the_battle_it_shows(
    page: Page, server: str, tmp_path: Path
) -> None:
    # A user review: after a log was opened the form kept the list's first scenario and
    # seed 1, which "Run battle" would have played instead of the battle on view.
    log = tmp_path / "ruins.jsonl"
    scenario = str(EXAMPLES / "marines_vs_orks_ruins.toml")
    CliRunner().invoke(cli, ["battle", scenario, "--seed", "7", "--log-json", str(log)])
    _open(page, f"{server}/viewer")
    assert page.input_value("#scenario") != "marines_vs_orks_ruins.toml"
    page.set_input_files("#log-file", str(log))
    page.wait_for_selector("#battle:not([hidden])")
    shown = page.input_value("#scenario"), page.input_value("#seed")
    assert shown == ("marines_vs_orks_ruins.toml", "7")
    # A log of a scenario this server does not offer (renamed) is named as such.
    header, rest = log.read_text(encoding="utf-8").split("\n", 1)
    recipe = json.loads(header)
    recipe["scenario"]["name"] = "Renamed ruins"
    other = tmp_path / "renamed.jsonl"
    other.write_text(json.dumps(recipe) + "\n" + rest, encoding="utf-8")
    page.set_input_files("#log-file", str(other))
    page.wait_for_function(
        "document.querySelector('#battle-title').textContent.includes('Renamed')"
    )
    chosen = page.eval_on_selector("#scenario", "s => s.selectedOptions[0].textContent")
    assert chosen == "Renamed ruins (the log's own, not on this server)"
    page.click("#run")
    assert page.inner_text("#error") == (
        "the log's scenario is not on this server: pick one from the list"
    )


def test_the_viewer_names_a_log_s_rules_plays_them_again_and_shows_a_stop(
    page: Page, server: str, tmp_path: Path
) -> None:
    # A user review: a log played with --rule showed no rule and "Run battle" played the
    # battle without it; a log stopped by --stop-after ended "a draw".
    ruled, stopped = tmp_path / "rule.jsonl", tmp_path / "stop.jsonl"
    flag = "cover_effect=improve_save"
    told = ""  # the stopped battle's score, as the terminal's summary says it
    for scenario, log, more in (
        ("core11_normal_shooting.toml", ruled, ["--seed", "4", "--rule", flag]),
        ("whole_game_three_turns.toml", stopped, ["--seed", "3", "--stop-after", "1"]),
    ):
        ran = CliRunner().invoke(
            cli, ["battle", str(EXAMPLES / scenario), *more, "--log-json", str(log)]
        )
        assert ran.exit_code == 0, ran.output
        told = ran.output.rstrip().splitlines()[-1]
    _open(page, f"{server}/viewer")
    page.set_input_files("#log-file", str(ruled))
    page.wait_for_selector("#battle:not([hidden])")
    assert page.input_value("#rule") == flag
    assert flag in page.inner_text("#battle-title")
    logged = page.inner_text("#summary")
    page.evaluate("document.querySelector('#summary').textContent = ''")
    page.click("#run")
    page.wait_for_function("document.querySelector('#summary').textContent !== ''")
    assert page.inner_text("#summary") == logged  # the same battle, the rule included
    assert page.is_hidden("#error")
    page.set_input_files("#log-file", str(stopped))
    page.wait_for_function("document.querySelector('#battle-title').textContent.includes('Three')")
    assert page.input_value("#rule") == ""
    summary = page.inner_text("#summary").splitlines()
    assert summary[0] == "Stopped before turn 2"
    assert summary[-1] == told and told.startswith("Kill points scored: Ultramarines ")
    assert "stopped before turn 2" in page.inner_text("#battle-title")
    _shot(page, "viewer-stopped")
    # A lead of session 21: "Run battle" then played the log's battle to its end.
    assert page.input_value("#stop-after") == "1"
    page.evaluate("document.querySelector('#summary').textContent = ''")
    page.click("#run")
    page.wait_for_function("document.querySelector('#summary').textContent !== ''")
    assert page.inner_text("#summary").splitlines() == summary
    assert "stopped before turn 2" in page.inner_text("#battle-title")
    page.fill("#stop-after", "")  # no stop: the battle's three turns
    page.click("#run")
    page.wait_for_function("!document.querySelector('#battle-title').textContent.includes('stop')")
    assert not page.inner_text("#summary").startswith("Stopped")


def test_the_viewer_s_log_lines_are_reached_and_chosen_by_keyboard(page: Page, server: str) -> None:
    # A user review: the log lines jumped to their event by mouse only (tabIndex -1).
    _open(page, f"{server}/viewer?scenario=marines_vs_orks_ruins.toml&seed=7")
    page.click("#run")
    page.wait_for_selector("#battle:not([hidden])")
    page.focus("#turn")
    for _ in range(5):  # Tab on from the Turn list until a log line has the focus
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.parentElement.id") == "log":
            break
    assert page.evaluate("document.activeElement === document.querySelector('#log li')")
    line = page.locator("#log li:not(.dice)").nth(5)
    line.focus()
    page.keyboard.press("Enter")
    assert "current" in (line.get_attribute("class") or "")
    assert page.inner_text("#step-info").startswith("step 6 /")


def test_play_page_plays_one_activation(page: Page, server: str) -> None:
    _open(page, f"{server}/play?scenario=whole_game_three_turns.toml")
    page.click("#start-game")
    page.wait_for_selector("#actions button.action")
    before = page.locator("#log li").count()
    page.locator("#actions button.action").first.click()
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    page.wait_for_selector("#actions button.action:not([disabled])")
    assert page.locator("#log li").count() > before
    _shot(page, "play")


def test_play_page_names_the_decision_resumes_on_reload_and_opens_in_the_viewer(
    page: Page, server: str
) -> None:
    _open(page, f"{server}/play?scenario=core11_whole_game.toml")
    page.select_option("#side", "Orks")
    seed = "4"
    page.fill("#seed", seed)
    page.click("#start-game")
    page.wait_for_selector("#actions button.action")
    assert "movement phase" in page.inner_text("#status")
    assert page.inner_text("#prompt") == "Select a unit to move (or done) (mover)"
    assert "game=" in page.url
    focused = "document.activeElement.classList.contains('action')"
    assert page.evaluate(focused)  # keyboard focus on the decision, not the body
    before = page.locator("#log li").count()
    page.locator("#actions button.action").last.click()  # done
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    page.wait_for_function(focused)
    status, lines = page.inner_text("#status"), page.locator("#log li").count()
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#actions button.action")
    assert (page.inner_text("#status"), page.locator("#log li").count()) == (status, lines)
    while page.locator("#actions button.action").count():
        page.locator("#actions button.action").last.click()
        page.wait_for_selector("#actions button.action, #finished:not([hidden])")
        page.wait_for_function("!document.querySelector('#actions button[disabled]')")
    assert page.is_visible("#game-log") and page.is_visible("#open-viewer")
    # A user review: a finished game read "turn 4"; the file plays three ([plan] turns = 3).
    assert page.inner_text("#status") == "Game over after turn 3"
    lines = page.locator("#log li").count()
    page.click("#open-viewer")
    page.wait_for_selector("#battle:not([hidden])")
    assert page.locator("#log li").count() == lines
    assert "identical to the log" in page.inner_text("#battle-title")
    # The viewer's form names the game's scenario and seed, not the list's first and 1.
    shown = page.input_value("#scenario"), page.input_value("#seed")
    assert shown == ("core11_whole_game.toml", seed)


def test_the_example_unit_names_are_the_edition_s_own(page: Page, server: str) -> None:
    # A web review: core11's target placeholder read "Ork Boyz", which core11 refuses.
    _open(page, f"{server}/odds?ruleset=core11&form=library")
    assert page.get_attribute("#target", "placeholder") == "Boyz"
    page.select_option("#ruleset", "waffle")
    assert page.get_attribute("#target", "placeholder") == "Ork Boyz"


def test_the_odds_page_shows_the_cli_s_means_line(page: Page, server: str) -> None:
    # A web review: the page left out the CLI's "mean attacks …, hits …" line.
    query = "ruleset=core11&form=plain&attacks=10&bs=3&strength=4&ap=-1&damage=1"
    _open(page, f"{server}/odds?{query}&toughness=4&save=3&wounds=1&target-models=10")
    page.wait_for_selector("#result:not([hidden])")
    cli_line = CliRunner().invoke(
        cli,
        ["odds", "-r", "core11", "--attacks", "10", "--bs", "3", "--strength", "4", "--ap",
         "-1", "--damage", "1", "--toughness", "4", "--save", "3", "--wounds", "1",
         "--target-models", "10"],
    ).stdout  # fmt: skip
    shown = page.inner_text("#means")
    assert shown.startswith("mean attacks 10.000, hits 6.667")
    assert shown in " ".join(cli_line.split())


def test_the_core11_plain_form_asks_models_firing_as_the_cli_does(page: Page, server: str) -> None:
    # A user review: the plain form hid "Models firing" for core11, whose CLI takes
    # --models; folded into the attacks ("5D6"), [BLAST] was added once, not per model.
    _open(page, f"{server}/odds")
    page.select_option("#ruleset", "core11")
    page.select_option("#form-kind", "plain")
    flags = {"attacks": "D6", "models": "5", "bs": "3", "strength": "4", "ap": "0",
             "damage": "1", "keyword": "blast", "toughness": "4", "save": "4", "wounds": "1",
             "target-models": "10"}  # fmt: skip
    for name, value in flags.items():
        page.locator(f"#odds-form [name='{name}']:visible").fill(value)
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])")
    # By hand: each model rolls D6 (3.5) plus one [BLAST] attack per five target models
    # (2 at 10 models): 5 x 5.5 = 27.5 attacks; 2/3 hit (3+): 18.333; 1/2 wound (4 v 4).
    assert page.inner_text("#means").startswith("mean attacks 27.500, hits 18.333, wounds 9.167")
    cli_flags = (f"--{k}={v}" for k, v in flags.items())
    assert _numbers(page) == _expected(cli_json("odds", "--ruleset=core11", *cli_flags))
    assert "models=5" in page.url  # the share link keeps it


def test_an_answer_left_on_the_page_by_a_failed_request_is_greyed_out(
    page: Page, server: str
) -> None:
    # A web review: a new error appeared above the last question's chart, which stayed
    # as if it answered the new one. It is greyed out until the next answer.
    query = "ruleset=core11&form=plain&attacks=10&bs=3&strength=4&ap=-1&damage=1"
    _open(page, f"{server}/odds?{query}&toughness=4&save=3&wounds=1&target-models=10")
    page.wait_for_selector("#result:not([hidden])")
    opacity = "getComputedStyle(document.querySelector('#result')).opacity"
    assert page.evaluate(opacity) == "1"
    page.fill("input[name=attacks]", "abc")
    page.click("#ask")
    page.wait_for_selector("#error:not([hidden])")
    assert "attacks" in page.inner_text("#error")
    assert float(page.evaluate(opacity)) < 0.5
    page.fill("input[name=attacks]", "10")
    page.click("#ask")
    page.wait_for_selector("#error", state="hidden")
    assert page.evaluate(opacity) == "1"


def test_a_game_reopened_from_its_address_shows_its_scenario_side_and_seed(
    page: Page, server: str
) -> None:
    # A web review: /play?game=ID brought the game back but the form showed the first
    # scenario and seed 1, so "New game" would have started another game than the one
    # on the screen.
    _open(page, f"{server}/play?scenario=core11_whole_game.toml")
    page.select_option("#side", "Orks")
    page.fill("#seed", "3")
    page.click("#start-game")
    page.wait_for_selector("#actions button.action")
    assert "scenario=core11_whole_game.toml" in page.url
    game = page.url.split("game=")[1]
    _open(page, f"{server}/play?game={game}")
    page.wait_for_selector("#actions button.action")
    shown = (page.input_value("#scenario"), page.input_value("#side"), page.input_value("#seed"))
    assert shown == ("core11_whole_game.toml", "Orks", "3")


@pytest.mark.parametrize("where", ["play", "lab", "viewer"])
def test_an_address_naming_no_scenario_says_which_and_keeps_one_chosen(
    page: Page, server: str, where: str
) -> None:
    # A web review: /play?scenario=nosuch.toml blanked the scenario box and said
    # "no scenario ''", the name it was given lost.
    _open(page, f"{server}/{where}?scenario=nosuch.toml")
    assert page.inner_text("#error") == (
        "no scenario 'nosuch.toml' on this server: pick one from the list"
    )
    assert page.input_value("#scenario") != ""


RENDERED_FONT = """() => [...document.querySelectorAll('#chart svg text')].map(
    t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a)"""
"""Each chart text's size on screen, in CSS pixels (its font size times the SVG's scale)."""


def test_pages_fit_a_phone(page: Page, server: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    query = "ruleset=waffle&form=library&attacker=Infantry+Squad&weapon=Lasgun&target=Ork+Boyz"
    _open(page, f"{server}/odds?{query}")
    page.wait_for_selector("#result:not([hidden])")
    texts = page.eval_on_selector_all("#weapon option", "options => options.map(o => o.text)")
    assert max(map(len, texts)) > 60  # the grenade launcher's long text pushed the page wide
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert min(page.evaluate(RENDERED_FONT)) >= 10
    _shot(page, "phone-odds-chart")
    _open(page, f"{server}/viewer?scenario=marines_vs_orks_ruins.toml&seed=7")
    page.click("#run")
    page.wait_for_selector("#battle:not([hidden])")
    assert page.evaluate("document.getElementById('summary').scrollWidth") <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(page, "phone-viewer")
