"""Determinization: a complete state consistent with what one seat may know.

Search in a game of hidden information samples the hidden part -- the other hands and
the boneyard's order -- and plays the sampled world out.  Only the rules library knows
exactly what a seat can and cannot know, so it does the sampling: `determinize` deals
the tiles a seat cannot see uniformly at random, builds the state with the checked
`build_state`, and gives it a fresh seed, so that nothing hidden (not even the later
deals) leaks through it.  It sits above the core and uses only the public API (and a
tile's private index, to keep the tiles seen in a mask).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .._core.engine import round_score
from .._core.errors import InvalidArgumentError
from .._core.state import GameState
from .._core.tiles import Tile, full_set, tile_index
from .._core.view import PlayerView
from .._positions.chance import build_state

__all__ = ["determinize"]

# Between rounds, the hidden hands must score what the round's scores say (E3); the
# search for hands that do is randomized and restarted at most this many times.
_FIT_ATTEMPTS = 200
_FIT_STEPS = 400
# ... and then searched exhaustively for at most this many steps.
_EXACT_NODES = 2_000_000


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """Return a complete state whose view for the viewing seat is *view*.

    ``view(determinize(v, rng), v.seat) == v`` always holds.  The tiles the seat cannot
    see (S5) -- the other hands and the boneyard -- are dealt uniformly at random, in
    the sizes the view shows, and the boneyard is shuffled.  With open hands (V10)
    only the boneyard's order is hidden.  The state gets a fresh seed drawn from
    *rng*, so later rounds are dealt afresh: the real seed, which fixes every deal
    (S6), is never known to a seat and never leaks.

    Between rounds (the round scored, `NextRound` to come) the next deal is what is
    unknown, and the fresh seed deals it.  The finished round's hidden hands must
    score what the round's scores say (E3): they are drawn at random among hands
    that do, not uniformly; they play no further part in the game.

    The same *rng* state gives the same result, on every platform.  Tiles other seats
    are known not to hold (they drew when they could not play) are not taken into
    account: every unseen tile is equally likely anywhere it is unseen.

    Args:
        view: a seat's view (`view`), not a spectator's.
        rng: the source of randomness; it is advanced.

    Raises:
        InvalidArgumentError: if *view* is a spectator's (seat None): it keeps no
            hand to hold fixed, and a state consistent with it is simply a new deal;
            or if no hands fit the round's scores (a view no game reaches).
        TypeError: if *view* is not a `PlayerView` or *rng* not a `random.Random`.

    >>> import random
    >>> from mexican_train import HUB, new_game, view
    >>> state = new_game(4, HUB, seed=1)
    >>> mine = view(state, 2)
    >>> world = determinize(mine, random.Random(7))
    >>> view(world, 2) == mine, world.hand(2) == state.hand(2)
    (True, True)
    >>> world.hands == state.hands or world.seed == state.seed
    False
    >>> determinize(mine, random.Random(7)) == world
    True
    """
    if not isinstance(view, PlayerView):
        raise TypeError(f"determinize() needs a PlayerView, not {type(view).__name__}")
    if not isinstance(rng, random.Random):
        raise TypeError(f"determinize() needs a random.Random, not {type(rng).__name__}")
    seat = view.seat
    if seat is None:
        raise InvalidArgumentError(
            "determinize() needs a seat's view: a spectator view (seat None) holds no "
            "hand to keep, so every state of the round would fit it"
        )
    shown: list[tuple[Tile, ...]] = [(view.engine,), view.hand]
    shown += [train.tiles for train in view.trains]
    hands: list[tuple[Tile, ...]]
    if view.open_hands is not None:
        # V10: every hand is shown; only the boneyard's order is hidden.
        hands = list(view.open_hands)
        hidden: list[int] = []
        shown += hands
    else:
        hands = [() for _ in range(view.players)]
        hands[seat] = view.hand
        hidden = [other for other in range(view.players) if other != seat]
    unseen = _unseen(view.max_pip, shown)
    rng.shuffle(unseen)  # full_set's fixed order, then the rng: the same everywhere
    start = 0
    for other in hidden:
        size = view.hand_sizes[other]
        hands[other] = tuple(unseen[start : start + size])
        start += size
    boneyard = unseen[start:]
    if view.current_player is None and view.round_scores and hidden:
        _fit_scores(view, hands, hidden, boneyard, rng)
    return build_state(
        rules=view.rules,
        players=view.players,
        seed=rng.getrandbits(64),  # fresh: the real seed would tell every later deal (S6)
        round_number=view.round_number,
        hands=hands,
        boneyard=boneyard,
        trains=view.trains,
        current_player=view.current_player,
        first_player=view.first_player,
        had_first_turn=view.had_first_turn,
        turn_tiles=view.turn_tiles,
        has_drawn=view.has_drawn,
        turn_doubles=view.turn_doubles,
        open_doubles=view.open_doubles,
        idle_turns=view.idle_turns,
        scores=view.scores,
        round_scores=view.round_scores,
        last_tile_called=view.last_tile_called,
    )


def _unseen(max_pip: int, shown: list[tuple[Tile, ...]]) -> list[Tile]:
    # The tiles of the set not shown, in the set's order.  The tiles seen are kept as a
    # mask of tile indices (an int: no Tile.__hash__ calls); if anything shown
    # is not a Tile (a view built by hand), as a set, as always, and build_state then
    # refuses the parts as before.
    seen = 0
    for group in shown:
        for tile in group:
            if type(tile) is not Tile:
                known = {tile for group in shown for tile in group}
                return [tile for tile in full_set(max_pip) if tile not in known]
            seen |= 1 << tile_index(tile)
    return [tile for tile in full_set(max_pip) if not seen >> tile_index(tile) & 1]


def _fit_scores(
    view: PlayerView,
    hands: list[tuple[Tile, ...]],
    hidden: list[int],
    boneyard: list[Tile],
    rng: random.Random,
) -> None:
    """Redeal *hands[hidden]* and *boneyard* in place so each hidden hand scores its E3 score.

    A randomized local search: swap tiles between a hand that scores wrong and the
    other hidden places while the total error falls; restart from a fresh shuffle
    when it stalls.
    """
    rules = view.rules
    value = {
        t: round_score([t], rules) for t in (*boneyard, *(t for s in hidden for t in hands[s]))
    }
    targets = {s: view.round_scores[-1][s] for s in hidden}
    groups = [list(hands[s]) for s in hidden] + [boneyard[:]]
    wanted = [targets[s] for s in hidden]
    pool = [t for group in groups for t in group]
    sizes = [len(group) for group in groups]
    for _ in range(_FIT_ATTEMPTS):
        errors = [
            sum(value[t] for t in group) - want for group, want in zip(groups, wanted, strict=False)
        ]
        for _ in range(_FIT_STEPS):
            wrong = [i for i, error in enumerate(errors) if error]
            if not wrong:
                for s, group in zip(hidden, groups, strict=False):
                    hands[s] = tuple(group)
                boneyard[:] = groups[-1]
                return
            i = rng.choice(wrong)
            best: list[tuple[int, int, int]] = []
            best_gain = 0
            for j, other in enumerate(groups):
                if j == i:
                    continue
                for a, tile in enumerate(groups[i]):
                    for b, swap in enumerate(other):
                        delta = value[swap] - value[tile]
                        before = abs(errors[i]) + (abs(errors[j]) if j < len(wanted) else 0)
                        after = abs(errors[i] + delta) + (
                            abs(errors[j] - delta) if j < len(wanted) else 0
                        )
                        gain = before - after
                        if gain > best_gain:
                            best, best_gain = [(j, a, b)], gain
                        elif gain == best_gain and gain > 0:
                            best.append((j, a, b))
            if not best:
                break  # stalled: start again from a fresh shuffle
            j, a, b = rng.choice(best)
            delta = value[groups[j][b]] - value[groups[i][a]]
            groups[i][a], groups[j][b] = groups[j][b], groups[i][a]
            errors[i] += delta
            if j < len(wanted):
                errors[j] -= delta
        rng.shuffle(pool)
        start = 0
        for k, size in enumerate(sizes):
            groups[k] = pool[start : start + size]
            start += size
    # The local search can stall on a plateau (many hands, few tiles each): search
    # exhaustively, within a bound, before calling the view unreachable.
    found = _exact_fit(pool, value, [len(hands[s]) for s in hidden], wanted, rng)
    if found is not None:
        for s, group in zip(hidden, found, strict=False):
            hands[s] = tuple(group)
        boneyard[:] = found[-1]
        return
    raise InvalidArgumentError(
        f"no hands of sizes {[view.hand_sizes[s] for s in hidden]} from the unseen tiles "
        f"score {[targets[s] for s in hidden]} (E3): no game reaches this view"
    )


def _exact_fit(
    pool: list[Tile],
    value: dict[Tile, int],
    sizes: list[int],
    wanted: list[int],
    rng: random.Random,
) -> list[list[Tile]] | None:
    """Return hands of *sizes* scoring *wanted*, then the rest of *pool*; None if none.

    Backtracking over the hands, the smallest first; each hand's tiles are chosen in
    ascending value with the sums still reachable checked at every step.  Ties are
    broken at random (by *rng*).  Gives up (None) after _EXACT_NODES steps.
    """
    budget = [_EXACT_NODES]
    order = sorted(range(len(sizes)), key=lambda k: (sizes[k], wanted[k]))
    chosen: list[list[Tile]] = [[] for _ in sizes]

    def hands_from(k: int, left: list[Tile]) -> list[Tile] | None:
        # Fill hand order[k] and every later one from *left*; return what is left over.
        if k == len(order):
            return left
        size, target = sizes[order[k]], wanted[order[k]]
        for picked in combinations_of(left, size, target):
            rest = [tile for tile in left if tile not in picked]
            found = hands_from(k + 1, rest)
            if found is not None:
                chosen[order[k]] = picked
                return found
        return None

    def combinations_of(tiles: list[Tile], size: int, target: int) -> Iterator[list[Tile]]:
        shuffled = tiles[:]
        rng.shuffle(shuffled)
        ranked = sorted(shuffled, key=value.__getitem__)  # stable: ties stay shuffled
        values = [value[tile] for tile in ranked]

        def pick(start: int, count: int, total: int, picked: list[Tile]) -> Iterator[list[Tile]]:
            budget[0] -= 1
            if budget[0] < 0:
                return
            if count == 0:
                if total == 0:
                    yield picked
                return
            for index in range(start, len(ranked) - count + 1):
                low = sum(values[index : index + count])  # the smallest sum from here
                if low > total:
                    return  # ascending: every later start is larger still
                high = sum(values[len(ranked) - count + 1 :]) + values[index]
                if high < total:
                    continue
                yield from pick(
                    index + 1, count - 1, total - values[index], [*picked, ranked[index]]
                )

        return pick(0, size, target, [])

    rest = hands_from(0, pool[:])
    if rest is None:
        return None
    return [*chosen, rest]
