"""The web app: server-rendered pages, a little plain JavaScript and a JSON API.

``create_app`` builds a FastAPI application. The pages (``templates/``) load
only what ``static/`` serves — no CDN, no build step; charts and the battlefield
are inline SVG drawn by ``static/*.js``. The API under ``/api/`` answers with
the same JSON as the CLI's ``--json`` (it calls the same functions). Limits:
request bodies are capped before they are read whole (413), requests are
checked by pydantic models that refuse unknown keys (422), costly work (battles,
replays, games, engine checks, lab jobs) runs a few at once (429 beyond) and is
stopped at its time limit (503), and every error is one JSON message, never a
stack trace.
"""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from hammerlab.analysis.lab import FlagError
from hammerlab.analysis.odds import QuestionError
from hammerlab.editions.plugins import load_plugin_files
from hammerlab.engine.rules import RuleSettingError
from hammerlab.errors import MAX_DIGITS, HammerlabError, long_number, long_number_problem
from hammerlab.io.files import size_words
from hammerlab.io.scenario import Scenario
from hammerlab.web import services
from hammerlab.web.routes import (
    add_battle_routes,
    add_lab_routes,
    add_odds_routes,
    add_pages,
    add_play_routes,
)
from hammerlab.web.schemas import OddsRequest
from hammerlab.web.services import (
    WORK_RUNNING,
    WORK_SECONDS,
    LabJob,
    Scenarios,
    Seat,
    TimeLimitError,
    Upload,
    WebError,
    Work,
)
from hammerlab.web.store import BoundedStore, StoreFullError

log = logging.getLogger(__name__)
HERE = Path(__file__).parent
MAX_JSON_BYTES = 256 * 1024
"""Any request body but an upload."""
MAX_BODY_BYTES = services.MAX_UPLOAD_BYTES + 64 * 1024
"""An upload's body: the file and its multipart framing."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a request body over its limit is answered 413 before the
    app reads it (by its Content-Length, or by counting as it arrives); a JSON body
    holding a whole number of more digits than any file or flag may have, 422
    naming its field (:func:`_long_number`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        limit = (
            MAX_BODY_BYTES if path.endswith("/upload") or path.endswith("/log") else MAX_JSON_BYTES
        )
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _too_large(send, limit)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _too_large(send, limit)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body"))
        body = b"".join(chunks)
        problem = _long_number(body) if limit == MAX_JSON_BYTES else None
        if problem is not None:
            await _refuse(send, 422, problem)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _too_large(send: Send, limit: int) -> None:
    """413: for a file sent (a body of up to :data:`MAX_BODY_BYTES`), the file's own
    limit, which the user chose the file by; for any other request, the body's."""
    if limit == MAX_BODY_BYTES:
        problem = f"the file is larger than {size_words(services.MAX_UPLOAD_BYTES)}"
    else:
        problem = f"request body larger than {limit // 1024} KB"
    await _refuse(send, 413, problem)


async def _refuse(send: Send, status: int, problem: str) -> None:
    """Answer ``status`` with ``problem`` as every error is answered, from the middleware."""
    response = JSONResponse({"error": problem}, status_code=status)
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})


class _Long:
    """A number with a run of more than :data:`~hammerlab.errors.MAX_DIGITS` digits, as
    :func:`_long_number` reads it: the run's length, not its value."""

    def __init__(self, length: int) -> None:
        self.length = length


def _read_number(written: str, convert: Callable[[str], object]) -> object:
    """A JSON number as ``convert`` reads it, or a :class:`_Long` for one too long."""
    longest = max(len(run) for run in re.findall(r"\d+", written))
    return _Long(longest) if longest > MAX_DIGITS else convert(written)


def _long_number(body: bytes) -> str | None:
    """What is wrong with a JSON body holding a number with a run of more than
    :data:`~hammerlab.errors.MAX_DIGITS` digits, naming its field as the CLI names
    its flag (``seed: a number of 5,000 digits (at most 100 are read)``); ``None``
    for any other body, which the app reads and checks as before. Python's decoder
    refuses more than 4,300 digits with a ``ValueError`` FastAPI turned into "There
    was an error parsing the body", and read fewer as a seed the CLI refuses."""
    if long_number(body.decode("utf-8", errors="replace")) is None:
        return None  # a long run in a string is no number: the parse below tells
    try:
        data = json.loads(
            body,
            parse_int=lambda written: _read_number(written, int),
            parse_float=lambda written: _read_number(written, float),
        )
        found = _first_long(data, ())
    except (ValueError, RecursionError):
        return None  # the app says why (not UTF-8, nested too deep, not JSON)
    if found is None:
        return None
    where, number = found
    return f"{'.'.join(where) or 'request body'}: {long_number_problem(number.length)}"


def _first_long(data: object, where: tuple[str, ...]) -> tuple[tuple[str, ...], _Long] | None:
    """The first :class:`_Long` in ``data`` and the keys (and list places) to it."""
    if isinstance(data, _Long):
        return where, data
    items: Iterable[tuple[object, object]] = ()
    if isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    for key, value in items:
        found = _first_long(value, (*where, str(key)))
        if found is not None:
            return found
    return None


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _validation_message(error: RequestValidationError, content_type: str = "") -> str:
    """A refused request in one line: each field and its problem (five at most), or
    where the body is not JSON, or, for a body FastAPI did not read as JSON because it
    was sent as another type (a form, plain text), that it must be sent as JSON."""
    whole_body = [item for item in error.errors() if tuple(item.get("loc", ())) == ("body",)]
    if whole_body and "json" not in content_type.lower():
        sent = content_type.split(";", maxsplit=1)[0].strip() or "no type"
        return f"request body: send it as JSON (Content-Type: application/json), not {sent}"
    parts = []
    for item in error.errors()[:5]:
        if item.get("type") == "json_invalid":
            return _json_message(error.body, item)
        where = ".".join(str(p) for p in item.get("loc", ()) if p != "body") or "request body"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def _a_page_asked(request: Request) -> bool:
    """Whether a browser asked for a page (not the API, not a file the pages load)."""
    path = request.url.path
    wants_html = "text/html" in request.headers.get("accept", "")
    return wants_html and not path.startswith(("/api/", "/static/"))


def _no_page(path: str) -> str:
    """A page for an address that has none, with links to those there are (a web review:
    a browser showed the API's ``{"error": "Not Found"}``)."""
    links = " · ".join(f'<a href="/{name}">{name.title()}</a>' for name in PAGES)
    return (
        "<!DOCTYPE html><html lang=en><meta charset=utf-8><title>No such page</title>"
        '<link rel=stylesheet href="/static/style.css"><main>'
        f"<h1>No page at {html.escape(path)}</h1><p>The pages: {links}.</p></main></html>"
    )


PAGES = ("odds", "lab", "viewer", "play")
"""The pages a browser may open (``/docs`` describes the API)."""


def _body_problem(cause: BaseException | None) -> str | None:
    """What is wrong with a request body FastAPI could not read as JSON at all (it says
    only "There was an error parsing the body", keeping the reason as the cause)."""
    if isinstance(cause, UnicodeDecodeError):
        return f"request body: not UTF-8 text (byte {cause.start + 1} cannot be read)"
    if isinstance(cause, RecursionError):
        return "request body: JSON nested too deep"
    return None


def _json_message(body: Any, item: dict[str, Any]) -> str:
    """Where a body that is not JSON goes wrong (FastAPI gives the character's offset)."""
    position = item["loc"][-1]
    problem = item.get("ctx", {}).get("error", "not JSON")
    if isinstance(body, str) and isinstance(position, int):
        where = json.JSONDecodeError(problem, body, position)  # counts lines and columns
        return f"request body: invalid JSON at line {where.lineno}, column {where.colno}: {problem}"
    return f"request body: invalid JSON: {problem}"


def install_error_handlers(app: FastAPI) -> None:
    """Every error ``app`` meets answered as one JSON message (an address with no page,
    asked by a browser, as a page), never a stack trace."""

    @app.exception_handler(HammerlabError)
    async def hammerlab_error(request: Request, error: HammerlabError) -> JSONResponse:
        status = error.status if isinstance(error, WebError) else 422
        return _error(status, str(error))

    @app.exception_handler(QuestionError)
    async def odds_error(request: Request, error: QuestionError) -> JSONResponse:
        return _error(422, OddsRequest.fields_named(str(error)))

    @app.exception_handler(RuleSettingError)
    async def rule_error(request: Request, error: RuleSettingError) -> JSONResponse:
        """Named by the request's field (``rule``, ``set``), as every web error is, not
        by the CLI's flag (a hostile-input review read ``--rule:`` from the API)."""
        flag = error.flag if isinstance(error, FlagError) else "--rule"  # or the lab's --set
        return _error(422, f"{flag.removeprefix('--')}: {error}")

    @app.exception_handler(StoreFullError)
    async def store_full(request: Request, error: StoreFullError) -> JSONResponse:
        return _error(429, str(error))

    @app.exception_handler(TimeLimitError)
    async def time_limit(request: Request, error: TimeLimitError) -> JSONResponse:
        return _error(503, str(error))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(422, _validation_message(error, request.headers.get("content-type", "")))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(
        request: Request, error: StarletteHTTPException
    ) -> JSONResponse | HTMLResponse:
        if error.status_code == 404 and _a_page_asked(request):
            return HTMLResponse(_no_page(request.url.path), status_code=404)
        return _error(error.status_code, _body_problem(error.__cause__) or str(error.detail))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error on %s", request.url.path)
        return _error(500, "internal error (see the server's log)")


def create_app(
    scenario_folder: Path | None = None,
    plugins: tuple[Path, ...] = (),
    work_slots: int = WORK_RUNNING,
    work_seconds: float = WORK_SECONDS,
) -> FastAPI:
    """The web app; ``scenario_folder`` holds the scenarios it offers, ``plugins``
    are rule plug-in files loaded now (their rules join the rulesets' options).
    Costly work runs ``work_slots`` at a time, each stopped after ``work_seconds``
    (:class:`~hammerlab.web.services.Work`, kept as ``app.state.work``)."""
    loaded = load_plugin_files(plugins)
    plugin_paths = [p.path for p in loaded]

    def plugins_for(spec: Scenario) -> list[str]:
        """The files of ``loaded`` for ``spec``'s ruleset: those a game of it plays
        with, and records (its saved game and log name them)."""
        return [p.path for p in loaded if p.ruleset == spec.ruleset]

    app = FastAPI(
        title="hammerlab",
        summary="Exact odds, the rules lab, battles and games of hammerlab",
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.add_middleware(BodyLimit)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")
    uploads: BoundedStore[Upload] = BoundedStore(capacity=32, ttl=3600)
    scenarios = Scenarios(scenario_folder, uploads)
    jobs: BoundedStore[LabJob] = BoundedStore(
        capacity=32, ttl=3600, evictable=lambda job: job.state != "running"
    )
    seats: BoundedStore[Seat] = BoundedStore(capacity=16, ttl=1800)
    work = Work(work_slots, work_seconds)
    app.state.work = work

    install_error_handlers(app)
    add_pages(app, templates)
    add_odds_routes(app, uploads, work)
    add_lab_routes(app, scenarios, jobs, work, plugin_paths)
    add_battle_routes(app, scenarios, work, plugins_for)
    add_play_routes(app, scenarios, seats, work, plugins_for)
    return app
