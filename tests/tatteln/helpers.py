"""Helpers for Tatteln tests: build deals from partial descriptions, act by name, hand-made rows."""

from __future__ import annotations

import numpy as np

import tarockrl
from tarockrl.games.tatteln import kernels as k
from tarockrl.games.tatteln import layout as L
from tarockrl.games.tatteln.cards import codes_mask, codes_of, mask_codes, parse_card

GAME = tarockrl.make_game("tatteln")


def mask(text: str, n: int = 32) -> int:
    """The card mask of a space-separated list of codes."""
    return codes_mask(text, n)


def cards(m: int, n: int = 32) -> set[str]:
    """The codes of a mask as a set."""
    return set(mask_codes(int(m), n))


def make_deal(dealer: int, hands: list[str], turn_up: str | None, stock_top: str = "", n: int = 32) -> dict:
    """A deal: the given hands (codes, by seat), turn-up, stock top cards; the other cards follow in index order."""
    codes = codes_of(n)[0]
    h = [x.split() for x in hands]
    top = stock_top.split()
    used = set(h[0]) | set(h[1]) | set(top) | ({turn_up} if turn_up else set())
    assert len(used) == len(h[0]) + len(h[1]) + len(top) + (1 if turn_up else 0), "a card is used twice"
    rest = [c for c in codes if c not in used]
    return {"dealer": dealer, "hands": h, "turn_up": turn_up, "stock": top + rest}


def act(state, name: str) -> None:
    """Apply an action by its readable name ("PLAY HK", "ANNOUNCE_SEQ", "ANNOUNCE_SET", "ROB")."""
    for a in state.legal_actions():
        if state.action_to_string(a) == name:
            state.apply_action(a)
            return
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    raise AssertionError(f"{name} is not legal; legal: {legal}")


def play(state, seat: int, card: str) -> None:
    """Seat ``seat`` plays ``card`` (the mover is checked)."""
    assert state.current_player() == seat, (card, state.current_player())
    act(state, f"PLAY {card}")


def trick(state, lead: tuple[int, str], follow: tuple[int, str]) -> None:
    """Play one trick: ``(seat, card)`` twice."""
    play(state, *lead)
    play(state, *follow)


def legal_names(state) -> set[str]:
    """The legal actions as names."""
    return {state.action_to_string(a) for a in state.legal_actions()}


def legal_cards(state) -> set[str]:
    """The card codes of the legal PLAY actions."""
    return {x.split()[1] for x in legal_names(state) if x.startswith("PLAY")}


def hand(state, seat: int) -> set[str]:
    """The cards in a seat's hand."""
    return cards(state.row[L.HAND + seat], state.game.rules.deck_size)


def revealed(state, seat: int) -> set[str]:
    """The public cards of a seat's hand."""
    return cards(state.row[L.REVEALED + seat], state.game.rules.deck_size)


def melds(state) -> list[int]:
    """Meld points of both seats."""
    return [int(state.row[L.MELD]), int(state.row[L.MELD + 1])]


def last_announcement(state) -> dict:
    """The last announcement of a state: announcer, class, outcome, keys and the points each seat scored."""
    ann = int(state.row[L.ANN])
    pts = int(state.row[L.ANN_PTS])
    return {
        "count": (ann >> L.ANN_COUNT_SHIFT) & 255,
        "by": (ann >> L.ANN_BY_SHIFT) & 1,
        "class": L.CLASS_NAMES[(ann >> L.ANN_CLASS_SHIFT) & 1],
        "outcome": L.OUTCOME_NAMES[(ann >> L.ANN_OUTCOME_SHIFT) & 3],
        "ka": (ann >> L.ANN_KA_SHIFT) & 255,
        "kb": (ann >> L.ANN_KB_SHIFT) & 255,
        "scored": [pts & 0xFFFFFFFF, (pts >> 32) & 0xFFFFFFFF],
    }


def play_row(game, hands: list[str], *, trump: int, cur: int = 1, leader: int = 0, led: str | None = None,
             final: bool = True, stock_left: int = 0, bottom: str | None = None, tricks: int = 12) -> np.ndarray:
    """A hand-made row for legal-move checks (only the fields the legality rules read are meaningful)."""
    n = game.rules.deck_size
    row = np.zeros(game.state_len, dtype=np.int64)
    row[L.MAGIC] = L.LAYOUT_MAGIC
    row[L.PHASE] = L.FINAL_PHASE if final else L.STOCK_PHASE
    row[L.CUR] = cur
    row[L.LEADER] = leader
    row[L.LED] = parse_card(led, n) if led else -1
    row[L.TRUMP] = trump
    row[L.TRICKS] = tricks
    row[L.STOCK_POS] = game.rules.stock_size - stock_left
    row[L.BOTTOM] = parse_card(bottom, n) if bottom else -1
    for s in range(2):
        row[L.HAND + s] = mask(hands[s], n)
    return row


def state_of(game, row: np.ndarray):
    """Wrap a hand-made row as a State."""
    return tarockrl.State(game, row)


def score_row(game, won: list[str], meld: list[int], final_won: list[int], last_winner: int, trump: int,
              dealer: int = 1) -> np.ndarray:
    """A finished deal's row built from its piles (for the scoring examples); ``score`` is applied."""
    n = game.rules.deck_size
    row = np.zeros(game.state_len, dtype=np.int64)
    row[L.MAGIC] = L.LAYOUT_MAGIC
    row[L.TRUMP] = trump
    row[L.DEALER] = dealer
    row[L.TRICKS] = n // 2
    for s in range(2):
        row[L.WON + s] = mask(won[s], n)
        row[L.MELD + s] = meld[s]
        row[L.FINAL_WON + s] = final_won[s]
    row[L.LAST_TRICK] = last_winner << L.LT_WINNER_SHIFT | 1
    k.score(row, game.encoded_options)
    row[L.PHASE] = L.TERMINAL
    row[L.CUR] = -1
    return row
