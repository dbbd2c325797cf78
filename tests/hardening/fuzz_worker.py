"""Child process of the fuzz suite: mutate saved states of one game and feed them to every decoding entry point.

Run as ``python tests/hardening/fuzz_worker.py '<json spec>'``; prints one JSON summary line. A crash (segfault,
abort) ends this process with a signal, which the parent test reports as a failure with the spec to reproduce it.
Every mutated input must either be rejected with ``CorruptStateError`` / ``WrongGameError`` (``pickle`` inputs:
any exception; the pickle machinery itself may reject them first) or be accepted as a state that then plays,
prints and settles without error. (CPython's unpickler may print "SystemError: deallocated bytearray object has
exported buffers" for a flipped MEMOIZE opcode that became BYTEARRAY8: a message of the pickle module about its own
buffer, not a crash and not from tarockrl.)
"""

from __future__ import annotations

import hashlib
import json
import pickle
import sys
import traceback

import numpy as np

import tarockrl
from tarockrl.errors import CorruptStateError, WrongGameError
from tarockrl.games.api import State

HEAD = 4 + 2 + 16 + 8
SUM = 8


def resign(data: bytes) -> bytes:
    """The bytes with a valid checksum (so that a mutation reaches the structural check)."""
    head, body = data[:HEAD], data[HEAD + SUM :]
    return head + hashlib.blake2b(head + body, digest_size=SUM).digest() + body


def base_states(game, rng: np.random.Generator, n_games: int) -> list[State]:
    """States at random points of random games (initial and terminal ones included, redeals favoured)."""
    out: list[State] = []
    for g in range(n_games):
        if g % 4 == 3:
            state = game.new_initial_state(deal=out[-1].deal())  # a state made from a deal dict
        else:
            state = game.new_initial_state(seed=int(rng.integers(2**62)), deal_id=int(rng.integers(2**40)))
        stops = set(rng.integers(0, game.max_episode_length, size=3).tolist()) | {0}
        step = 0
        while not state.is_terminal():
            if step in stops:
                out.append(state.clone())
            legal = state.legal_actions()
            if state.phase() in ("vote", "force") and rng.random() < 0.7:
                state.apply_action(legal[-1])  # throw in / force a redeal (Troccas)
            else:
                state.apply_action(legal[int(rng.integers(len(legal)))])
            step += 1
        out.append(state)
    return out


INTERESTING = [0, 1, -1, 2, 3, 4, 7, 15, 16, 21, 53, 54, 63, 64, 77, 78, 127, 128, 255, 1000, -2, -100, -2000,
               2**31 - 1, 2**31, 2**32, 2**53, 2**62, 2**63 - 1, -(2**63), -(2**31)]


def mutate(kind: str, data: bytes, state: State, rng: np.random.Generator) -> tuple[bytes, str]:
    """One mutated input of ``kind`` and a description of the mutation."""
    body_len = len(data) - HEAD - SUM
    n_slots = body_len // 8
    if kind == "flip":  # raw bit flips anywhere (caught by the header checks or the checksum)
        b = bytearray(data)
        bits = rng.integers(0, 8 * len(b), size=int(rng.integers(1, 4))).tolist()
        for bit in bits:
            b[bit // 8] ^= 1 << (bit % 8)
        return bytes(b), f"flip bits {bits}"
    if kind == "flip_signed":  # bit flips in the state row, checksum recomputed
        b = bytearray(data)
        bits = (8 * (HEAD + SUM) + rng.integers(0, 8 * body_len, size=int(rng.integers(1, 3)))).tolist()
        for bit in bits:
            b[bit // 8] ^= 1 << (bit % 8)
        return resign(bytes(b)), f"flip bits {bits} and re-sign"
    if kind == "overwrite":  # one or two slots overwritten, checksum recomputed
        row = state.row.copy()
        desc = []
        hist_start = state.game.definition.slot_hist
        used = hist_start + int(row[state.game.definition.slot_hist_len]) + 2
        for _ in range(int(rng.integers(1, 3))):
            slot = int(rng.integers(0, n_slots if rng.random() < 0.3 else min(used, n_slots)))
            r = rng.random()
            if r < 0.5:
                value = int(INTERESTING[int(rng.integers(len(INTERESTING)))])
            elif r < 0.65:
                value = int(row[slot]) + int(rng.choice([-2, -1, 1, 2]))
            elif r < 0.8:
                value = int(row[int(rng.integers(n_slots))])
            else:
                value = int(rng.integers(-(2**63), 2**63 - 1, dtype=np.int64))
            value = ((value + 2**63) % 2**64) - 2**63
            row[slot] = value
            desc.append((slot, value))
        return state.game._encode(row), f"overwrite slots {desc}"
    if kind == "truncate":  # cut (or extend) the bytes; half of them re-signed
        cut = int(rng.integers(0, len(data)))
        if rng.random() < 0.5:
            return data[:cut], f"truncate to {cut} bytes"
        words = int(rng.integers(1, n_slots))
        extended = data + bytes(int(x) for x in rng.integers(0, 256, size=8 * words)) if rng.random() < 0.3 \
            else data[: len(data) - 8 * words]
        return resign(extended), f"change the row by {len(extended) - len(data)} bytes and re-sign"
    raise ValueError(kind)


def exercise(state: State, rng: np.random.Generator) -> None:
    """Everything a user may do with an accepted state: print it, observe, play it out, settle."""
    game = state.game
    str(state), repr(state), state.transcript(), state.deal(), state.history(), state.returns()
    for p in range(game.num_players):
        state.observation(p)
    game.batch_from_states([state, state]).legal_masks()
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "a live state without legal actions"
        state.apply_action(legal[int(rng.integers(len(legal)))])
    code = game.definition.check_invariants(state.row.copy(), game.encoded_options)
    assert code == 0, f"invariant {code} broken"
    assert state.returns().sum() == 0, "settlement not zero-sum"
    state.transcript(), str(state)


def main(spec: dict) -> dict:
    """Run one batch; return the summary."""
    game = tarockrl.make_game(spec["game"], **spec.get("options", {}))
    rng = np.random.default_rng(spec["seed"])
    states = base_states(game, rng, spec.get("base_games", 8))
    blobs = [s.to_bytes() for s in states]
    counts = {"inputs": 0, "rejected": 0, "accepted_unchanged": 0, "accepted_changed": 0}
    failures: list[str] = []
    kinds = spec["kinds"]
    for i in range(spec["count"]):
        kind = kinds[i % len(kinds)]
        j = int(rng.integers(len(states)))
        counts["inputs"] += 1
        try:
            if kind == "pickle":
                raw = bytearray(pickle.dumps(states[j]))
                pos = int(rng.integers(len(raw)))
                raw[pos] ^= 1 << int(rng.integers(8))
                desc = f"pickle with byte {pos} flipped"
                try:
                    got = pickle.loads(bytes(raw))
                except Exception:  # noqa: BLE001 - pickle may reject the stream in many ways; no crash is the test
                    counts["rejected"] += 1
                    continue
                if not isinstance(got, State):
                    counts["rejected"] += 1
                    continue
            elif kind == "rows":
                data, desc = mutate("overwrite", blobs[j], states[j], rng)
                row = np.frombuffer(data[HEAD + SUM :], dtype="<i8").astype(np.int64)
                desc = "batch_from_states, " + desc
                try:
                    batch = game.batch_from_states([State(game, row)])
                except (CorruptStateError, WrongGameError):
                    counts["rejected"] += 1
                    continue
                got = batch.state(0)
            else:
                data, desc = mutate(kind, blobs[j], states[j], rng)
                try:
                    got = game.state_from_bytes(data)
                except (CorruptStateError, WrongGameError):
                    counts["rejected"] += 1
                    continue
            same = got == states[j]
            counts["accepted_unchanged" if same else "accepted_changed"] += 1
            exercise(got, rng)
        except Exception as exc:  # noqa: BLE001 - every other outcome is a finding
            failures.append(f"{spec['game']} input {i} ({kind}, base {j}, {desc}): {type(exc).__name__}: {exc}\n"
                            + traceback.format_exc(limit=3))
    return {"spec": spec, "counts": counts, "failures": failures[:20], "n_failures": len(failures)}


if __name__ == "__main__":
    print(json.dumps(main(json.loads(sys.argv[1]))))
