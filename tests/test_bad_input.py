"""Bad input gets a clear, typed error and changes nothing.

Regression tests for what a hostile but realistic user tries: each one is a call
that must not raise a bare builtin (IndexError, AttributeError, a plain ValueError),
accept garbage silently, or print the wrong thing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import click
import pytest
from click.testing import CliRunner

from mexican_train import (
    COMPILED,
    STANDARD,
    TABLE_A,
    CloseInOrder,
    Cover,
    Deal,
    DealError,
    DealTable,
    FirstTurn,
    GameRecord,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    MexicanFromFirstTurn,
    MexicanTrainError,
    NotationError,
    OpenDouble,
    Play,
    PlayerView,
    Rules,
    RulesError,
    Tile,
    TileNotationError,
    Train,
    apply,
    build_state,
    draw_tile,
    format_state,
    full_set,
    legal_moves,
    longest_train,
    new_game,
    parse_state,
    record,
    round_score,
    set_size,
    spectator_view,
    testing,
    view,
)
from mexican_train._frontends.cli import _read_move, cli
from mexican_train.players import GreedyPlayer, PlannerPlayer, RandomPlayer, SearchPlayer
from mexican_train.render import render_svg, render_text
from mexican_train.serialize import (
    SchemaError,
    json_schema,
    move_from_json,
    state_from_json,
    to_json,
)
from mexican_train.simulation import simulate
from mexican_train.web import WebTable
from strategies import parts_of


def refused(call: Callable[[], object], error: type[BaseException], *shown: str) -> str:
    """Return the message of the *error* that *call* raises; it must show every *shown*."""
    with pytest.raises(error) as caught:
        call()
    message = str(caught.value)
    for text in shown:
        assert text in message, message
    return message


def a_state() -> GameState:
    return new_game(4, seed=1)


def evolved(field: str, value: Any) -> Rules:
    return attrs.evolve(STANDARD, **{field: value})


# -- InvalidArgumentError --------------------------------------------------------------


def test_invalid_argument_error_is_a_library_error_and_a_value_error() -> None:
    assert issubclass(InvalidArgumentError, MexicanTrainError)
    assert issubclass(InvalidArgumentError, ValueError)


# -- tiles and sets --------------------------------------------------------------------


@pytest.mark.parametrize("ends", [(31, 0), (-1, 2), (True, 1), (1.0, 2), ("1", 2)])
def test_tile_with_an_impossible_end_raises_invalid_argument_naming_it(
    ends: tuple[Any, Any],
) -> None:
    refused(lambda: Tile(*ends), InvalidArgumentError, "from 0 to 30", repr(ends[0]))


@pytest.mark.parametrize("text", [None, 5, b"1-2"])
def test_tile_parse_of_a_non_str_raises_type_error_not_attribute_error(text: Any) -> None:
    refused(lambda: Tile.parse(text), TypeError, "Tile.parse() needs a str", repr(text))


@pytest.mark.parametrize("text", ["1" * 5000 + "-1", "1-" + "9" * 50, "12345-1"])
def test_tile_parse_of_a_long_end_says_its_bound_in_a_short_message(text: str) -> None:
    # It was 5,146 characters: the whole text, then Python's advice to call
    # sys.set_int_max_str_digits().
    message = refused(lambda: Tile.parse(text), TileNotationError, "from 0 to 30", "digits")
    assert "sys." not in message
    assert len(message) < 150


def test_tile_parse_still_reads_leading_zeros() -> None:
    assert Tile.parse("0" * 5000 + "12-05") is Tile(12, 5)


def test_tile_parse_cuts_long_text_in_its_message() -> None:
    message = refused(lambda: Tile.parse("x" * 10**6), TileNotationError, "(1000000 characters)")
    assert len(message) < 150


@pytest.mark.parametrize("max_pip", [-1, 31, 10**6, True, 1.0])
def test_full_set_beyond_double_30_raises_invalid_argument_naming_the_set(max_pip: Any) -> None:
    refused(lambda: full_set(max_pip), InvalidArgumentError, "double-N", repr(max_pip))


def test_full_set_of_true_is_not_the_double_1_set() -> None:
    refused(lambda: full_set(True), InvalidArgumentError, "True")


def test_set_size_of_a_bool_raises_invalid_argument() -> None:
    refused(lambda: set_size(True), InvalidArgumentError, "True")


# -- Deal ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "shown"),
    [
        ([[["6-5"]]], "Deal.hands[0][0]"),  # one level too deep
        ([[5]], "Deal.hands[0][0]"),
        ([[(6, 5)]], "(6, 5)"),
        ([[None]], "None"),
    ],
)
def test_deal_refuses_a_hand_holding_something_not_a_tile(hands: Any, shown: str) -> None:
    refused(lambda: Deal(hands, []), TypeError, shown)


@pytest.mark.parametrize("hands", [None, 5, "6-5"])
def test_deal_refuses_hands_that_are_not_a_list_of_hands(hands: Any) -> None:
    refused(lambda: Deal(hands, []), TypeError, "Deal.hands", repr(hands))


def test_deal_refuses_a_flat_list_of_tiles_as_hands() -> None:
    refused(lambda: Deal(["6-5", "4-4"], []), TypeError, "Deal.hands[0]", "'6-5'")


@pytest.mark.parametrize("boneyard", [None, 5, "6-6"])
def test_deal_refuses_a_boneyard_that_is_not_a_list_of_tiles(boneyard: Any) -> None:
    refused(lambda: Deal([["6-5"]], boneyard), TypeError, "Deal.boneyard", repr(boneyard))


# -- new_game --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [2**64, -(2**64), 10**100])
def test_new_game_refuses_a_seed_of_more_than_64_bits(seed: int) -> None:
    # S6: such a state could be neither saved to JSON nor written in notation.
    refused(lambda: new_game(4, seed=seed), InvalidArgumentError, "64 bits", str(seed))


def test_new_game_accepts_the_largest_64_bit_seeds() -> None:
    assert new_game(2, seed=2**64 - 1).seed == 2**64 - 1
    assert new_game(2, seed=-(2**64) + 1).seed == -(2**64) + 1


# -- moves -----------------------------------------------------------------------------


@pytest.mark.parametrize("train", [-2, -100])
def test_play_on_a_train_below_mexican_raises_invalid_argument(train: int) -> None:
    refused(lambda: Play(Tile(1, 1), train), InvalidArgumentError, "MEXICAN", str(train))


@pytest.mark.parametrize("train", [True, 1.0, "0"])
def test_play_on_a_train_id_of_the_wrong_type_raises_invalid_argument(train: Any) -> None:
    refused(lambda: Play(Tile(1, 1), train), InvalidArgumentError, repr(train))


class _EqualToEverything:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class _Incomparable:
    def __eq__(self, other: object) -> bool:
        raise ValueError("the truth value is ambiguous")

    __hash__ = object.__hash__


@pytest.mark.parametrize("move", [_EqualToEverything(), _Incomparable()])
def test_apply_refuses_an_object_that_claims_or_refuses_equality_with_a_move(move: Any) -> None:
    # apply finds a move among the legal ones by identity (moves are interned): an
    # object's own == neither makes it a move nor escapes as its error.
    state = a_state()
    refused(lambda: apply(state, move), IllegalMoveError, "not a move", type(move).__name__)
    assert state == a_state()


@pytest.mark.parametrize(
    ("move", "said"),
    [(10**5000, "a whole number of 16610 bits"), ("x" * 10**6, "(1000000 characters)")],
    ids=["huge-int", "long-str"],
)
def test_apply_refuses_a_huge_value_in_a_message_of_its_own_size(move: Any, said: str) -> None:
    # Python refuses to write an int of over 4300 digits: the refusal must not turn
    # into that ValueError, nor carry a million characters.
    message = refused(lambda: apply(a_state(), move), IllegalMoveError, "not a move", said)
    assert len(message) < 300


# -- seats: states, views, rendering ---------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 4, 99, True, 1.0, "0", None])
def test_view_of_a_seat_the_table_lacks_raises_invalid_argument(seat: Any) -> None:
    refused(lambda: view(a_state(), seat), InvalidArgumentError, "a seat is 0-3", repr(seat))


def test_view_of_a_view_says_it_needs_a_state() -> None:
    mine = view(a_state(), 0)
    refused(lambda: view(mine, 0), TypeError, "needs a GameState", "PlayerView")  # type: ignore[arg-type]


@pytest.mark.parametrize("state", [None, "state", 5])
def test_legal_moves_of_neither_state_nor_view_raises_type_error(state: Any) -> None:
    refused(lambda: legal_moves(state), TypeError, "legal_moves() needs a GameState or PlayerView")


def test_spectator_view_of_a_view_names_spectator_view() -> None:
    mine = view(a_state(), 0)
    refused(
        lambda: spectator_view(mine),  # type: ignore[arg-type]
        TypeError,
        "spectator_view() needs a GameState, not PlayerView",
        "already a view",
    )


@pytest.mark.parametrize("state", [None, "state", 5])
def test_view_of_a_non_state_raises_type_error_not_attribute_error(state: Any) -> None:
    refused(lambda: view(state, 0), TypeError, "needs a GameState")


def test_state_hand_of_a_missing_seat_raises_invalid_argument() -> None:
    refused(lambda: a_state().hand(9), InvalidArgumentError, "a seat is 0-3, not 9")


def test_state_train_of_a_missing_train_raises_invalid_argument() -> None:
    refused(lambda: a_state().train(9), InvalidArgumentError, "not 9")


@pytest.mark.parametrize("flag", [True, False])
def test_a_bool_is_not_a_seat_a_train_or_a_player_count_in_either_build(flag: bool) -> None:
    # A compiled build would turn a bool passed for an int into an int: these take Any.
    state = a_state()
    refused(lambda: state.hand(flag), InvalidArgumentError, repr(flag))
    refused(lambda: state.train(flag), InvalidArgumentError, repr(flag))
    refused(lambda: state.has_had_first_turn(flag), InvalidArgumentError, repr(flag))
    refused(lambda: new_game(flag), DealError, "whole number", repr(flag))
    refused(lambda: new_game(2, seed=flag), TypeError, "a seed is a whole number", repr(flag))


def test_view_train_of_a_missing_train_raises_invalid_argument() -> None:
    refused(lambda: view(a_state(), 0).train(9), InvalidArgumentError, "not 9")


@pytest.mark.parametrize(
    "args",
    [
        ([Tile(12, 5)], 5, False, False),  # tiles a list
        ((), "5", False, False),  # open end a str
        ((), True, False, False),  # open end a bool
        ((), 5, 1, False),  # marker an int
        ((), 5, None, False),
        ((), 5, False, 0),  # owner_played an int
        ((), 5, False, "yes"),
    ],
)
def test_train_of_the_wrong_types_raises_type_error_in_both_builds(args: tuple[Any, ...]) -> None:
    message = refused(lambda: Train(*args), TypeError)
    # A compiled build checks the typed tuple and bools first, in words of its own; a bool
    # open end reaches the library's check on both builds.
    compiled_words = COMPILED and type(args[1]) is int and "object expected; got" in message
    assert "Train needs a tuple of tiles" in message or compiled_words, message


@pytest.mark.parametrize("tile", ["12-5", (12, 5), None, 5])
def test_train_of_tiles_that_are_not_tiles_raises_type_error(tile: object) -> None:
    """A train holds `Tile` values: a str or a pair is not one, and no train is built
    whose tiles the engine, a view or a writer could not read."""
    refused(
        lambda: Train((Tile(12, 5), tile), 5),  # type: ignore[arg-type]
        TypeError,
        "Train needs a tuple of Tile values",
        f"tiles[1] = {tile!r}",
    )


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("seat", "0", "seat is a whole number, not '0'"),
        ("hand", ("6-5",), "hand[0] is a Tile, not '6-5'"),
        ("hand_sizes", "15 15", "hand_sizes is a tuple, not '15 15'"),
        ("trains", (1, 2, 3), "trains[0] is a Train, not 1"),
        ("has_drawn", 1, "has_drawn is True or False, not 1"),
        ("open_hands", [["6-5"], []], "open_hands[0][0] is a Tile, not '6-5'"),
        ("rules", "hub", "rules is a Rules value, not 'hub'"),
    ],
)
def test_player_view_replace_refuses_a_value_of_the_wrong_kind(
    field: str, value: object, shown: str
) -> None:
    """A view keeps no value the engine, a bot or a writer cannot read (a view with a
    list for a hand would not hash; one with strs for tiles broke `legal_moves`)."""
    mine = view(new_game(2, seed=1), 0)
    refused(lambda: mine.replace(**{field: value}), TypeError, shown)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("seat", 2, "a seat is 0-1, not 2"),
        ("current_player", -1, "a seat is 0-1, not -1"),
        ("hand_sizes", (15,), "hand_sizes has 1 entries; 2 players need 2"),
        ("trains", (), "trains has 0 entries; 2 players need 3"),
        ("open_hands", ((), (), ()), "open_hands has 3 entries; 2 players need 2"),
        ("open_doubles", (2,), "a train id is a seat 0-1 or MEXICAN (-1), not 2"),
        ("hand", (Tile(6, 5), Tile(6, 5)), "hand lists a tile twice"),
        ("hand", (Tile(12, 5),), "hand holds 12-5, which a double-9 set does not have"),
        ("round_scores", ((0,),), "round_scores[0] has 1 scores; 2 players need 2"),
    ],
)
def test_player_view_replace_refuses_a_shape_no_game_has(
    field: str, value: object, shown: str
) -> None:
    mine = view(new_game(2, seed=1), 0)
    refused(lambda: mine.replace(**{field: value}), InvalidArgumentError, shown)  # type: ignore[arg-type]


def test_player_view_constructor_checks_as_replace_does() -> None:
    mine = view(new_game(2, seed=1), 0)
    fields = {name: getattr(mine, name) for name in PlayerView.FIELDS}
    assert PlayerView(**fields) == mine
    refused(lambda: PlayerView(**{**fields, "seat": True}), TypeError, "seat", "not True")
    refused(lambda: PlayerView(**{**fields, "scores": (0,)}), InvalidArgumentError, "scores")


def test_player_view_replace_takes_a_list_for_a_tuple_and_the_view_hashes() -> None:
    mine = view(new_game(2, seed=1), 0)
    changed = mine.replace(hand=list(mine.hand[:3]), scores=[5, 0])  # type: ignore[arg-type]
    assert changed.hand == mine.hand[:3]
    assert changed.scores == (5, 0)
    assert hash(changed) == hash(mine.replace(hand=mine.hand[:3], scores=(5, 0)))


@pytest.mark.parametrize(
    ("max_pip", "hand_size", "shown"),
    [
        (6, 10, "4 players x 10 tiles = 40 tiles, but a double-6 set has only 28 to deal"),
        (None, 100, "4 players x 100 tiles = 400 tiles, but a double-12 set has only 91"),
        (None, -3, "a hand is at least 2 tiles, not -3"),
        (None, True, "a hand is at least 2 tiles, not True"),
        (99, 5, "a set is double-N for N from 0 to 30, not max_pip=99"),
        (True, None, "a set is double-N for N from 0 to 30, not max_pip=True"),
    ],
)
def test_deal_table_lookup_refuses_a_set_or_hand_size_no_deal_has(
    max_pip: Any, hand_size: Any, shown: str
) -> None:
    """S1: `DealTable.lookup` returns only a deal that fits: it echoed any hand size."""
    refused(lambda: TABLE_A.lookup(4, max_pip, hand_size), DealError, shown)


def test_deal_table_lookup_refuses_a_bool_for_the_players() -> None:
    solo = DealTable("solo", {(1, 6): 7}, {1: 6})
    assert solo.lookup(1) == (6, 7)
    refused(lambda: solo.lookup(True), DealError, "solo covers 1 players, not True")


@pytest.mark.parametrize(
    ("make", "shown"),
    [
        (lambda: Cover((3,), only="no"), "Cover.only must be bool, not 'no'"),  # type: ignore[arg-type]
        (lambda: Cover((3,), only=1), "Cover.only must be bool, not 1"),  # type: ignore[arg-type]
        (lambda: Cover((3,), True, doubles_exempt=None), "Cover.doubles_exempt must be bool"),  # type: ignore[arg-type]
        (lambda: Cover(("3",), only=True), "Cover.trains[0] is a train id (an int), not '3'"),  # type: ignore[arg-type]
        (lambda: Cover((True,), only=True), "Cover.trains[0] is a train id (an int), not True"),
        (lambda: Cover(3, only=True), "Cover.trains is a tuple of train ids, not 3"),  # type: ignore[arg-type]
        (lambda: OpenDouble("2", 5, True), "OpenDouble.train must be int, not '2'"),  # type: ignore[arg-type]
        (lambda: OpenDouble(2, True, True), "OpenDouble.pip must be int, not True"),
        (lambda: OpenDouble(2, 5, 1), "OpenDouble.closable must be bool, not 1"),  # type: ignore[arg-type]
    ],
)
def test_open_double_values_of_the_wrong_types_raise_type_error(
    make: Callable[[], object], shown: str
) -> None:
    """D2-D4: a house rule's `Cover` answer says which doubles bind; a str for *only*
    was read as True, and bound the player."""
    refused(make, TypeError, shown)


@pytest.mark.parametrize("exempt", [False, True])
def test_a_binding_cover_that_names_no_double_raises_rules_error(exempt: bool) -> None:
    """D2: ``only=True`` binds the player to cover one of *trains*; with none it bound
    them to play nowhere, while `doubles_to_cover` told the front ends nothing bound."""
    refused(
        lambda: Cover((), only=True, doubles_exempt=exempt),
        RulesError,
        "Cover((), only=True) binds the player to cover a double but names none",
        "Cover((), only=False)",
    )


@pytest.mark.parametrize("render", [render_text, render_svg])
def test_render_for_a_missing_seat_raises_invalid_argument(render: Callable[..., str]) -> None:
    refused(lambda: render(a_state(), seat=4), InvalidArgumentError, "not 4")


@pytest.mark.parametrize("render", [render_text, render_svg])
def test_render_a_view_for_another_seat_raises_invalid_argument(
    render: Callable[..., str],
) -> None:
    refused(lambda: render(view(a_state(), 0), seat=1), InvalidArgumentError, "seat=1")


@pytest.mark.parametrize("render", [render_text, render_svg])
def test_render_with_too_few_names_raises_invalid_argument(render: Callable[..., str]) -> None:
    refused(lambda: render(a_state(), names=["Ann"]), InvalidArgumentError, "4 strings")


@pytest.mark.parametrize("render", [render_text, render_svg])
def test_render_with_names_not_a_list_raises_type_error(render: Callable[..., str]) -> None:
    refused(lambda: render(a_state(), names=5), TypeError, "names", "not 5")


# -- records ---------------------------------------------------------------------------


def test_record_of_a_later_state_raises_invalid_argument_not_index_error() -> None:
    state = new_game(3, seed=2)
    for _ in range(30):
        state = apply(state, legal_moves(state)[-1])
    refused(lambda: record(state), InvalidArgumentError, "needs a first state")


def test_record_of_a_state_of_a_later_round_raises_invalid_argument() -> None:
    state = new_game(2, seed=5)
    while state.round_number == 1:
        state = apply(state, legal_moves(state)[0])
    refused(lambda: record(state), InvalidArgumentError, "round 2")


@pytest.mark.parametrize("moves", [None, 5, "draw"])
def test_record_with_moves_not_a_list_raises_type_error(moves: Any) -> None:
    refused(lambda: record(new_game(2, seed=5), moves), TypeError, "GameRecord.moves", repr(moves))


def test_game_record_with_rules_not_a_rules_says_so_in_one_sentence() -> None:
    message = refused(lambda: GameRecord(4, "hub", 1), TypeError)  # type: ignore[arg-type]
    assert message == "GameRecord.rules must be a Rules, not 'hub'"


def test_game_record_with_deal_not_a_deal_says_so_in_one_sentence() -> None:
    message = refused(lambda: GameRecord(4, STANDARD, 1, "x"), TypeError)  # type: ignore[arg-type]
    assert message == "GameRecord.deal must be a Deal or None, not 'x'"


# -- simulate --------------------------------------------------------------------------

TWO = [GreedyPlayer(), GreedyPlayer()]


@pytest.mark.parametrize("games", [0, -1, 1.5, True, "3"])
def test_simulate_with_games_not_a_whole_number_from_1_raises_invalid_argument(
    games: Any,
) -> None:
    refused(lambda: simulate(TWO, games=games), InvalidArgumentError, "games", repr(games))


def test_simulate_with_batch_size_0_raises_invalid_argument() -> None:
    refused(lambda: simulate(TWO, games=1, batch_size=0), InvalidArgumentError, "batch_size")


@pytest.mark.parametrize("executor", ["x", 5])
def test_simulate_with_an_executor_without_map_raises_type_error(executor: Any) -> None:
    refused(lambda: simulate(TWO, games=1, executor=executor), TypeError, "map", repr(executor))


@pytest.mark.parametrize("players", [None, "ab", GreedyPlayer()])
def test_simulate_with_players_not_a_list_raises_type_error(players: Any) -> None:
    refused(lambda: simulate(players, games=1), TypeError, "players is a list")


def test_simulate_with_progress_not_callable_raises_type_error() -> None:
    refused(lambda: simulate(TWO, games=1, progress=5), TypeError, "progress")  # type: ignore[arg-type]


# -- JSON ------------------------------------------------------------------------------


def test_a_state_from_the_largest_seed_new_game_accepts_reads_back_from_json() -> None:
    state = new_game(2, seed=2**64 - 1)
    assert state_from_json(to_json(state)) == state


# -- the play prompt -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["\u00b3", "\u0661", "12-5 \u00b3"])
def test_prompt_reads_non_ascii_digits_as_not_understood(text: str) -> None:
    moves = legal_moves(a_state())
    message = refused(lambda: _read_move(text, moves, 0, STANDARD), ValueError)
    assert "invalid literal" not in message


def test_prompt_refuses_a_huge_move_number_without_int_conversion_error() -> None:
    moves = legal_moves(a_state())
    message = refused(
        lambda: _read_move("9" * 5000, moves, 0, STANDARD), ValueError, "There is no move"
    )
    assert len(message) < 100


def test_prompt_cuts_long_garbage_short_in_its_message() -> None:
    moves = legal_moves(a_state())
    message = refused(
        lambda: _read_move("x" * 100_000, moves, 0, STANDARD), ValueError, "did not understand"
    )
    assert len(message) < 400


def test_cli_demo_with_a_seed_of_more_than_64_bits_prints_one_line() -> None:
    result = CliRunner().invoke(cli, ["demo", "--seed", str(2**64)], prog_name="mexican-train")
    assert result.exit_code == 2  # a usage error
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"a seed is a whole number of at most 64 bits, not {2**64}" in result.stderr


@pytest.mark.parametrize("field", ["seed", "players", "round_number"])
def test_state_from_json_refuses_a_number_too_long_to_show(field: str) -> None:
    # Python cannot even write an int of 5000 digits into a message (ValueError before).
    document = to_json(a_state())
    document[field] = 10**5000
    refused(lambda: state_from_json(document), SchemaError, f"$.{field}", "bits")


def test_move_from_json_refuses_a_train_number_too_long_to_show() -> None:
    document = to_json(Play(Tile(1, 1), 0))
    document["train"] = -(10**5000)
    refused(lambda: move_from_json(document), SchemaError, "$.train", "bits")


def test_a_deeply_nested_document_is_refused_without_recursion_error() -> None:
    document = to_json(a_state())
    nested: list[Any] = []
    for _ in range(100_000):
        nested = [nested]
    document["hands"] = nested
    refused(lambda: state_from_json(document), SchemaError, "$.hands")


# -- notation --------------------------------------------------------------------------


def test_parse_state_says_a_too_long_player_count_is_too_long() -> None:
    # It said "a whole number >= 0" of a 21-digit whole number.
    text = format_state(a_state()).replace("standard 4/", "standard " + "9" * 21 + "/", 1)
    refused(lambda: parse_state(text), NotationError, "at most 9 digits")


def test_parse_state_says_a_too_long_seed_is_too_long() -> None:
    state = a_state()
    text = format_state(state).replace(f" {state.seed} ", " " + "9" * 25 + " ", 1)
    refused(lambda: parse_state(text), NotationError, "at most 20 digits")


class _Unwritable:
    """A value of a caller's own whose repr() raises: a bot's move, say."""

    def __repr__(self) -> str:
        raise RuntimeError("this repr is broken")


def test_a_move_whose_repr_raises_is_an_illegal_move_error_naming_its_type() -> None:
    # The message's repr() of the move raised, and apply raised that RuntimeError instead.
    refused(lambda: apply(a_state(), _Unwritable()), IllegalMoveError, "a _Unwritable whose")  # type: ignore[arg-type]


# -- whole numbers too long to write ---------------------------------------------------
#
# Python refuses to write an int of more than 4300 digits, so a message showing one
# would fail with a bare ValueError about string conversion instead.

HUGE = 10**5000


@pytest.mark.parametrize(
    "call",
    [
        lambda: Tile(HUGE, 1),
        lambda: Play(Tile(1, 1), HUGE),
        lambda: Play(Tile(1, 1), -HUGE),
        lambda: view(a_state(), HUGE),
        lambda: a_state().hand(HUGE),
        lambda: a_state().train(HUGE),
        lambda: Train((), HUGE),
        lambda: render_text(a_state(), seat=HUGE),
        lambda: new_game(4, seed=HUGE),
        lambda: simulate(TWO, games=1, seed=HUGE),
        lambda: longest_train([Tile(1, 1)], HUGE),
        lambda: longest_train([Tile(1, 1)], 1, max_nodes=HUGE),
        lambda: set_size(HUGE),
        lambda: full_set(-HUGE),
        lambda: RandomPlayer(seed=-HUGE),
        lambda: SearchPlayer(seed=HUGE),
        lambda: SearchPlayer(iterations=HUGE),
        lambda: PlannerPlayer(endgame=HUGE),
        lambda: PlannerPlayer(max_nodes=-HUGE),
        lambda: simulate(TWO, games=HUGE),
        lambda: simulate(TWO, games=1, batch_size=HUGE),
        lambda: GameRecord(2, STANDARD, HUGE),
        lambda: GameRecord(HUGE, STANDARD, 1),
        lambda: WebTable(2, seed=-HUGE),
    ],
)
def test_a_huge_whole_number_gets_an_invalid_argument_error_describing_it(
    call: Callable[[], object],
) -> None:
    refused(call, InvalidArgumentError, "a whole number of 16610 bits")


@pytest.mark.parametrize(
    "name",
    ["players", "seed", "round_number", "current_player", "first_player", "turn_tiles",
     "idle_turns", "scores", "round_scores", "turn_doubles", "open_doubles"],
)  # fmt: skip
@pytest.mark.parametrize("sign", [1, -1])
def test_build_state_refuses_a_huge_number_in_any_part_describing_it(name: str, sign: int) -> None:
    parts = parts_of(a_state())
    number = sign * HUGE
    if name == "round_scores":
        parts[name] = [[number] * 4]
    elif name in ("scores", "turn_doubles", "open_doubles"):
        parts[name] = [number] * len(parts[name] or [0])
    else:
        parts[name] = number
    refused(lambda: build_state(**parts), InvalidArgumentError, "a whole number of 16610 bits")


def test_new_game_for_a_huge_player_count_raises_deal_error_describing_it() -> None:
    refused(lambda: new_game(HUGE), DealError, "a whole number of 16610 bits")


@pytest.mark.parametrize("field", ["max_pip", "hand_size", "rounds", "last_tile_penalty"])
def test_rules_with_a_huge_negative_count_raise_rules_error_describing_it(field: str) -> None:
    refused(lambda: evolved(field, -HUGE), RulesError, "16610 bits")


@pytest.mark.parametrize(("field", "limit"), [("hand_size", 496), ("rounds", 31)])
def test_rules_refuse_a_hand_or_game_longer_than_the_largest_set_allows(
    field: str, limit: int
) -> None:
    evolved(field, limit)
    refused(lambda: evolved(field, limit + 1), RulesError, f"at most {limit}")


def test_play_refuses_a_train_id_of_a_billion() -> None:
    Play(Tile(1, 1), 999_999_999)
    refused(lambda: Play(Tile(1, 1), 10**9), InvalidArgumentError, "1000000000")


def test_move_from_json_refuses_a_train_id_of_a_billion_as_a_schema_error() -> None:
    document = to_json(Play(Tile(1, 1), 0))
    document["train"] = 10**19
    refused(lambda: move_from_json(document), SchemaError, "$.train")


def test_simulate_refuses_a_seed_of_more_than_64_bits() -> None:
    refused(lambda: simulate(TWO, games=1, seed=2**64), InvalidArgumentError, "64 bits")


@pytest.mark.parametrize("open_end", [-1, 31, 10**9])
def test_train_refuses_an_open_end_no_tile_shows(open_end: int) -> None:
    Train((), 30)
    refused(lambda: Train((), open_end), InvalidArgumentError, "from 0 to 30", str(open_end))


def test_longest_train_refuses_an_open_end_above_30() -> None:
    refused(lambda: longest_train([Tile(1, 1)], 31), InvalidArgumentError, "from 0 to 30", "31")


def test_cli_output_it_cannot_write_gives_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # As when stdout is a full disk: the first write to stdout fails.
    real_echo = click.echo

    def echo(message: object = None, file: Any = None, nl: bool = True, err: bool = False) -> None:
        if not err:
            raise OSError(28, "No space left on device")
        real_echo(message, file, nl, err)

    monkeypatch.setattr(click, "echo", echo)
    with pytest.raises(SystemExit) as exited:
        cli.main(["rules"], prog_name="mexican-train")
    assert exited.value.code == 1
    assert capsys.readouterr().err == "Error: cannot write the output: No space left on device\n"


# -- Rules fields ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "wanted"),
    [
        ("deal_table", "DealTable"),
        ("engine_placement", "EnginePlacement"),
        ("first_turn", "FirstTurn or None"),
        ("must_play", "bool"),
        ("ascending", "bool"),
        ("open_hands", "bool"),
        ("draw_until_playable", "bool"),
        ("tie_break", "bool"),
    ],
)
def test_rules_field_of_the_wrong_type_says_so_in_one_sentence(field: str, wanted: str) -> None:
    # attrs' own validator put a 4-tuple (message, Attribute, type, value) in the error.
    message = refused(lambda: evolved(field, "x"), TypeError)
    assert message == f"Rules.{field} must be {wanted}, not 'x'"


@attrs.define
class _MutableMexicanRule:
    """A Mexican-train rule whose settings can change under the engine: not hashable."""

    opens: bool = True

    def is_open(self, table: object, seat: int) -> bool:
        return self.opens


@attrs.frozen
class _AlwaysOpenSetting:
    """A Mexican-train rule written as a setting: its is_open is True, not a method."""

    is_open: bool = True


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("mexican_train", "x", "Rules.mexican_train must implement MexicanTrainRule, not 'x'"),
        (
            "mexican_train",
            _AlwaysOpenSetting(),
            "Rules.mexican_train must implement MexicanTrainRule: its is_open is True, "
            "not a method",
        ),
        (
            "open_doubles",
            MexicanFromFirstTurn(),
            "Rules.open_doubles must implement OpenDoubleRule, not MexicanFromFirstTurn()",
        ),
        ("mexican_train", _MutableMexicanRule(), "Rules.mexican_train must be hashable"),
    ],
)
def test_a_pluggable_rule_field_that_cannot_be_asked_raises_type_error(
    field: str, value: object, shown: str
) -> None:
    """V2-V4: the engine asks these objects on every move; what it cannot ask is refused
    (an is_open that is True, not a method, failed on the first move: 'bool' object is not
    callable)."""
    refused(lambda: evolved(field, value), TypeError, shown)


@pytest.mark.parametrize(
    ("field", "rule", "call"),
    [
        ("mexican_train", MexicanFromFirstTurn, "MexicanFromFirstTurn()"),
        ("open_doubles", CloseInOrder, "CloseInOrder()"),
    ],
)
def test_a_pluggable_rule_given_as_its_class_raises_type_error_saying_to_call_it(
    field: str, rule: type, call: str
) -> None:
    """V2-V4: the class has the protocol's methods, so it was accepted, and the first move
    failed with "is_open() missing 1 required positional argument: 'seat'"."""
    refused(lambda: evolved(field, rule), TypeError, f"the class {rule.__name__}", call)


def test_first_turn_field_of_the_wrong_type_says_so_in_one_sentence() -> None:
    refused(lambda: FirstTurn(chain="yes"), TypeError, "FirstTurn.chain must be bool, not 'yes'")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "make",
    [
        lambda value: evolved("must_play", value),
        lambda value: FirstTurn(chain=value),
        lambda value: SearchPlayer(inference=value),
    ],
    ids=["Rules", "FirstTurn", "SearchPlayer"],
)
def test_a_switch_given_a_huge_value_is_refused_in_a_message_of_its_own_size(
    make: Callable[[object], object],
) -> None:
    message = refused(lambda: make("x" * 10**6), TypeError, "must be bool", "(1000000 characters)")
    assert len(message) < 300


# -- players, longest_train, round_score -----------------------------------------------


@pytest.mark.parametrize("seed", ["x", 1.5, None, True, 2**64])
def test_random_player_refuses_a_seed_that_is_not_a_64_bit_whole_number(seed: Any) -> None:
    refused(lambda: RandomPlayer(seed=seed), InvalidArgumentError, "RandomPlayer.seed", "64 bits")


@pytest.mark.parametrize(("field", "value"), [("endgame", -1), ("endgame", "x"), ("max_nodes", 0)])
def test_planner_player_refuses_impossible_settings(field: str, value: Any) -> None:
    refused(lambda: PlannerPlayer(**{field: value}), InvalidArgumentError, f"PlannerPlayer.{field}")


BOTS = [RandomPlayer(1), GreedyPlayer(), PlannerPlayer(), SearchPlayer(iterations=4)]


@pytest.mark.parametrize("player", BOTS, ids=lambda bot: type(bot).__name__)
def test_a_player_asked_to_choose_from_no_moves_raises_invalid_argument(player: Any) -> None:
    # Not an IndexError, or a ZeroDivisionError for RandomPlayer.
    mine = view(a_state(), 0)
    refused(lambda: player.choose(mine, ()), InvalidArgumentError, "moves is empty")


@pytest.mark.parametrize("player", BOTS, ids=lambda bot: type(bot).__name__)
@pytest.mark.parametrize("given", ["state", None, "view"], ids=str)
def test_a_bot_given_something_other_than_a_player_view_raises_type_error(
    player: Any, given: Any
) -> None:
    # Was an AttributeError ('GameState' object has no attribute 'seat'), or for
    # RandomPlayer "'method' object is not iterable"; with one legal move, no error at all.
    state = a_state()
    moves = legal_moves(state)
    what = {"state": state, "view": view(state, 0).hand}.get(given, given)
    name = type(what).__name__
    refused(
        lambda: player.choose(what, moves), TypeError, f"choose() needs a PlayerView, not {name}"
    )
    refused(lambda: player.choose(what, moves[:1]), TypeError, "needs a PlayerView")


@pytest.mark.parametrize("player", BOTS, ids=lambda bot: type(bot).__name__)
@pytest.mark.parametrize("moves", [None, "draw", b"d", 5, {Play(Tile(12, 5), 0)}], ids=repr)
def test_a_bot_given_moves_that_are_not_a_sequence_raises_type_error(
    player: Any, moves: Any
) -> None:
    # None was "moves is empty"; a str raised "'in <string>' requires string as left
    # operand", or PlannerPlayer returned 'd'.
    mine = view(a_state(), 0)
    refused(lambda: player.choose(mine, moves), TypeError, "choose() needs the legal moves")


@pytest.mark.parametrize("player", BOTS, ids=lambda bot: type(bot).__name__)
def test_a_bot_takes_the_legal_moves_as_a_list_too(player: Any) -> None:
    state = a_state()
    assert state.current_player is not None
    mine = view(state, state.current_player)
    moves = legal_moves(mine)
    assert player.choose(mine, list(moves)) in moves


@pytest.mark.parametrize("hand", ["6-5", None, 5])
def test_longest_train_of_a_hand_not_a_list_raises_type_error(hand: Any) -> None:
    refused(lambda: longest_train(hand, 5), TypeError, "a hand is a list")


def test_longest_train_of_a_hand_holding_a_tile_twice_raises_invalid_argument() -> None:
    refused(lambda: longest_train(["1-1", "1-1"], 1), InvalidArgumentError, "1-1 repeated")


def test_longest_train_with_max_nodes_0_raises_invalid_argument() -> None:
    refused(lambda: longest_train(["1-1"], 1, max_nodes=0), InvalidArgumentError, "max_nodes")


@pytest.mark.parametrize(("hand", "shown"), [(["x"], "'x'"), ([5], "5"), (None, "NoneType")])
def test_round_score_of_something_not_a_hand_of_tiles_raises_type_error(
    hand: Any, shown: str
) -> None:
    refused(lambda: round_score(hand), TypeError, "round_score() needs a hand", shown)


# -- deal tables -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand_sizes", "default_sets", "shown"),
    [
        ({(0, 6): 7}, {0: 6}, "(0, 6)"),  # new_game(0) failed with an IndexError
        ({(2, 99): 7}, {2: 99}, "(2, 99)"),
        ({(2, 6): -1}, {2: 6}, "not -1"),
        ({(2, 6): 7.0}, {2: 6}, "not 7.0"),
        ({}, {}, "not []"),  # min() of an empty sequence
        ({(2, 6): 7}, {2: 6, 4: 6}, "without gaps"),
        # Accepted until new_game: a hand the set cannot deal, a row for no covered count.
        ({(2, 6): 100}, {2: 6}, "x: 2 players x 100 tiles = 200 tiles, but a double-6 set"),
        ({(1, 1): 4}, {1: 1}, "x: 1 player x 4 tiles = 4 tiles, but a double-1 set"),
        ({(2, 6): 7, (3, 6): 7}, {2: 6}, "a row for 3 players with double-6, but the default "
         "sets cover 2 players"),
    ],
)  # fmt: skip
def test_deal_table_with_impossible_rows_raises_deal_error(
    hand_sizes: Any, default_sets: Any, shown: str
) -> None:
    refused(lambda: DealTable("x", hand_sizes, default_sets), DealError, shown)


@pytest.mark.parametrize("name", ["", "x" * 61, "x" * 10**6])
def test_a_deal_table_s_name_is_a_short_label(name: str) -> None:
    # Every message about a table starts with its name; a document's name of a million
    # characters made each of them a megabyte.
    message = refused(lambda: DealTable(name, {(2, 6): 7}, {2: 6}), DealError, "1 to 60")
    assert len(message) < 200
    assert DealTable("x" * 60, {(2, 6): 7}, {2: 6}).name == "x" * 60


def test_a_deal_table_of_one_player_count_says_so_without_a_range() -> None:
    # It said "x covers 2-2 players, not 3".
    table = DealTable("x", {(2, 6): 7}, {2: 6})
    refused(lambda: table.lookup(3), DealError, "x covers 2 players, not 3")


def test_a_deal_table_may_leave_the_hand_size_to_the_rules() -> None:
    table = DealTable("x", {(2, 6): 7}, {2: 6, 3: 6})
    assert table.lookup(3, hand_size=5) == (6, 5)


@pytest.mark.parametrize(
    ("name", "hand_sizes", "default_sets"),
    [
        (5, {(2, 6): 7}, {2: 6}),
        ("x", "rows", {2: 6}),  # not an AttributeError
        ("x", {("a", 6): 7}, {2: 6}),
        ("x", {(2, 6, 1): 7}, {2: 6}),
        ("x", {(2, 6): 7}, {(2,): 6}),
    ],
)
def test_deal_table_of_the_wrong_shape_raises_type_error(
    name: Any, hand_sizes: Any, default_sets: Any
) -> None:
    refused(lambda: DealTable(name, hand_sizes, default_sets), TypeError)


@pytest.mark.parametrize(
    ("pointer", "maximum"),
    [
        (("$defs", "trainId"), 999_999_999),
        (("$defs", "rules", "properties", "max_pip", "oneOf", 1), 30),
        (("$defs", "rules", "properties", "hand_size", "oneOf", 1), 496),
        (("$defs", "rules", "properties", "rounds", "oneOf", 1), 31),
    ],
)
def test_json_schema_publishes_the_bounds_the_readers_enforce(
    pointer: tuple[Any, ...], maximum: int
) -> None:
    node: Any = json_schema()
    for step in pointer:
        node = node[step]
    assert node["maximum"] == maximum


@pytest.mark.parametrize(
    ("option", "value", "shown"),
    [
        ("--workers", "99999999999999999", "1<=x<=256"),  # was an OverflowError traceback
        ("--games", "99999999999999999999999999", "1<=x<=10000000"),  # queued forever
    ],
)
def test_cli_simulate_refuses_absurd_counts_in_one_line(
    option: str, value: str, shown: str
) -> None:
    result = CliRunner().invoke(
        cli, ["simulate", "-p", "2", "--bots", "random", option, value], prog_name="mexican-train"
    )
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert shown in lines[0]


@pytest.mark.parametrize("other", [5, "6-5", None, (6, 5)])
def test_comparing_a_tile_with_a_non_tile_raises_type_error_not_attribute_error(
    other: Any,
) -> None:
    refused(lambda: Tile(6, 5) < other, TypeError, "not supported")
    refused(lambda: sorted([Tile(6, 5), other]), TypeError, "not supported")


def test_other_end_of_a_number_the_tile_lacks_raises_invalid_argument() -> None:
    refused(lambda: Tile(1, 1).other_end(5), InvalidArgumentError, "1-1 does not show 5")


@pytest.mark.parametrize(
    "check",
    [
        testing.check_invariants,
        testing.check_refusals,
        testing.check_round_start,
        testing.round_move_bound,
    ],
)
@pytest.mark.parametrize("value", [None, "state"])
def test_the_conformance_kit_given_a_non_state_raises_type_error(
    check: Callable[[Any], object], value: Any
) -> None:
    refused(lambda: check(value), TypeError, "needs a GameState")


def test_check_transition_given_a_non_state_raises_type_error() -> None:
    state = a_state()
    move = legal_moves(state)[0]
    refused(lambda: testing.check_transition(state, move, None), TypeError, "needs a GameState")  # type: ignore[arg-type]


@pytest.mark.parametrize("previous", [4, -1, True, "0"])
def test_check_round_start_refuses_a_previous_first_player_the_game_lacks(previous: Any) -> None:
    """S3/S4: the check counts from the previous round's first seat; 4 in a game of four
    was taken as seat 0 (and True as seat 1), and a wrong set-up could pass."""
    refused(
        lambda: testing.check_round_start(a_state(), previous),
        InvalidArgumentError,
        "previous_first is None or a seat 0-3",
        f"not {previous!r}",
    )


def test_check_refusals_refuses_a_str_for_its_moves() -> None:
    """Each letter of a str was tried as a move, refused, and the check passed."""
    refused(
        lambda: testing.check_refusals(a_state(), "9-1@0"),  # type: ignore[arg-type]
        TypeError,
        "needs a list of moves, not '9-1@0'",
    )


@pytest.mark.parametrize(
    ("seed", "game", "error", "shown"),
    [
        (True, 1, TypeError, "a seed is a whole number, not True"),
        ("1", 0, TypeError, "a seed is a whole number, not '1'"),
        (2**64, 0, InvalidArgumentError, "seed is a whole number of at most 64 bits"),
        (1, -1, InvalidArgumentError, "game is a whole number from 0, not -1"),
        (1, True, TypeError, "a game number is a whole number, not True"),
        (1, "0", TypeError, "a game number is a whole number, not '0'"),
    ],
)
def test_game_seed_refuses_a_seed_or_game_number_of_the_wrong_kind(
    seed: Any, game: Any, error: type[Exception], shown: str
) -> None:
    """S6: game_seed("1", 0) would hash the text, and give a seed other than game_seed(1, 0)'s.
    A seed of the wrong kind is a TypeError, as new_game's is (the errors reference)."""
    from mexican_train.simulation import game_seed

    refused(lambda: game_seed(seed, game), error, shown)
    if error is TypeError:
        with pytest.raises(TypeError):
            new_game(2, seed=seed if type(seed) is not int else game)


@pytest.mark.parametrize("tile", [5, None, ["6-5"]])
def test_draw_tile_of_a_non_tile_raises_type_error_naming_the_argument(tile: Any) -> None:
    """The message named tile[0], an item of a list draw_tile does not take."""
    message = refused(
        lambda: draw_tile(a_state(), tile), TypeError, "draw_tile() needs a Tile or an 'a-b' str"
    )
    assert "tile[0]" not in message
