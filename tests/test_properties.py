"""Properties of the engine, over both presets (2-14 players, 2-12 for HUB) and their variants.

Each test runs the public conformance kit, `mexican_train.testing`, which names the
rule id of every invariant it checks; the scenario tests (tests/test_rules_*.py)
pin the rules themselves.
"""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    CallLastTile,
    Deal,
    Draw,
    GameState,
    IllegalMoveError,
    Move,
    NextRound,
    Pass,
    Play,
    Rules,
    Tile,
    Train,
    apply,
    full_set,
    legal_moves,
    new_game,
    testing,
)
from mexican_train._core.engine import _plays_by_train, _plays_of, _suits
from mexican_train._core.state import POSITIONS, SUITS, TILES, train_positions
from mexican_train._core.tiles import MAX_PIP
from mexican_train.testing import (
    ConformanceError,
    check_invariants,
    check_refusals,
    check_transition,
    play_random_game,
    round_move_bound,
    rules_conformance,
)
from strategies import positions, preset_tables, seeds, variant_tables

# Whole games take longer than positions: a fifth of the profile's examples (dev 5, ci 30).
WHOLE_GAMES = settings(max_examples=max(3, settings().max_examples // 5))


def e5_winners(state: GameState) -> tuple[int, ...]:
    """E5, spelled out: lowest total; then most rounds at 0; then lowest non-zero round."""

    def key(seat: int) -> tuple[int, int, float]:
        mine = [points[seat] for points in state.round_scores]
        lowest_nonzero = min((p for p in mine if p), default=float("inf"))
        return (state.scores[seat], -mine.count(0), lowest_nonzero)

    best = min(key(seat) for seat in range(state.players))
    return tuple(seat for seat in range(state.players) if key(seat) == best)


# -- whole games and rounds ------------------------------------------------------------------


@given(table=preset_tables(), seed=seeds())
def test_random_rounds_keep_every_invariant_under_the_presets(
    table: tuple[Rules, int], seed: int
) -> None:
    """S1-S6, P1-P7, D1-D5, E1-E4 hold at every step of two random rounds (and NextRound)."""
    rules, players = table
    game = play_random_game(rules, players, seed, max_rounds=2, refusals=0.25)
    assert len(game.round_lengths) == 2
    assert game.final.round_number == 2
    assert game.final.is_round_over


@WHOLE_GAMES
@given(table=preset_tables(), seed=seeds())
def test_random_games_end_within_the_bound_and_e5_picks_the_winners(
    table: tuple[Rules, int], seed: int
) -> None:
    """Whole games end (E2, E4), no round takes more than round_move_bound moves, E5 winners."""
    rules, players = table
    game = play_random_game(rules, players, seed, refusals=0.0)
    final = game.final
    assert final.is_over
    assert len(game.round_lengths) == final.rounds == final.max_pip + 1  # S2
    assert max(game.round_lengths) <= game.bound == round_move_bound(final)
    assert final.winners == e5_winners(final)


@given(table=variant_tables(), seed=seeds())
def test_random_games_keep_every_invariant_under_variants(
    table: tuple[Rules, int], seed: int
) -> None:
    """The kit passes for evolve-d presets: sets, hand sizes, V1-V10 switches, short games."""
    rules, players = table
    game = play_random_game(rules, players, seed, refusals=0.5)
    assert game.final.is_over
    assert len(game.round_lengths) == rules.rounds
    assert max(game.round_lengths) <= game.bound
    final = game.final
    if rules.tie_break:
        assert final.winners == e5_winners(final)
    else:  # shared ties: everybody on the lowest total
        assert final.winners == tuple(
            s for s in range(players) if final.scores[s] == min(final.scores)
        )


@given(table=preset_tables(), seed=seeds())
def test_same_seed_same_game(table: tuple[Rules, int], seed: int) -> None:
    """S6: the same seed deals the same tiles, and the same moves reach the same states."""
    rules, players = table
    assert new_game(players, rules, seed) == new_game(players, rules, seed)
    first = play_random_game(rules, players, seed, max_rounds=1, refusals=0.0)
    again = play_random_game(rules, players, seed, max_rounds=1, refusals=0.0)
    assert first.moves == again.moves
    assert first.final == again.final
    assert hash(first.final) == hash(again.final)


#: The kit's one-line entry point, as a user writes it: whole double-6 games of Rulebook A.
test_the_one_line_conformance_test_passes = rules_conformance(
    attrs.evolve(STANDARD, max_pip=6), players=[2, 3, 4]
)


# -- single positions ----------------------------------------------------------------------------


@given(state=positions(preset_tables()) | positions(variant_tables()))
def test_every_offered_move_applies(state: GameState) -> None:
    """legal_moves' guarantee: apply accepts every move in it, and each does what its rule says."""
    check_invariants(state)
    for move in legal_moves(state):
        after = apply(state, move)
        check_transition(state, move, after)
        check_invariants(after)


def _built_anew(move: Move) -> Move:
    """*move* as a caller writes it, from its parts: ``Play(Tile(6, 4), 2)``, ``NextRound()``."""
    if isinstance(move, Play):
        return Play(Tile(move.tile.low, move.tile.high), move.train)  # either order of the ends
    return type(move)()


@given(state=positions(preset_tables()) | positions(variant_tables()))
def test_a_move_the_caller_builds_is_the_one_offered_and_is_accepted(state: GameState) -> None:
    """Offered <=> accepted holds for the caller's own move values, not only the engine's.

    A move built anew (a fresh ``NextRound()`` between rounds included), unpickled or
    deep-copied is the move `legal_moves` offers: equal, the same hash, found in the
    offered tuple, and `apply` accepts it with the same result.
    """
    offered = legal_moves(state)
    for move in offered:
        after = apply(state, move)
        for theirs in (_built_anew(move), pickle.loads(pickle.dumps(move)), copy.deepcopy(move)):
            assert theirs == move
            assert hash(theirs) == hash(move)
            assert theirs in offered
            assert apply(state, theirs) == after


def test_a_fresh_next_round_is_the_shared_one_and_deals_the_next_round() -> None:
    """Between rounds `NextRound()` is offered, and the caller's own is accepted (E4)."""
    from mexican_train._core.moves import NEXT_ROUND

    state = new_game(2, attrs.evolve(HUB, rounds=2), seed=3)
    while state.current_player is not None:
        state = apply(state, legal_moves(state)[0])
    assert legal_moves(state) == (NextRound(),)
    assert NextRound() is NEXT_ROUND
    assert apply(state, NextRound()).round_number == 2


@given(state=positions(preset_tables()) | positions(variant_tables()))
def test_every_move_not_offered_is_refused_and_changes_nothing(state: GameState) -> None:
    """Every Play of every hand tile on every train, Draw, Pass and NextRound not offered: refused."""
    check_refusals(state)


@given(state=positions(preset_tables()) | positions(variant_tables()))
def test_legal_moves_is_empty_only_when_the_game_is_over_and_in_a_fixed_order(
    state: GameState,
) -> None:
    """legal_moves' guarantees: empty iff over; plays by tile, then train (MEXICAN last),
    then Draw, Pass and the last-tile call, in that order."""
    moves = legal_moves(state)
    assert bool(moves) is not state.is_over
    plays = [m for m in moves if isinstance(m, Play)]
    order = [(m.tile, m.train == MEXICAN, m.train) for m in plays]
    assert order == sorted(order)
    assert moves[: len(plays)] == tuple(plays)  # plays first, then Draw / Pass / the call
    others = [type(m) for m in moves[len(plays) :]]
    ranks = [(NextRound, Draw, Pass, CallLastTile).index(kind) for kind in others]
    assert ranks == sorted(ranks), moves
    assert legal_moves(state.replace()) == moves  # computed afresh: the same


@given(state=positions(preset_tables()) | positions(variant_tables()))
def test_the_derived_attributes_say_what_the_fields_they_are_read_from_say(
    state: GameState,
) -> None:
    """Attributes computed from others agree with them: each train is started when it has
    a tile and ends in a double when its last tile is one (P2, D1); the hand sizes and the
    boneyard's size are the lengths of the hands and of the boneyard (S5); the round is
    over exactly when nobody is to move (E4)."""
    for train in state.trains:
        assert train.is_started == bool(train.tiles)
        assert train.ends_in_double == (bool(train.tiles) and train.tiles[-1].is_double)
    assert state.hand_sizes == tuple(map(len, state.hands))
    assert state.boneyard_size == len(state.boneyard)
    assert state.is_round_over == (state.current_player is None)


# -- regressions and the kit's own failure reports ---------------------------------------


def test_plays_of_one_tile_are_ordered_by_train_whichever_end_fits() -> None:
    """Regression: 5-3 fits train 0 by its 3 and the Mexican train by its 5; train 0 comes first.

    legal_moves listed the trains matching a tile's higher end before those matching
    its lower end, against its documented order (trains by id, the Mexican train last).
    """
    rules = attrs.evolve(HUB, max_pip=6, hand_size=3)
    dealt = ["6-3", "5-3", "0-0", "6-5", "1-1", "2-1"]
    rest = [t for t in full_set(6) if str(t) not in dealt and t != Tile(6, 6)]
    state = new_game(2, rules, seed=0, deal=Deal([dealt[:3], dealt[3:]], rest))
    state = apply(state, Play(Tile(6, 3), 0))
    state = apply(state, Play(Tile(6, 5), MEXICAN))
    assert legal_moves(state) == (Play(Tile(5, 3), 0), Play(Tile(5, 3), MEXICAN))


def test_the_last_tile_call_is_offered_after_draw() -> None:
    """E3a, last-tile-call: a player with two tiles and no play may draw or call; the call last."""
    rules = attrs.evolve(HUB, max_pip=3, hand_size=2, last_tile_penalty=1)
    deal = Deal([["1-0", "2-1"], ["3-1", "2-2"]], ["2-0", "0-0", "1-1", "3-0", "3-2"])
    assert legal_moves(new_game(2, rules, deal=deal)) == (Draw(), CallLastTile())


def test_a_conformance_error_names_the_rule_and_the_position() -> None:
    """The kit fails loudly, with the rule id, when a transition is not what the rule says."""
    state = new_game(2, HUB, seed=1)
    move = legal_moves(state)[0]
    after = apply(state, move)
    with pytest.raises(ConformanceError) as caught:
        check_transition(after, legal_moves(after)[0], after)  # no move leaves a state as it was
    error = caught.value
    assert isinstance(error, AssertionError)
    assert error.rule in str(error)
    assert error.invariant in str(error)
    assert "round 1 of 13" in str(error)


def _a_round_ending_move(rules: Rules, seed: int) -> tuple[GameState, Move, GameState]:
    """Return the first move of a seeded random game that ends a round, and its states."""
    rng = random.Random(seed)
    state = new_game(2, rules, seed=seed)
    while True:
        move = rng.choice(legal_moves(state))
        after = apply(state, move)
        if state.current_player is not None and after.current_player is None:
            return state, move, after
        state = after


@pytest.mark.parametrize("rules", [HUB, STANDARD], ids=["HUB", "STANDARD"])
def test_check_transition_checks_the_bookkeeping_of_a_round_that_ends(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ending turn counts at a round's end: its first turn had (P4), its idle turns (E2).

    An engine that forgets either is played by the kit through a stand-in for `apply`.
    """
    before, move, after = _a_round_ending_move(rules, seed=4)
    check_transition(before, move, after)
    seat = before.current_player
    assert seat is not None
    assert after.had_first_turn[seat]
    not_had = tuple(s != seat and had for s, had in enumerate(after.had_first_turn))
    wrongs = (after.replace(idle_turns=after.idle_turns + 1), after.replace(had_first_turn=not_had))
    for wrong in wrongs:
        monkeypatch.setattr(testing, "apply", lambda state, move, wrong=wrong: wrong)
        with pytest.raises(ConformanceError) as caught:
            check_transition(before, move, wrong)
        assert caught.value.invariant == "turn bookkeeping"


def _broken_positions() -> dict[str, tuple[GameState, str]]:
    """Positions no engine should reach, each with the rule id the kit must name."""
    state = new_game(2, HUB, seed=1)
    state = apply(state, legal_moves(state)[0])  # seat 0 has played one tile
    hand, trains = state.hands[1], state.trains
    mexican = trains[MEXICAN]
    return {
        "a tile twice": (
            state.replace(hands=(tuple(sorted((*state.hands[0], hand[0]))), hand)),
            "S2",
        ),
        "a tile lost": (state.replace(hands=(state.hands[0], hand[1:])), "S2"),
        "a wrong open end": (
            state.replace(  # a number of the set, not the one the train needs
                trains=(trains[0], trains[1], Train(mexican.tiles, mexican.open_end - 1, False))
            ),
            "P2",
        ),
        "a marked Mexican train": (
            state.replace(
                trains=(trains[0], trains[1], Train(mexican.tiles, mexican.open_end, True))
            ),
            "P6",
        ),
        "a listed double that is not there": (state.replace(open_doubles=(0,)), "D2"),
        "scores that do not add up": (state.replace(scores=(5, 0)), "E3"),
        "a blocked round still going": (
            state.replace(
                hands=(state.hands[0], tuple(sorted((*hand, *state.boneyard)))),
                boneyard=(),
                idle_turns=2,
            ),
            "E2",
        ),
    }


@pytest.mark.parametrize("name", list(_broken_positions()))
def test_check_invariants_catches_a_broken_position(name: str) -> None:
    """The kit is not vacuous: each broken position fails with the rule it breaks."""
    state, rule = _broken_positions()[name]
    with pytest.raises(ConformanceError) as caught:
        check_invariants(state)
    assert caught.value.rule == rule


def test_rules_conformance_without_hypothesis_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hypothesis is optional: only rules_conformance needs it, and says so."""
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # as if not installed
    with pytest.raises(ImportError, match="pip install hypothesis"):
        rules_conformance(HUB)


def test_the_kit_imports_without_hypothesis() -> None:
    """Importing mexican_train.testing does not import Hypothesis."""
    code = "import sys, mexican_train.testing; print('hypothesis' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


def test_a_refused_move_is_an_illegal_move_error() -> None:
    """check_refusals relies on IllegalMoveError: a move that is not offered raises it."""
    state = new_game(3, HUB, seed=2)
    with pytest.raises(IllegalMoveError):
        apply(state, Play(state.hand(1)[0], 1))  # not player 1's turn


@given(st.integers(0, (1 << (MAX_PIP + 1)) - 1))
def test_the_engine_s_suit_unions_are_unions_of_suits(pips: int) -> None:
    """P3: the tiles that may join a train needing one of the numbers in *pips*.

    The engine reads them from two small tables for sets up to double-12 and
    unites the suits one by one above; both must be the plain union of the suits.
    """
    expected = 0
    for pip in range(MAX_PIP + 1):
        if pips >> pip & 1:
            expected |= SUITS[pip]
    assert _suits(pips) == expected


@given(state=positions(preset_tables()) | positions(variant_tables()))
def test_the_engine_s_mask_of_markers_matches_the_trains(state: GameState) -> None:
    """P6: the engine keeps the markers twice, on the trains and as one mask; they agree.

    States reached by moves and states rebuilt from their fields (as a reader
    builds them) alike: a marker the mask missed would hide a train from P3.
    """
    for position in (state, state.replace()):
        trains = position.trains[:-1]  # the Mexican train, the last, is never marked
        expected = sum(1 << seat for seat, train in enumerate(trains) if train.marked)
        assert position._marks == expected


@given(st.integers(0, (1 << 15) - 1))
def test_the_engine_s_train_positions_are_the_bits_set(bits: int) -> None:
    """P3: the trains open to a player, from a mask of them (14 players and the Mexican train)."""
    expected = tuple(n for n in range(15) if bits >> n & 1)
    assert train_positions(bits) == expected
    if bits < len(POSITIONS):
        assert POSITIONS[bits] == expected


@given(data=st.data())
def test_both_builds_ways_of_listing_the_plays_agree(data: st.DataObject) -> None:
    """P3: the plays of a hand onto the trains a player may use, listed both ways.

    The pure build lists them train by train and sorts them by rank
    (`_plays_by_train`); the compiled build walks the tiles (`_plays_of`).  Over any
    set (masks of more than 60 bits too), trains, hand and usable trains, both must
    give the same plays, the same interned objects, in the documented order, each
    making the plays it has not met yet (fresh lists of interned plays).
    """
    max_pip = data.draw(st.sampled_from([6, 12, 15, 21, MAX_PIP]), label="max_pip")
    tiles_in_set = (max_pip + 1) * (max_pip + 2) // 2
    count = data.draw(st.integers(2, 15), label="trains")  # the Mexican train last
    ends = data.draw(st.lists(st.integers(0, max_pip), min_size=count, max_size=count))
    board = tuple((end, ()) for end in ends)
    usable = tuple(sorted(data.draw(st.sets(st.integers(0, count - 1)), label="usable")))
    pips = 0
    for position in usable:
        pips |= 1 << ends[position]
    # Most of the tiles that fit a usable train (some fit two or more), a few others.
    union = _suits(pips)
    fitting = [i for i in range(tiles_in_set) if union >> i & 1]
    left_out = data.draw(st.sets(st.sampled_from(fitting)), label="left out") if fitting else set()
    others = data.draw(st.sets(st.integers(0, tiles_in_set - 1), max_size=3), label="others")
    hand = sum(1 << index for index in (set(fitting) - left_out) | others)

    def fresh() -> list[list[Play | None]]:
        return [[None] * len(TILES) for _ in board]

    by_train = _plays_by_train(hand, usable, board, fresh())
    by_tile = _plays_of(hand & _suits(pips), usable, board, fresh())
    assert by_train == by_tile
    assert all(a is b for a, b in zip(by_train, by_tile, strict=True))
