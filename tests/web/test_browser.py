"""End to end in a real headless Chromium (Debian's ``chromium`` driven by Playwright): a whole deal by clicks.

Skipped, with the reason, only when Playwright or a Chromium binary cannot be found. A screenshot of the page in
mid-deal is taken into the test's temporary folder; with ``TAROCKRL_WRITE_SCREENSHOT=1`` it replaces
``docs/img/web_play.png`` (shown in docs/play.md), so a plain test run never changes a tracked file.
"""

import os
import shutil
import socket
import threading
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def server():
    """uvicorn serving the app on 127.0.0.1 at a free port, in a thread of this process."""
    import uvicorn

    from tarockrl.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    t.join(10)


@pytest.fixture(scope="module")
def page():
    """A Playwright page in headless Chromium (skipped when none can be found)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed "
                                   "(pip install playwright); the browser test needs it")
    exe = _chromium()
    if exe is None:
        pytest.skip("no Chromium found (apt-get install chromium); the end-to-end browser test is skipped")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        pg = browser.new_page(viewport={"width": 1200, "height": 860})
        yield pg
        browser.close()


def test_whole_dreierles_deal_by_clicks(server, page, tmp_path):
    """Choose Dreierles against random agents, then click legal cards and auction buttons until the deal ends."""
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.wait_for_selector("#game option[value=dreierles]", state="attached")
    page.select_option("#game", "dreierles")
    page.select_option("#seat", "1")
    page.fill("#opponents", "random")
    page.fill("#seed", "7")
    page.click("#start")
    page.wait_for_function("document.body.dataset.state === 'yourturn' || document.body.dataset.state === 'over'")
    clicks = shot = 0
    while page.evaluate("document.body.dataset.state") == "yourturn":
        version = page.evaluate("game.version")
        legal_cards = page.locator("#hand button.card.legal")
        n_cards = legal_cards.count()
        # every legal card is enabled and every other card disabled
        assert n_cards + page.locator("#actions button").count() == page.evaluate("game.view.legal.length")
        assert page.locator("#hand button.card:disabled").count() == page.evaluate(
            "game.view.hand.length") - n_cards
        if page.evaluate("game.view.trick.length") >= 1 and n_cards >= 1 and not shot and clicks >= 6:
            target = (os.path.join(ROOT, "docs", "img", "web_play.png")
                      if os.environ.get("TAROCKRL_WRITE_SCREENSHOT") == "1" else str(tmp_path / "web_play.png"))
            page.screenshot(path=target, full_page=True)
            assert os.path.getsize(target) > 0
            shot = 1
        if n_cards:
            legal_cards.first.click()
        else:
            page.locator("#actions button").first.click()
        clicks += 1
        page.wait_for_function(f"game.version !== {version} || document.getElementById('error').textContent")
        assert page.text_content("#error") == ""
        assert clicks < 60
    assert page.evaluate("document.body.dataset.state") == "over"
    assert "Settlement:" in page.text_content("#result")
    assert clicks >= 16  # at least the 16 cards of the hand were played by clicks
    href = page.get_attribute("#record", "href")
    rec = page.evaluate(f"fetch('{href}').then(r => r.json())")
    assert rec["terminal"] and rec["game"] == "dreierles" and rec["agents"][1] == "human"
    assert errors == []
    assert shot == 1
    # the glyphs: the Tatteln spade ten is a ten of spades, the Dreierles 'ST' (Stiess) a trump, Troccas cups red
    assert page.evaluate("cardFace('tatteln', 'ST')") == {"rank": "10", "suit": "♠", "cls": "", "title": "10 of spades"}
    assert page.evaluate("cardFace('dreierles', 'ST').cls") == "trump"
    assert page.evaluate("cardFace('dreierles', 'T21').rank") == "21"
    assert page.evaluate("cardFace('troccas', 'cK').cls") == "red"
