"""The JSON API: the same answers as the CLI's ``--json``, the limits (costly work's
slots and time limit among them), and a load test."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from web_kit import EXAMPLES, ROOT, cli_json, live_server

from hammerlab.analysis.game import Game
from hammerlab.analysis.odds_check import chi2_sf, pearson
from hammerlab.cli.app import app as cli
from hammerlab.io.scenario import load_scenario
from hammerlab.web import services
from hammerlab.web.app import create_app
from hammerlab.web.services import TimeLimitError, WebError, Work
from hammerlab.web.store import BoundedStore, StoreFullError

PLAIN = {
    "ruleset": "core11", "attacks": "10", "bs": "3", "strength": "4", "ap": "-1",
    "damage": "1", "toughness": "4", "save": "3", "wounds": "2", "target-models": "5",
}  # fmt: skip
PLAIN_FLAGS = [f"--{k}={v}" for k, v in PLAIN.items()]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with live_server() as url:
        yield url


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(EXAMPLES))


def test_api_odds_plain_form_is_the_cli_json(client: TestClient) -> None:
    answer = client.post("/api/odds", json=PLAIN)
    assert answer.status_code == 200
    assert answer.json() == cli_json("odds", *PLAIN_FLAGS)


def test_api_odds_library_form_waffle_with_a_situation_is_the_cli_json(client: TestClient) -> None:
    question = {
        "ruleset": "waffle", "attacker": "Tactical Squad", "weapon": "Boltgun",
        "target": "Ork Boyz", "situation": ["half-range"],
    }  # fmt: skip
    flags = ["--ruleset=waffle", "--attacker=Tactical Squad", "--weapon=Boltgun"]
    expected = cli_json("odds", *flags, "--target=Ork Boyz", "--situation=half-range")
    assert client.post("/api/odds", json=question).json() == expected


def test_api_odds_errors_are_the_cli_messages_naming_the_fields(client: TestClient) -> None:
    result = CliRunner().invoke(cli, ["odds", "--attacker=x", "--bs=3"])
    answer = client.post("/api/odds", json={"attacker": "x", "bs": 3})
    assert answer.status_code == 422
    assert result.stderr.strip() == "error: --bs: the library form takes no plain numbers"
    assert answer.json() == {"error": "bs: the library form takes no plain numbers"}


def test_api_odds_refuses_an_armour_facing_at_no_vehicle_as_the_cli_does(
    client: TestClient,
) -> None:
    # A vehicle's fact (the arc the firers stand in) at Ork Boyz: one error, not ignored.
    flags = ["--attacker=Heavy Weapons Squad", "--weapon=Lascannon", "--target=Ork Boyz"]
    result = CliRunner().invoke(cli, ["odds", *flags, "--situation=rear-armour"])
    question = {"attacker": "Heavy Weapons Squad", "weapon": "Lascannon",
                "target": "Ork Boyz", "situation": ["rear-armour"]}  # fmt: skip
    answer = client.post("/api/odds", json=question)
    line = "rear-armour: Ork Boyz is not a vehicle (it has no armour facings)"
    assert (result.exit_code, result.stderr) == (2, f"error: --situation: {line}\n")
    assert (answer.status_code, answer.json()) == (422, {"error": f"situation: {line}"})


def test_api_odds_without_a_ruleset_is_the_cli_without_one(client: TestClient) -> None:
    # The review's question: Heavy Weapons Squad is a unit of the Waffle library only.
    question = {"attacker": "Heavy Weapons Squad", "weapon": "Lascannon", "target": "Chimera"}
    answer = client.post("/api/odds", json=question)
    assert answer.status_code == 200, answer.text
    flags = [f"--{key}={value}" for key, value in question.items()]
    assert answer.json() == cli_json("odds", *flags)
    assert answer.json()["edition"] == "waffle"


WAFFLE_PLAIN = {
    "bs": 4, "strength": 4, "ap": 5, "toughness": 4, "save": 3, "wounds": 1, "target-models": 1,
}  # fmt: skip


def test_api_odds_takes_shots_and_rule_as_the_cli_does(client: TestClient) -> None:
    snap = {**WAFFLE_PLAIN, "shots": 3, "situation": ["snap"], "rule": ["snap_shot_divisor=3"]}
    answer = client.post("/api/odds", json=snap)
    assert answer.status_code == 200, answer.text
    flags = [f"--{k}={v}" for k, v in WAFFLE_PLAIN.items()]
    expected = cli_json(
        "odds", "--shots=3", *flags, "--situation=snap", "--rule", "snap_shot_divisor=3"
    )
    assert answer.json() == expected
    # By hand: BS 4 divided by 3 is BS 1, which hits on 6+: 3 shots hit 0.5 times on
    # average; the default divisor 2 gives BS 2, hitting on 5+: 1.0.
    assert answer.json()["means"]["hits"] == pytest.approx(0.5)
    halved = client.post("/api/odds", json={**snap, "rule": []}).json()
    assert halved["means"]["hits"] == pytest.approx(1.0)
    assert client.post("/api/odds", json={**WAFFLE_PLAIN, "attacks": 3}).json()["means"][
        "shots"
    ] == pytest.approx(3.0)


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        (
            {"shots": 99},
            "shots: Type 'Assault 99': 99 shots; a weapon fires 1 to 50 shots a model",
        ),
        # A web review: -3 was "not a number"; it is one, out of range, as 99 is.
        ({"shots": -3}, "shots: -3 shots; a weapon fires 1 to 50 shots a model"),
        (
            {"shots": 3, "rule": ["bogus=3"]},
            "rule: unknown rule or parameter 'bogus'; known: overwhelming_strength, "
            "snap_shot_divisor, snap_shot_minimum_bs",
        ),
        ({"shots": 3, "rule": ["snap_shot_divisor"]}, "rule: "),
        (
            {"shots": 3, "attacks": 3},
            "request body: shots and attacks are one field (the CLI's --shots is --attacks): "
            "give one",
        ),
        ({"shots": 3, "toughness": None}, "give attacker/weapon/target, or the numbers: toughness"),
    ],
)
def test_api_odds_refusals_name_the_request_field(
    client: TestClient, extra: dict[str, object], error: str
) -> None:
    answer = client.post("/api/odds", json={**WAFFLE_PLAIN, **extra})
    assert answer.status_code == 422
    assert answer.json()["error"].startswith(error)
    assert "--" not in answer.json()["error"].replace("--shots is --attacks", "")


@pytest.mark.parametrize(("field", "other"), [("attacks", "damage"), ("damage", "attacks")])
def test_api_core11_plain_zero_attacks_or_damage_names_the_field(
    client: TestClient, field: str, other: str
) -> None:
    # A user review: "weapon 'weapon': A must be at least 1, not 0", under a form whose
    # fields are "Attacks" and "D" (the plain question's weapon is called "weapon").
    answer = client.post("/api/odds", json={**PLAIN, field: "0", other: "1"})
    assert answer.status_code == 422
    assert answer.json() == {"error": f"{field}: {field} must be at least 1, not 0"}


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b'{"bs": ', "request body: invalid JSON at line 1, column 8: Expecting value"),
        (
            b'{\n  "bs": 3,\n x}',
            "request body: invalid JSON at line 3, column 2: "
            "Expecting property name enclosed in double quotes",
        ),
    ],
)
def test_api_malformed_json_says_where(client: TestClient, body: bytes, error: str) -> None:
    answer = client.post("/api/odds", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert answer.json() == {"error": error}


@pytest.mark.parametrize(
    ("shots", "sent"),
    [(10.5, "a number with a fraction"), (True, "true or false"), ([1, 2], "a list")],
)
def test_api_a_flag_s_value_of_another_json_kind_is_one_message(
    client: TestClient, shots: object, sent: str
) -> None:
    # A flag's value is text or a whole number, as typed after the flag: one
    # message naming what was sent (not each branch of a union in pydantic's
    # words), and true is not taken for 1 shot.
    answer = client.post("/api/odds", json={**WAFFLE_PLAIN, "shots": shots})
    assert answer.status_code == 422
    assert answer.json() == {
        "error": f"shots: give text or a whole number, as typed after the flag, not {sent}"
    }


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"\xff\xfe{", "request body: not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "request body: JSON nested too deep"),
    ],
)
def test_api_a_body_json_cannot_read_says_why(client: TestClient, body: bytes, error: str) -> None:
    answer = client.post("/api/odds", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(error)


@pytest.mark.parametrize("sent", ["NaN", "Infinity", "-Infinity"])
def test_api_a_flag_s_value_nan_or_infinity_is_said_as_sent(client: TestClient, sent: str) -> None:
    # An input review: NaN was called "a number with a fraction"; it is none.
    body = json.dumps(WAFFLE_PLAIN)[:-1] + f', "shots": {sent}}}'
    answer = client.post("/api/odds", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert answer.json() == {
        "error": f"shots: give text or a whole number, as typed after the flag, not {sent}"
    }


BATTLE = '{"scenario": "guard_suppress_terminators.toml", "seed": '


@pytest.mark.parametrize(
    ("path", "body", "error"),
    [
        # an input review: 5,000 digits got "There was an error parsing the body"
        ("/api/battle", BATTLE + "9" * 5000 + "}", "seed: a number of 5,000 digits"),
        ("/api/odds", '{"ruleset": "core11", "attacks": ' + "9" * 5000 + "}",
         "attacks: a number of 5,000 digits"),
        ("/api/odds", '{"ruleset": "core11", "attacks": -' + "9" * 5000 + ".5}",
         "attacks: a number of 5,000 digits"),
        # 200 digits played a battle: the CLI's --seed refuses more than 100
        ("/api/battle", BATTLE + "9" * 200 + "}", "seed: a number of 200 digits"),
        ("/api/odds", '{"situation": ["cover", ' + "1" * 101 + "]}",
         "situation.1: a number of 101 digits"),
    ],
)  # fmt: skip
def test_api_a_number_too_long_names_its_field_as_the_cli_names_its_flag(
    client: TestClient, path: str, body: str, error: str
) -> None:
    answer = client.post(path, content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 422
    assert answer.json() == {"error": f"{error} (at most 100 are read)"}
    seed = ["battle", str(EXAMPLES / "guard_suppress_terminators.toml"), "--seed", "9" * 5000]
    refused = CliRunner().invoke(cli, seed)
    assert refused.stderr == "error: --seed: a number of 5,000 digits (at most 100 are read)\n"


def test_api_a_long_run_of_digits_in_text_is_no_number(client: TestClient) -> None:
    answer = client.post("/api/odds", json={**PLAIN, "attacker": "9" * 150})
    assert answer.status_code == 422
    assert "digits" not in answer.json()["error"]  # the library form's refusal instead


def test_api_an_attack_count_out_of_range_names_the_range(client: TestClient) -> None:
    answer = client.post("/api/odds", json={**PLAIN, "attacks": -5})
    assert answer.status_code == 422
    assert answer.json()["error"] == (
        "attacks: '-5' is out of the range hammerlab handles: at most 20 dice, "
        "a number up to 200, never below 0"
    )


def test_api_a_file_over_the_upload_limit_is_refused_in_the_limit_s_own_words(
    client: TestClient,
) -> None:
    # docs/web.md: uploads of at most 8 MB. A 9 MB file's body is over the upload
    # body limit (the file and its framing), refused before it is read, in those words.
    big = client.post("/api/upload", files={"file": ("huge.cat", b" " * (9 * 1024 * 1024))})
    assert big.status_code == 413
    assert big.json() == {"error": "the file is larger than 8 MB"}


def test_api_an_uploaded_scenario_over_the_scenario_limit_is_refused_as_a_file_is(
    client: TestClient,
) -> None:
    # docs/web.md: "The scenario limits of io/scenario.py hold (60 units, 1 MB file)". An
    # uploaded scenario of 1.1 MB (a valid one, padded with a comment) was accepted and
    # played, where the command line refuses the same file.
    text = (EXAMPLES / "guard_suppress_terminators.toml").read_text(encoding="utf-8")
    padded = text + "#" + "x" * 1_100_000 + "\n"
    refused = client.post("/api/upload", files={"file": ("big.toml", padded.encode())})
    assert refused.status_code == 422
    assert refused.json()["error"] == "big.toml: file larger than 1000000 bytes"
    kept = client.post("/api/upload", files={"file": ("small.toml", text.encode())})
    assert kept.status_code == 200


@pytest.mark.parametrize(
    ("path", "more"),
    [("/api/battle", {}), ("/api/lab", {"rule": ["suppressive_fire"], "runs": 2}),
     ("/api/play", {})],
)  # fmt: skip
def test_api_a_scenario_named_and_uploaded_at_once_is_refused(
    client: TestClient, path: str, more: dict[str, object]
) -> None:
    # An input review: both played the upload, and a lab job's "asked" named the other.
    text = (EXAMPLES / "guard_suppress_terminators.toml").read_text(encoding="utf-8")
    upload = client.post("/api/upload", files={"file": ("mine.toml", text.encode())}).json()["id"]
    for sent in (upload, "no-such-upload"):  # refused the same whether the upload exists
        both = {"scenario": "assault_charge_into_overwatch.toml", "upload": sent, **more}
        answer = client.post(path, json=both)
        assert answer.status_code == 422
        assert answer.json() == {"error": "upload: name a scenario or an uploaded one, not both"}
    info = client.get("/api/scenario", params={"scenario": "x.toml", "upload": upload})
    assert info.json() == {"error": "upload: name a scenario or an uploaded one, not both"}


def test_api_lab_joins_a_scenario_named_and_uploaded_with_the_request_s_other_problems(
    client: TestClient,
) -> None:
    # A web review: no rule ticked was said first, and both named only on the second try.
    both = {"scenario": "whole_game_three_turns.toml", "upload": "x", "rule": [], "runs": 401}
    answer = client.post("/api/lab", json=both)
    assert (answer.status_code, answer.json()) == (422, {"error": (
        "upload: name a scenario or an uploaded one, not both; "
        "rule: tick a rule to compare, or write a --rule flag; "
        "runs: Input should be less than or equal to 400"
    )})  # fmt: skip


@pytest.mark.parametrize(
    ("path", "fields", "said"),
    [("/api/odds", {"target-models": 5, "target_models": 6}, "target-models and target_models"),
     ("/api/odds", {"target-models": 5, "target_models": 5}, "target-models and target_models"),
     ("/api/odds/check", {"feel-no-pain": 5, "feel_no_pain": 6}, "feel-no-pain and feel_no_pain"),
     ("/api/odds", {"type": "Heavy", "weapon_type": "Heavy"}, "type and weapon_type")],
)  # fmt: skip
def test_api_a_field_given_by_both_its_names_is_one_message(
    client: TestClient, path: str, fields: dict[str, object], said: str
) -> None:
    # An input review: docs/web.md gives both spellings of the field; both at once
    # were "target_models: Extra inputs are not permitted", as if one were no field.
    answer = client.post(path, json={**PLAIN, **fields})
    assert answer.status_code == 422
    assert answer.json() == {"error": f"request body: {said} are one field: give one"}


def test_api_a_json_body_sent_as_another_type_is_told_to_send_json(client: TestClient) -> None:
    # A web review: a JSON body sent as text/plain, or a form, was answered "request
    # body: Input should be a valid dictionary ...".
    body = json.dumps(PLAIN).encode()
    for content_type in ("text/plain", "application/x-www-form-urlencoded"):
        sent = client.post("/api/odds", content=body, headers={"content-type": content_type})
        assert sent.status_code == 422
        assert sent.json()["error"] == (
            f"request body: send it as JSON (Content-Type: application/json), not {content_type}"
        )
    assert (
        client.post(
            "/api/odds", content=body, headers={"content-type": "application/json"}
        ).status_code
        == 200
    )


def test_api_refuses_unknown_fields_big_bodies_and_client_paths(client: TestClient) -> None:
    unknown = client.post("/api/odds", json={**PLAIN, "colour": "red"})
    assert unknown.status_code == 422
    assert "colour" in unknown.json()["error"]
    big = client.post(
        "/api/odds", content=b"{" + b" " * 5_000_000 + b"}", headers={"content-type": "text/json"}
    )
    assert big.status_code == 413
    assert "larger than" in big.json()["error"]
    missing = client.post("/api/battle", json={"scenario": "../pyproject.toml"})
    assert missing.status_code == 404
    assert set(missing.json()) == {"error"}
    trials = client.post("/api/odds/check", json={**PLAIN, "trials": 10**9})
    assert trials.status_code == 422


def test_api_upload_battlescribe_roster_then_odds_from_its_units(client: TestClient) -> None:
    roster = ROOT / "tests" / "data" / "rosters" / "HH_Test.ros"
    sent = client.post("/api/upload", files={"file": ("../../etc/x.ros", roster.read_bytes())})
    assert sent.status_code == 200, sent.text
    upload = sent.json()
    assert upload["name"] == "x.ros" and upload["units"]
    bad = client.post("/api/upload", files={"file": ("run.py", b"print(1)")})
    assert bad.status_code == 422
    units = client.get("/api/units", params={"upload": upload["id"]}).json()["units"]
    assert units == upload["units"]
    # A web review: the lab given this upload said "no such uploaded scenario".
    lab = client.post("/api/lab", json={"upload": upload["id"], "rule": ["fiery_charge"]})
    assert lab.status_code == 422
    assert lab.json()["error"] == "x.ros is not a scenario (a .toml file)"
    # An input review: core11 odds named a unit of the file never asked of, and no
    # field; the CLI's --from is the API's upload.
    core11 = client.post("/api/odds", json={**PLAIN, "upload": upload["id"]})
    assert core11.status_code == 422
    assert core11.json()["error"] == (
        "upload: a BattleScribe file's units are waffle datasheets (7th edition); core11 odds "
        "cannot use them: ask with ruleset waffle, or leave out upload"
    )


def test_api_unit_and_weapon_lists_refuse_an_upload_under_another_ruleset_as_the_odds_do(
    client: TestClient,
) -> None:
    # A web review: under core11 they listed a Waffle catalogue's units and weapons, which
    # /api/odds then refused.
    catalogue = ROOT / "tests" / "data" / "bsdata-7e" / "Orks - Codex.cat"
    sent = client.post("/api/upload", files={"file": ("orks.cat", catalogue.read_bytes())})
    upload = sent.json()["id"]
    refusal = (
        "upload: a BattleScribe file's units are waffle datasheets (7th edition); core11 odds "
        "cannot use them: ask with ruleset waffle, or leave out upload"
    )
    asked = {"ruleset": "core11", "attacker": "Boyz", "weapon": "Slugga", "target": "Boyz"}
    odds = client.post("/api/odds", json={**asked, "upload": upload})
    units = client.get("/api/units", params={"ruleset": "core11", "upload": upload})
    weapons = client.get(
        "/api/weapons", params={"ruleset": "core11", "upload": upload, "unit": "Boyz"}
    )
    for answer in (odds, units, weapons):
        assert (answer.status_code, answer.json()) == (422, {"error": refusal})
    # Under waffle, the file's own: its Boyz carry a Close Combat Weapon, core11's none.
    listed = client.get("/api/units", params={"ruleset": "waffle", "upload": upload}).json()
    assert "Boyz" in listed["units"]
    own = {"ruleset": "waffle", "upload": upload, "unit": "Boyz"}
    named = [w["name"] for w in client.get("/api/weapons", params=own).json()["weapons"]]
    assert named == ["Stikkbombs", "Close Combat Weapon", "Slugga"]


@pytest.mark.parametrize(
    ("ruleset", "unit", "fits"),
    [
        # Melee: the weapons of Range "Melee" (core11) or Type "Melee" (Waffle), which the
        # odds refuse; "hits": Stikkbombs, a 3" Blast, answered once the hits are given.
        ("core11", "Boyz", {"Kustom Choppa": "melee", "Kombi-skorcha": "ok",
                            "Choppa": "melee", "Shoota": "ok", "Slugga": "ok"}),
        ("waffle", "Ork Boyz", {"Slugga": "ok", "Big choppa": "melee", "Stikkbombs": "hits",
                                "Shoota": "ok", "Choppa": "melee", "Big shoota": "ok",
                                "Rokkit launcha": "ok"}),
    ],
)  # fmt: skip
def test_api_weapons_say_which_the_odds_answer(
    client: TestClient, ruleset: str, unit: str, fits: dict[str, str]
) -> None:
    # A user review: the odds page offered melee weapons, which the odds always refuse,
    # and its swap asked with one of them (Kustom Choppa).
    listed = client.get("/api/weapons", params={"ruleset": ruleset, "unit": unit}).json()
    assert {w["name"]: w["odds"] for w in listed["weapons"]} == fits
    target = "Intercessor Squad" if ruleset == "core11" else "Tactical Squad"
    for weapon, fit in fits.items():
        asked = {"ruleset": ruleset, "attacker": unit, "weapon": weapon, "target": target}
        answer = client.post("/api/odds", json=asked)
        refused = {"ok": None, "melee": "weapon", "hits": "hits"}[fit]
        assert (answer.json().get("error") or "").split(":")[0] == (refused or "")


@pytest.mark.parametrize(
    ("name", "data", "error"),
    [
        ("ra-army.cat", b"garbage", "ra-army.cat: line 1, column 0: not well-formed XML"),
        ("army.rosz", b"garbage", "army.rosz: not a valid zip archive"),
        ("list.ros", b"<catalogue/>", "list.ros: catalogue: expected a <roster> root element"),
    ],
)
def test_api_upload_errors_name_the_clients_file_not_the_servers(
    client: TestClient, name: str, data: bytes, error: str
) -> None:
    refused = client.post("/api/upload", files={"file": (f"C:/Users/me/{name}", data)})
    assert refused.status_code == 422
    assert refused.json()["error"].startswith(error)
    assert "hammerlab-upload" not in refused.text and "upload." not in refused.text


def test_api_lab_job_reports_like_the_cli(client: TestClient) -> None:
    body = {"scenario": "guard_suppress_terminators.toml", "rule": ["suppressive_fire"], "runs": 4}
    started = client.post("/api/lab", json=body)
    assert started.status_code == 202
    key = started.json()["id"]
    # What was asked, each field given or at its default (no set flags, seed 1 as the
    # CLI's --seed): what the lab page's form shows for a job it reopens.
    asked = {**body, "upload": None, "set": [], "seed": 1}
    assert started.json()["asked"] == asked
    deadline = time.monotonic() + 60
    while (job := client.get(f"/api/lab/{key}").json())["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert job["state"] == "done" and job["done"] == job["total"] == 8
    assert job["asked"] == asked
    scenario = str(EXAMPLES / "guard_suppress_terminators.toml")
    expected = cli_json("lab", scenario, "--rule", "suppressive_fire", "--runs", "4")
    assert job["report"] == expected
    assert client.get(f"/api/lab/{key}/report.json").json() == expected
    csv = client.get(f"/api/lab/{key}/report.csv").text.splitlines()
    tables = (len(expected["units"]), len(expected["win_rates"]), len(expected["rule_choices"]), 1)
    assert len(csv) == sum(1 + rows for rows in tables) + len(tables) - 1  # headers, blanks
    page = client.get(f"/api/lab/{key}/report.html").text
    assert page.startswith("<!DOCTYPE html>") and "http://" not in page.replace(
        "http://www.w3.org/2000/svg", ""
    )
    assert "seeds 1..4" in page and all(u["unit"] in page for u in expected["units"])
    # The page's tables show the figures as the CLI prints them (stats.interval: a
    # difference the variant less the baseline shown), sent with the job.
    printed = (
        CliRunner()
        .invoke(
            cli,
            ["lab", scenario, "--rule", "suppressive_fire", "--runs", "4"],
            env={"COLUMNS": None},
        )
        .stdout
    )
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in printed.splitlines()]
    for unit, cells in zip(expected["units"], job["unit_cells"], strict=True):
        assert [unit["label"], str(unit["models_fielded"]), *cells] in rows
    for rate, cells in zip(expected["win_rates"], job["win_cells"], strict=True):
        assert [rate["outcome"], *cells] in rows
    assert job["rounding_note"] is None  # a quarter is a whole number of percent


def test_the_lab_csv_holds_what_the_page_shows(client: TestClient) -> None:
    # A user review: the CSV had no "all alike" mark, no win-rate intervals or paired
    # differences, and no choices table, all on the page and in the HTML report.
    body = {"scenario": "sanity/terminators_vs_guardsmen.toml", "rule": ["overwatch=off"],
            "runs": 4, "seed": 1}  # fmt: skip
    key = client.post("/api/lab", json=body).json()["id"]
    deadline = time.monotonic() + 60
    while (job := client.get(f"/api/lab/{key}").json())["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    report = job["report"]
    text = client.get(f"/api/lab/{key}/report.csv").text
    units, wins, choices, ended = (
        [row.split(",") for row in block.splitlines()] for block in text.strip().split("\n\n")
    )
    assert units[0][9] == "alike" and wins[0][0] == "outcome" and choices[0][0] == "choice"
    marked = [u.get("alike", False) for u in report["units"]]
    assert [row[9] == "true" for row in units[1:]] == marked
    assert any(row[9] == "true" for row in units[1:])  # the Terminators: 5 of 5 left in all
    for row, rate in zip(wins[1:], report["win_rates"], strict=True):
        figures = [x for arm in ("baseline", "variant", "difference")
                   for x in (rate[arm]["mean"], *rate[arm]["ci95"])]  # fmt: skip
        shown = [float(c.strip('"')) for i, c in enumerate(row[1:]) if i % 4 != 3]
        assert (row[0], shown) == (rate["outcome"], figures)
    # The Ultramarines won all 4 in both arms: Wilson's 95% interval of 4 of 4 is
    # (1 + z²/8 - z·sqrt(z²/64)) / (1 + z²/4), z = 1.96: 0.5101 to 1.
    ultramarines = next(row for row in wins if row[0] == "Ultramarines")
    assert [round(float(c), 4) for c in ultramarines[1:4]] == [1.0, 0.5101, 1.0]
    assert [row[0] for row in choices[1:]] == [c["choice"] for c in report["rule_choices"]]
    assert ended == [
        ["paired_battles", "ended_alike"],
        ["4", str(report["paired_battles_ended_alike"])],
    ]


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"set": ["bogus=on"]}, "set: unknown rule or parameter 'bogus'"),
        # a user review: these read as the validator's words, or ran where the CLI refuses
        ({"rule": []}, "rule: tick a rule to compare, or write a --rule flag"),
        ({"seed": 2**63 - 2}, "seed: with runs 50, the seeds go up to 9223372036854775855"),
        ({"rule": ["charge_dice=2"]}, "rule: charge_dice=2: the baseline plays"),
    ],
)
def test_api_lab_refusals_name_the_field_of_the_cli_s_flag(
    client: TestClient, extra: dict[str, list[str]], expected: str
) -> None:
    body = {"scenario": "guard_suppress_terminators.toml", "rule": ["fiery_charge"], **extra}
    refused = client.post("/api/lab", json=body)
    assert refused.status_code == 422
    assert refused.json()["error"].startswith(expected)


def test_api_battle_log_upload_replays_the_cli_log(client: TestClient, tmp_path: Path) -> None:
    log = tmp_path / "battle.jsonl"
    scenario = str(EXAMPLES / "marines_vs_orks_ruins.toml")
    ran = CliRunner().invoke(cli, ["battle", scenario, "--seed", "7", "--log-json", str(log)])
    assert ran.exit_code == 0, ran.output
    logged = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    view = client.post("/api/battle/log", files={"file": ("battle.jsonl", log.read_bytes())})
    assert view.status_code == 200, view.text
    shown = [{k: v for k, v in e.items() if k != "text"} for e in view.json()["events"]]
    assert shown == logged
    played = client.post("/api/battle", json={"scenario": "marines_vs_orks_ruins.toml", "seed": 7})
    assert played.json()["events"] == view.json()["events"]
    tampered = log.read_text().replace('"plugins":[]', '"plugins":["x.py"]', 1)
    refused = client.post("/api/battle/log", files={"file": ("t.jsonl", tampered.encode())})
    assert refused.status_code == 422 and "plug-in" in refused.json()["error"]


@pytest.fixture(scope="module")
def battle_log(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The text of a ``--log-json`` log: marines_vs_orks_ruins.toml, seed 7."""
    log = tmp_path_factory.mktemp("log") / "battle.jsonl"
    scenario = str(EXAMPLES / "marines_vs_orks_ruins.toml")
    ran = CliRunner().invoke(cli, ["battle", scenario, "--seed", "7", "--log-json", str(log)])
    assert ran.exit_code == 0, ran.output
    return log.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("rules", ["x"], "Input should be a valid dictionary"),
        ("stop_before_turn", "x", "Input should be a valid integer"),
    ],
)
def test_api_battle_log_with_a_wrongly_typed_header_field_names_it(
    client: TestClient, battle_log: str, field: str, value: object, problem: str
) -> None:
    # Before, an error of the engine's own (500).
    header, rest = battle_log.split("\n", 1)
    upload = json.dumps({**json.loads(header), field: value}) + "\n" + rest
    answer = client.post("/api/battle/log", files={"file": ("b.jsonl", upload.encode())})
    assert answer.status_code == 422
    assert answer.json() == {"error": f"b.jsonl: line 1: {field}: {problem}"}


def test_a_log_upload_not_utf8_names_the_file_and_a_byte_order_mark_is_skipped(
    client: TestClient, battle_log: str, tmp_path: Path
) -> None:
    # A user review: "the log is not UTF-8 text" named no file, and a log saved with a
    # BOM (Windows Notepad) was refused with Python's hint "decode using utf-8-sig".
    header = battle_log.split("\n", 1)[0]
    for name, data in (
        ("garbage.cat", b"\xff\xfe\x00"),
        ("bad.jsonl", (header + "\n").encode() + b"\xff"),
    ):
        answer = client.post("/api/battle/log", files={"file": (name, data)})
        assert answer.status_code == 422
        assert answer.json() == {"error": f"{name}: not UTF-8 text"}
    plain = client.post("/api/battle/log", files={"file": ("b.jsonl", battle_log.encode())})
    marked = "\ufeff".encode() + battle_log.encode()
    bom = client.post("/api/battle/log", files={"file": ("bom.jsonl", marked)})
    assert bom.status_code == 200, bom.text
    assert bom.json()["events"] == plain.json()["events"]
    log = tmp_path / "bom.jsonl"
    log.write_bytes(marked)
    replayed = CliRunner().invoke(cli, ["replay", str(log)])
    assert replayed.exit_code == 0 and "replays identically" in replayed.stdout


def test_api_battle_log_nested_too_deeply_is_refused(client: TestClient, battle_log: str) -> None:
    # Valid JSON that Python's decoder cannot read (it recurses once per bracket):
    # the whole file, or one line of a log. Before, an error of the engine's own (500).
    nested = "[" * 100_000 + "]" * 100_000
    lines = battle_log.splitlines()
    uploads = {
        "deep.jsonl: line 1": nested,
        "b.jsonl: line 4": "\n".join([*lines[:3], nested, *lines[3:]]),
    }
    for where, text in uploads.items():
        name = where.split(":")[0]
        answer = client.post("/api/battle/log", files={"file": (name, text.encode())})
        assert answer.status_code == 422
        assert answer.json() == {"error": f"{where}: JSON nested too deeply to read"}


def test_api_play_applies_a_legal_action_and_refuses_a_stale_one(client: TestClient) -> None:
    body = {"scenario": "whole_game_three_turns.toml", "seed": 3}
    state = client.post("/api/play", json=body).json()
    assert state["player"] == state["you"] and state["actions"]
    after = client.post(f"/api/play/{state['id']}", json={"action": 0, "step": state["step"]})
    assert after.status_code == 200
    assert after.json()["step"] > state["step"] and after.json()["log"]
    stale = client.post(f"/api/play/{state['id']}", json={"action": 0, "step": state["step"]})
    assert stale.status_code == 409


def test_api_play_says_what_is_decided_and_keeps_the_game_to_save_and_replay(
    client: TestClient, tmp_path: Path
) -> None:
    state = client.post("/api/play", json={"scenario": "core11_whole_game.toml", "side": "Orks"})
    key = state.json()["id"]
    # The Orks' first top-level decision: whom to move, in their movement phase (09.02).
    assert state.json()["phase"] == "movement"
    assert state.json()["decision"] == {
        "kind": "mover", "prompt": "Select a unit to move (or done)"
    }  # fmt: skip
    early = client.get(f"/api/play/{key}/log.jsonl")
    assert early.status_code == 409 and "not over" in early.json()["error"]
    saved = tmp_path / "game.json"
    saved.write_text(client.get(f"/api/play/{key}/game.json").text)
    resumed = CliRunner().invoke(cli, ["battle", "--resume", str(saved), "--json"])
    assert resumed.exit_code == 0, resumed.output
    while not state.json()["over"]:
        last = len(state.json()["actions"]) - 1  # "done": on to the end
        state = client.post(f"/api/play/{key}", json={"action": last})
        assert state.status_code == 200, state.text
    assert state.json()["decision"] is None
    log = tmp_path / "game.jsonl"
    log.write_text(client.get(f"/api/play/{key}/log.jsonl").text)
    replayed = CliRunner().invoke(cli, ["replay", str(log)])
    # The CLI wraps its line at the terminal's width, a long temporary path and all.
    assert replayed.exit_code == 0 and "replays identically" in " ".join(replayed.output.split())
    whole = client.get(f"/api/play/{key}", params={"whole_log": "true"}).json()["log"]
    assert len(whole) == len(log.read_text().splitlines()) - 1  # every event but the header
    # A user review: the game over read "turn 4". The file plays three turns ([plan]
    # turns = 3), and the log's phases were those of turns 1 to 3.
    assert state.json()["turn"] == 3
    assert {event["turn"] for event in whole if event["kind"] == "phase"} == {1, 2, 3}


def test_the_favicon_is_served(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert 'href="/static/favicon.svg"' in client.get("/odds").text


def test_openapi_lists_the_api_paths(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/odds", "/api/units", "/api/lab", "/api/battle"} <= set(paths)
    docs = client.get("/docs").text
    assert "/static/docs.js" in docs and "http" not in docs.split("<main>")[1].split("openapi")[0]


def test_bounded_store_caps_and_expires() -> None:
    now = [0.0]
    store: BoundedStore[str] = BoundedStore(2, ttl=10, clock=lambda: now[0])
    first = store.add("a")
    store.add("b")
    store.add("c")
    assert store.get(first) is None and len(store) == 2
    now[0] = 11
    assert len(store) == 0
    busy: BoundedStore[str] = BoundedStore(1, ttl=10, evictable=lambda _: False)
    busy.add("running")
    with pytest.raises(StoreFullError):
        busy.add("another")


def test_chi2_survival_function_and_pooling() -> None:
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(18.307038053275146, 10) == pytest.approx(0.05, abs=1e-9)
    assert chi2_sf(1.0, 2) == pytest.approx(0.6065306597126334)
    chi2, dof, _ = pearson([50, 50, 0], [0.5, 0.5, 0.0])
    assert (chi2, dof) == (0.0, 1)


def test_engine_check_agrees_with_the_exact_odds(client: TestClient) -> None:
    question = {"ruleset": "core11", "attacker": "Intercessor Squad", "weapon": "Bolt Rifle",
                "profile": "Saturation", "target": "Termagants", "trials": 1000}  # fmt: skip
    check = client.post("/api/odds/check", json=question).json()
    assert check["matches"] and sum(check["observed"]) == 1000
    plain = client.post("/api/odds/check", json=PLAIN)
    assert plain.status_code == 422 and "library units" in plain.json()["error"]


def test_load_200_concurrent_odds_requests_on_loopback(server: str) -> None:
    expected = cli_json("odds", *PLAIN_FLAGS)
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    with httpx.Client(base_url=server, limits=limits, timeout=60) as session:

        def ask(_: int) -> tuple[int, object]:
            answer = session.post("/api/odds", json=PLAIN)
            return answer.status_code, answer.json()

        with ThreadPoolExecutor(max_workers=200) as pool:
            answers = list(pool.map(ask, range(200)))
    assert all(status == 200 and body == expected for status, body in answers)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/battle", {"scenario": "guard_suppress_terminators.toml", "seed": -5}),
        ("/api/play", {"scenario": "guard_suppress_terminators.toml", "seed": -5}),
        ("/api/lab", {"scenario": "guard_suppress_terminators.toml", "rule": ["x"], "seed": -1}),
        ("/api/odds/check", {**PLAIN, "seed": -1}),
    ],
)
def test_api_refuses_a_negative_seed_as_the_cli_does(
    client: TestClient, path: str, body: dict[str, object]
) -> None:
    # Python's random.seed(-5) plays as seed 5: a negative seed would count one game twice.
    answer = client.post(path, json=body)
    assert answer.status_code == 422
    assert answer.json()["error"].startswith("seed: ")


def test_a_log_whose_replay_asks_an_unlogged_decision_says_which(
    client: TestClient, tmp_path: Path
) -> None:
    # A log of the Fiery Charge example played without the rule, its header then
    # switched to play with it: the replay reaches a fiery_charge decision the log
    # never answered, which the error names (as `hammerlab replay` does).
    from typer.testing import CliRunner

    from hammerlab.cli.app import app

    log = tmp_path / "fc.jsonl"
    scenario = EXAMPLES / "lab_fiery_charge_boyz.toml"
    made = CliRunner().invoke(app, ["battle", str(scenario), "--seed", "3", "--log-json", str(log)])
    assert made.exit_code == 0
    header, rest = log.read_text(encoding="utf-8").split("\n", 1)
    edited = json.loads(header)
    edited["rules"] = {"fiery_charge": "on"}
    upload = json.dumps(edited) + "\n" + rest
    answer = client.post("/api/battle/log", files={"file": ("fc.jsonl", upload.encode())})
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error.startswith("fc.jsonl: line ")
    assert (
        "does not replay as logged: the replay asks a decision the log does not answer: " in error
    )
    assert "fiery_charge (Fiery Charge, no Fiery Charge)" in error


def test_an_address_with_no_page_gets_a_page_in_a_browser_and_json_elsewhere(
    client: TestClient,
) -> None:
    # A web review: a browser opening /nope was shown the API's raw JSON.
    seen = client.get("/nope<b>", headers={"accept": "text/html,application/xhtml+xml"})
    assert seen.status_code == 404 and seen.headers["content-type"].startswith("text/html")
    assert "No page at /nope&lt;b&gt;" in seen.text and 'href="/odds"' in seen.text
    api = client.get("/api/nope", headers={"accept": "text/html"})
    assert api.status_code == 404 and api.json() == {"error": "Not Found"}
    assert client.get("/nope").json() == {"error": "Not Found"}  # a tool, not a browser


def test_a_game_names_its_scenario_as_the_list_of_scenarios_does(client: TestClient) -> None:
    # A review: a reopened game named its scenario by the file's name alone, which the
    # list (and the form) names by its path in the folder ("matchups/...").
    name = "matchups/boyz_vs_tactical.toml"
    assert name in client.get("/api/scenarios").json()["scenarios"]
    state = client.post("/api/play", json={"scenario": name}).json()
    assert state["scenario"] == name
    again = client.get(f"/api/play/{state['id']}", params={"whole_log": True}).json()
    assert (again["scenario"], again["seed"]) == (name, state["seed"])


def test_a_scenario_of_an_unknown_ruleset_is_refused_naming_the_field(tmp_path: Path) -> None:
    # A user review: an uploaded scenario with ruleset = "nosuch" was accepted, and the
    # lab page then failed reading that ruleset's options. The rulesets there are: Waffle
    # Edition and Core Rules 11th edition (docs/architecture.md), by name, sorted.
    text = (EXAMPLES / "guard_suppress_terminators.toml").read_text(encoding="utf-8")
    bad = text.replace('ruleset = "waffle"', 'ruleset = "nosuch"')
    assert bad != text
    problem = "ruleset: unknown ruleset 'nosuch'; known: core11, waffle"
    client = TestClient(create_app(tmp_path))
    refused = client.post("/api/upload", files={"file": ("nosuch.toml", bad.encode())})
    assert refused.status_code == 422
    assert refused.json() == {"error": f"nosuch.toml: {problem}"}
    # One of the server's own files is refused alike, by every request that names it.
    (tmp_path / "nosuch.toml").write_text(bad, encoding="utf-8")
    for answer in (
        client.get("/api/scenario", params={"scenario": "nosuch.toml"}),
        client.post("/api/battle", json={"scenario": "nosuch.toml"}),
        client.post("/api/lab", json={"scenario": "nosuch.toml", "rule": ["suppressive_fire"]}),
    ):
        assert answer.status_code == 422
        assert answer.json() == {"error": f"nosuch.toml: {problem}"}
    # And the CLI's lab, which said "unknown ruleset 'nosuch'", names the file and field.
    path = tmp_path / "nosuch.toml"
    result = CliRunner().invoke(cli, ["lab", str(path), "--rule", "suppressive_fire"])
    assert result.exit_code != 0
    assert result.stderr.strip() == f"error: {path}: {problem}"


def test_a_battle_names_the_offered_scenario_and_seed_the_viewer_s_form_shows(
    client: TestClient, battle_log: str
) -> None:
    # A user review: the viewer's form showed another scenario than the battle on view.
    # The log: marines_vs_orks_ruins.toml played with seed 7 (the fixture).
    played = client.post("/api/battle", json={"scenario": "marines_vs_orks_ruins.toml", "seed": 7})
    opened = client.post("/api/battle/log", files={"file": ("b.jsonl", battle_log.encode())})
    for view in (played.json(), opened.json()):
        assert (view["scenario"], view["seed"]) == ("marines_vs_orks_ruins.toml", 7)
    # A log of a scenario the server does not offer (the same one, renamed) is named as
    # no offered file, by its own name.
    header, rest = battle_log.split("\n", 1)
    recipe = json.loads(header)
    recipe["scenario"]["name"] = "Renamed ruins"
    other = json.dumps(recipe) + "\n" + rest
    view = client.post("/api/battle/log", files={"file": ("o.jsonl", other.encode())}).json()
    assert (view["scenario"], view["scenario_name"], view["seed"]) == (None, "Renamed ruins", 7)


def _cli_log(tmp_path: Path, *args: str) -> tuple[str, str]:
    """What ``hammerlab battle ARGS --log-json FILE`` prints, and the log it writes."""
    log = tmp_path / "cli.jsonl"
    ran = CliRunner().invoke(cli, ["battle", *args, "--log-json", str(log)])
    assert ran.exit_code == 0, ran.output
    return ran.stdout, log.read_text(encoding="utf-8")


def test_a_log_played_with_rule_options_names_them_and_plays_again_with_them(
    client: TestClient, tmp_path: Path
) -> None:
    # A user review: a log played with --rule was shown as if played without it, and the
    # form's "Run battle" (no rule) played another battle (4/5 Intercessors left, not 5/5).
    scenario = "core11_normal_shooting.toml"
    flag = "cover_effect=improve_save"
    _, log = _cli_log(tmp_path, str(EXAMPLES / scenario), "--seed", "4", "--rule", flag)
    view = client.post("/api/battle/log", files={"file": ("r.jsonl", log.encode())}).json()
    assert view["rule"] == [flag]
    assert f"seed 4, rules {flag}" in view["title"]
    body = {"scenario": view["scenario"], "seed": view["seed"], "rule": view["rule"]}
    again = client.post("/api/battle", json=body).json()
    assert again["events"] == view["events"] and again["rule"] == [flag]
    plain = client.post("/api/battle", json={"scenario": scenario, "seed": 4}).json()
    assert plain["events"] != view["events"]  # the rule changes this battle
    assert plain["rule"] == [] and "rules" not in plain["title"]


def test_a_log_stopped_early_reads_as_stopped_not_as_a_draw(
    client: TestClient, tmp_path: Path
) -> None:
    # A user review: a log of --stop-after 1 ended "...: a draw", the game 2/3 unplayed.
    # Seed 1: no kill point scored in turn 1 (seed 3 until session 23's order of fire,
    # whose first volley now slays a unit there).
    scenario = str(EXAMPLES / "whole_game_three_turns.toml")
    printed, log = _cli_log(tmp_path, scenario, "--seed", "1", "--stop-after", "1")
    view = client.post("/api/battle/log", files={"file": ("s.jsonl", log.encode())}).json()
    # Stopped after turn 1: before turn 2, as the CLI says.
    assert "Stopped before turn 2" in printed
    assert view["stopped_before_turn"] == 2
    assert view["title"].endswith("seed 1, stopped before turn 2")
    assert view["summary"] == printed.rstrip("\n").splitlines()[-len(view["summary"]) :]
    assert view["summary"][-1].endswith(": level")
    whole = client.post("/api/battle", json={"scenario": "whole_game_three_turns.toml", "seed": 1})
    assert whole.json()["stopped_before_turn"] is None


def test_a_log_stopped_early_plays_again_to_the_same_stop(
    client: TestClient, tmp_path: Path
) -> None:
    # A lead of session 21: the viewer's "Run battle" played a log of --stop-after 1 to
    # its end, the request having no stop. The log's own events are the expected ones.
    scenario = "whole_game_three_turns.toml"
    _, log = _cli_log(tmp_path, str(EXAMPLES / scenario), "--seed", "3", "--stop-after", "1")
    logged = [json.loads(line) for line in log.splitlines()[1:]]
    view = client.post("/api/battle/log", files={"file": ("s.jsonl", log.encode())}).json()
    assert view["stop_after"] == 1
    body = {"scenario": scenario, "seed": 3, "rule": [], "stop-after": view["stop_after"]}
    again = client.post("/api/battle", json=body).json()
    assert [{k: v for k, v in e.items() if k != "text"} for e in again["events"]] == logged
    assert (again["stopped_before_turn"], again["stop_after"]) == (2, 1)
    assert again["title"].endswith("seed 3, stopped before turn 2")
    whole = client.post("/api/battle", json={"scenario": scenario, "seed": 3}).json()
    assert (whole["stopped_before_turn"], whole["stop_after"]) == (None, None)


@pytest.mark.parametrize(
    ("sent", "problem"),
    [
        (0, "a game turn to stop after is a whole number, 1 or more, not 0"),
        (-2, "a game turn to stop after is a whole number, 1 or more, not -2"),
        ("two", "a game turn to stop after is a whole number, 1 or more, not text"),
        (1.5, "a game turn to stop after is a whole number, 1 or more, not 1.5"),
        # The scenario's turns = 3, as `battle --stop-after 4` says it.
        (4, "whole_game_three_turns.toml plays 3 game turn(s); give 1 to 3, not 4"),
    ],
)
def test_api_refuses_a_stop_after_that_is_no_turn_to_play_in_one_message(
    client: TestClient, sent: object, problem: str
) -> None:
    # Named as it was sent, each spelling (a web review: a turn past the scenario's was
    # "stop-after: ..." when "stop_after" was sent).
    for field in ("stop-after", "stop_after"):
        body = {"scenario": "whole_game_three_turns.toml", "seed": 3, field: sent}
        answer = client.post("/api/battle", json=body)
        assert answer.status_code == 422
        assert answer.json() == {"error": f"{field}: {problem}"}


# --- costly work: a few at once, each stopped at its time limit ------------------------

BUSY = (
    "the server is busy: it runs 1 at most at once of its battles, games, replays, engine "
    "checks and lab jobs; try again when one ends"
)
CHECK = {"ruleset": "core11", "attacker": "Intercessor Squad", "weapon": "Bolt Rifle",
         "profile": "Saturation", "target": "Termagants", "trials": 100}  # fmt: skip


def _costly_requests(client: TestClient, log: str) -> dict[str, httpx.Response]:
    """One request to each endpoint that plays the engine at length (a hostile-input
    review: a 60-unit battle cost 46 s of CPU, and three at once were all taken)."""
    scenario = "guard_suppress_terminators.toml"
    lab = {"scenario": scenario, "rule": ["suppressive_fire"], "runs": 2}
    return {
        "battle": client.post("/api/battle", json={"scenario": scenario, "seed": 1}),
        "log": client.post("/api/battle/log", files={"file": ("b.jsonl", log.encode())}),
        "play": client.post("/api/play", json={"scenario": scenario, "side": "Ultramarines"}),
        "check": client.post("/api/odds/check", json=CHECK),
        "lab": client.post("/api/lab", json=lab),
    }


def test_costly_requests_share_the_lab_s_slots_and_a_busy_server_says_so(
    battle_log: str,
) -> None:
    # One slot, held by work already running (as a lab job holds it): every costly
    # request is 429, the lab's too; what costs little is still answered.
    app = create_app(EXAMPLES, work_slots=1)
    client = TestClient(app)
    with app.state.work.begin("work already running", ""):
        refused = _costly_requests(client, battle_log)
        assert {name: r.status_code for name, r in refused.items()} == dict.fromkeys(refused, 429)
        assert all(r.json() == {"error": BUSY} for r in refused.values())
        assert client.post("/api/odds", json=PLAIN).status_code == 200
    assert app.state.work.running == 0
    played = client.post("/api/battle", json={"scenario": "guard_suppress_terminators.toml"})
    assert played.status_code == 200 and played.json()["events"]
    assert app.state.work.running == 0  # the slot is given back after the answer


def test_costly_requests_stop_at_the_time_limit_and_say_which(battle_log: str) -> None:
    # A limit of 0 s: each piece of work stops at its first check (a battle's first
    # event, an engine check's first volley, a lab job's first battles), the client
    # told which limit stopped it, and its slot is given back.
    app = create_app(EXAMPLES, work_seconds=0)
    client = TestClient(app)
    answers = _costly_requests(client, battle_log)
    stopped = "was stopped after 0 s, the server's time limit: "
    expected = {
        "battle": f"the battle {stopped}play a smaller scenario or fewer turns, "
        "or run hammerlab battle",
        "log": f"the log's replay {stopped}play a smaller scenario or fewer turns, "
        "or run hammerlab battle",
        "play": f"the AI's play {stopped}the game is given up; play a smaller scenario",
        "check": f"the engine check {stopped}ask for fewer trials",
    }
    for name, error in expected.items():
        assert (answers[name].status_code, answers[name].json()) == (503, {"error": error})
    assert answers["lab"].status_code == 202
    key = answers["lab"].json()["id"]
    deadline = time.monotonic() + 60
    while (job := client.get(f"/api/lab/{key}").json())["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert (job["state"], job["error"]) == ("failed", f"the lab job {stopped}ask for fewer runs")
    assert app.state.work.running == 0


def test_a_game_whose_ai_turn_is_stopped_is_forgotten() -> None:
    # Stopped inside the AI's turn, the game would offer the AI's actions as the
    # person's: it is given up, and says so.
    app = create_app(EXAMPLES)
    client = TestClient(app)
    state = client.post("/api/play", json={"scenario": "whole_game_three_turns.toml", "seed": 3})
    key = state.json()["id"]
    app.state.work.seconds = 0  # the limit from now on
    last = len(state.json()["actions"]) - 1  # end the phase: the AI plays on
    stopped = client.post(f"/api/play/{key}", json={"action": last})
    assert stopped.status_code == 503
    assert stopped.json()["error"].startswith("the AI's play was stopped after 0 s")
    assert client.get(f"/api/play/{key}").status_code == 404
    assert app.state.work.running == 0


def test_work_slots_and_time_limit_on_a_fake_clock() -> None:
    now = [100.0]
    work = Work(slots=2, seconds=10, clock=lambda: now[0])
    first = work.begin("the battle", "play less")
    second = work.begin("the lab job", "ask for fewer runs")
    with pytest.raises(WebError) as busy:
        work.begin("a third", "")
    assert busy.value.status == 429 and work.running == 2
    now[0] = 109.9
    first.check()  # within its time
    now[0] = 110.0
    with pytest.raises(TimeLimitError) as stopped:
        first.check()
    assert str(stopped.value) == (
        "the battle was stopped after 10 s, the server's time limit: play less"
    )
    first.end()
    first.end()  # once only: the slot is not given back twice
    first.check()  # an ended ticket stops nothing (a game outlives its request)
    assert work.running == 1
    with second:
        pass
    assert work.running == 0


def test_a_watched_game_is_stopped_at_an_event_and_let_go_at_the_end() -> None:
    now = [0.0]
    work = Work(slots=1, seconds=5, clock=lambda: now[0])
    game = Game.start(load_scenario(EXAMPLES / "whole_game_three_turns.toml"), "s.toml", 3)
    ticket = work.begin("the battle", "play less")
    ticket.watch(game)
    game.step()  # within its time
    now[0] = 5.0
    before = len(game.battle.log.events)
    with pytest.raises(TimeLimitError):
        game.step()
    assert len(game.battle.log.events) == before + 1  # stopped at the first event
    ticket.end()
    game.play()  # no longer watched: plays to its end
    assert game.is_over


def test_an_upload_is_parsed_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Up to 8 MB of XML or TOML parsed on the event loop held every other request
    (a hostile-input review); the parser now runs where no event loop runs."""
    seen: list[bool] = []
    read = services.read_upload

    def watched(name: str, data: bytes) -> services.Upload:
        try:
            asyncio.get_running_loop()
            seen.append(True)
        except RuntimeError:
            seen.append(False)
        return read(name, data)

    monkeypatch.setattr(services, "read_upload", watched)
    text = (EXAMPLES / "guard_suppress_terminators.toml").read_bytes()
    answer = client.post("/api/upload", files={"file": ("g.toml", text)})
    assert answer.status_code == 200, answer.text
    assert seen == [False]
