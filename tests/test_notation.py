"""The text notation: moves and positions round-trip exactly, and bad text is pointed at."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    CallLastTile,
    Deal,
    Draw,
    GameState,
    MexicanTrainError,
    NextRound,
    NotationError,
    Pass,
    Play,
    Rules,
    Tile,
    apply,
    format_move,
    format_state,
    legal_moves,
    new_game,
    parse_move,
    parse_state,
)
from mexican_train.notation import FIELDS
from mexican_train.testing import check_invariants
from mexican_train.variants import VARIANTS, NeverBind
from strategies import mutated_texts, own_tables, positions, variant_tables

SMALL = attrs.evolve(HUB, max_pip=3, hand_size=3)


def small_state() -> GameState:
    """A double-3 game of two players, seat 0 having played 3-1 (Rulebook B, S4)."""
    return parse_state(
        "hub(max_pip=3,hand_size=3) 2/3/3 5 1/3-3/0 0-0,2-2/2-1,3-0,3-2 2-0,1-0,1-1 "
        "3-1/-/- 1/10/0/0/-/-/0/0 0,0"
    )


SMALL_TEXT = format_state(small_state())


# -- moves ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Play(Tile(12, 5), 3), "12-5@3"),
        (Play(Tile(6, 6), MEXICAN), "6-6@M"),
        (Play(Tile(0, 0), 0), "0-0@0"),
        (Draw(), "draw"),
        (Pass(), "pass"),
        (NextRound(), "next"),
        (CallLastTile(), "call-last-tile"),
    ],
)
def test_format_move_writes_one_short_token(move: Play | Draw, text: str) -> None:
    assert format_move(move) == text
    assert parse_move(text) is move


@pytest.mark.parametrize(
    ("text", "move"),
    [("5-12@3", Play(Tile(12, 5), 3)), ("12-5@m", Play(Tile(12, 5), MEXICAN)),
     (" DRAW ", Draw()), ("Pass", Pass()), ("007-3@01", Play(Tile(7, 3), 1))],
)  # fmt: skip
def test_parse_move_accepts_either_end_first_any_case_and_spaces(text: str, move: Play) -> None:
    assert parse_move(text) is move


@pytest.mark.parametrize(
    ("text", "column", "part"),
    [
        ("12-5@X", 6, "X"),
        ("12-@3", 1, "12-"),
        ("12-5@3@4", 8, "4"),
        ("drw", 1, "drw"),
        ("  hop", 3, "hop"),
        ("", 1, ""),
        ("12-5@", 6, ""),
        ("1.5-2@0", 1, "1.5-2"),
    ],
)
def test_parse_move_points_at_the_offending_part(text: str, column: int, part: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_move(text)
    assert (caught.value.column, caught.value.part, caught.value.field) == (column, part, "move")
    assert f"column {column}" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "part", "reason"),
    [
        ("12-5@1000000000", "1000000000", "a seat number from 0 to 999999999, at most 9 digits"),
        ("12-5@0000000001", "0000000001", "at most 9 digits"),
        ("12-5@1" + "0" * 5000, "1" + "0" * 5000, "at most 9 digits"),
        ("12345-1@0", "12345-1", "a number on a tile is a whole number from 0 to 30"),
        ("1" * 5000 + "-1@0", "1" * 5000 + "-1", "from 0 to 30, at most 4 digits"),
    ],
    ids=["10 digits", "leading zeros", "5001 digits", "tile of 5 digits", "tile of 5000"],
)
def test_parse_move_refuses_a_number_too_long_for_its_bound(
    text: str, part: str, reason: str
) -> None:
    # The train was refused as "a train is a seat number, or M", the tile as "two numbers
    # joined by '-'", though both are written right: the number is what is too long.
    with pytest.raises(NotationError) as caught:
        parse_move(text)
    assert caught.value.part == part
    assert reason in caught.value.reason
    assert len(str(caught.value)) < 200


def test_a_position_refuses_a_train_id_too_long_for_its_bound() -> None:
    text = SMALL_TEXT.replace(" 1/10/0/0/-/", " 1/10/0/0/1000000000/")
    assert text != SMALL_TEXT
    with pytest.raises(NotationError) as caught:
        parse_state(text)
    assert (caught.value.field, caught.value.part) == ("turn", "1000000000")
    assert "at most 9 digits" in caught.value.reason


@pytest.mark.parametrize(
    ("rules", "reason"),
    [(STANDARD, "on which nobody draws under these rules (P4)"),
     (HUB, "3 tiles of the hand have a legal play")],
    ids=["first turn", "must play"],
)  # fmt: skip
def test_a_position_with_a_draw_no_game_makes_is_refused_at_the_drawn_flag(
    rules: Rules, reason: str
) -> None:
    text = format_state(new_game(2, rules, seed=1))
    drawn = text.replace(" 0/00/0/0/", " 0/00/0/1/")
    assert drawn != text
    with pytest.raises(NotationError) as caught:
        parse_state(drawn)
    assert (caught.value.field, caught.value.part) == ("turn", "1")
    assert caught.value.column == drawn.index(" 0/00/0/1/") + 9  # counting from 1
    assert reason in caught.value.reason


def test_notation_error_is_a_value_error_of_the_library() -> None:
    assert issubclass(NotationError, MexicanTrainError)
    assert issubclass(NotationError, ValueError)


def test_format_move_refuses_what_is_not_a_move() -> None:
    with pytest.raises(TypeError):
        format_move("draw")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_move(None)  # type: ignore[arg-type]


@given(positions(tables=variant_tables()))
def test_every_legal_move_round_trips(state: GameState) -> None:
    for move in legal_moves(state):
        text = format_move(move)
        assert " " not in text
        assert parse_move(text) is move


# -- positions: round trips -----------------------------------------------------------


@given(positions())
def test_position_round_trips_exactly_presets(state: GameState) -> None:
    """Everything needed to continue the game: the parsed state equals the original."""
    text = format_state(state)
    back = parse_state(text)
    assert back == state
    assert hash(back) == hash(state)
    assert format_state(back) == text
    assert "\n" not in text
    assert len(text.split(" ")) == len(FIELDS)


@given(positions(tables=variant_tables()))
def test_position_round_trips_exactly_variants(state: GameState) -> None:
    """Rules are written as a variant plus the fields that differ (V1-V10)."""
    text = format_state(state)
    back = parse_state(text)
    assert back == state
    assert hash(back) == hash(state)
    assert not text.startswith("custom")


@given(positions(tables=own_tables()))
def test_s1_a_position_on_a_deal_table_of_ones_own_round_trips_given_its_rules(
    state: GameState,
) -> None:
    """A table with no public name makes the rules ``custom``: read back with ``rules=``,
    for any player count the table deals (one player included) and any set down to double-1."""
    text = format_state(state)
    assert text.startswith("custom ")
    back = parse_state(text, rules=state.rules)
    assert back == state
    assert format_state(back) == text


@given(positions(max_moves=60))
def test_parsed_position_continues_the_game_identically(state: GameState) -> None:
    back = parse_state(format_state(state))
    assert legal_moves(back) == legal_moves(state)
    if not state.is_over:
        move = legal_moves(state)[-1]
        assert apply(back, move) == apply(state, move)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_registered_variant_is_written_by_name(name: str) -> None:
    state = new_game(4, VARIANTS[name], seed=3)
    assert format_state(state).split(" ")[0] == name
    assert parse_state(format_state(state)) == state


def test_rules_that_differ_from_a_variant_are_written_as_changes() -> None:
    rules = attrs.evolve(HUB, max_pip=6, hand_size=5, open_doubles=NeverBind(), ascending=True)
    text = format_state(new_game(2, rules, seed=1))
    assert text.split(" ")[0].startswith("hub(") or "NeverBind()" in text.split(" ")[0]
    assert parse_state(text).rules == rules


def test_a_position_after_moves_reads_field_by_field() -> None:
    """A worked example: the fields hold what the reference page says."""
    state = small_state()
    assert state.rules == SMALL
    assert (state.players, state.max_pip, state.hand_size, state.seed) == (2, 3, 3, 5)
    assert (state.round_number, state.engine, state.first_player) == (1, Tile(3, 3), 0)
    assert state.hands == ((Tile(0, 0), Tile(2, 2)), (Tile(2, 1), Tile(3, 0), Tile(3, 2)))
    assert state.boneyard == (Tile(2, 0), Tile(1, 0), Tile(1, 1))
    assert state.trains[0].tiles == (Tile(3, 1),)
    assert state.trains[0].open_end == 1
    assert state.current_player == 1
    assert state.had_first_turn == (True, False)


def test_train_tiles_are_written_as_they_lie_and_read_either_way() -> None:
    state = small_state()
    state = apply(state, Play(Tile(3, 2), 1))  # seat 1 starts its train: 3-2
    text = format_state(state)
    assert " 3-1/3-2/- " in text
    assert parse_state(text.replace(" 3-1/3-2/- ", " 1-3/2-3/- ")) == state


def test_markers_and_between_rounds_are_written() -> None:
    state = new_game(2, SMALL, seed=5)
    while state.current_player is not None:
        state = apply(state, legal_moves(state)[-1])
    text = format_state(state)
    turn = text.split(" ")[7]
    assert turn.startswith("-/")
    assert parse_state(text) == state


def test_a_last_tile_called_this_turn_is_written_and_read_back() -> None:
    """The turn's last item: random positions seldom stop just after a call, so one is made."""
    state = new_game(2, attrs.evolve(VARIANTS["last-tile-call"], max_pip=6, hand_size=7), seed=0)
    while CallLastTile() not in legal_moves(state):
        state = apply(state, legal_moves(state)[0])
    state = apply(state, CallLastTile())
    text = format_state(state)
    assert text.split(" ")[7].endswith("/1")
    back = parse_state(text)
    assert back == state
    assert hash(back) == hash(state)
    assert back.last_tile_called


#: Seat 0 to play, the Mexican train ending in the open double 4-4 (D2).
MEXICAN_OPEN = (
    "hub 2/12/16 0 1/12-12/0 2-0,3-3,5-2,8-2,8-5,9-5,9-8,9-9,11-11/4-2,5-5,6-4,8-0,10-2,10-4,"
    "10-9,11-6,11-10 12-0,11-2,11-4,8-6,9-4,7-4,11-7,9-1,11-5,7-2,12-4,7-1,7-5,12-6,12-11,2-1,"
    "10-0,5-3,8-8,11-8,2-2,12-5,6-5,5-4,4-3,9-2,10-7,8-7,10-1,11-0,11-9,10-5,12-2,8-3,1-1,6-1,"
    "4-1,12-1,3-0,8-4,12-7,12-9 12-10,10-10,10-6,6-2,2-3,3-11,11-1*/12-8,8-1,1-5,5-0,0-7,7-7,"
    "7-3,3-10,10-8/12-3,3-1,1-0,0-0,0-9,9-6,6-6,6-7,7-9,9-3,3-6,6-0,0-4,4-4 0/11/0/0/-/M/0/0 0,0"
)


def test_d2_a_position_reads_the_mexican_train_as_m_in_either_case_as_a_move_does() -> None:
    """The turn's train ids read ``m`` for ``M``, as `parse_move` reads ``12-5@m``."""
    state = parse_state(MEXICAN_OPEN)
    assert state.open_doubles == (MEXICAN,)
    assert parse_state(MEXICAN_OPEN.replace("/M/", "/m/")) == state
    assert format_state(state) == MEXICAN_OPEN


@pytest.mark.parametrize(
    ("written", "meant"), [("True", "true"), ("FALSE", "false"), ("None", "none")]
)
def test_a_rules_value_in_pythons_spelling_is_refused_saying_how_to_write_it(
    written: str, meant: str
) -> None:
    fields = format_state(new_game(2, HUB, seed=3)).split(" ")
    text = " ".join([f"hub(open_hands={written})", *fields[1:]])
    with pytest.raises(NotationError) as caught:
        parse_state(text)
    assert (caught.value.field, caught.value.part, caught.value.column) == ("rules", written, 16)
    assert caught.value.reason == f"write {meant}, in lower case, not {written}"


@pytest.mark.parametrize(
    ("rules", "part", "reason"),
    [
        ("hub(open_doubles=PlannerPlayer())", "PlannerPlayer",
         "open_doubles is an OpenDoubleRule: one of "),
        ("hub(open_doubles=GameRecord(players=2))", "GameRecord",
         "open_doubles is an OpenDoubleRule: one of "),
        ("hub(mexican_train=CloseInOrder())", "CloseInOrder",
         "mexican_train is a MexicanTrainRule: one of "),
        ("hub(deal_table=HUB)", "HUB", "deal_table is a DealTable: one of "),
        ("hub(first_turn=FirstTurn(chain=Deal()))", "Deal",
         "chain is a number, true, false, none or an enum member, not Deal"),
    ],
)  # fmt: skip
def test_a_rules_field_builds_only_the_rule_pieces_it_can_hold(
    rules: str, part: str, reason: str
) -> None:
    """A player, a record or a whole set of rules is no rule piece: it is refused where it
    is named, unbuilt, as the JSON readers refuse it."""
    fields = format_state(new_game(2, HUB, seed=3)).split(" ")
    with pytest.raises(NotationError) as caught:
        parse_state(" ".join([rules, *fields[1:]]))
    assert (caught.value.field, caught.value.part) == ("rules", part)
    assert caught.value.column == rules.index(part) + 1
    assert caught.value.reason.startswith(reason), caught.value.reason


@pytest.mark.parametrize(
    "rules", ["hub(max_pip = 3)", "hub( max_pip=3 )", "hub(max_pip=3, hand_size=3)"]
)
def test_a_space_inside_the_rules_brackets_is_refused_in_the_rules_field(rules: str) -> None:
    """Not as a position of too many fields: the space split the rules."""
    fields = format_state(new_game(2, HUB, seed=3)).split(" ")
    with pytest.raises(NotationError) as caught:
        parse_state(" ".join([rules, *fields[1:]]))
    assert (caught.value.field, caught.value.column) == ("rules", 1)
    assert caught.value.part == rules.split(" ")[0]
    assert "the rules field holds no spaces" in caught.value.reason


def test_custom_rules_need_rules_keyword() -> None:
    @attrs.frozen
    class MyRule:
        def is_open(self, table: object, seat: int) -> bool:
            return True

    rules = attrs.evolve(STANDARD, mexican_train=MyRule())
    state = new_game(3, rules, seed=2)
    text = format_state(state)
    assert text.startswith("custom ")
    assert parse_state(text, rules=rules) == state
    with pytest.raises(NotationError, match="pass them as rules="):
        parse_state(text)


def test_rules_keyword_must_agree_with_a_named_variant() -> None:
    with pytest.raises(NotationError, match="differ from the rules= given"):
        parse_state(SMALL_TEXT, rules=STANDARD)
    assert parse_state(SMALL_TEXT, rules=SMALL) == small_state()


def test_parse_state_refuses_what_is_not_text_or_rules() -> None:
    with pytest.raises(TypeError):
        parse_state(b"hub")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_state(SMALL_TEXT, rules="hub")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        format_state(SMALL_TEXT)  # type: ignore[arg-type]


def test_deals_from_an_explicit_deal_round_trip() -> None:
    deal = Deal([["3-2", "1-0", "2-2"], ["3-0", "1-1", "2-1"]], ["0-0", "2-0", "3-1"])
    state = new_game(2, SMALL, seed=9, deal=deal)
    assert parse_state(format_state(state)) == state


# -- positions: errors ----------------------------------------------------------------


def replace_field(text: str, field: str, value: str) -> str:
    parts = text.split(" ")
    parts[FIELDS.index(field)] = value
    return " ".join(parts)


@pytest.mark.parametrize(
    ("changes", "field", "part", "reason"),
    [
        ({"rules": "chickenfoot"}, "rules", "chickenfoot", "unknown variant"),
        ({"rules": "hub(max_pip=3,hand_size=3"}, "rules", "", "expected ',' or ')'"),
        ({"rules": "hub(max_pip=3,colour=3)"}, "rules", "colour", "no field 'colour'"),
        # A value the rules refuse is pointed at, as JSON names its field.
        ({"rules": "hub(max_pip=3,hand_size=1)"}, "rules", "1",
         "Rules.hand_size must be None or a whole number >= 2, not 1"),
        ({"rules": "hub(max_pip=3,hand_size=3,last_tile_penalty=-1)"}, "rules", "-1",
         "Rules.last_tile_penalty must be a whole number >= 0"),
        ({"rules": "hub(max_pip=3,hand_size=20)"}, "rules", "20",
         "Rules.hand_size=20 cannot be dealt"),
        ({"rules": "hub(max_pip=3,hand_size=3,open_doubles=CloseInOrder(reverse=1))"}, "rules",
         "1", "CloseInOrder.reverse must be bool"),
        ({"rules": "hub(max_pip=3,hand_size=3,rounds=5,highest_engine=2)"}, "rules", "5",
         "Rules.rounds=5, but engines from 2-2"),
        ({"rules": "hub(max_pip=3,hand_size=3,open_doubles=Nope())"}, "rules", "Nope",
         "not a public"),
        ({"rules": "h\u00fcb"}, "rules", "\u00fc",
         "expected '(' or the end of the rules after the variant name, found '\u00fc'"),
        ({"rules": "hub+"}, "rules", "hub+", "has an empty name in its '+' list"),
        ({"rules": "hub+nope"}, "rules", "hub+nope", "unknown variant 'nope'"),
        ({"rules": "standard+hub"}, "rules", "standard+hub", "'hub' changes nothing"),
        ({"rules": "hub(max_pip=1234567890123456789)"}, "rules", "1234567890123456789",
         "a whole number of at most 18 digits"),
        ({"setup": "2/3"}, "setup", "2/3", "players/set/hand size"),
        ({"setup": "2/x/3"}, "setup", "x", "whole number"),
        ({"setup": "2/3/4"}, "setup", "4", "the rules deal 3 tiles"),
        ({"seed": "five"}, "seed", "five", "seed"),
        ({"round": "1/3-3"}, "round", "1/3-3", "round/engine/first player"),
        ({"round": "1/2-2/0"}, "round", "2-2", "S2"),
        ({"round": "5/3-3/0"}, "round", "5", "a round is 1-4"),
        ({"round": "1/3-3/1"}, "round", "1", "S4"),
        ({"hands": "0-0,2-2,1-1/2-1,3-0,3-2"}, "boneyard", "1-1", "appears twice"),
        ({"hands": "0-0,2-2/2-1,3-0,3-2/-"}, "hands", "0-0,2-2/2-1,3-0,3-2/-", "3 hands"),
        ({"hands": "0-0,2-9/2-1,3-0,3-2"}, "hands", "2-9", "not in a double-3 set"),
        # A hand is read in any order; a fault is told where the text has it.
        ({"hands": "0-0,2-2/3-2,3-2,2-1"}, "hands", "3-2", "3-2 appears twice (also at hands[1][0])"),
        ({"hands": "0-0,2-2/2-1,3-0,3-2,9"}, "hands", "9", "a tile is two numbers"),
        ({"boneyard": "2-0,1-0"}, "boneyard", "2-0,1-0", "missing 1-1"),
        ({"trains": "3-1,2-0/-/-", "boneyard": "1-0,1-1"}, "trains", "2-0", "P2"),
        ({"trains": "3-1/-/-*"}, "trains", "-*", "P6"),
        ({"trains": "3-1/-"}, "trains", "3-1/-", "2 trains"),
        ({"turn": "1/10/0/0/-/-/0"}, "turn", "1/10/0/0/-/-/0", "separated by '/'"),
        ({"turn": "0/10/0/0/-/-/0/0"}, "turn", "1", "P1"),
        # P3, P6: nobody but its owner starts a train, and only the owner's turn marks it.
        ({"hands": "0-0,2-2/2-1,3-0", "trains": "3-1/3-2/-"}, "trains", "3-2",
         "seat 1 has played 0 tiles this turn, but their train holds 1"),
        ({"trains": "3-1/-*/-"}, "trains", "-*", "a marker comes only as a turn ends"),
        ({"turn": "0/00/0/0/-/-/0/0"}, "trains", "3-1", "seat 0 has played 0 tiles this turn"),
        ({"hands": "0-0,2-2/3-0", "trains": "3-1/3-2,2-1/-", "turn": "1/10/1/0/-/-/0/0"},
         "trains", "3-2,2-1", "seat 1 has played 1 tile this turn, but their train holds 2"),
        ({"hands": "0-0,2-2/2-1,3-0", "trains": "3-1/3-2/-", "turn": "0/00/1/0/-/-/0/0"},
         "trains", "3-2", "seat 1 has not had its first turn this round"),
        ({"trains": "3-1/-*/-", "turn": "0/00/1/0/-/-/0/0"}, "trains", "-*",
         "seat 1 has not had its first turn this round"),
        ({"turn": "1/10/0/0/-/0/0/0"}, "turn", "0", "does not end in a double"),
        ({"turn": "1/10/0/0/-/M/0/0"}, "turn", "M", "the Mexican train does not end in a double"),
        ({"turn": "1/10/0/2/-/-/0/0"}, "turn", "2", "drawn"),
        ({"turn": "1/10/0/0/-/-/0/1"}, "turn", "1", "last-tile call"),
        ({"turn": "1/10/9/0/-/-/0/0"}, "turn", "9", "tiles played this turn"),
        ({"turn": "-/10/0/0/-/-/0/0"}, "scores", "0,0", "rounds scored"),
        ({"scores": "0,1"}, "scores", "0,1", "add up"),
        ({"scores": "0,0,0"}, "scores", "0,0,0", "3 scores for 2 players"),
    ],
)  # fmt: skip
def test_parse_state_points_at_the_offending_part(
    changes: dict[str, str], field: str, part: str, reason: str
) -> None:
    text = SMALL_TEXT
    for name, value in changes.items():
        text = replace_field(text, name, value)
    with pytest.raises(NotationError) as caught:
        parse_state(text)
    error = caught.value
    assert reason in error.reason
    assert error.field == field
    assert error.part == part
    start = error.column - 1
    assert text[start : start + len(error.part)] == error.part


def test_parse_state_counts_the_fields() -> None:
    with pytest.raises(NotationError, match="missing: turn, scores"):
        parse_state(" ".join(SMALL_TEXT.split(" ")[:7]))
    with pytest.raises(NotationError, match="9 fields only") as caught:
        parse_state(SMALL_TEXT + " extra")
    assert caught.value.part == "extra"


def test_e3_the_last_rounds_scores_are_the_hands_left() -> None:
    state = new_game(2, SMALL, seed=5)
    while state.current_player is not None:
        state = apply(state, legal_moves(state)[-1])
    text = format_state(state)
    scores = text.split(" ")[8]
    _, row = scores.split("/")
    wrong = ",".join(str(int(x) + 1) for x in row.split(","))
    with pytest.raises(NotationError, match="E3"):
        parse_state(replace_field(text, "scores", f"{wrong}/{wrong}"))


def test_a_huge_set_is_refused_without_building_it() -> None:
    """An untrusted set size is tied to the tiles written before anything is built."""
    text = replace_field(SMALL_TEXT, "setup", "2/999999999/3")
    with pytest.raises(NotationError):
        parse_state(text)


@given(positions(max_moves=120), st.data())
def test_mutated_positions_give_a_notation_error_or_a_consistent_state(
    state: GameState, data: st.DataObject
) -> None:
    """Fuzz: a damaged position is refused with NotationError, or is itself consistent."""
    text = data.draw(mutated_texts(format_state(state)))
    refusal: NotationError | None = None
    try:
        back = parse_state(text)
    except NotationError as error:
        refusal = error
    if refusal is not None:
        assert 1 <= refusal.column <= len(text) + 1
        assert text[refusal.column - 1 :].startswith(refusal.part)
        return
    assert isinstance(back, GameState)
    assert parse_state(format_state(back)) == back
    check_invariants(back)  # the conformance kit agrees: a consistent position


def test_rules_are_written_generically_from_their_fields() -> None:
    """Every field of Rules can be changed and written (the notation walks attrs.fields)."""
    for field in attrs.fields(Rules):
        value = getattr(STANDARD, field.name)
        if isinstance(value, bool):
            changes: dict[str, Any] = {field.name: not value}
            rules = attrs.evolve(STANDARD, **changes)
            state = new_game(4, rules, seed=1)
            assert parse_state(format_state(state)) == state
