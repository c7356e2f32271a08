"""The web app's routes, one function a family (the pages; the odds; the scenarios and
the rules lab; battles; games against the AI), each registering its routes on the app
:func:`~hammerlab.web.app.create_app` builds and giving them the stores they share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI, File, Query, Request, UploadFile
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from hammerlab.analysis.game import Game
from hammerlab.analysis.odds import OddsResult, calculator, calculator_names
from hammerlab.analysis.odds_check import check_odds
from hammerlab.analysis.odds_request import answer, check_ruleset
from hammerlab.editions import get_ruleset, ruleset_names
from hammerlab.editions.base import describe_ruleset
from hammerlab.engine.datasheet import Datasheet
from hammerlab.io.files import size_words
from hammerlab.io.scenario import Scenario
from hammerlab.web import services
from hammerlab.web.schemas import (
    ActionRequest,
    BattleRequest,
    LabRequest,
    OddsCheckRequest,
    OddsRequest,
    PlayRequest,
)
from hammerlab.web.services import LabJob, Scenarios, Seat, TimeLimitError, Upload, WebError, Work
from hammerlab.web.store import BoundedStore

MAX_UNITS_LISTED = 300
BATTLE_ADVICE = "play a smaller scenario or fewer turns, or run hammerlab battle"
GAME_ADVICE = "the game is given up; play a smaller scenario"


def add_pages(app: FastAPI, templates: Jinja2Templates) -> None:
    """The pages (rendered from ``templates``) and the icon browsers look for."""

    def page(name: str, title: str) -> Callable[[Request], HTMLResponse]:
        def show(request: Request) -> HTMLResponse:
            context = {"title": title, "page": name, "rulesets": calculator_names()}
            return templates.TemplateResponse(request, f"{name}.html", context)

        show.__name__ = f"page_{name}"
        show.__doc__ = f"The {title} page."
        return show

    for route, name, title in (
        ("/", "index", "hammerlab"),
        ("/odds", "odds", "Exact odds"),
        ("/lab", "lab", "Rules lab"),
        ("/viewer", "viewer", "Battle viewer"),
        ("/play", "play", "Play against the AI"),
        ("/docs", "docs", "API"),
    ):
        app.get(route, response_class=HTMLResponse, include_in_schema=False)(page(name, title))

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> RedirectResponse:
        """The icon where browsers look for it unasked (the pages link it)."""
        return RedirectResponse("/static/favicon.svg", 301)


def add_odds_routes(app: FastAPI, uploads: BoundedStore[Upload], work: Work) -> None:
    """Exact odds and their engine check, the units and weapons they ask about, and
    the files uploaded to ask about (kept in ``uploads``)."""

    def uploaded(upload: str | None) -> Upload:
        """The BattleScribe file uploaded as ``upload`` (none: an upload of no units)."""
        if upload is None:
            return Upload("")
        found = uploads.get(upload)
        if found is None or not found.datasheets:
            raise WebError("no such uploaded BattleScribe file (uploads are kept for an hour)", 404)
        return found

    def uploaded_units(upload: str | None, ruleset: str) -> tuple[Datasheet, ...]:
        """The units of the BattleScribe file uploaded as ``upload``, refused under a
        ``ruleset`` they are not for, in the words of ``/api/odds``."""
        units = uploaded(upload).datasheets
        check_ruleset(ruleset, units)
        return units

    def asked(question: OddsRequest) -> OddsResult:
        """The exact odds ``question`` asks, its uploaded units refused where they cannot
        be played (as ``hammerlab odds --from`` refuses them)."""
        found = uploaded(question.upload)
        return answer(question.ask(), found.datasheets, found.refused)

    @app.post("/api/odds")
    def odds(question: OddsRequest) -> dict[str, Any]:
        """Exact odds: the same JSON as ``hammerlab odds ... --json`` for the same flags."""
        return asked(question).to_dict()

    @app.post("/api/odds/check")
    def odds_check(question: OddsCheckRequest) -> dict[str, Any]:
        """The exact distribution against ``trials`` volleys of the real engine (χ² test)."""
        ask, found = question.ask(), uploaded(question.upload)
        exact = answer(ask, found.datasheets, found.refused)  # the upload's ruleset checked
        with work.begin("the engine check", "ask for fewer trials") as ticket:
            check = check_odds(
                ask, exact, question.trials, question.seed, found.datasheets, ticket.check
            )
        return check.to_dict()

    @app.get("/api/situations")
    def situations() -> dict[str, dict[str, str]]:
        """Each edition's situation names (``--situation``) and what they mean."""
        return {name: dict(calculator(name).situations) for name in calculator_names()}

    @app.get("/api/units")
    def units(
        ruleset: Annotated[str, Query(max_length=20)] = "waffle",
        query: Annotated[str, Query(max_length=100)] = "",
        army: Annotated[str, Query(max_length=100)] = "",
        upload: Annotated[str | None, Query(max_length=40)] = None,
    ) -> dict[str, Any]:
        """Unit names like ``hammerlab units``: the library's, or an uploaded file's."""
        listed = uploaded_units(upload, ruleset)
        if upload is not None:
            wanted = query.casefold()
            names = [s.name for s in listed if wanted in s.name.casefold()]
        else:
            names = get_ruleset(ruleset).unit_names(query, army)
        return {"units": names[:MAX_UNITS_LISTED], "more": max(0, len(names) - MAX_UNITS_LISTED)}

    @app.get("/api/weapons")
    def weapons(
        unit: Annotated[str, Query(max_length=200)],
        ruleset: Annotated[str, Query(max_length=20)] = "waffle",
        upload: Annotated[str | None, Query(max_length=40)] = None,
    ) -> dict[str, Any]:
        """The weapons of one unit, with their characteristics and how the odds take
        each (``odds``: ``ok``, ``melee``, never asked, or the field it needs besides,
        ``hits``)."""
        sheets = {s.name.casefold(): s for s in uploaded_units(upload, ruleset)}
        sheet = sheets.get(unit.casefold()) or get_ruleset(ruleset).find_unit(unit)
        fit = calculator(sheet.edition).weapon_fit
        return {
            "unit": sheet.name,
            "edition": sheet.edition,
            "weapons": [
                {"name": w.name, "characteristics": dict(w.characteristics), "odds": fit(w)}
                for w in sheet.weapons()
            ],
        }

    @app.post("/api/upload")
    async def upload(file: Annotated[UploadFile, File()]) -> dict[str, Any]:
        """A BattleScribe file (``.cat .gst .ros .rosz``) or a scenario (``.toml``), parsed
        in memory; its id names it in later requests for an hour."""
        data = await file.read(services.MAX_UPLOAD_BYTES + 1)
        # Parsed in a worker thread: up to 8 MB of XML or TOML would hold the event
        # loop, and every other request with it, for as long as it takes.
        parsed = await run_in_threadpool(services.read_upload, file.filename or "upload", data)
        key = uploads.add(parsed)
        return {
            "id": key,
            "name": parsed.name,
            "kind": "scenario" if parsed.scenario is not None else "battlescribe",
            "units": [s.name for s in parsed.datasheets],
            "edition": parsed.datasheets[0].edition if parsed.datasheets else None,
            "scenario": None if parsed.scenario is None else parsed.scenario.name,
            "notes": list(parsed.notes),
        }


def add_lab_routes(
    app: FastAPI,
    scenarios: Scenarios,
    jobs: BoundedStore[LabJob],
    work: Work,
    plugin_paths: list[str],
) -> None:
    """The scenarios offered, and the rules lab's jobs on them (kept in ``jobs``)."""

    @app.get("/api/scenarios")
    def scenario_list() -> dict[str, Any]:
        """The scenario files the server offers, and every ruleset's rules (``rulesets --json``)."""
        return {
            "scenarios": scenarios.names(),
            "rulesets": {n: describe_ruleset(get_ruleset(n)) for n in ruleset_names()},
        }

    @app.get("/api/scenario")
    def scenario_info(
        scenario: Annotated[str | None, Query(max_length=200)] = None,
        upload: Annotated[str | None, Query(max_length=40)] = None,
    ) -> dict[str, Any]:
        """One scenario: its name, ruleset, players, and its rule settings."""
        spec, _ = scenarios.get(scenario, upload)
        return {
            "name": spec.name,
            "description": spec.description,
            "ruleset": spec.ruleset,
            "players": [p.name for p in spec.players],
            "rules": spec.rules,
        }

    @app.post("/api/lab", status_code=202)
    def lab(request: LabRequest) -> dict[str, Any]:
        """Start ``hammerlab lab`` as a job; poll ``GET /api/lab/{id}`` (which says what
        was asked, for a page reopened on the job)."""
        spec, source = scenarios.get(request.scenario, request.upload)
        key = services.start_lab(
            jobs, work, spec, source, request.rule, request.set, request.runs, request.seed,
            plugin_paths, request.model_dump(),
        )  # fmt: skip
        job = jobs.get(key)
        assert job is not None
        return job.to_dict(key)

    def job_of(key: str) -> LabJob:
        job = jobs.get(key)
        if job is None:
            raise WebError("no such lab job (jobs are kept for an hour)", 404)
        return job

    @app.get("/api/lab/{key}")
    def lab_job(key: str) -> dict[str, Any]:
        """A lab job: what was asked, its progress, then the report (the JSON of
        ``hammerlab lab --json``)."""
        return job_of(key).to_dict(key)

    @app.get("/api/lab/{key}/report.{form}")
    def lab_report(key: str, form: str) -> Response:
        """The finished report as a download: ``json``, ``csv`` or ``html``."""
        report = job_of(key).report
        if report is None:
            raise WebError("the job has no report (yet)", 409)
        disposition = {"Content-Disposition": f'attachment; filename="lab-report.{form}"'}
        if form == "json":
            return JSONResponse(report.to_dict(), headers=disposition)
        if form == "csv":
            return PlainTextResponse(
                services.report_csv(report), media_type="text/csv", headers=disposition
            )
        if form == "html":
            from hammerlab.analysis.report import lab_report_html

            return HTMLResponse(lab_report_html(report), headers=disposition)
        raise WebError("report.json, report.csv or report.html", 404)


def add_battle_routes(
    app: FastAPI, scenarios: Scenarios, work: Work, plugins_for: Callable[[Scenario], list[str]]
) -> None:
    """A battle of the AI against itself, and a log replayed and checked."""

    @app.post("/api/battle")
    def battle(request: BattleRequest) -> dict[str, Any]:
        """Play a scenario with the AI on both sides (to the end, or to the end of game
        turn ``stop-after``): the table at the start, every event (the JSON Lines of
        ``--log-json``, with each line's text) and the summary."""
        spec, source = scenarios.get(request.scenario, request.upload)
        settings = services.rule_settings(request.rule)
        where = request.offered or source
        stop = services.stop_before(request.stop_after, spec, where, request.stop_after_as)
        with work.begin("the battle", BATTLE_ADVICE) as ticket:
            game = Game.start(
                spec, source, request.seed, settings, plugins_for(spec), stop_before_turn=stop
            )
            ticket.watch(game)
            return services.played_view(game, request.offered)

    @app.post("/api/battle/log")
    async def battle_log(file: Annotated[UploadFile, File()]) -> dict[str, Any]:
        """A JSON Lines log written by ``hammerlab battle --log-json``, replayed and checked."""
        data = await file.read(services.MAX_UPLOAD_BYTES + 1)
        if len(data) > services.MAX_UPLOAD_BYTES:
            raise WebError(f"the log is larger than {size_words(services.MAX_UPLOAD_BYTES)}", 413)
        name = services.upload_name(file.filename or "log.jsonl")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError(f"{name}: not UTF-8 text") from None
        with work.begin("the log's replay", BATTLE_ADVICE) as ticket:
            # In a worker thread, as the other costly endpoints run: replayed here, on
            # the event loop, it would hold up every other request until it ended.
            return await run_in_threadpool(services.log_view, text, name, scenarios, ticket)


def add_play_routes(
    app: FastAPI,
    scenarios: Scenarios,
    seats: BoundedStore[Seat],
    work: Work,
    plugins_for: Callable[[Scenario], list[str]],
) -> None:
    """A game against the AI, one seat a game (kept in ``seats``)."""

    def seat_of(key: str) -> Seat:
        seat = seats.get(key)
        if seat is None:
            raise WebError("no such game (games are kept for 30 minutes unused)", 404)
        return seat

    @app.post("/api/play")
    def play(request: PlayRequest) -> dict[str, Any]:
        """A new game against the AI; the state shows your legal actions."""
        spec, source = scenarios.get(request.scenario, request.upload)
        with work.begin("the AI's play", GAME_ADVICE) as ticket:
            seat = services.new_seat(
                spec, source, request.seed, request.side, request.rule, request.offered, ticket,
                plugins_for(spec),
            )  # fmt: skip
        key = seats.add(seat)
        with seat.lock:
            return services.seat_state(key, seat)

    @app.get("/api/play/{key}")
    def play_state(key: str, whole_log: bool = False) -> dict[str, Any]:
        """The game's state (log lines not yet sent, or all with ``whole_log``; your
        legal actions)."""
        seat = seat_of(key)
        with seat.lock:
            return services.seat_state(key, seat, whole_log)

    @app.get("/api/play/{key}/log.jsonl")
    def play_log(key: str) -> PlainTextResponse:
        """A finished game's log, as ``--log-json`` writes it (``hammerlab replay``)."""
        seat = seat_of(key)
        with seat.lock:
            text = services.seat_log(seat)
        disposition = {"Content-Disposition": f'attachment; filename="game-{key}.jsonl"'}
        return PlainTextResponse(text, media_type="application/x-ndjson", headers=disposition)

    @app.get("/api/play/{key}/game.json")
    def play_saved(key: str) -> PlainTextResponse:
        """The saved game, as ``--save`` writes it (``hammerlab battle --resume``)."""
        seat = seat_of(key)
        with seat.lock:
            text = seat.game.to_json() + "\n"
        disposition = {"Content-Disposition": f'attachment; filename="game-{key}.json"'}
        return PlainTextResponse(text, media_type="application/json", headers=disposition)

    @app.post("/api/play/{key}")
    def play_action(key: str, request: ActionRequest) -> dict[str, Any]:
        """Take one of your legal actions; the AI answers until it is your turn again.
        Stopped at the time limit, the game is left inside the AI's turn, where the
        page would offer the AI's actions as yours: it is forgotten."""
        seat = seat_of(key)
        with seat.lock:
            try:
                with work.begin("the AI's play", GAME_ADVICE) as ticket:
                    services.act(seat, request.action, request.step, ticket)
            except TimeLimitError:
                seats.discard(key)
                raise
            return services.seat_state(key, seat)
