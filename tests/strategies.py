"""Every Hypothesis strategy the tests use, in one place."""

from __future__ import annotations

import copy
import inspect
import json
import random
import re
from typing import Any

import attrs
from hypothesis import strategies as st

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    CloseInOrder,
    Deal,
    DealTable,
    Draw,
    EnginePlacement,
    FirstTurn,
    GameState,
    MexicanFromFirstTurn,
    MexicanFromSecondTurn,
    MexicanTrainRule,
    Move,
    NextRound,
    Pass,
    Play,
    Rules,
    RulesError,
    Tile,
    apply,
    build_state,
    full_set,
    legal_moves,
    new_game,
    set_size,
)
from mexican_train.variants import (
    VARIANTS,
    CloseAnyOrder,
    CoverOwnDouble,
    MexicanAfterAllTrains,
    MexicanAfterOwnTrain,
    NeverBind,
    NoMexicanTrain,
    OpenDoubleRule,
    StrictCloseInOrder,
    combine,
)

# -- positions from random play (rendering, front ends) ----------------------------------------


@st.composite
def played_positions(draw: st.DrawFn, max_players: int = 8, max_moves: int = 250) -> GameState:
    """A state reached by random legal moves from a new game (either preset, 2..max_players)."""
    rules = draw(st.sampled_from([STANDARD, HUB]))
    players = draw(st.integers(2, max_players))
    seed = draw(st.integers(0, 2**32 - 1))
    moves = draw(st.integers(0, max_moves))
    rng = random.Random(seed)
    state = new_game(players, rules, seed=seed)
    return _play_randomly(state, moves, rng, draw(_STOPS_BETWEEN_ROUNDS))


# A quarter of the random positions are taken at the end of the round that the
# random walk is in after its moves: a walk otherwise almost never stops between
# rounds, where NextRound is the only move (measured: 0 of 300 `positions()`, 3 of
# 300 `played_positions()`).
_STOPS_BETWEEN_ROUNDS = st.integers(0, 3).map(lambda k: k == 3)


def _play_randomly(
    state: GameState, moves: int, rng: random.Random, stop_between_rounds: bool
) -> GameState:
    for _ in range(moves):
        if state.is_over or (stop_between_rounds and state.is_round_over):
            return state
        state = apply(state, rng.choice(legal_moves(state)))
    while stop_between_rounds and not state.is_round_over:  # every round ends (E1)
        state = apply(state, rng.choice(legal_moves(state)))
    return state


@st.composite
def rendered_positions(draw: st.DrawFn) -> tuple[GameState, Move | None, list[str] | None]:
    """A position to draw: a state from random play on a set of pips or of numbers (up to
    double-18), the move that led to it, and display names of any length, or None."""
    rules = draw(st.sampled_from([STANDARD, HUB]))
    max_pip = draw(st.sampled_from([None, 6, 9, 15, 18]))
    players = draw(st.integers(2, 6 if max_pip in (6, 9) else 8))
    if max_pip is not None:  # a hand size that leaves a boneyard, whatever the deal table says
        hand_size = max(2, min(12, (set_size(max_pip) - 1) // players - 2))
        rules = attrs.evolve(rules, max_pip=max_pip, hand_size=hand_size)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    state = new_game(players, rules, seed=seed)
    last: Move | None = None
    for _ in range(draw(st.integers(0, 300))):
        if state.is_over:
            break
        last = rng.choice(legal_moves(state))
        state = apply(state, last)
    names = draw(st.none() | st.lists(st.text(min_size=0, max_size=30), min_size=players,
                                      max_size=players))  # fmt: skip
    return state, last, names


# -- rules, player counts and positions (the property suite, the state machine) ----------------

#: The two presets, with their names for readable test ids.
PRESETS = {"STANDARD": STANDARD, "HUB": HUB}


def presets() -> st.SearchStrategy[Rules]:
    """`STANDARD` or `HUB`."""
    return st.sampled_from([STANDARD, HUB])


def seeds() -> st.SearchStrategy[int]:
    """A game seed: any 64-bit whole number (S6)."""
    return st.integers(min_value=0, max_value=2**64 - 1)


def player_counts(rules: Rules) -> st.SearchStrategy[int]:
    """A player count that the preset's deal table covers (S1: 2-14 for A, 2-12 for B)."""
    counts = rules.deal_table.player_counts
    return st.integers(min_value=counts.start, max_value=counts.stop - 1)


@st.composite
def preset_tables(draw: st.DrawFn) -> tuple[Rules, int]:
    """A preset and a player count its deal table covers: a game `new_game` can set up."""
    rules = draw(presets())
    return rules, draw(player_counts(rules))


_MEXICAN_RULES: list[MexicanTrainRule] = [
    MexicanFromFirstTurn(),
    MexicanFromSecondTurn(),
    NoMexicanTrain(),
    MexicanAfterOwnTrain(),
    MexicanAfterAllTrains(),
]


def open_double_rules() -> st.SearchStrategy[OpenDoubleRule]:
    """An open-double rule: `CloseInOrder` or one of the catalogue's (V3, V4)."""
    flags = {"reverse": st.booleans(), "release_dead": st.booleans()}
    return st.one_of(
        st.builds(CloseInOrder, **flags),
        st.builds(StrictCloseInOrder, **flags),
        st.builds(CoverOwnDouble, **flags),
        st.builds(CloseAnyOrder, release_dead=st.booleans()),
        st.just(NeverBind()),
    )


#: The catalogue's house rules: every variant but the two presets.
HOUSE_RULES = [name for name in VARIANTS if name not in ("standard", "hub")]


@st.composite
def combinations(draw: st.DrawFn, bases: tuple[str, ...] = ("standard", "hub")) -> tuple[str, ...]:
    """A base and house rules from the catalogue that `combine` accepts together.

    The house rules are drawn in a random order, and each one that would conflict
    with those kept so far (another value of a setting, another kind of a rule, or
    a setting the kept kind of rule does not have) is left out, so every draw combines.
    """
    base = draw(st.sampled_from(bases))
    wanted = draw(st.lists(st.sampled_from(HOUSE_RULES), max_size=5, unique=True))
    kept: list[str] = []
    for name in wanted:
        try:
            combine(base, *kept, name)
        except RulesError:
            continue
        kept.append(name)
    return (base, *kept)


@st.composite
def must_play_small_games(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """Catalogue rules that keep must-play (P7), on a double-6 or double-9 set with small
    hands, two rounds: blocked rounds (E2) are common.  Also a player count (2-4) and a seed.

    The rules are a `combinations` draw without ``voluntary-draw`` (V6), whose players
    may pass holding a play; ``thirteen-rounds`` is left out too (it needs the 12-12).
    """
    left_out = ("voluntary-draw", "thirteen-rounds")
    names = [name for name in draw(combinations()) if name not in left_out]
    rules = attrs.evolve(
        combine(*names),
        max_pip=draw(st.sampled_from([6, 9])),
        hand_size=draw(st.integers(3, 6)),
        rounds=2,
    )
    return rules, draw(st.integers(2, 4)), draw(seeds())


def _smallest_set(players: int, set_aside: int) -> int:
    # The smallest double-N set that deals two tiles to every player (S1: a hand is >= 2).
    max_pip = 1
    while set_size(max_pip) - set_aside < 2 * players:
        max_pip += 1
    return max_pip


@st.composite
def variant_tables(draw: st.DrawFn, max_pip: int = 12, max_rounds: int = 3) -> tuple[Rules, int]:
    """A preset changed by `attrs.evolve` on its fields, and a player count it can deal for.

    Varies the set and a hand size that fits it (S1, V8), the double-blank score
    (V7), the number and order of rounds (V9), must-play (V6), the first turn (V1),
    the Mexican-train rule (V2), engine placement (V5), open hands (V10), the
    open-double rule with its ``reverse`` and ``release_dead`` (V3, V4), and the
    catalogue's switches (draw until playable, the last-tile call, shared ties).
    It varies the highest engine (S2) and when a marker goes (P6) too.
    The number of rounds is kept at
    *max_rounds* or fewer, and the set at double-*max_pip* or smaller, so that games
    stay short.
    """
    base = draw(presets())
    players = draw(player_counts(base))
    placement = draw(st.sampled_from(EnginePlacement))
    set_aside = 1 if placement is EnginePlacement.SET_ASIDE else 0
    smallest = _smallest_set(players, set_aside)
    pip = draw(st.integers(min_value=smallest, max_value=max(smallest, max_pip)))
    most = (set_size(pip) - set_aside) // players
    hand_size = draw(st.integers(min_value=2, max_value=most))
    first_turn = draw(st.none() | st.builds(FirstTurn, chain=st.booleans(), may_draw=st.booleans()))
    rounds = draw(st.integers(min_value=1, max_value=min(max_rounds, pip + 1)))
    rules = attrs.evolve(
        base,
        engine_placement=placement,
        max_pip=pip,
        hand_size=hand_size,
        double_blank_score=draw(st.sampled_from([50, 25, 0]) | st.integers(-10, 100)),
        rounds=rounds,
        highest_engine=draw(st.none() | st.integers(min_value=rounds - 1, max_value=pip)),
        ascending=draw(st.booleans()),
        must_play=draw(st.booleans()),
        first_turn=first_turn,
        mexican_train=draw(st.sampled_from(_MEXICAN_RULES)),
        open_doubles=draw(open_double_rules()),
        open_hands=draw(st.booleans()),
        draw_until_playable=draw(st.booleans()),
        last_tile_penalty=draw(st.sampled_from([0, 0, 1, 2])),
        tie_break=draw(st.booleans()),
        marker_lifts_anywhere=draw(st.booleans()),
    )
    return rules, players


@st.composite
def own_tables(draw: st.DrawFn, max_pip: int = 6, max_players: int = 16) -> tuple[Rules, int]:
    """A preset with a deal table of the user's own, and the player count it deals for.

    The table has no public name (JSON writes it row by row, the notation ``custom``), a
    small set (double-1 up) and any player count it can deal two tiles to, one player
    included (S1).  The set, the hand size, the engine placement (V5) and up to 3 rounds
    (V9) vary.
    """
    base = draw(presets())
    placement = draw(st.sampled_from(EnginePlacement))
    set_aside = 1 if placement is EnginePlacement.SET_ASIDE else 0
    pip = draw(st.integers(min_value=1, max_value=max_pip))
    tiles = set_size(pip) - set_aside
    players = draw(st.integers(min_value=1, max_value=min(max_players, tiles // 2)))
    hand_size = draw(st.integers(min_value=2, max_value=tiles // players))
    table = DealTable("House", {(players, pip): hand_size}, {players: pip})
    rules = attrs.evolve(
        base,
        deal_table=table,
        engine_placement=placement,
        max_pip=None,
        hand_size=None,
        rounds=draw(st.integers(min_value=1, max_value=min(3, pip + 1))),
        highest_engine=None,
    )
    return rules, players


@st.composite
def positions(
    draw: st.DrawFn,
    tables: st.SearchStrategy[tuple[Rules, int]] | None = None,
    max_moves: int = 400,
) -> GameState:
    """A state reached by random legal moves from a new game (the game may be over).

    Moves shrink towards the start of the game.
    """
    rules, players = draw(preset_tables() if tables is None else tables)
    seed = draw(seeds())
    moves = draw(st.integers(min_value=0, max_value=max_moves))
    rng = random.Random(seed)
    state = new_game(players, rules, seed=seed)
    return _play_randomly(state, moves, rng, draw(_STOPS_BETWEEN_ROUNDS))


@st.composite
def short_preset_tables(draw: st.DrawFn, max_rounds: int = 2) -> tuple[Rules, int]:
    """A preset cut to *max_rounds* rounds or fewer (V9), and a player count it covers."""
    rules, players = draw(preset_tables())
    rounds = draw(st.integers(min_value=1, max_value=max_rounds))
    return attrs.evolve(rules, rounds=rounds), players


def offered_moves(state: GameState) -> st.SearchStrategy[Move]:
    """A move `legal_moves` offers in *state* (which must not be over)."""
    return st.sampled_from(legal_moves(state))


def unoffered_moves(state: GameState) -> st.SearchStrategy[Move]:
    """A move `legal_moves` does not offer: a `Play` of a tile of the hand to move (seat 0's
    between rounds) on any train, a train id past the last seat, or `Draw`/`Pass`/`NextRound`.
    """
    seat = 0 if state.current_player is None else state.current_player
    trains = [*range(state.players + 1), MEXICAN]  # state.players: no such train
    moves: list[Move] = [Play(tile, t) for tile in state.hands[seat] for t in trains]
    moves += [Draw(), Pass(), NextRound()]
    offered = set(legal_moves(state))
    return st.sampled_from([m for m in moves if m not in offered])


# -- hands and open ends (longest_train, the bots) ---------------------------------------------


@st.composite
def hands_and_ends(draw: st.DrawFn, max_tiles: int = 9) -> tuple[tuple[Tile, ...], int]:
    """A hand of distinct tiles from a small set (double-2 to double-7), and an open end in it."""
    max_pip = draw(st.integers(2, 7))
    tiles = full_set(max_pip)
    hand = draw(st.lists(st.sampled_from(tiles), unique=True, max_size=max_tiles))
    return tuple(hand), draw(st.integers(0, max_pip))


# -- front-end support: histories, hidden shuffles, mutated documents and text -----------------


@st.composite
def histories(
    draw: st.DrawFn,
    tables: st.SearchStrategy[tuple[Rules, int]] | None = None,
    max_moves: int = 300,
) -> list[GameState]:
    """Every state of a random game, from `new_game` on, up to *max_moves* moves (or the end)."""
    rules, players = draw(preset_tables() if tables is None else tables)
    seed = draw(seeds())
    moves = draw(st.integers(min_value=0, max_value=max_moves))
    rng = random.Random(seed)
    states = [new_game(players, rules, seed=seed)]
    for _ in range(moves):
        if states[-1].is_over:
            break
        states.append(apply(states[-1], rng.choice(legal_moves(states[-1]))))
    return states


def hidden_shuffles() -> st.SearchStrategy[random.Random]:
    """A seeded random generator, to deal hidden tiles differently (S5).

    Seeded once (``use_true_random``): a game asks for thousands of shuffles, more
    than Hypothesis's own choices should carry.
    """
    return st.randoms(use_true_random=True)


_TRICKY_JSON: list[object] = [
    None, True, False, 0, 1, -1, 2, 7, 12, 2**64, -(2**64), 10**30, 0.5, 1.0, float("inf"),
    "", "0-0", "1-0", "12-12", "12-5", "5-12", "99-99", "12-05", "1_2-5", "-1", "x",
    "mexican-train/1", "mexican-train/2", "mexican-train/3", "state", "view", "record", "play", "draw",
    "Table A", "holder", "CloseInOrder", "NoSuchRule",
    [], [None], ["0-0"], ["0-0", "0-0"], [1, 2], [[1, 2, 3]], {}, {"type": "CloseInOrder"},
    {"tiles": [], "open_end": 0}, {"type": "play", "tile": "0-0", "train": 0},
]  # fmt: skip


def json_values(max_leaves: int = 12) -> st.SearchStrategy[object]:
    """Any JSON value (and a few near-misses), nested up to *max_leaves* leaves."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=6)
        # A copy: the mutation strategies change values in place, and a shared list or dict
        # changed in one example would change what later examples draw.
        | st.sampled_from(_TRICKY_JSON).map(copy.deepcopy)
    )
    keys = st.text(max_size=6) | st.sampled_from(
        ["schema", "type", "players", "rules", "tiles", "hands", "trains", "seat", "moves"]
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
        max_leaves=max_leaves,
    )


def _paths(value: object) -> list[tuple[object, ...]]:
    """Return the path of every value in *value*, in document order (a loop: hostile
    documents nest deep)."""
    found: list[tuple[object, ...]] = []
    stack: list[tuple[tuple[object, ...], object]] = [((), value)]
    while stack:
        path, item = stack.pop()
        found.append(path)
        if isinstance(item, dict):
            stack.extend(((*path, key), inner) for key, inner in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend(
                ((*path, index), inner) for index, inner in reversed(list(enumerate(item)))
            )
    return found


@st.composite
def mutated_documents(draw: st.DrawFn, document: dict[str, object]) -> object:
    """*document* (a JSON document) with one to three random changes anywhere in it.

    A change replaces a value (with a random JSON value or a near-miss), drops a
    key or an array item, duplicates an array item, or adds an unknown key.
    """
    mutated: object = copy.deepcopy(document)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        path = draw(st.sampled_from(_paths(mutated)))
        if not path:
            if draw(st.booleans()):
                return draw(json_values())
            continue
        parent: Any = mutated
        for step in path[:-1]:
            parent = parent[step]
        last: Any = path[-1]
        action = draw(st.sampled_from(["replace", "replace", "drop", "duplicate", "add"]))
        if action == "replace":
            parent[last] = draw(json_values(max_leaves=4))
        elif action == "drop":
            del parent[last]
        elif action == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))  # a copy: later changes hit one
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = draw(json_values(max_leaves=2))
    return mutated


@st.composite
def mutated_texts(draw: st.DrawFn, text: str) -> str:
    """*text* with one to three characters replaced, inserted or deleted."""
    alphabet = st.sampled_from("0123456789-,/ *@()=M.xm")
    chars = list(text)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        index = draw(st.integers(min_value=0, max_value=max(len(chars) - 1, 0)))
        action = draw(st.sampled_from(["replace", "insert", "delete"]))
        if action == "insert" or not chars:
            chars.insert(index, draw(alphabet))
        elif action == "replace":
            chars[index] = draw(alphabet)
        else:
            del chars[index]
    return "".join(chars)


#: Numbers a hostile document tries: the edges of 32 and 64 bits, and far beyond.
_HOSTILE_NUMBERS: list[int] = [
    -1, -(2**31), 2**31, 2**63, -(2**63), 2**64, 2**64 - 1, -(2**64), 10**18, 10**19, 10**30,
    10**4300, -(10**5000),
]  # fmt: skip
_TILE_TEXT = re.compile(r"[0-9]{1,2}-[0-9]{1,2}")


def _retyped(value: object) -> object:
    """*value* as the nearest value of another JSON type (the number 3 as "3", and so on)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() < 1000 else "1e4300"
    if isinstance(value, str):
        return int(value) if value.lstrip("-").isdigit() and len(value) < 20 else [value]
    if isinstance(value, list):
        return {str(i): item for i, item in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return 0


@st.composite
def hostile_documents(draw: st.DrawFn, document: dict[str, object]) -> object:
    """*document* (a JSON document) mutated one to four times, as an attacker would.

    Besides `mutated_documents`' changes: a value retyped (``3`` as ``"3"``, an array as
    an object), a huge or negative number, a value buried under 40 levels of arrays, two
    tiles swapped, a field deleted or duplicated into another object.
    """
    mutated: Any = copy.deepcopy(document)
    buried = False  # one value buried deep per document: enough to cross MAX_DEPTH
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        paths = _paths(mutated)
        path = draw(st.sampled_from(paths))
        if not path:
            continue
        parent: Any = mutated
        for step in path[:-1]:
            parent = parent[step]
        last: Any = path[-1]
        action = draw(
            st.sampled_from(["retype", "number", "deep", "swap", "delete", "duplicate", "other"])
        )
        if action == "retype":
            parent[last] = _retyped(parent[last])
        elif action == "number":
            parent[last] = draw(st.sampled_from(_HOSTILE_NUMBERS) | st.integers())
        elif action == "deep" and not buried:
            buried = True
            value = parent[last]
            for _ in range(draw(st.integers(min_value=1, max_value=40))):
                value = [value]
            parent[last] = value
        elif action == "swap":
            tiles = [p for p in paths if p and _is_tile_at(mutated, p)]
            if len(tiles) >= 2:
                first, second = draw(st.permutations(tiles))[:2]
                a, b = _get(mutated, first), _get(mutated, second)
                _set(mutated, first, b)
                _set(mutated, second, a)
        elif action == "delete":
            del parent[last]
        elif action == "duplicate":
            # A copy, never the same object twice: a value put inside itself would make
            # the document a cycle, which no JSON text can be (and _paths would not end).
            if isinstance(parent, list):
                parent.insert(last, copy.deepcopy(parent[last]))
            else:
                objects = [p for p in paths if isinstance(_get(mutated, p), dict)]
                target = _get(mutated, draw(st.sampled_from(objects)))
                target[last] = copy.deepcopy(parent[last])
        else:
            return draw(mutated_documents(mutated))
    return mutated


def _get(value: Any, path: tuple[object, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: tuple[object, ...], item: object) -> None:
    _get(value, path[:-1])[path[-1]] = item


def _is_tile_at(document: object, path: tuple[object, ...]) -> bool:
    value = _get(document, path)
    return isinstance(value, str) and _TILE_TEXT.fullmatch(value) is not None


@st.composite
def hostile_texts(draw: st.DrawFn, text: str) -> str:
    """*text* (a notation) mutated one to three times, as an attacker would.

    Besides `mutated_texts`' changes: truncated, two tiles swapped, a number made huge or
    negative, a field repeated, brackets nested hundreds deep.
    """
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        action = draw(st.sampled_from(["truncate", "swap", "number", "repeat", "deep", "other"]))
        numbers = list(re.finditer(r"[0-9]+", text))
        tiles = list(re.finditer(r"[0-9]+-[0-9]+", text))
        if action == "truncate":
            text = text[: draw(st.integers(min_value=0, max_value=len(text)))]
        elif action == "swap" and len(tiles) >= 2:
            first, second = sorted(draw(st.permutations(tiles))[:2], key=lambda m: m.start())
            text = (
                text[: first.start()] + second[0] + text[first.end() : second.start()]
                + first[0] + text[second.end() :]
            )  # fmt: skip
        elif action == "number" and numbers:
            match = draw(st.sampled_from(numbers))
            number = draw(st.sampled_from(_HOSTILE_NUMBERS[:-2]) | st.integers())
            text = text[: match.start()] + str(number) + text[match.end() :]
        elif action == "repeat":
            fields = text.split(" ")
            index = draw(st.integers(min_value=0, max_value=len(fields) - 1))
            text = " ".join([*fields[: index + 1], fields[index], *fields[index + 1 :]])
        elif action == "deep":
            depth = draw(st.integers(min_value=1, max_value=500))
            rest = text.partition(" ")[2]
            text = (
                f"standard(open_doubles={'CloseInOrder(reverse=' * depth}true{')' * depth}) {rest}"
            )
        else:
            text = draw(mutated_texts(text))
    return text


@st.composite
def recorded_games(
    draw: st.DrawFn,
    tables: st.SearchStrategy[tuple[Rules, int]] | None = None,
    max_moves: int = 300,
) -> tuple[GameState, list[Move]]:
    """A new game and the random legal moves played from it (the game may end early)."""
    rules, players = draw(preset_tables() if tables is None else tables)
    seed = draw(seeds())
    count = draw(st.integers(min_value=0, max_value=max_moves))
    rng = random.Random(seed)
    start = state = new_game(players, rules, seed=seed)
    moves: list[Move] = []
    for _ in range(count):
        if state.is_over:
            break
        moves.append(rng.choice(legal_moves(state)))
        state = apply(state, moves[-1])
    return start, moves


@st.composite
def dealt_games(draw: st.DrawFn, max_moves: int = 80) -> tuple[GameState, list[Move]]:
    """A game from an explicit `Deal` (under S3 the engine may lie in the boneyard), and moves."""
    rules = draw(st.sampled_from([attrs.evolve(STANDARD, max_pip=6), HUB]))
    players = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    probe = new_game(players, rules, seed=seed)
    tiles = [t for t in full_set(probe.max_pip) if not (rules is HUB and t is probe.engine)]
    rng.shuffle(tiles)
    n = probe.hand_size
    deal = Deal([tiles[i * n : (i + 1) * n] for i in range(players)], tiles[players * n :])
    start = state = new_game(players, rules, seed=seed, deal=deal)
    moves: list[Move] = []
    for _ in range(draw(st.integers(0, max_moves))):
        if state.is_over:
            break
        moves.append(rng.choice(legal_moves(state)))
        state = apply(state, moves[-1])
    return start, moves


# -- chance made explicit: positions with a draw or a deal to come ----------------------------


def _first_state_where(
    rules: Rules, players: int, seed: int, wanted: Move, skip: int
) -> GameState | None:
    # Random legal moves from a new game; the (skip+1)-th state where *wanted* is
    # legal, or the last such state seen if the game ends first.
    rng = random.Random(seed)
    state = new_game(players, rules, seed=seed)
    found = None
    while not state.is_over:
        moves = legal_moves(state)
        if wanted in moves:
            found = state
            if skip == 0:
                break
            skip -= 1
        state = apply(state, rng.choice(moves))
    return found


@st.composite
def chance_positions(
    draw: st.DrawFn,
    wanted: Move,
    tables: st.SearchStrategy[tuple[Rules, int]] | None = None,
) -> GameState:
    """A state of a random game in which *wanted* (`Draw()` or `NextRound()`) is legal.

    Games whose random play never offers *wanted* are skipped for the next seed.
    """
    rules, players = draw(preset_tables() if tables is None else tables)
    seed = draw(seeds())
    skip = draw(st.integers(min_value=0, max_value=20))
    while True:
        found = _first_state_where(rules, players, seed, wanted, skip)
        if found is not None:
            return found
        seed = (seed + 1) % 2**64


# -- reinforcement learning: positions of every catalogue variant ------------------------------


@st.composite
def catalogue_tables(draw: st.DrawFn, max_players: int = 6) -> tuple[Rules, int]:
    """A variant of the catalogue (`VARIANTS`) and a player count its table covers, up to
    *max_players*."""
    rules = draw(st.sampled_from(list(VARIANTS.values())))
    table = rules.deal_table
    # S2: a count whose set lacks the rules' highest engine is refused (thirteen-rounds).
    counts = [
        n for n in table.player_counts if rules.top_engine(table.lookup(n)[0]) <= table.lookup(n)[0]
    ]
    return rules, draw(st.sampled_from([n for n in counts if n <= max(max_players, counts[0])]))


@st.composite
def request_bodies(draw: st.DrawFn) -> bytes:
    """What a hostile client may send as an HTTP body: JSON, broken JSON, deep JSON, or bytes."""
    kind = draw(st.sampled_from(["json", "mutated", "deep", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        depth = draw(st.integers(min_value=1, max_value=5000))
        opener = draw(st.sampled_from(["[", '{"a":', '["\\"[",']))
        closer = {"[": "]", '{"a":': "}", '["\\"[",': "]"}[opener]
        return (opener * depth + "0" + closer * draw(st.integers(0, depth))).encode()
    text = json.dumps(draw(json_values()))
    if kind == "mutated":
        text = draw(mutated_texts(text)) if text else text
    return text.encode("utf-8", "surrogatepass")


# -- numbers near a bound ---------------------------------------------------------------------


def numbers_near(low: int, high: int) -> st.SearchStrategy[int]:
    """Whole numbers on both sides of the range *low* to *high*: its edges, a step past
    them, any number inside or beyond, and numbers too long to print (> 4300 digits)."""
    return (
        st.sampled_from([low, high, low - 1, high + 1])
        | st.sampled_from([-1, 1]).map(lambda sign: sign * 10**5000)  # drawn, never printed
        | st.integers(low, high)
        | st.integers(max_value=low - 1)
        | st.integers(min_value=high + 1)
    )


def parts_of(state: GameState) -> dict[str, Any]:
    """Every part `build_state` takes, read from *state*'s attributes of the same names."""
    return {name: getattr(state, name) for name in inspect.signature(build_state).parameters}


# -- facts that some deal fits ----------------------------------------------------------------


@st.composite
def fitting_facts(draw: st.DrawFn) -> tuple[dict[int, int], list[Tile], dict[int, int]]:
    """Facts (`determinize`'s masks of unseen tiles some seats lack), the unseen tiles and
    those seats' hand sizes, such that some deal fits: one is dealt first, and each
    seat's mask leaves its hand out."""
    unseen = sorted(full_set(6))[: draw(st.integers(2, 28))]
    seats = draw(st.integers(1, 6))
    order = draw(st.permutations(range(len(unseen))))
    facts: dict[int, int] = {}
    sizes: dict[int, int] = {}
    start = 0
    for seat in range(1, seats + 1):
        size = draw(st.integers(0, len(unseen) - start))
        held = sum(1 << p for p in order[start : start + size])
        start += size
        facts[seat] = draw(st.integers(0, 2 ** len(unseen) - 1)) & ~held
        sizes[seat] = size
    return facts, unseen, sizes
