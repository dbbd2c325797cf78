"""What one seat of a deal may know, as a plain dictionary for people (terminal and browser).

The view is built from two sources only:

* the seat's own observation vector (its hand, and the seat to move as that seat sees it; the hand block is the
  first block of every game's observation, see ``tarockrl/games/<game>/observe.py``), plus the legal actions
  when that seat is to move;
* the public part of the action log: every action is kept with the seat that made it and the phase it was made
  in, and an action of another seat that the rules keep hidden (Dreierles and Dreiertarock discards, a declined
  Pfeife announcement, the Troccas scart) is shown only as "discards face down" or left out.

So a view never names a card the seat may not see; ``tests/play/test_view.py`` checks this by comparing the
views of states that differ only in hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LogEntry", "card_codes", "card_of_action", "is_hidden", "seat_view"]

_PLAY_PREFIX = {"dreierles": "PLAY ", "dreiertarock": "PLAY ", "tatteln": "PLAY ", "troccas": "CARD "}


@dataclass(frozen=True)
class LogEntry:
    """One applied action: who made it, in which phase, and its id."""

    seat: int
    phase: str
    action: int


def card_codes(game) -> list[str]:
    """Card codes of ``game`` in canonical card order (the order of the observation's card blocks)."""
    cached = getattr(game, "_human_card_codes", None)
    if cached is not None:
        return cached
    prefix = _PLAY_PREFIX[game.name]
    codes = [game.action_to_string(a)[len(prefix):] for a in range(game.num_actions)
             if game.action_to_string(a).startswith(prefix)]
    try:
        game._human_card_codes = codes
    except AttributeError:  # pragma: no cover - a game object without a __dict__
        pass
    return codes


def card_of_action(game, entry: LogEntry) -> str | None:
    """The card code a trick-play entry puts on the table, or ``None`` when the entry is no card play."""
    name = game.action_to_string(entry.action)
    if game.name == "troccas":
        if name.startswith("CARD ") and entry.phase == "play":
            return name[5:]
        return None
    if name.startswith("PLAY "):
        return name[5:]
    return None


def is_hidden(game, entry: LogEntry) -> str | None:
    """How an entry of another seat is hidden: ``"omit"``, ``"face_down"`` or ``None`` (public).

    Dreierles: discards face down (docs/rules/dreierles.md §6), a declined Pfeife announcement is seen by the
    declarer only. Dreiertarock: discards face down. Troccas: the scart. Tatteln: every action is public.
    """
    name = game.action_to_string(entry.action)
    if game.name in ("dreierles", "dreiertarock") and name.startswith("DISCARD "):
        return "face_down"
    if game.name == "dreierles" and name == "NO_ANNOUNCE":
        return "omit"
    if game.name == "troccas" and name.startswith("CARD ") and entry.phase != "play":
        return "face_down"
    return None


def _to_move_offset(game) -> int:
    """Offset of the relative one-hot 'seat to move' block of the observation."""
    name = game.name
    if name == "dreierles":
        from tarockrl.games.dreierles.observe import OBS_TO_MOVE
        return OBS_TO_MOVE
    if name == "dreiertarock":
        from tarockrl.games.dreiertarock.observe import OBS_TO_MOVE
        return OBS_TO_MOVE
    if name == "troccas":
        from tarockrl.games.troccas.observe import OBS_TO_MOVE
        return OBS_TO_MOVE
    from tarockrl.games.tatteln.observe import obs_offsets
    return obs_offsets(len(card_codes(game)))["TO_MOVE"]


def _card_blocks(game, seat: int) -> list[tuple[str, int]]:
    """Public (or seat-private) card blocks of the observation worth showing: ``(label, offset)``."""
    name = game.name
    n = game.num_players
    if name == "dreierles":
        from tarockrl.games.dreierles import observe as o
        return [("blind given to the declarer", o.OBS_BLIND_TAKEN), ("the defenders' part of the blind",
                o.OBS_BLIND_REST), ("discards you may see", o.OBS_DISCARDS)]
    if name == "dreiertarock":
        from tarockrl.games.dreiertarock import observe as o
        return [("talon packet 0", o.OBS_PACKETS), ("talon packet 1", o.OBS_PACKETS + 54),
                ("your discards", o.OBS_OWN_DISCARDS), ("tarocks discarded face up", o.OBS_DISCARDS_UP)]
    if name == "troccas":
        from tarockrl.games.troccas import observe as o
        return [(f"face-up card of seat {(seat + r) % n}", o.OBS_EXPOSED + 78 * r) for r in range(n)] + [
            ("the scart", o.OBS_SCART)]
    from tarockrl.games.tatteln.observe import obs_offsets
    off = obs_offsets(len(card_codes(game)))
    return [("turn-up card (trump)", off["TURN_UP"]), ("face-up bottom card of the stock", off["BOTTOM"]),
            ("opponent's cards shown in melds", off["REVEALED_OPP"])]


def seat_view(state, seat: int, log: list[LogEntry], names: list[str] | None = None) -> dict[str, Any]:
    """The table as ``seat`` may see it: a JSON-ready dictionary.

    Args:
        state: the running or finished deal.
        seat: the viewing seat.
        log: every action applied since the deal started, in order (see :class:`LogEntry`).
        names: a display name per seat (default ``"seat i"``).

    Keys: ``game``, ``seat``, ``num_players``, ``names``, ``hand`` (card codes in suit/trump order),
    ``to_move`` (the seat to move as ``seat`` sees it, ``None`` when it may not know or at the end),
    ``your_turn``, ``legal`` (``[{"id", "name", "card"}]`` when it is ``seat``'s turn, else empty; ``card`` is
    set for an action on a card of the hand),
    ``history`` (public actions: ``[{"seat", "text"}]`` outside the trick play), ``trick`` (the current trick,
    ``[{"seat", "card"}]``), ``last_trick`` (the last completed trick and its ``winner`` when known),
    ``tricks_won`` per seat (known winners), ``points`` (Tatteln: card and meld points won so far per seat,
    else ``None``), ``shown`` (other card blocks of the seat's observation: the blind,
    talon packets, face-up cards, the turn-up; ``[{"label", "cards"}]``), ``terminal``, ``returns`` (the
    settlement at the end, else ``None``).
    """
    game = state.game
    n = game.num_players
    if not 0 <= int(seat) < n:
        raise ValueError(f"seat must be in 0..{n - 1}, got {seat!r}")
    seat = int(seat)
    codes = card_codes(game)
    obs = state.observation(seat)
    hand = [codes[i] for i in range(len(codes)) if obs[i] > 0.5]
    terminal = state.is_terminal()
    to_move = None
    if not terminal:
        off = _to_move_offset(game)
        rel = [r for r in range(n) if obs[off + r] > 0.5]
        if rel:
            to_move = (seat + rel[0]) % n
    your_turn = (not terminal) and state.current_player() == seat and to_move == seat
    legal = []
    if your_turn:
        in_hand = set(hand)
        for a in state.legal_actions():
            nm = state.action_to_string(a)
            parts = nm.split(" ")
            card = parts[1] if len(parts) == 2 and parts[1] in in_hand else None  # PLAY / DISCARD / scart
            legal.append({"id": int(a), "name": nm, "card": card})
    history: list[dict[str, Any]] = []
    tricks: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    for e in log:
        card = card_of_action(game, e)
        if card is not None:
            current.append({"seat": e.seat, "card": card})
            if len(current) == n:
                tricks.append(current)
                current = []
            continue
        hidden = is_hidden(game, e) if e.seat != seat else None
        if hidden == "omit":
            continue
        text = "discards a card face down" if hidden == "face_down" else state.action_to_string(e.action)
        if game.name == "troccas" and hidden is None and is_hidden(game, e) == "face_down":
            text = "scart " + text[5:]  # one's own scart card
        if history and hidden == "face_down" and history[-1]["seat"] == e.seat and \
                history[-1]["text"].startswith("discards"):
            count = history[-1].get("count", 1) + 1
            history[-1] = {"seat": e.seat, "text": f"discards {count} cards face down", "count": count}
            continue
        history.append({"seat": e.seat, "text": text})
    winners: list[int | None] = []
    for i in range(len(tricks)):
        if i + 1 < len(tricks):
            winners.append(tricks[i + 1][0]["seat"])
        elif current:
            winners.append(current[0]["seat"])
        else:
            winners.append(None)
    tricks_won = [0] * n
    for w in winners:
        if w is not None:
            tricks_won[w] += 1
    last_trick = None
    if tricks:
        last_trick = {"cards": tricks[-1], "winner": winners[-1]}
    returns = [float(x) for x in state.returns()] if terminal else None
    points = None
    if game.name == "tatteln":  # card and meld points are public in Tatteln (docs/rules/tatteln.md §9)
        from tarockrl.games.tatteln.observe import obs_offsets
        off = obs_offsets(len(codes))
        rel = [round(162 * float(obs[off["PILE_POINTS"] + r] + obs[off["MELD_POINTS"] + r])) for r in range(n)]
        points = [rel[(s - seat) % n] for s in range(n)]
    shown = []
    for label, off in _card_blocks(game, seat):
        cards = [codes[i] for i in range(len(codes)) if obs[off + i] > 0.5]
        if cards:
            shown.append({"label": label, "cards": cards})
    return {
        "game": game.name,
        "seat": seat,
        "num_players": n,
        "names": list(names) if names is not None else [f"seat {i}" for i in range(n)],
        "hand": hand,
        "to_move": to_move,
        "your_turn": bool(your_turn),
        "legal": legal,
        "history": [{"seat": h["seat"], "text": h["text"]} for h in history],
        "trick": current,
        "last_trick": last_trick,
        "tricks_completed": len(tricks),
        "tricks_won": tricks_won,
        "shown": shown,
        "points": points,
        "terminal": bool(terminal),
        "returns": returns,
    }
