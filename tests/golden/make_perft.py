"""Regenerate tests/golden/perft.json: move-tree counts from fixed positions (perft).

``perft(state, n)`` is the number of move sequences of length *n* from *state*
(a sequence that reaches the end of the game sooner does not count).  The counts
change whenever what `legal_moves` offers changes anywhere in the tree, so they
guard against silent rule drift.  Run from the repository root::

    python tests/golden/make_perft.py

and review the diff: a changed count must come with a rule change that explains it.

Each position is a preset, a player count, a seed and the moves that lead to it,
written ``"12-5@0"`` (a play on train 0), ``"12-5@M"`` (on the Mexican train),
``"draw"``, ``"pass"`` and ``"next"``.  The moves are found by playing at random
until the position shows what its entry is about; they are then frozen.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    Draw,
    GameState,
    Move,
    NextRound,
    Pass,
    Play,
    Rules,
    Tile,
    apply,
    legal_moves,
    new_game,
)

PRESETS: dict[str, Rules] = {"STANDARD": STANDARD, "HUB": HUB}
GOLDEN = Path(__file__).with_name("perft.json")
#: Go one depth deeper while the count is below LEAVES (each position then takes
#: well under a second), up to depth MOST.
LEAVES = 10_000
MOST = 12


def perft(state: GameState, depth: int) -> int:
    """Return the number of move sequences of length *depth* from *state*."""
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, move), depth - 1) for move in moves)


def format_move(move: Move) -> str:
    """Write a move as the golden file does."""
    if isinstance(move, Play):
        train = "M" if move.train == MEXICAN else str(move.train)
        return f"{move.tile}@{train}"
    return {Draw(): "draw", Pass(): "pass", NextRound(): "next"}[move]


def parse_move(text: str) -> Move:
    """Read a move written as the golden file does."""
    singletons: dict[str, Move] = {"draw": Draw(), "pass": Pass(), "next": NextRound()}
    if text in singletons:
        return singletons[text]
    tile, train = text.split("@")
    return Play(Tile.parse(tile), MEXICAN if train == "M" else int(train))


def position(entry: dict[str, object]) -> GameState:
    """Return the state an entry of the golden file describes."""
    rules = PRESETS[str(entry["rules"])]
    players, seed = entry["players"], entry["seed"]
    assert type(players) is int
    assert type(seed) is int
    state = new_game(players, rules, seed=seed)
    for text in entry["moves"]:  # type: ignore[attr-defined]
        state = apply(state, parse_move(text))
    return state


Wanted = Callable[[GameState], bool]


def _first_turn_chain(s: GameState) -> bool:
    seat = s.current_player
    return seat is not None and not s.had_first_turn[seat] and s.turn_tiles > 0


def _open_double(s: GameState) -> bool:
    # An open double from an earlier turn, and a choice of covers (D2).
    plays = [m for m in legal_moves(s) if isinstance(m, Play)]
    return bool(s.open_doubles) and s.current_player is not None and len(plays) >= 2


def _two_open_doubles(s: GameState) -> bool:
    plays = [m for m in legal_moves(s) if isinstance(m, Play)]
    return len(s.open_doubles) >= 2 and s.current_player is not None and len(plays) >= 1


def _double_to_follow(s: GameState) -> bool:
    return bool(s.turn_doubles)


def _marked_other_train(s: GameState) -> bool:
    seat = s.current_player
    return (
        seat is not None
        and any(t.marked for i, t in enumerate(s.trains[:-1]) if i != seat)
        and not s.open_doubles
        and len(legal_moves(s)) > 2
    )


def _empty_boneyard(s: GameState) -> bool:
    return s.current_player is not None and not s.boneyard and len(legal_moves(s)) > 1


def _near_round_end(s: GameState) -> bool:
    return s.current_player is not None and min(len(h) for h in s.hands) == 1


#: (name, preset, players, seed, what the position shows)
CASES: list[tuple[str, str, int, int, Wanted | None]] = [
    ("standard-start", "STANDARD", 4, 1, None),
    ("standard-2p-start", "STANDARD", 2, 2, None),
    ("standard-first-turn-chain", "STANDARD", 4, 3, _first_turn_chain),
    ("standard-open-double", "STANDARD", 4, 4, _open_double),
    ("standard-double-to-follow", "STANDARD", 6, 5, _double_to_follow),
    ("standard-near-round-end", "STANDARD", 3, 6, _near_round_end),
    ("hub-start", "HUB", 4, 1, None),
    ("hub-open-double", "HUB", 4, 7, _open_double),
    ("hub-two-open-doubles", "HUB", 3, 8, _two_open_doubles),
    ("hub-marked-train", "HUB", 5, 9, _marked_other_train),
    ("hub-empty-boneyard", "HUB", 2, 10, _empty_boneyard),
]


def find(preset: str, players: int, seed: int, wanted: Wanted | None) -> list[str]:
    """Return the moves of a random game (seeded) up to the first position *wanted* accepts."""
    if wanted is None:
        return []
    rng = random.Random(seed)
    state = new_game(players, PRESETS[preset], seed=seed)
    moves: list[str] = []
    while not wanted(state):
        if state.is_over:
            raise LookupError(f"no such position in game {preset} {players} {seed}")
        move = rng.choice(legal_moves(state))
        moves.append(format_move(move))
        state = apply(state, move)
    return moves


def counts(state: GameState) -> list[int]:
    """Return perft for depths 1, 2, ... up to the first count of LEAVES or more (or MOST)."""
    found: list[int] = []
    while len(found) < MOST and (not found or found[-1] < LEAVES):
        found.append(perft(state, len(found) + 1))
    return found


def main() -> None:
    entries = []
    for name, preset, players, seed, wanted in CASES:
        entry: dict[str, object] = {
            "name": name,
            "rules": preset,
            "players": players,
            "seed": seed,
            "moves": find(preset, players, seed, wanted),
        }
        entry["perft"] = counts(position(entry))
        entries.append(entry)
        print(f"{name}: depth {len(entry['perft'])}: {entry['perft']}")  # type: ignore[arg-type]
    # One line per field: diffs show which count of which position changed.
    text = ",\n".join(
        "{\n" + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in e.items()) + "\n}"
        for e in entries
    )
    GOLDEN.write_text(f"[\n{text}\n]\n")


if __name__ == "__main__":
    main()
