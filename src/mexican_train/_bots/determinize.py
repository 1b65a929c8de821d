"""Determinization: a complete state consistent with what one seat may know.

Search in a game of hidden information samples the hidden part -- the other hands and
the boneyard's order -- and plays the sampled world out.  Only the rules library knows
exactly what a seat can and cannot know, so it does the sampling: `determinize` deals
the tiles a seat cannot see uniformly at random, builds the state with the checked
`build_state`, and gives it a fresh seed, so that nothing hidden (not even the later
deals) leaks through it.  It sits above the core and uses its public functions, and a
few of the names the core offers the library's own layers for speed: a tile's index (to
keep the tiles seen in a mask), a state's public values and a state rebuilt from them
unchecked (`worlds`), a view changed unchecked (`view_with`, to undo the table at a
pass) and the checks of `build_state` (``build_checked_state``).
"""

from __future__ import annotations

import functools
import math
import random
import typing
from collections.abc import Callable, Iterable, Iterator

from .._core.engine import legal_moves, round_score
from .._core.errors import InvalidArgumentError
from .._core.moves import MEXICAN, Play, train_name
from .._core.state import GameState, Train, public_values, state_from_fields
from .._core.tiles import Tile, full_set, tile_index
from .._core.view import PlayerView, view_with
from .._formats import events as kinds
from .._positions.chance import build_checked_state

__all__ = ["determinize", "table_then", "worlds"]

# Between rounds, the hidden hands must score what the round's scores say (E3); the
# search for hands that do is randomized and restarted at most this many times.
_FIT_ATTEMPTS = 200
_FIT_STEPS = 400
# ... and then searched exhaustively for at most this many steps.
_EXACT_NODES = 2_000_000
_EVENT_TYPES: tuple[type[kinds.Event], ...] = typing.get_args(kinds.Event)


def determinize(
    view: PlayerView, rng: random.Random, history: Iterable[kinds.Event] | None = None
) -> GameState:
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

    The same *rng* state gives the same result, on every platform.

    With *history* None, every unseen tile is equally likely anywhere it is unseen.
    With *history* -- the events of the round so far as the seat saw them
    (`redact_events` of what `apply_with_events` gave, from the start of the round,
    in order) -- the sampler also keeps what the round has shown.  When a player
    who can play must (P7), a seat that passed without playing a tile that turn,
    and has neither played nor drawn since, holds no tile it could have played on
    the trains open to it then: such deals are never returned.  Tiles it drew since
    are unknown again, so nothing is inferred about a seat that has drawn or played
    after its pass.  Among the deals that fit, the sampler is uniform (by rejection,
    then by counting the deals that fit) -- unless the deals are too many to count
    in a fraction of a second, which takes several seats with such passes (at large
    tables, late in a round): then they come from a Markov chain over the deals
    that fit, whose stationary distribution is the uniform one, run a fixed number
    of steps.  Its deals fit, always; they are uniform only approximately.
    Between rounds and under open hands (V10) the history tells nothing more.

    Args:
        view: a seat's view (`view`), not a spectator's.
        rng: the source of randomness; it is advanced.
        history: the round's events as the seat saw them, or None.

    Raises:
        InvalidArgumentError: if *view* is a spectator's (seat None): it keeps no
            hand to hold fixed, and a state consistent with it is simply a new deal;
            or if no hands fit the round's scores (a view no game reaches), or if
            *history* does not fit the view.
        TypeError: if *view* is not a `PlayerView`, *rng* not a `random.Random`,
            or *history* holds something other than events.

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
    return _build(view, *_deal(view, _prepare(view, rng, history), rng), rng)


def worlds(
    view: PlayerView, rng: random.Random, history: Iterable[kinds.Event] | None = None
) -> Iterator[GameState]:
    """Yield ``determinize(view, rng, history)`` again and again, faster.

    The states are those successive calls would return, *rng* advanced alike: the
    view and the history are read once, the first state is built and checked by
    `build_state`, and each later one is the first with the hidden tiles dealt anew
    and a fresh seed -- the same parts, so the check would pass again.  Where the
    deals that fit the history are too many to count (`determinize`), the first
    state is still ``determinize``'s, but each later deal continues the Markov chain
    from the one before, with fewer steps than a fresh start needs.  Raises what
    `determinize` raises, on the first ``next``.
    """
    prepared = _prepare(view, rng, history)
    first = _build(view, *_deal(view, prepared, rng), rng)
    yield first
    values = public_values(first)
    while True:
        hands, boneyard = _deal(view, prepared, rng)
        values["hands"] = tuple(hands)
        values["boneyard"] = tuple(boneyard)
        values["seed"] = rng.getrandbits(64)
        yield state_from_fields(**values)


def _build(
    view: PlayerView, hands: list[tuple[Tile, ...]], boneyard: list[Tile], rng: random.Random
) -> GameState:
    """Return the state of *view* with these hands and boneyard and a fresh seed, checked.

    Checked as `build_state` checks, but for one thing: a hidden hand of the player to
    move is dealt at random, not only among the hands that their draw allows (P7: at
    most one tile with a legal play after it), so it is not held to that.
    """
    return build_checked_state(
        view.rules,
        view.players,
        rng.getrandbits(64),  # a fresh seed: the real one would tell every later deal (S6)
        view.round_number,
        hands,
        boneyard,
        view.trains,
        view.current_player,
        view.first_player,
        view.had_first_turn,
        view.turn_tiles,
        view.has_drawn,
        view.turn_doubles,
        view.open_doubles,
        view.idle_turns,
        view.scores,
        view.round_scores,
        view.last_tile_called,
        mover_hand_known=view.current_player == view.seat or view.open_hands is not None,
    )


# What a view and a history fix for every deal: the hands (the seat's own, and every
# hand under open hands, V10), the hidden seats, the unseen tiles, and the facts; and
# the last deal of the chain (`_chain_deal`), if any, which later deals continue.
_Prepared = tuple[list[tuple[Tile, ...]], list[int], list[Tile], dict[int, int], list[list[int]]]


def _prepare(
    view: PlayerView, rng: random.Random, history: Iterable[kinds.Event] | None
) -> _Prepared:
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
    facts = {} if history is None or not hidden else _facts(view, tuple(history), tuple(unseen))
    return hands, hidden, unseen, facts, []


def _deal(
    view: PlayerView, prepared: _Prepared, rng: random.Random
) -> tuple[list[tuple[Tile, ...]], list[Tile]]:
    """Deal the unseen tiles: each hidden hand, then the boneyard, in draw order."""
    hands, hidden, unseen, facts, chain = prepared
    hands = list(hands)
    unseen = list(unseen)
    if facts:
        # The seats the history tells about first, uniformly among the deals that fit;
        # the rest of the tiles, uniformly, to the others and the boneyard below.
        sizes = {other: view.hand_sizes[other] for other in facts}
        known = _deal_fitting(facts, unseen, sizes, rng, chain)
        for other, tiles in known.items():
            hands[other] = tuple(tiles)
        dealt = {tile for tiles in known.values() for tile in tiles}
        unseen = [tile for tile in unseen if tile not in dealt]
        hidden = [other for other in hidden if other not in facts]
    rng.shuffle(unseen)  # full_set's fixed order, then the rng: the same everywhere
    start = 0
    for other in hidden:
        size = view.hand_sizes[other]
        hands[other] = tuple(unseen[start : start + size])
        start += size
    boneyard = unseen[start:]
    if view.current_player is None and view.round_scores and hidden:
        _fit_scores(view, hands, hidden, boneyard, rng)
    return hands, boneyard


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
    ascending value with the sums still reachable checked at every step.  Whether the
    later hands can be filled depends only on the values left, not on which tiles
    carry them: tiles of one value are tried once at each step, and values left
    that failed once are not searched again.  Ties are broken at random (by *rng*).
    Gives up (None) after _EXACT_NODES steps.
    """
    budget = [_EXACT_NODES]
    order = sorted(range(len(sizes)), key=lambda k: (sizes[k], wanted[k]))
    chosen: list[list[Tile]] = [[] for _ in sizes]
    failed: set[tuple[int, tuple[int, ...]]] = set()

    def hands_from(k: int, left: list[Tile]) -> list[Tile] | None:
        # Fill hand order[k] and every later one from *left*; return what is left over.
        if k == len(order):
            return left
        values_left = (k, tuple(sorted(value[tile] for tile in left)))
        if values_left in failed:
            return None
        size, target = sizes[order[k]], wanted[order[k]]
        for picked in combinations_of(left, size, target):
            rest = [tile for tile in left if tile not in picked]
            found = hands_from(k + 1, rest)
            if found is not None:
                chosen[order[k]] = picked
                return found
        if budget[0] >= 0:  # searched to the end, not cut short
            failed.add(values_left)
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
                if index > start and values[index] == values[index - 1]:
                    continue  # the same value again: the same hands follow
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


# -- inference: what the round has shown ---------------------------------------------

# Worlds drawn uniformly and kept if they fit the facts, before the exact sampler.
_REJECTION_TRIES = 16


@functools.lru_cache(maxsize=64)  # a search determinizes one view many times
def _facts(
    view: PlayerView, history: tuple[kinds.Event, ...], unseen: tuple[Tile, ...]
) -> dict[int, int]:
    """Return, for each other seat whose pass still tells something, the unseen tiles it lacks.

    The masks are of positions in *unseen*.  A seat's pass tells something when the
    rules make a player who can play do so (P7), it played no tile in that turn, and
    since the pass it has neither played nor drawn: its hand is then the hand it
    passed with, which held no tile it could play on the trains open to it then.
    Those tiles are found by asking `legal_moves` about the table as it was, undone
    from the view event by event, with each tile alone in the seat's hand.  The
    answer is cached (do not change it).
    """
    events = list(history)
    for event in events:
        if not isinstance(event, _EVENT_TYPES):
            raise TypeError(
                f"determinize() needs history to hold events, not {type(event).__name__}"
            )
    starts = [i for i, event in enumerate(events) if type(event) is kinds.RoundStarted]
    round_begun = bool(starts)
    if starts:
        events = events[starts[-1] + 1 :]  # the current round only
    seat = view.seat
    if not view.rules.must_play or view.current_player is None or view.open_hands is not None:
        return {}
    # The last informative pass of each other seat, if it has not acted since.
    passes: dict[int, int] = {}
    played_this_turn: set[int] = set()
    for index, event in enumerate(events):
        if type(event) is kinds.TurnStarted:
            played_this_turn.discard(event.seat)
        elif type(event) is kinds.TilePlayed:
            passes.pop(event.seat, None)
            played_this_turn.add(event.seat)
        elif type(event) is kinds.TileDrawn:
            passes.pop(event.seat, None)
        elif type(event) is kinds.Passed:
            who = event.seat
            if who != seat and who not in played_this_turn:
                passes[who] = index
            else:
                passes.pop(who, None)
    facts: dict[int, int] = {}
    for who, index in passes.items():
        table = _table_then(view, events, index, who, round_begun)
        lacks = 0
        for position, tile in enumerate(unseen):
            alone = view_with(table, hand=(tile,))
            if any(type(move) is Play and move.tile == tile for move in legal_moves(alone)):
                lacks |= 1 << position
        if lacks:
            facts[who] = lacks
    return facts


def table_then(
    view: PlayerView, events: list[kinds.Event], index: int, who: int, round_begun: bool
) -> PlayerView:
    """Return *who*'s view, as to the table, just before its pass at *events[index]*.

    *events* are the round's events as *view*'s seat saw them, from the round's start
    up to *view* (without the `RoundStarted`, which *round_begun* says was there).  The
    trains and markers are undone from *view*; the open doubles, the owners' plays on
    their own trains and *who*'s first turn are followed from the round's start; *who*
    is to move, has drawn, and the boneyard is empty.

    Raises:
        InvalidArgumentError: if *events* do not fit *view*.
    """
    return _table_then(view, events, index, who, round_begun)


def _table_then(
    view: PlayerView, events: list[kinds.Event], index: int, who: int, round_begun: bool
) -> PlayerView:
    """Return *who*'s view, as to the table, just before its pass at *events[index]*.

    The trains' tiles and markers are undone from *view*, event by event back to the
    pass; what only the round's start can tell (the open doubles in the order they were
    left open, D3, and which owners have played on their own train) is followed forward
    from it, since *events* begin with the round.
    """
    trains = list(view.trains)
    mexican = len(trains) - 1
    for event in reversed(events[index:]):
        if type(event) is kinds.TilePlayed:
            at = mexican if event.train == MEXICAN else event.train
            train = trains[at]
            if not train.tiles or train.tiles[-1] != event.tile:
                raise InvalidArgumentError(
                    f"history does not fit the view: {event.tile} is not the last tile of "
                    f"{train_name(event.train)}"
                )
            before = event.tile.other_end(train.open_end)
            trains[at] = Train(train.tiles[:-1], before, train.marked, train.owner_played)
        elif type(event) is kinds.MarkerPlaced or type(event) is kinds.MarkerRemoved:
            at = mexican if event.train == MEXICAN else event.train
            train = trains[at]
            trains[at] = Train(
                train.tiles, train.open_end, type(event) is kinds.MarkerRemoved, train.owner_played
            )
    open_doubles: list[int] = []
    owners_played: set[int] = set()
    for event in events[:index]:
        if type(event) is kinds.DoubleOpened:
            open_doubles.append(event.train)
        elif type(event) is kinds.DoubleClosed:
            if event.train not in open_doubles:
                raise InvalidArgumentError(
                    f"history does not fit the view: {event!r} closes no open double"
                )
            open_doubles.remove(event.train)
        elif type(event) is kinds.TilePlayed and event.train == event.seat:
            owners_played.add(event.seat)
    for at in range(view.players):
        train = trains[at]
        trains[at] = Train(train.tiles, train.open_end, train.marked, at in owners_played)
    # Its turns so far, the one it passed in included (the first player's first turn
    # has no kinds.TurnStarted when the history begins with the game, not a kinds.RoundStarted).
    turns = sum(type(e) is kinds.TurnStarted and e.seat == who for e in events[:index])
    if not round_begun and who == view.first_player:
        turns += 1
    had_first_turn = list(view.had_first_turn)
    had_first_turn[who] = turns > 1
    return view_with(
        view,
        seat=who,
        current_player=who,
        trains=tuple(trains),
        open_doubles=tuple(open_doubles),
        turn_doubles=(),
        turn_tiles=0,
        has_drawn=True,
        boneyard_size=0,
        had_first_turn=tuple(had_first_turn),
        last_tile_called=True,
    )


_Splits = list[tuple[int, tuple[int, ...], tuple[int, ...]]]


class _OverBudget(Exception):
    """The exact sampler's count would take more than its budget of splits."""


@functools.lru_cache(maxsize=1)
def _fitting_splits(
    masks: tuple[int, ...], counts: tuple[int, ...], caps: tuple[int, ...], budget: int
) -> tuple[Callable[[int, tuple[int, ...]], int], Callable[[int, tuple[int, ...]], _Splits]] | None:
    """Return the exact sampler's count, ``ways``, and ``splits`` (`_deal_fitting`), for
    classes of tiles of *masks* and *counts* among seats of room *caps*; None if
    counting the fitting deals takes more than *budget* splits.

    Kept, with the counts made, for the samples that follow: every sample of one
    decision deals the same classes, and counting them may take long (many seats
    with facts) -- or be given up, once, for the whole decision.
    """
    seats = len(caps)
    spent = [0]  # splits made while counting; drawing is not limited

    @functools.cache
    def ways(c: int, caps: tuple[int, ...]) -> int:
        # The fitting splits of classes c.. into the seats' remaining room *caps*.
        if c == len(masks):
            return int(not any(caps))
        return sum(weight * ways(c + 1, rest) for weight, _, rest in splits(c, caps))

    def splits(c: int, caps: tuple[int, ...]) -> _Splits:
        # Each way to give seats of the class's mask some of its tiles: the number of
        # ways to choose which tiles, the split, and the room left.
        found: _Splits = []

        def go(k: int, left: int, weight: int, taken: tuple[int, ...]) -> None:
            if k == seats:
                spent[0] += 1
                if spent[0] > budget >= 0:
                    raise _OverBudget
                rest = tuple(cap - take for cap, take in zip(caps, taken, strict=True))
                found.append((weight, taken, rest))
                return
            most = min(left, caps[k]) if masks[c] >> k & 1 else 0
            for take in range(most + 1):
                go(k + 1, left - take, weight * math.comb(left, take), (*taken, take))

        go(0, counts[c], 1, ())
        return found

    try:
        ways(0, caps)
    except _OverBudget:
        return None
    budget = -1  # counted: drawing is not limited
    return ways, splits


# The exact sampler's budget: the splits its count may make (`_fitting_splits`) before
# `_deal_fitting` gives it up for the chain: about 0.3 s of counting in pure Python, at
# most once a decision.  The largest count of 4-player HUB and STANDARD games makes a
# quarter of it (docs/explanation/search.rst).
_EXACT_SPLITS = 200_000
# The chain's steps for each tile the seats hold, before its first deal and between
# deals of one `worlds` (`_chain_deal`).
_CHAIN_BURN_IN = 40
_CHAIN_STEPS = 5


def _deal_fitting(
    facts: dict[int, int],
    unseen: list[Tile],
    sizes: dict[int, int],
    rng: random.Random,
    chain: list[list[int]] | None = None,
    budget: int | None = None,
) -> dict[int, list[Tile]]:
    """Return the hands of the seats in *facts*, uniformly among those that fit them
    (approximately so when they are too many to count).

    A seat of *facts* holds none of the tiles its mask marks.  First by rejection:
    hands drawn uniformly, kept if they fit (a uniform draw conditioned on fitting
    is uniform among the hands that fit).  Then, if none of a few draws fits, by
    counting: the tiles fall into classes by the set of these seats that may hold
    them; the number of fitting deals that give each seat so many tiles of each
    class is a product of multinomials, so each class's split is drawn in
    proportion to the number of deals that follow from it, and the tiles of a class
    go to its split's places in a uniform random order.  Both are uniform among the
    fitting deals, so whichever gives the result, it is uniform.  The tiles no seat
    of *facts* receives are the rest, dealt afterwards uniformly to the other seats
    and the boneyard.

    The count grows exponentially with the seats of *facts*: when it would take more
    than *budget* splits (`_EXACT_SPLITS` by default), which happens only with many
    seats that passed, the deal comes from a Markov chain instead (`_chain_deal`):
    it fits the facts, always, and is uniform only approximately.  *chain* holds the
    chain's last deal, kept from one call to the next (empty at first).
    """
    seats = sorted(facts)
    for _ in range(_REJECTION_TRIES):
        picks = rng.sample(range(len(unseen)), sum(sizes[s] for s in seats))
        hands: dict[int, list[Tile]] = {}
        start = 0
        fits = True
        for s in seats:
            mine = picks[start : start + sizes[s]]
            start += sizes[s]
            if any(facts[s] >> p & 1 for p in mine):
                fits = False
                break
            hands[s] = [unseen[p] for p in mine]
        if fits:
            return hands
    # The exact sampler: classes by the mask of the seats that may hold a tile.
    by_mask: dict[int, list[Tile]] = {}
    for position, tile in enumerate(unseen):
        mask = sum(1 << k for k, s in enumerate(seats) if not facts[s] >> position & 1)
        by_mask.setdefault(mask, []).append(tile)
    classes = sorted(by_mask.items())
    caps = tuple(sizes[s] for s in seats)
    counted = _fitting_splits(
        tuple(mask for mask, _ in classes),
        tuple(len(tiles) for _, tiles in classes),
        caps,
        _EXACT_SPLITS if budget is None else budget,
    )
    if counted is None:
        return _chain_deal(facts, unseen, sizes, rng, [] if chain is None else chain)
    ways, splits = counted
    if ways(0, caps) == 0:
        raise _no_fitting_deal()
    hands = {s: [] for s in seats}
    for c, (_, tiles) in enumerate(classes):
        options = splits(c, caps)
        pick = rng.randrange(ways(c, caps))
        for option in options:
            pick -= option[0] * ways(c + 1, option[2])
            if pick < 0:
                break
        _, taken, rest = option
        shuffled = tiles[:]
        rng.shuffle(shuffled)
        start = 0
        for k, take in enumerate(taken):
            hands[seats[k]] += shuffled[start : start + take]
            start += take
        caps = rest
    return hands


def _no_fitting_deal() -> InvalidArgumentError:
    return InvalidArgumentError(
        "no deal of the unseen tiles fits the history: a seat that passed would hold a "
        "tile it could have played (the history is not this view's)"
    )


def _chain_deal(
    facts: dict[int, int],
    unseen: list[Tile],
    sizes: dict[int, int],
    rng: random.Random,
    chain: list[list[int]],
) -> dict[int, list[Tile]]:
    """Return the hands of the seats in *facts* from a Markov chain over the deals that fit.

    A deal gives each unseen tile a place: one of these seats, or the rest (the
    other seats and the boneyard, dealt afterwards).  The chain starts from a deal
    that fits, found by augmenting paths (`_first_fit`), and moves by proposals
    symmetric in the deals -- swap a tile of these seats with any tile, or rotate
    such a tile and two others through their places -- kept only if every tile
    moved may be where it lands.  Symmetric proposals kept by that rule leave the
    uniform distribution over the fitting deals stationary, and every deal visited
    fits the facts.  The deal returned is the chain's after `_CHAIN_BURN_IN` steps
    for each tile the seats hold, from the start, or `_CHAIN_STEPS` for each from
    *chain*'s deal, the last one returned, which *chain* then holds: close to
    uniform when the moves connect the fitting deals and those steps mix them, not
    exactly.

    Raises:
        InvalidArgumentError: if no deal fits.
    """
    seats = sorted(facts)
    rest = len(seats)
    # What places each tile may take: the seats without it in their facts, and the rest.
    allowed = [
        sum(1 << k for k, s in enumerate(seats) if not facts[s] >> p & 1) | 1 << rest
        for p in range(len(unseen))
    ]
    if chain:
        place, sweeps = chain[0], _CHAIN_STEPS
    else:
        room = [sizes[s] for s in seats] + [len(unseen) - sum(sizes[s] for s in seats)]
        found = _first_fit(allowed, room)
        if found is None:
            raise _no_fitting_deal()
        place, sweeps = found, _CHAIN_BURN_IN
    held = [p for p in range(len(unseen)) if place[p] != rest]  # the seats' tiles
    n = len(unseen)
    for _ in range(sweeps * len(held)):
        a = rng.randrange(len(held))
        i, j = held[a], rng.randrange(n)
        if rng.getrandbits(1):
            # Swap i and j: reversed by swapping them back (j then held, i anywhere).
            pi, pj = place[i], place[j]
            if pi != pj and allowed[i] >> pj & 1 and allowed[j] >> pi & 1:
                place[i], place[j] = pj, pi
                if pj == rest:
                    held[a] = j
        else:
            # Rotate: i to j's place, j to k's, k to i's; reversed by (k, j, i), k held.
            k = rng.randrange(n)
            pi, pj, pk = place[i], place[j], place[k]
            if (
                len({i, j, k}) == 3
                and allowed[i] >> pj & 1
                and allowed[j] >> pk & 1
                and allowed[k] >> pi & 1
            ):
                place[i], place[j], place[k] = pj, pk, pi
                held = [p for p in range(n) if place[p] != rest]
    chain[:] = [place]
    hands: dict[int, list[Tile]] = {s: [] for s in seats}
    for p, where in enumerate(place):
        if where != rest:
            hands[seats[where]].append(unseen[p])
    for tiles in hands.values():
        rng.shuffle(tiles)
    return hands


def _first_fit(allowed: list[int], room: list[int]) -> list[int] | None:
    """Return a place for every tile, each in its *allowed* mask, filling each place's
    *room* exactly; None if there is none (a b-matching by augmenting paths)."""
    if min(room) < 0:
        return None
    place = [-1] * len(allowed)
    free = room[:]
    holding: list[list[int]] = [[] for _ in room]

    def settle(tile: int, seen: set[int]) -> bool:
        # Put *tile* in a place with room, or in a full one whose tile moves on, and so on.
        for q in range(len(room)):
            if not allowed[tile] >> q & 1 or q in seen:
                continue
            seen.add(q)
            if free[q] > 0:
                free[q] -= 1
            else:
                moved = next((other for other in holding[q] if settle(other, seen)), None)
                if moved is None:
                    continue
                holding[q].remove(moved)
            place[tile] = q
            holding[q].append(tile)
            return True
        return False

    for tile in range(len(allowed)):
        if not settle(tile, set()):
            return None
    return place
