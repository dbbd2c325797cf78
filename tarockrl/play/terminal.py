"""Play a deal against agents in the terminal: ``tarockrl play --human --game dreierles --opponents rules,random``.

The table is drawn with ``rich`` (colour where the terminal supports it). Moves are typed as the number from the
list of legal actions, a card code (``T21``, ``HK``) or an action name (``PASS``, ``BID Dreier``); ``hint`` asks
the hint agent, ``help`` lists the commands, ``quit`` ends the deal. Bad input is explained and asked again. The
game record (JSON) is written atomically at the end, also after ``quit``.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tarockrl.errors import TarockError
from tarockrl.play.session import HumanSession, parse_move, write_record
from tarockrl.play.view import LogEntry, card_codes, card_of_action, is_hidden

__all__ = ["card_text", "render_view", "run"]

_HELP = ("Type the number of a move, a card code (e.g. T21, HK) or an action name (e.g. PASS);\n"
         "'hint' asks the hint agent, 'help' shows this, 'quit' ends the deal (the record is saved).")
_RED = {"dreierles": "HD", "dreiertarock": "HD", "tatteln": "HD", "troccas": "co"}


def card_text(game: str, code: str) -> Text:
    """A card code styled for the terminal: trumps bold yellow, red suits red, the others plain."""
    if game != "tatteln" and (code.startswith("T") and code[1:].isdigit() or code in ("ST", "SKS", "FOOL")):
        return Text(code, style="bold yellow")
    return Text(code, style="bold red" if code[:1] in _RED[game] else "bold")


def _cards(game: str, codes: list[str]) -> Text:
    out = Text()
    for i, c in enumerate(codes):
        if i:
            out.append(" ")
        out.append_text(card_text(game, c))
    return out


def render_view(console: Console, view: dict[str, Any]) -> None:
    """Draw the table of a view: auction/announcements, the last and current trick, scores, hand, legal moves."""
    g = view["game"]
    names = view["names"]
    console.rule(f"[bold]{g}[/bold] — you are seat {view['seat']}")
    if view["history"]:
        hist = Text("Bidding and announcements: ", style="dim")
        hist.append("; ".join(f"{names[h['seat']]}: {h['text']}" for h in view["history"][-12:]))
        console.print(hist)
    if view["last_trick"]:
        lt = view["last_trick"]
        t = Text("Last trick: ")
        for i, c in enumerate(lt["cards"]):
            t.append(("" if i == 0 else ", ") + f"{names[c['seat']]} ")
            t.append_text(card_text(g, c["card"]))
        if lt["winner"] is not None:
            t.append(f"  → won by {names[lt['winner']]}")
        console.print(t)
    for block in view["shown"]:
        t = Text(block["label"].capitalize() + ": ")
        t.append_text(_cards(g, block["cards"]))
        console.print(t)
    t = Text("Trick: ")
    if view["trick"]:
        for i, c in enumerate(view["trick"]):
            t.append(("" if i == 0 else ", ") + f"{names[c['seat']]} ")
            t.append_text(card_text(g, c["card"]))
    else:
        t.append("(empty)", style="dim")
    console.print(t)
    scores = Table(show_header=True, header_style="bold", box=None)
    scores.add_column("seat")
    scores.add_column("tricks won", justify="right")
    if view["points"] is not None:
        scores.add_column("points", justify="right")
    if view["returns"] is not None:
        scores.add_column("settlement", justify="right")
    for s in range(view["num_players"]):
        row = [names[s], str(view["tricks_won"][s])]
        if view["points"] is not None:
            row.append(str(view["points"][s]))
        if view["returns"] is not None:
            row.append(f"{view['returns'][s]:+g}")
        scores.add_row(*row)
    console.print(scores)
    hand = Text("Your hand: ")
    hand.append_text(_cards(g, view["hand"]))
    console.print(hand)
    if view["your_turn"]:
        console.print("Your move:")
        for i, item in enumerate(view["legal"], 1):
            line = Text(f" {i:>2}. ")
            if item["card"] is not None:
                line.append_text(card_text(g, item["card"]))
                line.append(f"  ({item['name']})", style="dim")
            else:
                line.append(item["name"])
            console.print(line)


def _describe(session: HumanSession, e: LogEntry) -> str:
    name = session.names[e.seat]
    if is_hidden(session.game, e) == "omit":
        return ""
    if is_hidden(session.game, e) == "face_down":
        return f"{name} discards a card face down"
    card = card_of_action(session.game, e)
    if card is not None:
        return f"{name} plays {card}"
    return f"{name}: {session.game.action_to_string(e.action)}"


def run(game: str = "dreierles", opponents: str = "random", seat: int = 0, seed: int | None = None,
        hint_agent: str = "rules", record: str | None = None, input: IO[str] | None = None,
        output: IO[str] | None = None, options: dict[str, Any] | None = None) -> int:
    """Play one deal in the terminal; returns the exit code (0: finished or quit, 2: bad arguments).

    Args:
        game: the game name.
        opponents: agent specs, comma-separated, one per other seat in seat order (or one for all).
        seat: the person's seat.
        seed: seed of the deal and the agents (default: from the clock).
        hint_agent: the agent that answers ``hint``.
        record: where to write the game record (default ``tarockrl-<game>-<seed>.json`` in the current folder).
        input: where moves are read from (default ``sys.stdin``).
        output: where the table is drawn (default ``sys.stdout``).
        options: rules options of the game.
    """
    inp = input if input is not None else sys.stdin
    console = Console(file=output if output is not None else sys.stdout, highlight=False)
    if seed is None:
        seed = int(time.time()) % 1_000_000
    try:
        session = HumanSession(game, seat=seat, opponents=opponents, seed=seed, hint_agent=hint_agent,
                               options=options)
    except TarockError as err:
        console.print(f"[red]error:[/red] {err}")
        return 2
    path = record or f"tarockrl-{game}-{seed}.json"
    console.print(f"{game}, seed {seed}: you are seat {seat}; opponents: "
                  + ", ".join(session.names[i] for i in range(session.game.num_players) if i != seat))
    console.print(_HELP, style="dim")
    shown = 0
    quit_ = False
    while not session.state.is_terminal():
        for e in session.log[shown:]:
            if e.seat != seat:
                text = _describe(session, e)
                if text:
                    console.print(text, style="cyan")
        shown = len(session.log)
        view = session.view()
        render_view(console, view)
        while True:
            console.print("> ", end="")
            line = inp.readline()
            if not line:
                console.print("(end of input: quitting)")
                quit_ = True
                break
            cmd = line.strip()
            if cmd.lower() in ("quit", "exit", "q"):
                quit_ = True
                break
            if cmd.lower() in ("help", "?"):
                console.print(_HELP)
                continue
            if cmd.lower() == "hint":
                try:
                    a = session.hint()
                    console.print(f"hint ({session.hint_spec}): {session.game.action_to_string(a)}", style="green")
                except TarockError as err:
                    console.print(f"[red]no hint:[/red] {err}")
                continue
            try:
                action = parse_move(cmd, view, card_codes(session.game))
            except TarockError as err:
                console.print(f"[red]{err}[/red] — type 'help' for help")
                continue
            session.play(action)
            break
        if quit_:
            break
    for e in session.log[shown:]:
        if e.seat != seat:
            text = _describe(session, e)
            if text:
                console.print(text, style="cyan")
    if session.state.is_terminal():
        view = session.view()
        render_view(console, view)
        console.print(f"[bold]Deal over.[/bold] Your result: {view['returns'][seat]:+g} game points.")
    else:
        console.print("Deal abandoned.")
    write_record(session.record(), path)
    console.print(f"Game record saved to {path}")
    return 0
