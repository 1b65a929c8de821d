"""The rule ids the program tells a person name the rule that applies in that situation.

The narration (``demo``, ``play``), the play help, the web table's menu and log and the
engine's refusals each cite a rule; these scenarios pin the id where more than one rule
could be meant: a marker placed under P4, D1, D2 or P5, a draw under D1, D2 or P7, an
open double that binds nobody (D4, V3), and going out on a double (D5) or in a first
turn (P4).
"""

from __future__ import annotations

import attrs

from mexican_train import (
    GameState,
    Move,
    Rules,
    Tile,
    Train,
    apply,
    build_state,
    full_set,
    legal_moves,
    view,
)
from mexican_train._frontends.cli import _describe as menu_line
from mexican_train._frontends.cli import _full_help
from mexican_train._frontends.narrate import Narrator
from mexican_train._frontends.web import _describe, _move_document
from mexican_train.events import derive_events
from mexican_train.variants import NeverBind, get_variant
from scenario_helpers import DRAW, HUB6, PASS, STANDARD6, on, run, start, tiles

NAMES = ["Ann", "Bo"]


def log_lines(
    before: GameState, after: GameState, seat: int, move: Move, names: list[str]
) -> list[tuple[str, ...]]:
    """The web table's log lines for *move*, from its events as the table derives them."""
    return _describe(before, after, seat, move, derive_events(before, move, after), names)


def _told(state: GameState, *moves: Move) -> tuple[GameState, list[tuple[str, str]]]:
    """Return the state after *moves* and what the narrator said of each, with its note."""
    narrator = Narrator(NAMES)
    said = []
    for move in moves:
        after = apply(state, move)
        said.append((narrator.move(state, move, after), narrator.turn_end(state, after)))
        state = after
    return state, said


def _ann_leaves_3_3_open(rules: Rules = HUB6) -> GameState:
    """HUB on a double-6 set: Ann lays 3-3, cannot follow it, draws 5-0 and passes."""
    state = start(["6-3 3-3 1-0 2-0", "6-1 1-1 2-2 4-1"], rules=rules, boneyard="5-0 5-1")
    return run(state, on("6-3", 0), on("6-1", 1), on("3-3", 0), DRAW)


def test_d2_a_player_who_cannot_cover_an_open_double_draws_and_is_marked_under_d2() -> None:
    """D2: Bo, bound by Ann's open 3-3 and holding no 3, draws 5-1 and passes: both by D2,
    not by P7 and P5 (an ordinary turn's), in the narration, the menu and the log."""
    state, said = _told(_ann_leaves_3_3_open(), PASS)
    assert "a marker goes on its train (D1)." in said[0][0]
    state, said = _told(state, DRAW)
    assert said[0][0] == (
        "Bo draws 5-1 from the boneyard (D2: a player who cannot cover an open double "
        "draws one tile)."
    )
    assert [_move_document(m, view(state, 1))["words"] for m in legal_moves(state)] == [
        "Pass (a marker goes on your train, D2)"
    ]
    after, said = _told(state, PASS)
    assert said[0][0].startswith(
        "Bo cannot cover the open double and passes: a marker goes on its train (D2)."
    )
    assert log_lines(state, after, 1, PASS, NAMES)[0][-1] == (
        "Bo passed: a marker goes on their train (D2)."
    )


def test_d1_the_web_table_marks_a_double_not_followed_under_d1() -> None:
    """D1: Ann's pass after the 3-3 she cannot follow is D1's, in the menu and the log."""
    state = _ann_leaves_3_3_open()
    assert _move_document(PASS, view(state, 0))["words"] == "Pass (a marker goes on your train, D1)"
    after = apply(state, PASS)
    assert log_lines(state, after, 0, PASS, NAMES)[0][-1] == (
        "Ann passed: a marker goes on their train (D1)."
    )


def test_p4_the_web_table_marks_a_first_turn_that_cannot_start_under_p4() -> None:
    """P4: under STANDARD Bo holds no 6 for his first turn; his pass is marked by P4."""
    state = start(["6-6 6-3 3-3 5-5", "5-1 1-0 2-0 4-0"], rules=STANDARD6)
    state = run(state, on("6-3", 0), on("3-3", 0))  # Ann's chain stops: no 3 left
    assert legal_moves(state) == (PASS,)
    assert _move_document(PASS, view(state, 1))["words"] == "Pass (a marker goes on your train, P4)"
    after = apply(state, PASS)
    assert log_lines(state, after, 1, PASS, NAMES)[0][-1] == (
        "Bo passed: a marker goes on their train (P4)."
    )


def test_p6_a_pass_on_a_marked_train_does_not_promise_a_new_marker() -> None:
    """P6: a marker stays until its owner plays on the train; a second pass adds none, and
    neither menu says that one goes on."""
    state, _ = _told(_ann_leaves_3_3_open(), PASS, DRAW, PASS)  # both trains now marked
    state = run(state, DRAW)  # Ann, still bound by her 3-3, draws again and holds no 3
    assert legal_moves(state) == (PASS,)
    assert state.trains[0].marked
    mine = view(state, 0)
    assert _move_document(PASS, mine)["words"] == "Pass (your train keeps its marker)"
    assert menu_line(PASS, mine) == "pass (end the turn; your train keeps its marker)"


def _dead_3_3() -> GameState:
    """HUB, Ann to move: every 3 but the 3-3 is on the table, so the 3-3 is dead (D4)."""

    def train(text: str, end: int, owner_played: bool = True) -> Train:
        return Train(tiles=tiles(text), open_end=end, marked=False, owner_played=owner_played)

    hands = [tiles("3-3 1-0 2-0 4-0 5-0"), tiles("1-1 2-2 4-4 5-5 0-0")]
    trains = [train("6-3", 3), train("6-1 1-3 3-2 2-4 4-3 3-5 5-2", 2),
              train("6-0 0-3", 3, owner_played=False)]  # fmt: skip
    used = {t for hand in hands for t in hand} | {t for line in trains for t in line.tiles}
    return build_state(
        rules=attrs.evolve(HUB6, hand_size=5), players=2, seed=0, round_number=1,
        hands=hands, boneyard=[t for t in full_set(6) if t not in used | {Tile(6, 6)}],
        trains=trains, current_player=0, had_first_turn=[True, True],
    )  # fmt: skip


def test_d4_a_dead_double_left_open_is_said_to_bind_nobody() -> None:
    """D4: Ann leaves the dead 3-3 open; the narration must not tell Bo to cover it (D2),
    and the help Bo reads does not either."""
    state, said = _told(_dead_3_3(), on("3-3", 0), DRAW, PASS)
    assert state.open_doubles == (0,)
    assert said[-1][1] == (
        "The double on seat 0's train is left open, but nothing can cover it any more: "
        "it binds nobody (D4)."
    )
    assert "A double is open" not in _full_help(state, 1)


def test_v3_a_double_left_open_under_doubles_never_bind_is_said_to_bind_nobody() -> None:
    """V3 (doubles-never-bind): the narration says the open 3-3 binds nobody, not D2."""
    state, said = _told(_ann_leaves_3_3_open(attrs.evolve(HUB6, open_doubles=NeverBind())), PASS)
    assert (
        said[0][1]
        == "The double on seat 0's train is left open; under these rules it binds nobody (V3)."
    )
    assert "A double is open" not in _full_help(state, 1)


def test_d2_a_binding_double_left_open_still_cites_d2() -> None:
    state, said = _told(_ann_leaves_3_3_open(), PASS)
    assert said[0][1] == (
        "The double on seat 0's train is left open: whoever moves next must cover it "
        "before playing anywhere else (D2)."
    )
    assert "A double is open: you must cover it" in _full_help(state, 1)


def test_d5_going_out_on_a_double_is_told_as_d5() -> None:
    """D5: Ann's last tile is the 3-3: the round ends with no tile to follow it (D1 does
    not apply), and the narration and the log say so."""
    state = run(start(["6-3 3-3", "6-1 1-1"], rules=HUB6), on("6-3", 0), on("6-1", 1))
    after, said = _told(state, on("3-3", 0))
    assert after.is_round_over
    assert said[0][0] == (
        "Ann plays 3-3 on its own train; it has no tile left (D5: going out on a double "
        "ends the round, with no tile to follow it)."
    )
    assert log_lines(state, after, 0, on("3-3", 0), NAMES)[0][-1] == (
        "Ann played 3-3 on their own train: going out on a double ends the round (D5)."
    )


def test_p4_going_out_in_a_first_turn_says_the_round_waits_for_the_others() -> None:
    """P4: Ann empties her hand in her first turn; the round goes on until Bo has had his."""
    state = run(start(["6-6 6-3 3-3", "6-1 1-0 2-0"], rules=STANDARD6), on("6-3", 0))
    after, said = _told(state, on("3-3", 0))
    assert not after.is_round_over
    assert after.current_player == 1
    assert said[0][0] == (
        "Ann plays 3-3 on its own train; it has no tile left (P4: the round ends once every "
        "player has had their first turn)."
    )


def test_d3_two_doubles_left_open_in_one_turn_are_both_told() -> None:
    """D2, D3: Ann lays 5-5 on her train and 3-3 on the Mexican train, and can follow
    neither: both are left open, and the first played must be covered first."""
    state = start(["6-3 6-5 5-5 3-3 2-0 2-1", "0-0 1-1 2-2 4-0 4-1 4-2"], rules=HUB6,
                  boneyard="5-4 5-2 1-0")  # fmt: skip
    state = run(state, on("6-3", -1), DRAW, PASS, on("6-5", 0), DRAW, PASS, on("5-5", 0))
    state, said = _told(state, on("3-3", -1), DRAW, PASS)
    assert state.open_doubles == (0, -1)
    assert said[-1][1] == (
        "The doubles on seat 0's train and the Mexican train are left open: the double on "
        "seat 0's train must be covered first (D2, D3)."
    )


def test_p4_v1_a_first_turn_draw_is_told_as_the_first_turns() -> None:
    """P4, V1 (first-turn-draw): Bo, who cannot start his train, draws by the first-turn
    rule of these rules, not P7's ordinary draw."""
    rules = get_variant("first-turn-draw")
    state = start(["6-6 6-3 3-3 5-5", "5-1 1-0 2-0 4-0"], rules=rules, boneyard="4-1 2-1")
    state = run(state, on("6-3", 0), on("3-3", 0))  # Ann's chain stops: no 3 left
    state, said = _told(state, DRAW, PASS)
    assert said[0][0] == (
        "Bo draws 4-1 from the boneyard (P4, V1: a player who cannot start their train on "
        "the first turn draws one tile)."
    )
    assert said[1][0].startswith("Bo cannot play and passes: a marker goes on its train (P4).")
