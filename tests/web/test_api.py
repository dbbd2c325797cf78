"""The web app through its HTTP API: whole deals, bad requests (nothing changes), several games, expiry."""

import warnings

import pytest

with warnings.catch_warnings():  # starlette >= 1 suggests httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tarockrl.web.app import create_app


@pytest.fixture()
def client():
    with TestClient(create_app(max_games=8)) as c:
        yield c


def _new(client, game="tatteln", seat=0, seed=1, opponents="random"):
    r = client.post("/api/games", json={"game": game, "seat": seat, "seed": seed, "opponents": opponents})
    assert r.status_code == 201, r.text
    return r.json()


def _play_to_end(client, g):
    while not g["view"]["terminal"]:
        v = g["view"]
        assert v["your_turn"]
        r = client.post(f"/api/games/{g['id']}/action",
                        json={"seat": v["seat"], "action": v["legal"][-1]["id"], "version": g["version"]})
        assert r.status_code == 200, r.text
        g = r.json()
    return g


def test_page_and_meta(client):
    """The page, its script and the game list are served."""
    assert "tarockrl" in client.get("/").text
    assert client.get("/static/app.js").status_code == 200
    meta = client.get("/api/meta").json()
    assert meta["games"]["troccas"]["players"] == 4 and "random" in meta["agents"]


@pytest.mark.parametrize("game,seat", [("dreierles", 2), ("dreiertarock", 0), ("tatteln", 1), ("troccas", 3)])
def test_whole_deal_and_record(client, game, seat):
    """A whole deal of every game through the API; the record matches it."""
    g = _play_to_end(client, _new(client, game, seat, seed=3))
    v = g["view"]
    assert v["terminal"] and v["returns"] is not None and v["legal"] == []
    r = client.get(f"/api/games/{g['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = r.json()
    assert rec["game"] == game and rec["returns"] == v["returns"] and len(rec["actions"]) == g["version"]
    assert rec["agents"][seat] == "human"


def test_bad_requests_change_nothing(client):
    """Wrong seat, illegal action, stale version, malformed bodies, unknown id: a 4xx JSON error, state kept."""
    g = _new(client, "dreierles", seat=1, seed=2)
    gid, v = g["id"], g["view"]
    before = client.get(f"/api/games/{gid}").json()
    legal = {a["id"] for a in v["legal"]}
    illegal = next(a for a in range(117) if a not in legal)
    cases = [
        ({"seat": 0, "action": v["legal"][0]["id"]}, 409, "seat"),
        ({"seat": 1, "action": illegal}, 409, "illegal"),
        ({"seat": 1, "action": v["legal"][0]["id"], "version": g["version"] + 1}, 409, "stale"),
        ({"seat": 1, "action": "PASS"}, 400, "action"),
        ({"seat": 1, "action": True}, 400, "action"),
        ({"seat": 1, "action": -3}, 400, "action"),
        ({"seat": 1}, 400, "missing"),
        ([1, 2], 400, "object"),
    ]
    for body, status, word in cases:
        r = client.post(f"/api/games/{gid}/action", json=body)
        assert r.status_code == status, (body, r.text)
        assert word in r.json()["error"]
    r = client.post(f"/api/games/{gid}/action", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    assert client.get(f"/api/games/{gid}").json() == before
    for path in ("/api/games/nosuchgame", "/api/games/nosuchgame/record", "/api/games/nosuchgame/hint"):
        r = client.get(path)
        assert r.status_code == 404 and "unknown or expired" in r.json()["error"]
    assert client.post("/api/games/nosuchgame/action", json={"seat": 0, "action": 0}).status_code == 404
    for body in ({"game": "chess"}, {"game": "tatteln", "seat": 2}, {"game": "tatteln", "opponents": "nosuch"},
                 {"game": "tatteln", "opponents": 5}, {"game": "tatteln", "seed": -1}, {"game": "troccas", "seat": 9}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, (body, r.text)
        assert r.json()["error"]
    r = client.post("/api/games", json={"game": "dreierles", "seat": 3})
    assert r.status_code == 400 and "0..2" in r.json()["error"]  # the range of this game's seats
    g2 = _play_to_end(client, g)
    r = client.post(f"/api/games/{gid}/action", json={"seat": 1, "action": 0})
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert client.get(f"/api/games/{gid}").json() == g2


def test_several_games_at_once(client):
    """Interleaved moves in several games keep each game's state apart."""
    games = [_new(client, name, seat=0, seed=s) for s, name in enumerate(["tatteln", "dreierles", "tatteln"])]
    assert games[0]["id"] != games[2]["id"]
    for _ in range(3):
        for i, g in enumerate(games):
            v = g["view"]
            if v["terminal"]:
                continue
            r = client.post(f"/api/games/{g['id']}/action",
                            json={"seat": 0, "action": v["legal"][0]["id"], "version": g["version"]})
            assert r.status_code == 200
            games[i] = r.json()
    for g in games:
        assert client.get(f"/api/games/{g['id']}").json() == g


def test_hint(client):
    """The hint endpoint answers with a legal action (hint agent random here)."""
    r = client.post("/api/games", json={"game": "tatteln", "seed": 5, "hint_agent": "random"})
    g = r.json()
    h = client.get(f"/api/games/{g['id']}/hint").json()
    assert h["action"] in {a["id"] for a in g["view"]["legal"]}


def test_store_is_bounded_and_expires():
    """At most max_games games are kept (least recently used dropped); idle games expire."""
    app = create_app(max_games=2, ttl=3600)
    with TestClient(app) as c:
        ids = [_new(c, seed=s)["id"] for s in range(3)]
        assert c.get(f"/api/games/{ids[0]}").status_code == 404
        assert c.get(f"/api/games/{ids[2]}").status_code == 200
        assert len(app.state.store) == 2
    app = create_app(max_games=4, ttl=0.0)
    with TestClient(app) as c:
        gid = _new(c)["id"]
        import time
        time.sleep(0.01)
        assert c.get(f"/api/games/{gid}").status_code == 404
