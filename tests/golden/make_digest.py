"""The behaviour digest: one SHA-256 per configuration over every position of fixed playouts.

A *configuration* is a catalogue variant (``mexican_train.variants.VARIANTS``, the
two presets among them) and a player count from 2 to 14, plus, for each variant,
a double-6 game of 2-4 players short enough to reach the end of the game (for the
variants that a double-6 set can play).  For
each configuration the generator plays games from fixed seeds, choosing moves
with its own integer generator (no `random`, no `hash()`: the same choices on
every platform, process and build), until it has seen its budget of positions.
Into the configuration's SHA-256 go, for every position, a canonical encoding of

- the public fields and properties of the `GameState` (every few positions, all
  of them);
- ``legal_moves(state)``, in order;
- every few positions, the view of the player to move and ``legal_moves`` of it,
  and the `IllegalMoveError` (its reason, word for word) that a move not among
  the legal ones raises.

A player count the variant's deal table refuses is digested too: the error's
type and message.  Any change of behaviour anywhere in those playouts changes
a digest, so the digest pins behaviour across a change of the engine's layout
or build.  Two sets are kept in the repository:

- ``digest-small.json``: about 10⁵ positions, checked by ``tests/test_digest.py``
  (and so by ``.ci/run`` on both builds);
- ``digest-large.json``: about 10⁶ positions, run offline before and after a
  change of layout (a few minutes).

Run from the repository root::

    python tests/golden/make_digest.py --check small   # compare (the test does this)
    python tests/golden/make_digest.py --check large   # the offline check
    python tests/golden/make_digest.py --write small   # regenerate (a rule change only)

A digest that changes must come with a deliberate rule change that explains it,
in its own commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import attrs

from mexican_train import (
    MEXICAN,
    CallLastTile,
    Draw,
    GameState,
    IllegalMoveError,
    MexicanTrainError,
    Move,
    NextRound,
    Pass,
    Play,
    PlayerView,
    Rules,
    RulesError,
    Tile,
    Train,
    apply,
    legal_moves,
    new_game,
    view,
)
from mexican_train.variants import VARIANTS

HERE = Path(__file__).parent
FILES = {"small": HERE / "digest-small.json", "large": HERE / "digest-large.json"}
#: Positions per configuration: the full-size games, and the double-6 ones.
BUDGETS = {"small": (200, 800), "large": (2000, 8000)}
PLAYERS = range(2, 15)
#: Every EXTRA-th position also digests a view and a refused move.
EXTRA = 5


class Chooser:
    """A 64-bit xorshift generator: the same choices everywhere, from an integer seed."""

    def __init__(self, seed: int) -> None:
        self.state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & (1 << 64) - 1 or 1

    def below(self, n: int) -> int:
        """Return a number in ``range(n)``."""
        x = self.state
        x ^= (x << 13) & (1 << 64) - 1
        x ^= x >> 7
        x ^= (x << 17) & (1 << 64) - 1
        self.state = x
        return x % n


#: Every tile's code, by the tile (tiles are interned and hash by value).
CODES = {Tile(a, b): f"{a}-{b}" for a in range(31) for b in range(a + 1)}


def tiles(values: tuple[Tile, ...]) -> str:
    """Encode tiles in their order."""
    return ",".join([CODES[t] for t in values])


def train(value: Train) -> str:
    """Encode a train: tiles, open end, marker."""
    return f"[{tiles(value.tiles)}|{value.open_end}|{int(value.marked)}]"


def move(value: Move) -> str:
    """Encode a move."""
    if isinstance(value, Play):
        where = "M" if value.train == MEXICAN else str(value.train)
        return f"{value.tile.high}-{value.tile.low}@{where}"
    return type(value).__name__


def encode_state(s: GameState, full: bool) -> str:
    """Encode the public fields and properties of a state (*full*: all of them).

    Only a full encoding repeats what the accessors (`GameState.hand`,
    `GameState.train`, `GameState.has_had_first_turn`) return, and the boneyard's
    order; the others cost a tenth as much and still see every draw (the drawn
    tile joins a hand).
    """
    extra: tuple[str, ...] = ()
    if full:
        extra = (
            tiles(s.boneyard),
            "/".join(tiles(s.hand(seat)) for seat in range(s.players)),
            "".join(train(s.train(t)) for t in (*range(s.players), MEXICAN)),
            repr([s.has_had_first_turn(seat) for seat in range(s.players)]),
        )
    return "|".join(
        (
            *extra,
            str(s.players), str(s.max_pip), str(s.hand_size), str(s.seed), str(s.round_number),
            CODES[s.engine], str(s.first_player),
            "/".join(tiles(hand) for hand in s.hands), str(s.boneyard_size),
            "".join(train(t) for t in s.trains),
            str(s.current_player), repr(s.had_first_turn),
            str(s.turn_tiles), str(s.has_drawn), repr(s.turn_doubles), repr(s.open_doubles),
            str(s.idle_turns), repr(s.scores), repr(s.round_scores), str(s.is_over),
            str(s.last_tile_called), str(s.rounds), str(s.is_round_over), repr(s.winners),
        )
    )  # fmt: skip


def encode_view(v: PlayerView) -> str:
    """Encode every public field and property of a view."""
    return "|".join(
        (
            str(v.players), str(v.max_pip), str(v.hand_size), str(v.round_number),
            tiles((v.engine,)), str(v.first_player), str(v.seat), tiles(v.hand),
            repr(v.hand_sizes), str(v.boneyard_size), "".join(train(t) for t in v.trains),
            str(v.current_player), repr(v.had_first_turn), str(v.turn_tiles), str(v.has_drawn),
            repr(v.turn_doubles), repr(v.open_doubles), str(v.idle_turns), repr(v.scores),
            repr(v.round_scores), str(v.is_over),
            "-" if v.open_hands is None else "/".join(tiles(h) for h in v.open_hands),
            str(v.last_tile_called), str(v.rounds), str(v.is_round_over), str(v.is_my_turn),
            repr(v.winners),
        )
    )  # fmt: skip


def refused(s: GameState, moves: tuple[Move, ...], chooser: Chooser) -> str:
    """Encode the error for one move that is not among *moves*."""
    seat = s.current_player
    candidates: list[Move] = [Draw(), Pass(), NextRound(), CallLastTile()]
    if seat is not None:
        hand = s.hand(seat)
        if hand:
            tile = hand[chooser.below(len(hand))]
            candidates += [Play(tile, t) for t in (*range(s.players), MEXICAN)]
        candidates.append(Play(Tile(s.max_pip, 0), 0))  # perhaps not in hand
    illegal = [m for m in candidates if m not in moves]
    if not illegal:
        return "none"
    chosen = illegal[chooser.below(len(illegal))]
    try:
        apply(s, chosen)
    except IllegalMoveError as error:
        return f"{move(chosen)}:{type(error).__name__}:{error.reason}:{error}"
    raise AssertionError(f"apply accepted {chosen!r}, which legal_moves does not offer")


def configurations(which: str) -> Iterator[tuple[str, Rules, int, int]]:
    """Yield every configuration: its name, rules, players and budget of positions."""
    big, small = BUDGETS[which]
    for name, rules in VARIANTS.items():
        for players in PLAYERS:
            yield f"{name}/{players}", rules, players, big
        try:
            short = attrs.evolve(rules, max_pip=6, hand_size=5)
        except RulesError:
            continue  # S2: the rules need a larger set (thirteen-rounds: the 12-12)
        for players in range(2, 5):
            yield f"{name}/double-6/{players}", short, players, small


def digest(rules: Rules, players: int, budget: int) -> tuple[str, int]:
    """Return the SHA-256 of a configuration's playouts, and the positions seen."""
    sha = hashlib.sha256()
    seen = 0
    seed = 0
    while seen < budget:
        try:
            state = new_game(players, rules, seed=seed)
        except MexicanTrainError as error:
            sha.update(f"refused:{type(error).__name__}:{error}".encode())
            return sha.hexdigest(), seen
        chooser = Chooser(seed)
        while seen < budget:
            moves = legal_moves(state)
            full = seen % EXTRA == 0
            parts = [encode_state(state, full), ";".join(move(m) for m in moves)]
            if full:
                if state.current_player is not None:
                    mine = view(state, state.current_player)
                    parts.append(encode_view(mine))
                    parts.append(";".join(move(m) for m in legal_moves(mine)))
                parts.append(refused(state, moves, chooser))
            sha.update("\n".join(parts).encode())
            seen += 1
            if not moves:
                break  # the game is over
            state = apply(state, moves[chooser.below(len(moves))])
        seed += 1
    return sha.hexdigest(), seen


def compute(which: str) -> tuple[dict[str, str], int]:
    """Return every configuration's digest, and the positions seen in all."""
    digests = {}
    total = 0
    for name, rules, players, budget in configurations(which):
        digests[name], seen = digest(rules, players, budget)
        total += seen
    return digests, total


def differences(which: str) -> list[str]:
    """Return the configurations whose digest differs from the kept one."""
    kept = json.loads(FILES[which].read_text())["digests"]
    found, _ = compute(which)
    return sorted(name for name in kept.keys() | found.keys() if kept.get(name) != found.get(name))


def main() -> None:
    """Check or write a digest file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", choices=sorted(FILES))
    action.add_argument("--write", choices=sorted(FILES))
    args = parser.parse_args()
    which = args.check or args.write
    start = time.perf_counter()
    if args.write:
        digests, total = compute(which)
        document = {"positions": total, "digests": digests}
        FILES[which].write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
        print(f"wrote {FILES[which].name}: {len(digests)} configurations, {total} positions")
    else:
        changed = differences(which)
        if changed:
            sys.exit(f"{which} digest: {len(changed)} configurations changed: {changed}")
        print(f"{which} digest unchanged")
    print(f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
