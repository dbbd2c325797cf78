"""The ``tarockrl serve`` web app: one static page and a JSON API over :class:`~tarockrl.play.HumanSession`.

API (every error is a 4xx JSON answer ``{"error": "..."}`` and changes nothing):

========  ==============================  ===================================================================
method    path                            meaning
========  ==============================  ===================================================================
GET       ``/api/meta``                   the games (players) and the agent names
POST      ``/api/games``                  ``{"game", "seat", "opponents": [specs] or "spec", "seed"?}`` →
                                          201 ``{"id", "version", "view"}`` (agents already moved)
GET       ``/api/games/{id}``             ``{"id", "version", "view"}``
POST      ``/api/games/{id}/action``      ``{"seat", "action", "version"?}`` → the new ``{"id", "version",
                                          "view"}`` after the agents' replies; 409 for a move out of turn, an
                                          illegal action, a finished deal or a stale ``version``
GET       ``/api/games/{id}/hint``        ``{"action", "name"}`` from the hint agent
GET       ``/api/games/{id}/record``      the game record (JSON download)
========  ==============================  ===================================================================

Games live in memory: at most ``max_games`` at once, each dropped ``ttl`` seconds after its last use (and the
least recently used one when the store is full).
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import tarockrl
from tarockrl.errors import IllegalActionError, TarockError
from tarockrl.play.session import GAMES, HumanSession

__all__ = ["GameStore", "create_app", "serve"]

_STATIC = os.path.join(os.path.dirname(__file__), "static")
_MAX_BODY = 10_000


class ApiError(Exception):
    """A request the API refuses: an HTTP status and a message."""

    def __init__(self, status: int, message: str) -> None:
        """Keep the status and the message."""
        super().__init__(message)
        self.status = status
        self.message = message


class GameStore:
    """The running games by id: bounded (``max_games``), each expiring ``ttl`` seconds after its last use."""

    def __init__(self, max_games: int = 64, ttl: float = 3600.0) -> None:
        """An empty store."""
        self.max_games = int(max_games)
        self.ttl = float(ttl)
        self._games: OrderedDict[str, tuple[HumanSession, float, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def _expire(self, now: float) -> None:
        for gid in [g for g, (_, t, _) in self._games.items() if now - t > self.ttl]:
            del self._games[gid]

    def add(self, session: HumanSession) -> str:
        """Store a session under a new random id (dropping expired and, when full, the least recently used)."""
        gid = secrets.token_urlsafe(12)
        with self._lock:
            now = time.monotonic()
            self._expire(now)
            while len(self._games) >= self.max_games:
                self._games.popitem(last=False)
            self._games[gid] = (session, now, threading.Lock())
        return gid

    def get(self, gid: str) -> tuple[HumanSession, threading.Lock]:
        """The session and its lock; ``ApiError(404)`` for an unknown or expired id."""
        with self._lock:
            now = time.monotonic()
            self._expire(now)
            item = self._games.get(gid)
            if item is None:
                raise ApiError(404, f"no game with id {gid!r} (unknown or expired): start a new game")
            self._games[gid] = (item[0], now, item[2])
            self._games.move_to_end(gid)
            return item[0], item[2]


def _state_json(gid: str, session: HumanSession) -> dict[str, Any]:
    return {"id": gid, "version": len(session.log), "view": session.view()}


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > _MAX_BODY:
        raise ApiError(413, "request body too large")
    import json

    try:
        data = json.loads(raw or b"null")
    except ValueError as err:
        raise ApiError(400, f"the body is not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def _int_field(data: dict[str, Any], key: str, default: Any = ..., lo: int = 0, hi: int = 2**62) -> int:
    if key not in data:
        if default is ...:
            raise ApiError(400, f"missing field {key!r}")
        return default
    v = data[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ApiError(400, f"field {key!r} must be an integer in {lo}..{hi}, got {v!r}")
    return v


def create_app(max_games: int = 64, ttl: float = 3600.0) -> Starlette:
    """The ASGI app (a fresh game store)."""
    store = GameStore(max_games, ttl)

    async def index(request: Request):
        return FileResponse(os.path.join(_STATIC, "index.html"))

    async def meta(request: Request):
        from tarockrl.agents import known_agents

        games = {g: {"players": tarockrl.make_game(g).num_players} for g in GAMES}
        return JSONResponse({"games": games, "agents": known_agents()})

    async def create(request: Request):
        data = await _body(request)
        game = data.get("game")
        if game not in GAMES:
            raise ApiError(400, f"field 'game' must be one of {list(GAMES)}, got {game!r}")
        seat = _int_field(data, "seat", 0, 0, tarockrl.make_game(game).num_players - 1)
        seed = _int_field(data, "seed", secrets.randbelow(1_000_000), 0, 2**62)
        opponents = data.get("opponents", "random")
        if isinstance(opponents, str):
            opponents = [opponents]
        if not isinstance(opponents, list) or not opponents or not all(isinstance(o, str) for o in opponents):
            raise ApiError(400, "field 'opponents' must be an agent spec or a list of them")
        hint = data.get("hint_agent", "rules")
        if not isinstance(hint, str):
            raise ApiError(400, "field 'hint_agent' must be a string")
        try:
            session = await run_in_threadpool(HumanSession, game, seat, opponents, seed, hint)
        except TarockError as err:
            raise ApiError(400, str(err)) from None
        gid = store.add(session)
        return JSONResponse(_state_json(gid, session), status_code=201)

    async def get_game(request: Request):
        session, lock = store.get(request.path_params["gid"])

        def work():
            with lock:
                return _state_json(request.path_params["gid"], session)

        return JSONResponse(await run_in_threadpool(work))

    async def action(request: Request):
        gid = request.path_params["gid"]
        session, lock = store.get(gid)
        data = await _body(request)
        seat = _int_field(data, "seat", lo=0, hi=3)
        act = _int_field(data, "action", lo=0, hi=10_000)
        version = _int_field(data, "version", None)

        def work():
            with lock:
                if version is not None and version != len(session.log):
                    raise ApiError(409, f"stale request: the game is at version {len(session.log)}, not {version}")
                if session.state.is_terminal():
                    raise ApiError(409, "the deal is over")
                if seat != session.seat:
                    raise ApiError(409, f"you play seat {session.seat}, not seat {seat}")
                if session.state.current_player() != seat:
                    raise ApiError(409, "it is not your turn")
                try:
                    session.play(act)
                except IllegalActionError as err:
                    raise ApiError(409, f"illegal move: {err}") from None
                return _state_json(gid, session)

        return JSONResponse(await run_in_threadpool(work))

    async def hint(request: Request):
        session, lock = store.get(request.path_params["gid"])

        def work():
            with lock:
                if session.state.is_terminal() or session.state.current_player() != session.seat:
                    raise ApiError(409, "no decision of yours to hint at")
                try:
                    a = session.hint()
                except TarockError as err:
                    raise ApiError(400, f"no hint: {err}") from None
                return {"action": a, "name": session.game.action_to_string(a)}

        return JSONResponse(await run_in_threadpool(work))

    async def record(request: Request):
        gid = request.path_params["gid"]
        session, lock = store.get(gid)

        def work():
            with lock:
                return session.record()

        rec = await run_in_threadpool(work)
        return JSONResponse(rec, headers={"Content-Disposition": f'attachment; filename="tarockrl-{gid}.json"'})

    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def http_error(request: Request, exc):
        return JSONResponse({"error": str(getattr(exc, "detail", exc))}, status_code=getattr(exc, "status_code", 500))

    routes = [
        Route("/", index),
        Route("/api/meta", meta),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{gid}", get_game),
        Route("/api/games/{gid}/action", action, methods=["POST"]),
        Route("/api/games/{gid}/hint", hint),
        Route("/api/games/{gid}/record", record),
        Mount("/static", StaticFiles(directory=_STATIC), name="static"),
    ]
    from starlette.exceptions import HTTPException

    app = Starlette(routes=routes, exception_handlers={ApiError: api_error, HTTPException: http_error})
    app.state.store = store
    return app


def serve(host: str = "127.0.0.1", port: int = 8000) -> int:
    """Run the app with uvicorn until interrupted (``tarockrl serve``)."""
    import uvicorn

    print(f"tarockrl: open http://{host}:{port}/ in a browser (Ctrl-C stops the server)")
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
    return 0
