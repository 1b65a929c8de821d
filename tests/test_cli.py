"""The ``mexican-train`` commands, driven with click's CliRunner (``play`` has its own test)."""

from __future__ import annotations

import importlib
import io
import itertools
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import attrs
import pytest
from click.testing import CliRunner, Result

import scenario_helpers as scenario
from mexican_train import (
    COMPILED,
    HUB,
    MEXICAN,
    STANDARD,
    CallLastTile,
    Deal,
    Draw,
    GameRecord,
    GameState,
    GreedyPlayer,
    IllegalMoveError,
    Move,
    NextRound,
    Pass,
    Play,
    Rules,
    SimulationResult,
    Tile,
    __version__,
    apply,
    full_set,
    legal_moves,
    new_game,
    replay,
    simulate,
    view,
)
from mexican_train._bots.names import BOTS as BOTS_BY_NAME
from mexican_train._bots.simulate import observers_of
from mexican_train._core.engine import doubles_to_cover
from mexican_train._frontends import cli as cli_module
from mexican_train._frontends.cli import (
    _describe,
    _full_help,
    _help,
    _in_player_words,
    _read_move,
    _standings,
    bots_from_option,
    cli,
)
from mexican_train._frontends.explain import explain_rules
from mexican_train._frontends.narrate import Narrator
from mexican_train.players import PlannerPlayer
from mexican_train.serialize import record_from_json, to_json
from mexican_train.simulation import game_seed
from mexican_train.variants import get_variant, variant_names
from repo_scripts import load_script

CLI_HELP_GENERATOR = Path(__file__).resolve().parent.parent / "docs" / "_gen_cli_help.py"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="mexican-train")


def _prose(text: str) -> str:
    """Return *text* with every run of spaces and line breaks made one space: the commands
    wrap their prose to 79 columns, so a sentence may break anywhere between two words."""
    return " ".join(text.split())


def _entries(text: str) -> list[str]:
    """Return the entries of a listing, each made one line again: a line indented deeper
    than the entry it follows goes on that entry (a move, a round's summary, a variant)."""
    entries: list[str] = []
    start = 0  # the indentation of the last entry's first line
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if entries and line.strip() and entries[-1].strip() and indent > start:
            entries[-1] += " " + line.strip()
        else:
            entries.append(line)
            start = indent
    return entries


def assert_one_line_error(result: Result, text: str) -> None:
    """Bad input: a non-zero exit, one 'Error:' line on stderr, no traceback."""
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert text in lines[0]
    assert "Traceback" not in result.output


def test_no_command_prints_the_usage_and_succeeds() -> None:
    result = run()
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: mexican-train")
    assert "demo" in result.stdout
    assert "Error" not in result.output


def test_demo_plays_a_whole_game_and_shows_every_round() -> None:
    result = run("demo", "--players", "2", "--rules", "short-game", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "Round 1 over:" in result.output
    assert "Round 3 over:" in result.output
    assert "Trains:" in result.output
    assert "Final standings (lowest total wins, E5):" in result.output
    assert "<- winner" in result.output


def test_demo_narrates_the_first_round_move_by_move() -> None:
    result = run("demo", "--players", "3", "--rules", "short-game", "--seed", "4")
    first_round = result.stdout.split("Round 1 over:")[0]
    assert "Round 1 of 3: the engine is 9-9 (S2)." in first_round
    assert "Seat 0 (planner) plays 9-5 on its own train." in first_round
    assert "Seat 0 (planner) draws 8-5 from the boneyard" in first_round
    assert "Round 2 over:" in result.stdout.split("Final standings")[0]


def test_demo_explains_markers_and_rule_ids_the_first_time_only() -> None:
    result = run("demo", "--players", "3", "--rules", "short-game", "--seed", "4")
    told = _prose(result.stdout)
    assert "Rule ids in brackets, such as (S3) or (D1), name the rule" in told
    explanation = "A marker opens a train to every player until its owner plays on it again (P6)."
    assert told.count(explanation) == 1
    assert told.count("a marker goes on its train (P5)") > 1


def test_a_first_turn_that_cannot_start_its_train_is_marked_under_p4_not_p5() -> None:
    """P4: a seat that cannot start its train on its first turn passes without drawing and
    is marked by P4's rule; P5's marker is an ordinary turn's, after a draw."""
    narrator = Narrator([f"seat {seat}" for seat in range(4)])
    state = new_game(4, STANDARD, seed=1)
    said = []
    while not all(state.had_first_turn):
        seat = state.current_player
        assert seat is not None
        move = PlannerPlayer().choose(view(state, seat), legal_moves(state))
        after = apply(state, move)
        said.append(narrator.move(state, move, after))
        state = after
    stuck = [line for line in said if "cannot play and passes" in line]
    assert stuck, said  # seat 2 holds no 12 (the engine, S2) on this deal
    assert all("a marker goes on its train (P4)." in line for line in stuck), stuck


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        ("standard", "(P4: in the first turn of a round a player builds their own train, as "
         "many tiles in a row as fit)."),
        ("single-tile-first-turn", "(P4: in the first turn of a round a player plays a "
         "single tile, on their own train)."),
    ],
)  # fmt: skip
def test_the_first_first_turn_tile_told_says_the_first_turn_of_the_rules(
    rules: str, said: str
) -> None:
    """P4, V1: the first turn is told as these rules play it, one tile or a chain."""
    state = new_game(3, get_variant(rules), seed=1)
    move = legal_moves(state)[0]
    told = Narrator(["seat 0", "seat 1", "seat 2"], you=0).move(state, move, apply(state, move))
    assert told.endswith(said), told


def test_a_double_not_followed_draws_and_marks_under_d1_not_p7_or_p5() -> None:
    """D1: the draw after a double the player cannot follow is the double's own, and so is
    the marker of the pass after it; P7 and P5 are an ordinary turn's."""
    small = attrs.evolve(HUB, max_pip=4, hand_size=4)
    deal = Deal([["4-3", "3-3", "1-0", "2-1"], ["4-1", "1-1", "2-2", "3-1"]],
                ["2-0", "0-0", "3-0", "3-2", "4-0", "4-2"])  # fmt: skip
    state = new_game(2, small, deal=deal)
    narrator = Narrator(["seat 0", "seat 1"], you=0)
    said = []
    # Seat 0 lays the 3-3 and holds nothing that follows it; the 2-0 drawn fits nowhere.
    moves: list[Move] = [Play(Tile(4, 3), 0), Play(Tile(4, 1), 1), Play(Tile(3, 3), 0)]
    for move in [*moves, Draw(), Pass()]:
        after = apply(state, move)
        said.append(narrator.move(state, move, after))
        state = after
    assert said[3] == (
        "You draw 2-0 from the boneyard (D1: a player who cannot follow a double draws one tile)."
    )
    assert said[4].startswith(
        "You cannot follow the double and pass: a marker goes on your train (D1)."
    ), said[4]


def test_v6_a_pass_of_yours_with_a_tile_you_could_play_says_you_pass() -> None:
    """V6 (voluntary draw): a player who could play may draw and then pass; told to the
    person at the table, that is "You pass", as every other verb of theirs is."""
    small = attrs.evolve(HUB, max_pip=4, hand_size=4, must_play=False)
    deal = Deal([["4-3", "3-3", "1-0", "2-1"], ["4-1", "1-1", "2-2", "3-1"]],
                ["2-0", "0-0", "3-0", "3-2", "4-0", "4-2"])  # fmt: skip
    state = new_game(2, small, deal=deal)
    narrator = Narrator(["seat 0", "seat 1"], you=0)
    said = []
    for move in (Play(Tile(4, 3), 0), Play(Tile(4, 1), 1), Draw(), Pass()):
        after = apply(state, move)
        said.append(narrator.move(state, move, after))
        state = after
    assert said[3].startswith("You pass: a marker goes on your train (P5)."), said[3]


def test_a_missed_last_tile_call_says_who_draws_the_penalty_and_what() -> None:
    """last-tile-call: a turn that ends with one tile, uncalled, draws the penalty; the
    sentence has its subject, and names the tiles drawn where a draw would name them
    (to their drawer, and in a demo, which shows every hand)."""
    small = attrs.evolve(HUB, max_pip=4, hand_size=3, last_tile_penalty=2)
    hands = [["4-3", "3-1", "0-0"], ["4-1", "1-1", "2-2"]]
    dealt = {Tile.parse(tile) for hand in hands for tile in hand} | {Tile(4, 4)}
    state = new_game(2, small, deal=Deal(hands, [t for t in full_set(4) if t not in dealt]))
    for move in (Play(Tile(4, 3), 0), Play(Tile(4, 1), 1)):
        state = apply(state, move)
    after = apply(state, Play(Tile(3, 1), 0))  # seat 0, holding two tiles, does not call
    drawn = " and ".join(str(tile) for tile in after.hands[0] if tile != Tile(0, 0))
    names = ["seat 0", "seat 1"]
    told = [
        narrator.move(state, Play(Tile(3, 1), 0), after)
        for narrator in (
            Narrator(names, you=0, reveal=False),
            Narrator(names),
            Narrator(names, you=1, reveal=False),
        )
    ]
    assert told == [
        f"You play 3-1 on your train. You did not call 'last tile', so you draw {drawn} "
        "as the penalty.",
        f"Seat 0 plays 3-1 on its own train. Seat 0 did not call 'last tile', so it draws "
        f"{drawn} as the penalty.",
        "Seat 0 plays 3-1 on its own train. Seat 0 did not call 'last tile', so it draws "
        "2 tiles as the penalty.",
    ]


def test_v3_a_double_left_open_beside_others_under_any_double_binds_to_any_one() -> None:
    """V3 (any-double): while several doubles are open the next player covers any one of
    them, so a double left open beside another is not told as the one to cover."""
    told = []
    for seed in range(10):
        state = new_game(4, get_variant("any-double"), seed=seed)
        narrator, rng = Narrator([f"seat {seat}" for seat in range(4)]), random.Random(seed)
        while not state.is_round_over:
            before, state = state, apply(state, rng.choice(legal_moves(state)))
            note = narrator.turn_end(before, state)
            if note and len(doubles_to_cover(state)) > 1:
                told.append(note)
    assert told
    for note in told:
        assert note.endswith("open doubles, any one (D2, V3)."), note


def test_the_final_standings_list_the_winners_first_by_e5s_tie_break() -> None:
    """E5: the standings are in the order E5 ranks the seats, so the winners come first,
    a tie on the total broken by the rounds at 0 (a winner in a later seat than a seat
    on the same total is listed above it)."""
    broken_ties = 0
    for seed in range(400):
        players = 2 + seed % 3
        state = new_game(players, get_variant("short-game"), seed=seed)
        bots = [GreedyPlayer()] * players
        while not state.is_over:
            seat = state.current_player
            moves = legal_moves(state)
            state = apply(
                state, moves[0] if seat is None else bots[seat].choose(view(state, seat), moves)
            )
        lines = _standings(state, [f"seat {seat}" for seat in range(players)]).splitlines()[1:]
        listed = [int(line.split()[2]) for line in lines]  # "  1. seat 3   243  <- winner"
        winners = state.winners
        assert sorted(listed[: len(winners)]) == sorted(winners), lines
        assert all(("<- winner" in line) == (n < len(winners)) for n, line in enumerate(lines))
        totals = [state.scores[seat] for seat in listed]
        assert totals == sorted(totals)
        lowest = [seat for seat in range(players) if state.scores[seat] == min(state.scores)]
        broken_ties += len(lowest) > len(winners) and min(lowest) not in winners
    assert broken_ties > 0, "no deal ties on the total with the winner in a later seat"


def test_demo_never_prints_python_reprs() -> None:
    for seed in range(3):
        result = run("demo", "-p", "4", "-r", "last-tile-call", "--house", "short-game",
                     "--seed", str(seed))  # fmt: skip
        assert result.exit_code == 0, result.output
        assert not re.search(r"\b[A-Z]\w+\(", result.stdout), result.stdout


def test_demo_quiet_prints_only_the_summary() -> None:
    loud = run("demo", "-p", "3", "-r", "short-game", "--seed", "4")
    quiet = run("demo", "-p", "3", "-r", "short-game", "--seed", "4", "--quiet")
    assert quiet.exit_code == 0
    assert "plays 9-5" not in quiet.stdout
    assert "Trains:" not in quiet.stdout
    summary = [line for line in loud.stdout.splitlines() if re.match(r"Round \d+ over:", line)]
    assert [line for line in quiet.stdout.splitlines() if line.startswith("Round ")] == summary
    assert len(summary) == 3
    assert quiet.stdout.endswith(loud.stdout.split("Final standings")[1])


def test_demo_is_reproducible_with_a_seed() -> None:
    args = ["demo", "-p", "3", "-r", "short-game", "--seed", "9", "--bots", "random,greedy"]
    first = run(*args)
    assert first.exit_code == 0
    assert first.output == run(*args).output


def test_house_rules_combine_on_every_command() -> None:
    result = run("demo", "-p", "2", "--rules", "hub", "--house", "short-game",
                 "--house", "shared-ties", "--seed", "1", "-q")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "under the hub+shared-ties+short-game rules" in _prose(result.stdout)
    simulated = run("simulate", "-r", "hub", "--house", "short-game", "-n", "2", "-p", "2")
    assert "Rules: hub+short-game" in simulated.stdout, simulated.output


def test_simulate_prints_a_results_table() -> None:
    result = run("simulate", "-r", "short-game", "-n", "4", "--players", "2",
                 "--bots", "greedy,random")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Rules: short-game" in result.stdout
    assert "mean score" in result.stdout
    assert "1. greedy" in result.stdout


def test_simulate_players_is_a_count_and_bots_repeat_round_the_table() -> None:
    result = run("simulate", "-r", "short-game", "-n", "2", "-p", "3", "--bots", "greedy",
                 "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert [p["name"] for p in json.loads(result.stdout)["player_stats"]] == ["greedy"] * 3


def test_simulate_json_is_the_same_with_worker_processes() -> None:
    args = ["simulate", "-r", "short-game", "-n", "4", "-p", "2", "--bots", "planner,random",
            "--json"]  # fmt: skip
    alone = run(*args)
    assert alone.exit_code == 0, alone.output
    data = json.loads(alone.stdout)
    assert data["variant"] == "short-game"
    assert SimulationResult.from_dict(data).rules == get_variant("short-game")
    assert data["completed_games"] == 4
    assert [p["name"] for p in data["player_stats"]] == ["planner", "random"]
    assert json.loads(run(*args, "--workers", "2").stdout) == data


BOT_MODULE = """
from mexican_train import Play


class HeavyFirst:
    def choose(self, view, moves):
        plays = [move for move in moves if isinstance(move, Play)]
        return max(plays, key=lambda move: move.tile.pips) if plays else moves[0]


not_a_bot = 3
"""


def test_your_own_bot_plays_by_module_and_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_bots.py").write_text(BOT_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "my_bots", raising=False)
    result = run("simulate", "-r", "short-game", "-n", "2", "-p", "2",
                 "--bots", "my_bots:HeavyFirst,greedy")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "HeavyFirst" in result.stdout
    bad = run("demo", "-p", "2", "--bots", "my_bots:not_a_bot")
    assert_one_line_error(bad, "is not a player: a player has a method choose(view, moves)")
    missing = run("demo", "-p", "2", "--bots", "my_bots:Nobody")
    assert_one_line_error(missing, "has no 'Nobody'")


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ('raise RuntimeError("boom")\n', "RuntimeError: boom (%s, line 1)"),
        ("import no_such_dependency\n",
         "ModuleNotFoundError: No module named 'no_such_dependency' (%s, line 1)"),
        ("class Broken(:\n", "SyntaxError: "),
    ],
)  # fmt: skip
def test_your_own_bot_module_that_fails_to_import_says_how_and_where(
    source: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The module's own exception, and its line: no traceback is shown to point at it."""
    (tmp_path / "broken_bots.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "broken_bots", raising=False)
    result = run("demo", "-p", "2", "--bots", "broken_bots:Bot")
    shown = why % (tmp_path / "broken_bots.py") if "%s" in why else why
    assert_one_line_error(
        result, f"--bots: cannot import 'broken_bots' for the bot 'broken_bots:Bot': {shown}"
    )
    assert "broken_bots.py, line 1)" in result.stderr


def test_your_own_bot_module_that_is_not_there_says_where_it_was_looked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module is looked for in the folder the command runs in: the reason says which."""
    monkeypatch.chdir(tmp_path)
    result = run("demo", "-p", "2", "--bots", "nowhere_bots:Bot")
    assert_one_line_error(
        result,
        f"there is no module 'nowhere_bots' in this folder ({tmp_path}) "
        "or among the installed packages",
    )


def test_rules_explains_the_rules_in_prose() -> None:
    result = run("rules", "hub")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "The round's engine is set aside before the deal" in text
    assert "The Mexican train is open to everybody from the first turn (V2)." in text
    assert "Rules." not in text
    assert "_" not in text


def test_rules_follows_the_chosen_variant() -> None:
    standard = " ".join(run("rules").stdout.split())
    dominoes = " ".join(run("rules", "train-dominoes").stdout.split())
    assert "There is no Mexican train" in dominoes
    assert "There is no Mexican train" not in standard
    combined = " ".join(run("rules", "hub", "--house", "last-tile-call").stdout.split())
    assert "The hub+last-tile-call rules" in combined
    assert "Call 'last tile' while holding two tiles" in combined


def test_s1_rules_gives_every_row_of_the_deal_table() -> None:
    """S1: the rows for a set dealt only when chosen (Table A's double-6, Table B's
    double-9) are told after the sets the table picks; rules with a set have none."""
    standard = " ".join(run("rules").stdout.split())
    hub = " ".join(run("rules", "hub").stdout.split())
    assert "It also deals a double-6 set, when chosen, to 2-4 players: 7 tiles each." in standard
    assert (
        "It also deals a double-9 set, when chosen, to 2 players: 15 tiles each, "
        "3 players: 13 tiles each, 4 players: 10 tiles each." in hub
    )
    double_six = explain_rules(attrs.evolve(STANDARD, max_pip=6))
    assert "It also deals" not in " ".join(double_six.split())


def test_e5_rules_says_the_tie_break_counts_round_scores_other_than_0() -> None:
    """E5: ties go to the most rounds at 0, then the lowest round score other than 0."""
    text = " ".join(run("rules").stdout.split())
    assert "then the lowest single round score other than 0; players still level share" in text


def test_e1_rules_says_a_first_turn_that_goes_out_waits_for_the_others() -> None:
    """E1, P4: under Rulebook A a player who goes out in the first turn waits for the others."""
    standard = " ".join(run("rules").stdout.split())
    hub = " ".join(run("rules", "hub").stdout.split())
    aside = "plays their last tile in a first turn ends the round once every player has had theirs"
    assert aside in standard
    assert aside not in hub


def test_d1_rules_says_a_drawn_tile_may_follow_the_double() -> None:
    """D1: a player who cannot follow a double draws one tile and plays it if it is legal;
    only one who still cannot passes (and with draw-until-playable they draw on)."""
    standard = " ".join(run("rules").stdout.split())
    assert (
        "one who cannot follow it draws one tile and plays it if it fits; one who still "
        "cannot passes with a marker (D1)" in standard
    )
    drawing = " ".join(run("rules", "draw-until-playable").stdout.split())
    assert "one who cannot follow it draws until a tile fits or the boneyard is empty;" in drawing


def test_p4_rules_says_a_first_turns_doubles_bind_nobody() -> None:
    """P4: under Rulebook A a double played in the first turn brings no follow-up (D1) and
    is never left open (D2); the doubles' section, read alone, says otherwise."""
    standard = " ".join(run("rules").stdout.split())
    hub = " ".join(run("rules", "hub").stdout.split())
    said = (
        "Doubles played in your first turn bind nobody: D1 and D2 apply from your second "
        "turn, and a double that ends a first-turn train is never open (P4)."
    )
    assert said in standard
    assert "first-turn train" not in hub


def test_rules_table_prints_every_rule_axis() -> None:
    result = run("rules", "hub", "--table")
    assert "first turn (V1)" in result.output
    assert "an ordinary turn" in result.output


def test_rules_lists_the_variants_one_entry_each() -> None:
    result = run("rules", "--list")
    entries = _entries(result.stdout)
    assert [entry.split()[0] for entry in entries] == list(variant_names())
    assert "share the win" in entries[-1]
    # A longer description goes on under its text, not under the names.
    assert all(line.startswith(" " * 10) for line in result.stdout.splitlines()[1:2])


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["demo", "--rules", "chickenfoot"], "--rules: there are no rules called 'chickenfoot'"),
        (["rules", "chickenfoot"], "NAME: there are no rules called 'chickenfoot'"),
        (["demo", "--house", "chickenfoot"], "--house: there is no variant called 'chickenfoot'"),
        (
            ["demo", "--house", "double-blank-0", "--house", "double-blank-25"],
            "--house: 'double-blank-0' and 'double-blank-25' conflict",
        ),
        (
            ["demo", "--rules", "nosuch", "--house", "nosuch"],
            "--rules: there are no rules called 'nosuch'",
        ),
        (["demo", "--players", "20"], "--players: the standard rules allow 2-14 players, not 20"),
        (["simulate", "-r", "hub", "--players", "13"], "the hub rules allow 2-12 players, not 13"),
        (["demo", "--players", "1"], "not 1"),
        (["simulate", "--players", "1"], "players, not 1"),
        (["demo", "--players", "four"], "'four' is not a valid integer"),
        (["simulate", "--games", "0"], "0 is not in the range"),
        (["simulate", "--bots", "greedy,robot"], "no bot called 'robot'"),
        (["demo", "--bots", "planner,,greedy"], "'planner,,greedy' has an empty name"),
        (["demo", "--bots", "planner,"], "has an empty name"),
        (["rules", "--list", "extra"], "takes nothing else, not 'extra'"),
        (["rules", "--list", "--house", "ascending"], "takes nothing else"),
        (["rules", "--list", "--table"], "takes nothing else, not '--table'"),
        (["demo", "--seed", str(2**64)], "a seed is a whole number of at most 64 bits"),
        (["demo", "--bots", "no_such_module:Bot"], "cannot import 'no_such_module'"),
        (["demo", "--bots", ","], "name at least one bot"),
        (["play", "--seat", "4"], "there is no seat 4 with 4 players"),
        (["play", "--seat", "-1"], "there is no seat -1 with 4 players (seats 0-3)"),
        (["play", "--players", "20"], "--players: the standard rules allow 2-14 players, not 20"),
        (["play", "--rules", "nope"], "there are no rules called 'nope'"),
        (["demo", "--colour", "red"], "No such option"),
        (["dance"], "No such command"),
    ],
)
def test_bad_input_gives_one_clear_line_and_a_failure_status(args: list[str], text: str) -> None:
    """Every usage error, a bad name of rules, variant or bot included, exits 2."""
    result = run(*args)
    assert_one_line_error(result, text)
    assert result.exit_code == 2


@pytest.mark.parametrize(
    ("args", "suggested"),
    [
        (["demo", "--rules", "standrd"], "(did you mean 'standard'?)"),
        (["rules", "hubb"], "(did you mean 'hub'"),
        (["demo", "--house", "reverse-doubel"], "(did you mean 'reverse-doubles'"),
        (["demo", "--bots", "planer"], "(did you mean 'planner'?)"),
        (["simulate", "--bots", "greedy,Serch"], "(did you mean 'search'?)"),
    ],
)
def test_a_misspelt_name_gets_a_did_you_mean(args: list[str], suggested: str) -> None:
    """An unknown name suggests the close ones, not a list of every name."""
    result = run(*args)
    assert_one_line_error(result, suggested)
    assert "train-dominoes" not in result.stderr  # the whole catalogue is not listed
    assert result.exit_code == 2


def test_a_failure_while_running_exits_1() -> None:
    """1 is for failures at run time: here a bot that breaks the rules' protocol."""
    result = run("demo", "-p", "2", "--seed", "1", "--bots", "test_cli:_Cheat")
    assert_one_line_error(result, "illegal move")
    assert result.exit_code == 1


class _Cheat:
    """A bot that always draws, even when it must play (P7)."""

    def choose(self, view: object, moves: object) -> object:
        from mexican_train import Draw

        return Draw()


def test_players_help_names_the_counts_the_rules_allow() -> None:
    """--players shows no bare range that the rules then refuse: it says what they allow."""
    text = " ".join(run("simulate", "--help").stdout.split())
    assert "1<=x<=1000]" not in text
    assert "standard: 2-14, hub: 2-12" in text


def test_rules_list_is_plain_text() -> None:
    """No reST markup (``CallLastTile()``) on a terminal."""
    text = run("rules", "--list").stdout
    assert "`" not in text
    assert "(CallLastTile())" in text
    assert "`" not in run("rules", "last-tile-call").stdout


def test_version() -> None:
    assert __version__ in run("--version").output


def test_version_says_which_build_is_imported() -> None:
    """mexican_train.COMPILED: the compiled (mypyc) core, or pure Python."""
    build = "compiled" if COMPILED else "pure Python"
    assert f"({build})" in run("--version").output


def test_python_dash_m_runs_the_same_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mexican_train", "rules", "--list"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.split()[0] == "standard"


def _cli_help_generator() -> Any:
    return load_script(CLI_HELP_GENERATOR)


@pytest.mark.parametrize("command", ["", "demo", "play", "simulate", "rules", "serve", "analyze"])
def test_the_cli_reference_shows_the_current_help(command: str) -> None:
    """docs/reference/cli.rst quotes each command's --help verbatim (at 88 columns)."""
    generator = _cli_help_generator()
    assert command in generator.COMMANDS
    page = generator.PAGE.read_text(encoding="utf-8")
    shown = " ".join(["mexican-train", *([command] if command else []), "--help"])
    assert generator.help_block(command) in page, (
        f"the help of {shown!r} changed: run python docs/_gen_cli_help.py"
    )


def test_the_cli_help_generator_rewrites_only_the_help_blocks() -> None:
    """The generator puts the current help in place of an old one and leaves the prose."""
    generator = _cli_help_generator()
    page = generator.PAGE.read_text(encoding="utf-8")
    assert generator.render(page) == page  # up to date: nothing changes
    current = generator.help_block("demo")
    stale = current.replace("Watch bots play a complete game.", "Watch bots play.\n\n   Old.")
    assert stale != current
    assert generator.render(page.replace(current, stale)) == page


def test_play_offers_the_last_tile_call_only_where_the_rules_have_it() -> None:
    moves = (Draw(),)
    for word in ("c", "call"):  # play --help offers c "under rules with the call"
        with pytest.raises(ValueError, match=r"^These rules have no 'last tile' call"):
            _read_move(word, moves, 0, HUB)
    assert _read_move("c", moves, 0, get_variant("last-tile-call")) == CallLastTile()
    assert "c to call" not in _help(HUB)
    assert "c to call 'last tile'" in _help(get_variant("last-tile-call"))


def test_play_reads_a_tile_typed_with_a_space_as_with_a_dash() -> None:
    # Its ends as two numbers: "6 5" is the tile 6-5, "6 5 m" the same on the Mexican train.
    moves = (Play(Tile(6, 5), 0), Play(Tile(6, 5), MEXICAN), Draw())
    with pytest.raises(ValueError, match="6-5 can go on"):
        _read_move("6 5", moves, 0, HUB)
    assert _read_move("6 5 m", moves, 0, HUB) == Play(Tile(6, 5), MEXICAN)
    assert _read_move("5 6 0", moves, 0, HUB) == Play(Tile(6, 5), 0)
    assert _read_move("2", moves, 0, HUB) == moves[1]  # one number is still a move's number
    with pytest.raises(ValueError, match="did not understand '6 5 m x'"):
        _read_move("6 5 m x", moves, 0, HUB)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("", "Choose 1-3, a tile such as 6-5, or ? for help."),
        ("  ", "Choose 1-3, a tile such as 6-5, or ? for help."),
        ("zz", "I did not understand 'zz': choose 1-3, a tile such as 6-5, or ? for help."),
        ("6 5 m x", "I did not understand '6 5 m x': choose 1-3, a tile such as 6-5, or ? for help."),
        ("6-5-4", "I did not understand '6-5-4': choose 1-3, a tile such as 6-5, or ? for help."),
    ],
)  # fmt: skip
def test_play_answers_an_empty_or_unreadable_move_in_one_line(typed: str, said: str) -> None:
    """A mistake is answered in a line that says what to type; the whole help is for ?."""
    moves = (Play(Tile(6, 5), 0), Play(Tile(6, 5), MEXICAN), Draw())
    with pytest.raises(ValueError, match=f"^{re.escape(said)}$"):
        _read_move(typed, moves, 0, HUB)
    assert len(said) < 80
    only = "I did not understand 'zz': press Enter for the only move, or type ? for help."
    with pytest.raises(ValueError, match=f"^{re.escape(only)}$"):
        _read_move("zz", moves[2:], 0, HUB)


def test_play_takes_help_and_hint_in_any_case() -> None:
    """Like q and h, help is read whatever its case: HELP is not a move it cannot read."""
    args = ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy"]
    result = CliRunner().invoke(cli, args, input="HELP\nHint\nq\n", prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert "I did not understand" not in said
    assert "'mexican-train rules' explains every rule." in said
    assert "Hint: " in said


def test_play_says_a_tile_is_not_in_the_set_rather_than_not_in_your_hand() -> None:
    """Two players under the standard rules play with a double-9 set (S1): 12-5, typed
    either way round, is no tile of this game, which "you do not hold 12-5" hid."""
    args = ["play", "-p", "2", "-r", "standard", "--seed", "1", "--bots", "easy"]
    result = CliRunner().invoke(cli, args, input="5-12\n12-5 m\nq\n", prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    said = "There is no 12-5 in this game: it is played with a double-9 set."
    assert result.stdout.count(said) == 2
    assert "you do not hold 12-5" not in result.stdout


def test_play_fits_an_80_column_terminal() -> None:
    """Play's prose and its table are wrapped to 79 columns, never inside a tile: seed 4
    gives seat 0 a hand of 21 tiles (S3's draws) and a long opening sentence."""
    args = ["play", "--seed", "4", "--bots", "easy"]
    typed = "?\nzz\n" + "1\n" * 12 + "q\n"
    result = CliRunner().invoke(cli, args, input=typed, prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    # What the person typed follows the prompt on its line: the line is the prompt's.
    lines = [line.split("? for help]: ")[-1] for line in result.stdout.splitlines()]
    assert max(len(line) for line in lines) <= 79, max(lines, key=len)
    hand = lines.index(
        "Your hand (seat 0): 2-0 2-1 2-2 3-2 3-3 4-3 5-2 5-4 6-1 7-0 7-7 8-5 9-2 9-6 9-9"
    )
    assert lines[hand + 1] == " " * 20 + "10-1 10-2 11-2 11-8 12-2 12-3"


ACCENTED_BOT = """
class Accented:
    name = "e\\u0301" * 12  # twelve letters e with an acute accent combined: 12 columns

    def choose(self, view, moves):
        return moves[0]
"""


def test_the_table_fits_names_by_their_columns_not_their_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name of letters with combined accents takes fewer columns than characters: the
    table's rows that fit in 79 columns stay on one line, as render_text draws them."""
    (tmp_path / "accented_bots.py").write_text(ACCENTED_BOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "accented_bots", raising=False)
    bots = "accented_bots:Accented,accented_bots:Accented"
    result = run("demo", "-p", "2", "-r", "short-game", "--seed", "1", "--bots", bots)
    assert result.exit_code == 0, result.output
    name = "e\u0301" * 12
    sizes = [line for line in result.stdout.splitlines() if line.startswith("Hand sizes: ")]
    assert sizes, result.stdout
    assert re.fullmatch(rf"Hand sizes: seat 0 \({name}\): \d+, seat 1 \({name}\): \d+", sizes[0])


def test_play_names_your_seat_you_when_the_round_ends() -> None:
    """The table and the points at a round's end show every hand: the person's seat is
    "(you)" there as in their own view, not a bare "seat 0" among the bots."""
    args = ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy"]
    result = CliRunner().invoke(cli, args, input="1\n" * 60 + "q\n", prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert re.search(r"Round 1 over: .* Points: seat 0 \(you\) \d+, seat 1 \(greedy\) \d+\.", said)
    assert re.search(r"Round 1 points: seat 0 \(you\): \d+", said)
    assert "Hand (seat 0 (you)):" in said


def test_play_enter_alone_takes_the_only_move() -> None:
    assert _read_move("", (Draw(),), 0, HUB) == Draw()
    with pytest.raises(ValueError, match=r"^Choose 1-2, "):
        _read_move("", (Draw(), Pass()), 0, HUB)


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("P3: seat 2's train belongs to another player and carries no marker",
         "seat 2's train belongs to another player and carries no marker (P3)."),
        ("V2: the Mexican train is not open to seat 0",
         "the Mexican train is not open to you (V2)."),
        ("V2: the Mexican train opens on each player's second turn of the round",
         "the Mexican train opens on each player's second turn of the round (V2)."),
        ("seat 0 does not hold 6-5", "you do not hold 6-5."),
        ("P2: 6-5 does not fit the Mexican train, whose open end is 3",
         "6-5 does not fit the Mexican train, whose open end is 3 (P2)."),
        ("P2: 6-5 does not fit seat 0's train, whose open end is 3",
         "6-5 does not fit your train, whose open end is 3 (P2)."),
        ("P4: on the first turn of a round a player plays only on their own train, "
         "not on the Mexican train",
         "on the first turn of a round you play only on your own train, "
         "not on the Mexican train (P4)."),
        ("last tile: these rules have no last-tile call (Rules.last_tile_penalty is 0)",
         "last tile: these rules have no last-tile call."),
        ("last tile: a player calls holding exactly 2 tiles; seat 0 holds 3",
         "you call 'last tile' holding exactly 2 tiles; you hold 3."),
        ("last tile: seat 0 has already called this turn",
         "you have already called 'last tile' this turn."),
        ("P4: a first turn draws only before its first tile; the chain goes on, or Pass() "
         "stops it",
         "a first turn draws only before its first tile; the chain goes on, or p (pass) "
         "stops it (P4)."),
    ],
)  # fmt: skip
def test_play_says_refusals_in_the_players_words(reason: str, words: str) -> None:
    assert _in_player_words(reason, 0) == words


def test_demo_says_who_placed_the_engine_and_why_hands_grew() -> None:
    """S3: nobody held 12-12, so the players drew until seat 0 did; the draws stay in hand."""
    text = " ".join(run("demo", "-p", "4", "--seed", "0").stdout.split())
    assert "Nobody held it, so the players drew in turn until seat 0 (planner) drew it" in text
    assert "The tiles drawn stay in the players' hands (seat 0 (planner) drew 6," in text
    assert "larger than dealt" not in text


def test_demo_under_hub_says_the_engine_was_set_aside() -> None:
    """S4: the engine is set aside before the deal and the first player rotates."""
    text = _prose(run("demo", "-p", "3", "-r", "hub", "--seed", "0").stdout)
    assert "It was set aside before the deal, and seat 0 (planner) plays first (S4)." in text


def test_play_names_your_seat_once() -> None:
    """The table marks your own seat "(you)" once, not twice."""
    result = CliRunner().invoke(
        cli, ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy"],
        input="q\n", prog_name="mexican-train",
    )  # fmt: skip
    assert "* seat 0 (you) " in result.stdout
    assert "(you) (you)" not in result.stdout
    assert "Game abandoned" in result.stdout


@pytest.mark.parametrize("review", [True, False])
def test_play_reviews_your_round_with_review_and_asks_nothing_off_a_terminal(
    review: bool,
) -> None:
    """--review prints analyze's review of the seat's moves when a round ends; without it,
    off a terminal (stdin here), play neither asks nor reviews."""
    args = ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy"]
    result = CliRunner().invoke(
        cli, [*args, "--review"] if review else args, input="1\n" * 60 + "q\n",
        prog_name="mexican-train",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Round 1 over" in result.stdout
    assert "Review this round?" not in result.stdout
    after = result.stdout.split("Round 1 over", 1)[1].split("Press Enter to deal round 2")[0]
    if review:
        assert "Reviewing your moves of round 1..." in after
        assert "decisions of yours reviewed, 40 sampled deals each." in after
        assert "The biggest mistakes" in after
        # Placed as the person can find it: their Nth move of the round, and their tiles.
        assert re.search(r"round 1, your \d+(st|nd|rd|th) move \(\d+ tiles? in hand\)", after)
        assert "Better: play" in after
        assert "points lost against the best moves found" in after
    else:
        assert "reviewed" not in after


def test_play_record_says_how_to_review_it_in_80_columns_a_command_to_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command that reviews the record is a line of its own, whole, which the shell
    reads as the file's name however it is spelt; the sentence before it fits 80 columns."""
    monkeypatch.chdir(tmp_path)
    args = ["play", "-p", "2", "-r", "short-game", "--seed", "3", "--record", "my game.json"]
    result = CliRunner().invoke(cli, args, input="q\n", prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(
        "The game's record is in my game.json; to review your moves:\n"
        "  mexican-train analyze 'my game.json' --seat 0\n"
    )
    assert max(map(len, result.stdout.splitlines())) < 80


@pytest.mark.parametrize("name", ["-", "--seat.json"])
def test_play_record_names_a_file_starting_with_a_dash_as_a_file_to_analyze(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command printed reads the record saved, never standard input (``-``) nor an
    option (``--seat.json``): a name starting with a dash is written ``./-``."""
    monkeypatch.chdir(tmp_path)
    args = ["play", "-p", "2", "-r", "short-game", "--seed", "3", "--record", name]
    played = CliRunner().invoke(cli, args, input="q\n", prog_name="mexican-train")
    assert played.exit_code == 0, played.output
    command = played.stdout.rstrip("\n").rsplit("\n", 1)[1]
    assert command == f"  mexican-train analyze ./{name} --seat 0"
    reviewed = run(*command.split()[1:], "--samples", "1")
    assert reviewed.exit_code == 0, reviewed.output


def test_play_record_saves_the_whole_game_for_analyze(tmp_path: Path) -> None:
    """--record writes the game's record as JSON: it replays to the game's end (S6), and
    analyze reads it."""
    saved = tmp_path / "game.json"
    args = ["play", "-p", "2", "-r", "short-game", "--seed", "3", "--record", str(saved)]
    result = CliRunner().invoke(cli, args, input="1\n" * 2000, prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    standings = result.stdout.split("Final standings (lowest total wins, E5):\n")[1]
    assert re.search(r"^  [12]\. seat 0 \(you\) ", standings, re.MULTILINE)  # the person
    told, command = result.stdout.rstrip("\n").rsplit("\n", 1)
    assert _prose(told).endswith(f"The game's record is in {saved}; to review your moves:")
    assert command == f"  mexican-train analyze {saved} --seat 0"
    game = record_from_json(json.loads(saved.read_text(encoding="utf-8")))
    assert replay(game).is_over
    reviewed = run("analyze", str(saved), "--seat", "0", "--samples", "2", "--top", "1")
    assert reviewed.exit_code == 0, reviewed.output
    assert "decisions of yours reviewed, 2 sampled deals each." in reviewed.stdout


def test_play_record_keeps_the_moves_made_before_you_leave(tmp_path: Path) -> None:
    """Leaving with q still writes the record, up to the last move made."""
    saved = tmp_path / "game.json"
    args = ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy"]
    result = CliRunner().invoke(
        cli, [*args, "--record", str(saved)], input="1\nq\n", prog_name="mexican-train"
    )
    assert result.exit_code == 0, result.output
    assert "Game abandoned" in result.stdout
    game = record_from_json(json.loads(saved.read_text(encoding="utf-8")))
    assert game.moves[0] == legal_moves(new_game(2, HUB, seed=3))[0]
    assert not replay(game).is_over


def test_play_record_says_that_it_replaces_a_file_that_exists(tmp_path: Path) -> None:
    """Playing again with the same --record replaces the game kept before: --help says so."""
    assert "A FILE that exists is replaced." in _prose(run("play", "--help").stdout)
    saved = tmp_path / "game.json"
    saved.write_text("the game kept before", encoding="utf-8")
    args = ["play", "-p", "2", "-r", "hub", "--seed", "3", "--record", str(saved)]
    result = CliRunner().invoke(cli, args, input="q\n", prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    assert record_from_json(json.loads(saved.read_text(encoding="utf-8"))).moves == ()


def test_play_record_is_replaced_whole_or_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save that fails leaves the record saved before it, whole, and no partial file."""
    saved = tmp_path / "game.json"
    args = ["play", "-p", "2", "-r", "short-game", "--seed", "3", "--record", str(saved)]
    replace = os.replace
    saves = []

    def failing_after_the_first(source: str, target: str) -> None:
        saves.append(target)
        if len(saves) > 1:  # every save after the one before the deal: a full disk
            raise OSError(28, "No space left on device")
        replace(source, target)

    monkeypatch.setattr(os, "replace", failing_after_the_first)
    result = CliRunner().invoke(cli, args, input="1\n" * 2000, prog_name="mexican-train")
    assert result.exit_code == 1
    assert f"cannot write the record to {saved}: No space left on device" in result.output
    game = record_from_json(json.loads(saved.read_text(encoding="utf-8")))
    assert game.moves == ()  # the record written before the deal, whole
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.json"]


def test_play_record_refuses_a_path_it_cannot_write_before_the_game(tmp_path: Path) -> None:
    """A --record path that cannot be written is a usage error, before the first deal."""
    missing = tmp_path / "no-such-folder" / "game.json"
    result = run("play", "-p", "2", "--record", str(missing))
    assert_one_line_error(result, f"--record: cannot write {missing}: No such file or directory")
    assert result.exit_code == 2
    assert "Mexican Train" not in result.stdout


def test_simulate_says_one_game_hides_the_bar_off_a_terminal_and_clamps_at_zero() -> None:
    """ "1 game", no bare "Playing" line without a terminal, and no interval below 0 (E3)."""
    args = ["-n", "2", "-p", "2", "-r", "short-game", "--bots", "planner,greedy", "--seed", "4"]
    result = run("simulate", *args)
    assert "Playing" not in result.stderr
    planner = result.stdout.splitlines()[3].split()
    assert planner[1] == "planner"
    # Two games: Student's t of 12.7; 6.5 +- 82.6 would reach -76.1: clamped at 0.
    assert planner[-3:] == ["0.0", "-", "89.1"]
    one = run("simulate", "-n", "1", "-p", "2", "--bots", "random,greedy").stdout
    assert "1 game, 2 players" in one


def test_demo_announces_a_seat_down_to_one_tile_without_the_call() -> None:
    """E3a: under hub the narration says when a seat has one tile left; under the call
    variant the players call instead, and the narration never announces it for them."""
    told = _prose(run("demo", "--players", "2", "--rules", "hub", "--seed", "3").stdout)
    assert "Seat 0 (planner) has one tile left (E3a: the table announces it)." in told
    assert told.count("one tile left (E3a") > 1
    called = run("demo", "--players", "2", "--rules", "last-tile-call", "--seed", "3")
    assert called.exit_code == 0, called.output
    assert "one tile left" not in called.stdout
    assert "calls 'last tile'" in called.stdout


def test_thirteen_rounds_names_the_player_counts_whose_set_holds_the_12_12() -> None:
    """S2: thirteen-rounds needs a 12-12, which Table A deals from 4 players: an option error."""
    result = run("demo", "--rules", "thirteen-rounds", "--players", "3")
    assert_one_line_error(result, "--players: the thirteen-rounds rules allow 4-14 players, not 3")
    assert result.exit_code == 2
    assert run("demo", "--rules", "thirteen-rounds", "--players", "4", "-q").exit_code == 0


FAILING_BOTS = """
from mexican_train import Play, Tile


class Raises:
    def choose(self, view, moves):
        raise RuntimeError("boom")


class NotCallable:
    choose = 5


class Cheats:
    def choose(self, view, moves):
        return Play(Tile(0, 0), 0)  # a tile it may not hold, on a train it may not use


class Rambles:
    def choose(self, view, moves):
        return ["x" * 100] * 1000  # not a move, and a repr of 100,000 characters


class Huge:
    def choose(self, view, moves):
        return 10**5000  # Python refuses to write an int of over 4300 digits


class NeedsArguments:
    def __init__(self, depth):
        self.depth = depth

    def choose(self, view, moves):
        return moves[0]


class ObservesBadly:
    def choose(self, view, moves):
        return moves[0]

    def observe(self, events):
        raise ValueError("no history")


class Interrupted:
    def choose(self, view, moves):
        raise KeyboardInterrupt  # as Ctrl-C does, in the middle of a bot's move


class Locked:  # no copy of it can be made: a lock does not copy
    def __init__(self):
        import threading

        self.lock = threading.Lock()

    def choose(self, view, moves):
        return moves[0]


class Unpicklable:  # copies, but does not pickle: its function is a local one
    def __init__(self):
        self.first = lambda moves: moves[0]

    def choose(self, view, moves):
        return self.first(moves)


class EndsItsProcess:  # as the system's out-of-memory killer would end it
    def choose(self, view, moves):
        import os

        os._exit(9)


class Verbose:  # a name too long for a column, with control characters
    name = "The Bot Of\\nMany Words\\x1b[31m That Goes On And On"

    def choose(self, view, moves):
        return moves[0]


class Witness:  # plays the first move; fails unless told of every tile played this round

    def __init__(self):
        self.played = 0

    def observe(self, events):
        for event in events:
            if type(event).__name__ == "RoundStarted":
                self.played = 0
            elif type(event).__name__ == "TilePlayed":
                self.played += 1

    def choose(self, view, moves):
        shown = sum(len(train.tiles) for train in view.trains)
        if shown != self.played:
            raise AssertionError(f"told of {self.played} tiles played; the table shows {shown}")
        return moves[0]
"""


@pytest.fixture
def failing_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "failing_bots.py").write_text(FAILING_BOTS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "failing_bots", raising=False)


#: Where a bot's failure struck, as each command says it (seed 1, game 0, round 1):
#: simulate names the game and its seed, to deal it again.
_IN_GAME_0 = {
    "demo": "",
    "simulate": f", in game 0 of the simulation, round 1 (new_game(..., seed={game_seed(1, 0)}) "
    "deals that game again)",
}


@pytest.mark.usefixtures("failing_bots")
@pytest.mark.parametrize("command", [["demo", "-q"], ["simulate", "-n", "2"]])
def test_your_own_bot_that_raises_ends_the_command_in_one_line(command: list[str]) -> None:
    result = run(*command, "-p", "2", "--seed", "1", "--bots", "failing_bots:Raises,greedy")
    assert_one_line_error(
        result,
        "your bot failing_bots:Raises failed in choose() at seat 0"
        + _IN_GAME_0[command[0]]
        + ": RuntimeError: boom",
    )
    # The traceback is not shown, so the line of the bot's code that raised is.
    assert "failing_bots.py, line " in result.output
    assert result.exit_code == 1


@pytest.mark.usefixtures("failing_bots")
def test_a_bot_whose_choose_is_not_a_method_is_refused_up_front() -> None:
    result = run("demo", "-p", "2", "--bots", "failing_bots:NotCallable")
    assert_one_line_error(result, "is not a player: a player has a method choose(view, moves)")
    assert result.exit_code == 2


#: How demo, play and simulate word the illegal move of failing_bots:Cheats at seat 0.
CHEATS_SAID = "seat 0 (Cheats) made an illegal move, Play(Tile(0, 0), 0): "


@pytest.mark.usefixtures("failing_bots")
def test_a_bot_breaking_a_rule_fails_demo_and_simulate_alike() -> None:
    demo = run("demo", "-p", "2", "-q", "--seed", "1", "--bots", "failing_bots:Cheats,greedy")
    assert_one_line_error(demo, CHEATS_SAID + "seat 0 does not hold")
    assert demo.exit_code == 1
    simulated = run("simulate", "-p", "2", "-n", "2", "--bots", "failing_bots:Cheats,greedy")
    assert simulated.exit_code == 1
    said = demo.stderr.removeprefix("Error: ")
    # The report first, in the same words (wrapped to 79 columns).
    assert _prose(f"game 0, round 1: {said}") in _prose(simulated.stdout)
    assert simulated.stderr == "Error: 2 games stopped at an illegal move (listed above)\n"


@pytest.mark.usefixtures("failing_bots")
def test_a_bots_long_illegal_move_is_cut_alike_by_demo_and_simulate() -> None:
    """A bot's own value, whatever its length, is shown as an error shows a value: cut."""
    demo = run("demo", "-p", "2", "-q", "--seed", "1", "--bots", "failing_bots:Rambles,greedy")
    assert_one_line_error(demo, "seat 0 (Rambles) made an illegal move, [" + "'" + "x" * 60)
    assert demo.exit_code == 1
    said = demo.stderr.removeprefix("Error: ").rstrip("\n")
    assert len(said) < 250, said
    assert "...: not a move" in said
    simulated = run("simulate", "-p", "2", "-n", "1", "--bots", "failing_bots:Rambles,greedy")
    assert _prose(f"game 0, round 1: {said}") in _prose(simulated.stdout)


@pytest.mark.usefixtures("failing_bots")
def test_a_bots_huge_whole_number_is_described_alike_by_demo_and_simulate() -> None:
    demo = run("demo", "-p", "2", "-q", "--seed", "1", "--bots", "failing_bots:Huge,greedy")
    assert_one_line_error(
        demo, "seat 0 (Huge) made an illegal move, a whole number of 16610 bits: not a move"
    )
    said = demo.stderr.removeprefix("Error: ").rstrip("\n")
    simulated = run("simulate", "-p", "2", "-n", "1", "--bots", "failing_bots:Huge,greedy")
    assert _prose(f"game 0, round 1: {said}") in _prose(simulated.stdout)


@pytest.mark.usefixtures("failing_bots")
def test_a_bot_breaking_a_rule_fails_play_as_it_fails_demo() -> None:
    # HUB: seat 0 moves first in round 1 (S4), so the bot moves before the person.
    played = run("play", "-r", "hub", "-p", "2", "--seat", "1", "--bots", "failing_bots:Cheats")
    assert_one_line_error(played, CHEATS_SAID)
    assert played.exit_code == 1


def test_serve_refuses_a_host_that_is_empty_or_no_name() -> None:
    empty = run("serve", "--no-db", "--port", "0", "--host", " ")
    assert_one_line_error(empty, "give an address: 127.0.0.1 for this machine only")
    assert empty.exit_code == 2
    undecodable = run("serve", "--no-db", "--port", "0", "--host", "\udcff")
    assert_one_line_error(undecodable, "is not a host name or address")


@pytest.mark.parametrize("option", ["--bot-delay", "--takeover", "--turn-timer", "--bot-timer"])
def test_serve_refuses_nan_seconds_as_a_usage_error(option: str) -> None:
    result = run("serve", "--no-db", "--port", "0", option, "nan")
    assert_one_line_error(result, f"Invalid value for '{option}': 'nan' is not a number of seconds")
    assert result.exit_code == 2


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("0", "0.0 is not in the range 0.1<=x<=8760"),
        ("9000", "9000.0 is not in the range 0.1<=x<=8760"),
        ("nan", "'nan' is not a number of hours"),
        ("soon", "'soon' is not a number of hours"),
    ],
)
def test_serve_refuses_a_table_idle_time_that_is_not_hours(value: str, said: str) -> None:
    result = run("serve", "--no-db", "--port", "0", "--table-idle", value)
    assert_one_line_error(result, f"Invalid value for '--table-idle': {said}")
    assert result.exit_code == 2


def test_serve_refuses_seconds_that_are_no_number_in_words() -> None:
    result = run("serve", "--no-db", "--port", "0", "--takeover", "soon")
    assert_one_line_error(
        result, "Invalid value for '--takeover': 'soon' is not a number of seconds"
    )


def test_serve_gives_the_server_the_idle_time_in_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    from mexican_train._frontends import web

    given: list[Any] = []
    monkeypatch.setattr(web, "serve", lambda **options: given.append(options["table_idle"]))
    assert run("serve", "--no-db", "--port", "0", "--table-idle", "1.5").exit_code == 0
    assert run("serve", "--no-db", "--port", "0").exit_code == 0
    assert given == [5400.0, 24 * 3600.0]


def test_serve_gives_the_table_its_bot_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    from mexican_train._frontends import web

    given: list[Any] = []
    monkeypatch.setattr(web, "serve", lambda **options: given.append(options["bot_timer"]))
    assert run("serve", "--no-db", "--port", "0", "--bot-timer", "5").exit_code == 0
    assert run("serve", "--no-db", "--port", "0").exit_code == 0
    assert given == [5.0, web.BOT_TIMER]


def test_serve_gives_the_server_the_hosts_it_answers_besides_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mexican_train._frontends import web

    given: list[Any] = []
    monkeypatch.setattr(web, "serve", lambda **options: given.append(options["allowed_hosts"]))
    hosts = ["--allowed-host", "table.example.org", "--allowed-host", "10.0.0.7"]
    assert run("serve", "--no-db", "--port", "0", *hosts).exit_code == 0
    assert run("serve", "--no-db", "--port", "0").exit_code == 0
    assert given == [("table.example.org", "10.0.0.7"), ()]


@pytest.mark.parametrize("name", ["table.example.org:8000", "a b", "http://x", ""])
def test_serve_refuses_an_allowed_host_that_is_no_host_name(name: str) -> None:
    result = run("serve", "--no-db", "--port", "0", "--allowed-host", name)
    assert_one_line_error(
        result,
        "Invalid value for '--allowed-host': a host name without a port (table.example.org), "
        f"an address, or '*', not {name!r}",
    )
    assert result.exit_code == 2


@pytest.mark.parametrize("value", ["0.5", "90000", "inf"])
def test_serve_refuses_a_bot_timer_out_of_its_range(value: str) -> None:
    result = run("serve", "--no-db", "--port", "0", "--bot-timer", value)
    assert_one_line_error(result, "Invalid value for '--bot-timer': ")
    assert "is not in the range 1<=x<=86400" in result.stderr
    assert result.exit_code == 2


def test_serve_checks_the_bots_even_when_people_take_every_seat() -> None:
    result = run("serve", "--no-db", "--port", "0", "-p", "2", "--people", "2", "--bots", "nosuch")
    assert_one_line_error(result, "--bots: there is no bot called 'nosuch'")


@pytest.mark.parametrize(
    ("args", "where"),
    [(["demo", "-p"], "demo"), (["simulate", "-n"], "simulate"), (["demo", "--quiet=1"], "demo")],
)
def test_a_malformed_option_points_to_its_commands_help(args: list[str], where: str) -> None:
    result = run(*args)
    assert_one_line_error(result, f"(see 'mexican-train {where} --help')")


@pytest.mark.skipif(sys.platform == "win32", reason="closing a file descriptor with the shell")
def test_a_closed_standard_output_is_a_failure() -> None:
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" -m mexican_train --version >&-', sys.executable],
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == "Error: cannot write the output: standard output is closed\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "is not JSON: the JSON nests 100000 deep"),
        (b'{"a": ' + b"9" * 5000 + b"}", "is not JSON: a number of 5000 characters"),
        (b"nope", "is not JSON: Expecting value"),
        (b"\xff\xfe", "is not JSON: the file is not UTF-8 text (invalid start byte)"),
        (b"[1]", "is not a game record: $: a document is a JSON object, not an array"),
        (b'\xef\xbb\xbf{"type": "record"}', "is not a game record: $.schema: required field"),
    ],
)
def test_analyze_says_what_is_wrong_with_the_file(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    result = run("analyze", str(path))
    assert_one_line_error(result, f"{path} {message}")
    assert result.exit_code == 2


def test_analyze_refuses_a_seed_of_more_than_64_bits(tmp_path: Path) -> None:
    result = run("analyze", str(tmp_path / "game.json"), "--seed", str(2**64))
    assert_one_line_error(result, "a seed is a whole number of at most 64 bits")


@pytest.mark.parametrize(
    ("args", "where"), [(["rules", "hub+"], "NAME"), (["demo", "--house", "+hub"], "--house")]
)
def test_a_combination_with_an_empty_part_says_so(args: list[str], where: str) -> None:
    result = run(*args)
    assert_one_line_error(result, f"{where}: {args[-1]!r} has an empty name in its '+' list")


@pytest.mark.usefixtures("failing_bots")
def test_your_own_bot_that_needs_arguments_is_refused_in_one_line() -> None:
    result = run("demo", "-p", "2", "--bots", "failing_bots:NeedsArguments")
    assert_one_line_error(
        result, "--bots: cannot make the bot failing_bots:NeedsArguments() with no arguments"
    )
    assert result.exit_code == 2


@pytest.mark.usefixtures("failing_bots")
@pytest.mark.parametrize(
    "command", [["demo", "-q"], ["simulate", "-n", "1"], ["simulate", "-n", "2", "--workers", "2"]]
)
def test_your_own_bot_whose_observe_raises_is_named_with_its_seat(command: list[str]) -> None:
    """demo and simulate tell every bot with an observe method what happened; a failure
    there is the bot's, named with its seat like a failure in choose (in a worker too)."""
    result = run(*command, "-p", "2", "--seed", "1", "--bots", "greedy,failing_bots:ObservesBadly")
    assert_one_line_error(
        result,
        "your bot failing_bots:ObservesBadly failed in observe() at seat 1"
        + _IN_GAME_0[command[0]]
        + ": ValueError: no history (",
    )
    assert "failing_bots.py, line " in result.output
    assert result.exit_code == 1


@pytest.mark.usefixtures("failing_bots")
@pytest.mark.parametrize(
    ("bot", "workers", "said"),
    [
        ("Locked", "1", "every game plays a copy of each player (copy.deepcopy), and player 0 "
         "('Locked') cannot be copied: TypeError: cannot pickle '_thread.lock' object"),
        ("Unpicklable", "2", "the worker processes are sent the players with pickle, and "
         "player 0 ('Unpicklable') does not pickle: "),
    ],
)  # fmt: skip
def test_simulate_refuses_a_bot_it_cannot_copy_or_send_in_one_line(
    bot: str, workers: str, said: str
) -> None:
    result = run("simulate", "-p", "2", "-n", "2", "-j", workers,
                 "--bots", f"failing_bots:{bot},greedy")  # fmt: skip
    assert_one_line_error(result, f"--bots: {said}")
    assert result.exit_code == 2
    if workers != "1":
        assert result.stderr.rstrip().endswith(
            "; define its class, and any function it keeps, at a module's top level, or play "
            "in this process, --workers 1 (see 'mexican-train simulate --help')"
        )  # its function is a lambda it keeps


@pytest.mark.usefixtures("failing_bots")
def test_simulate_says_in_one_line_that_a_worker_process_ended_abruptly() -> None:
    """A worker process that ends mid-game (killed, out of memory, or ended by a bot's
    own code) ends simulate --workers in one line that says so, with the games done."""
    result = run("simulate", "-p", "2", "-n", "3", "--workers", "2",
                 "--bots", "failing_bots:EndsItsProcess,greedy")  # fmt: skip
    assert_one_line_error(
        result,
        "a worker process ended abruptly, after 0 of 3 games: killed (out of memory, say) "
        "or ended by a bot's own code",
    )
    assert result.exit_code == 1


#: Two bots: one that raises at seat 0 (in game 0), and one that is stuck at seat 0 (in
#: game 1) until the file ``go-on`` is there.
RAISES_OR_STUCK = """
import time
from pathlib import Path


class RaisesAtSeat0:
    def choose(self, view, moves):
        if view.seat == 0:
            raise ValueError("boom")
        return moves[0]


class StuckAtSeat0:
    def choose(self, view, moves):
        while view.seat == 0 and not Path("go-on").exists():
            time.sleep(0.01)
        return moves[0]
"""


def test_simulate_with_workers_tells_a_bots_failure_without_waiting_for_the_games_in_play(
    tmp_path: Path,
) -> None:
    """A bot that raises in one worker ends simulate --workers at once, with its one line:
    the games in play in the other workers, a bot stuck in one of them, are not waited for."""
    (tmp_path / "raises_or_stuck.py").write_text(RAISES_OR_STUCK)
    command = subprocess.Popen(
        [sys.executable, "-m", "mexican_train", "simulate", "-p", "2", "-n", "2", "-j", "2",
         "--bots", "raises_or_stuck:RaisesAtSeat0,raises_or_stuck:StuckAtSeat0"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        _, stderr = command.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        (tmp_path / "go-on").touch()  # the stuck game goes on, and the command ends
        command.communicate()
        raise AssertionError("simulate waited for the game stuck in a worker") from None
    finally:
        (tmp_path / "go-on").touch()
    assert command.returncode == 1
    assert stderr.startswith(
        "Error: your bot raises_or_stuck:RaisesAtSeat0 failed in choose() at seat 0, in game 0"
    ), stderr
    assert "ValueError: boom" in stderr


@pytest.mark.usefixtures("failing_bots")
def test_your_own_bot_is_told_the_moves_only_if_it_has_an_observe_method() -> None:
    """A bot without observe is not told each move: the runners derive every move's events
    for the bots that observe, which made a simulation of your own bots twice as slow."""
    plain, observing = bots_from_option("failing_bots:Cheats,failing_bots:Witness", 2)
    assert not hasattr(plain, "observe")
    assert [seat for seat, _ in observers_of({0: plain, 1: observing})] == [1]


@pytest.mark.usefixtures("failing_bots")
def test_play_names_the_seat_of_your_own_bot_whose_observe_raises() -> None:
    result = CliRunner().invoke(
        cli,
        ["play", "-p", "3", "--seat", "0", "--seed", "1", "--no-review",
         "--bots", "failing_bots:ObservesBadly"],
        input="1\n" * 50, prog_name="mexican-train",
    )  # fmt: skip
    assert result.exit_code == 1
    said = "your bot failing_bots:ObservesBadly failed in observe() at seat 1: "
    assert said in result.output


@pytest.mark.usefixtures("failing_bots")
@pytest.mark.parametrize("command", [["demo", "-q"], ["simulate", "-n", "2"]])
def test_s5_demo_tells_bots_each_move_as_simulate_does(command: list[str]) -> None:
    """A bot with an observe method (as the search bot) is told every move as its seat
    sees it, before it chooses, in a whole game of three rounds."""
    result = run(*command, "-p", "3", "-r", "hub", "--house", "short-game", "--seed", "1",
                 "--bots", "failing_bots:Witness,greedy")  # fmt: skip
    assert result.exit_code == 0, result.stderr


@pytest.mark.usefixtures("failing_bots")
def test_s5_play_tells_the_bots_and_the_hint_each_move_the_person_makes_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In play, the bots and the search bot that gives hints are told every move, the
    person's own and each round's deal included, before they choose."""
    monkeypatch.syspath_prepend(".")  # the fixture's module, to stand in for the hint's bot
    witness = importlib.import_module("failing_bots").Witness
    monkeypatch.setattr(cli_module, "SearchPlayer", witness)
    result = CliRunner().invoke(
        cli,
        ["play", "-p", "3", "-r", "hub", "--house", "short-game", "--seed", "1", "--no-review",
         "--bots", "failing_bots:Witness"],
        input="h\n1\n" * 400, prog_name="mexican-train",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game abandoned" not in result.output  # played to its end
    assert result.output.count("Hint: ") > 20


@pytest.mark.usefixtures("failing_bots")
def test_ctrl_c_during_demo_exits_130_in_one_line() -> None:
    result = run("demo", "-p", "2", "-q", "--bots", "failing_bots:Interrupted")
    assert_one_line_error(result, "Error: interrupted")
    assert result.exit_code == 130


@pytest.mark.usefixtures("failing_bots")
def test_a_bot_named_past_the_seats_is_still_checked() -> None:
    """Three names for two seats: the third seats nobody, and is refused all the same."""
    result = run("demo", "-p", "2", "--bots", "greedy,random,failing_bots:NotCallable")
    assert_one_line_error(result, "'failing_bots:NotCallable' is not a player")
    assert result.exit_code == 2


@pytest.mark.usefixtures("failing_bots")
def test_one_game_stopped_by_an_illegal_move_is_one_game() -> None:
    result = run("simulate", "-p", "2", "-n", "1", "--bots", "failing_bots:Cheats,greedy")
    assert result.stderr == "Error: 1 game stopped at an illegal move (listed above)\n"
    assert result.exit_code == 1


def test_bot_names_are_read_in_any_case() -> None:
    lower = run("demo", "-p", "2", "-q", "--seed", "1", "--bots", "greedy,random")
    assert lower.exit_code == 0, lower.output
    assert run("demo", "-p", "2", "-q", "--seed", "1", "--bots", "Greedy,RANDOM").output == (
        lower.output
    )


def _greedy_game(rules: Rules, players: int, seed: int) -> tuple[GameState, list[str]]:
    """Play a game between greedy bots; return its end and demo's summary of each round."""
    bots = [GreedyPlayer() for _ in range(players)]
    names = [f"seat {seat} (greedy)" for seat in range(players)]
    state = new_game(players, rules, seed=seed)
    summaries, moves = [], 0
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            state, moves = apply(state, NextRound()), 0
            continue
        mine = view(state, seat)
        state = apply(state, bots[seat].choose(mine, legal_moves(mine)))
        moves += 1
        if state.is_round_over:
            out = [names[s] for s in range(players) if not state.hands[s]]
            how = f"{' and '.join(out)} went out (E1)" if out else "the round is blocked (E2)"
            points = ", ".join(f"{names[s]} {state.round_scores[-1][s]}" for s in range(players))
            summaries.append(
                f"Round {state.round_number} over: {how}. Points: {points}. ({moves} moves)"
            )
    return state, summaries


def test_e1_e2_demo_sums_up_each_round_and_ranks_the_lowest_total_first() -> None:
    """Each round's line names who went out (E1) or says it was blocked (E2), its points and
    its own count of moves; the standings go from the lowest total up (E5)."""
    end, summaries = _greedy_game(STANDARD, 3, seed=2)
    result = run("demo", "-p", "3", "--seed", "2", "--bots", "greedy", "-q")
    assert result.exit_code == 0, result.output
    assert [line for line in _entries(result.stdout) if line.startswith("Round ")] == summaries
    assert any("blocked (E2)" in line for line in summaries)
    assert any(" went out (E1)" in line for line in summaries)
    lines = result.stdout.splitlines()
    standings = lines[lines.index("Final standings (lowest total wins, E5):") + 1 :]
    ranked = sorted(range(3), key=lambda seat: (end.scores[seat], seat))
    assert [line.split()[:3] for line in standings] == [
        [f"{rank}.", "seat", str(seat)] for rank, seat in enumerate(ranked, 1)
    ]
    assert standings[0].endswith("<- winner")


def test_demo_tells_only_the_first_round_move_by_move() -> None:
    result = run("demo", "-p", "3", "-r", "short-game", "--seed", "4")
    later = _entries(result.stdout.split("Round 1 over:", 1)[1].split("Final standings")[0])
    assert [line for line in later[1:] if line] == [
        line for line in later if re.match(r"Round [23] over:", line)
    ]


def test_play_reads_a_tile_alone_as_its_only_train_and_me_as_your_own() -> None:
    moves = (Play(Tile(6, 5), MEXICAN), Play(Tile(4, 4), 2), Draw())
    assert _read_move("6-5", moves, 2, HUB) == Play(Tile(6, 5), MEXICAN)
    assert _read_move("4 4", moves, 2, HUB) == Play(Tile(4, 4), 2)
    for own in ("me", "mine", "own", "2"):
        assert _read_move(f"6-5 {own}", moves, 2, HUB) == Play(Tile(6, 5), 2)
    assert _read_move("6-5 mex", moves, 2, HUB) == Play(Tile(6, 5), MEXICAN)
    assert _read_move("3-1", moves, 2, HUB) == Play(Tile(3, 1), 2)  # apply() says why not


def _state_where(rules: Rules, seed: int, found: Callable[[GameState], bool]) -> GameState:
    """The first state of random play (3 players, from *seed*) where *found* holds."""
    rng = random.Random(seed)
    state = new_game(3, rules, seed=seed)
    while not found(state):
        assert not state.is_over, "no such state in this game"
        state = apply(state, rng.choice(legal_moves(state)))
    return state


def test_d1_d2_play_help_says_why_these_moves() -> None:
    """The help names D2 when an open double binds the turn, and D1 after a double played
    this turn, even while another double is still open."""
    bound = _state_where(HUB, 0, lambda s: bool(s.open_doubles) and not s.turn_tiles)
    assert bound.current_player is not None
    assert "A double is open: you must cover it" in _full_help(bound, bound.current_player)
    again = _state_where(
        HUB,
        3,
        lambda s: bool(s.open_doubles) and s.turn_tiles > 0 and s.current_player is not None,
    )
    assert again.current_player is not None
    assert again.turn_doubles
    text = _full_help(again, again.current_player)
    assert "You played a double: play again" in text
    assert "A double is open" not in text


@pytest.mark.parametrize(
    ("rules", "first", "ordinary"),
    [
        (
            "standard",
            "you build your own train, as many tiles in a row as fit, and may stop after the "
            "first one (P4).",
            "If you cannot, draw one tile; if it does not fit either, pass and a marker goes "
            "on your train (P5).",
        ),
        (
            "single-tile-first-turn",
            "you play a single tile, on your own train (P4).",
            "If you cannot, draw one tile;",
        ),
        (
            "first-turn-draw",
            "If you cannot start it, draw one tile and play it if it fits (P4).",
            "If you cannot, draw one tile;",
        ),
        (
            "draw-until-playable",
            "as many tiles in a row as fit",
            "If you cannot, draw until a tile fits or the boneyard is empty; if none does, "
            "pass and a marker goes on your train (P5).",
        ),
        (
            "voluntary-draw",
            "as many tiles in a row as fit",
            "You may also draw instead of playing, and then play or pass (V6).",
        ),
    ],
)
def test_play_help_tells_the_first_turn_and_the_draw_of_the_rules_played(
    rules: str, first: str, ordinary: str
) -> None:
    """P4, P5, V1, V6: the help at ? says what these rules let a turn do, not the
    standard rules' first turn and draw."""
    state = new_game(3, get_variant(rules), seed=1)
    assert state.current_player is not None
    assert first in _prose(_full_help(state, state.current_player))
    later = _state_where(
        get_variant(rules),
        1,
        lambda s: (
            s.current_player is not None
            and s.had_first_turn[s.current_player]
            and not s.open_doubles
            and not s.turn_tiles
        ),
    )
    assert later.current_player is not None
    assert ordinary in _prose(_full_help(later, later.current_player))


def test_play_help_says_when_to_call_the_last_tile_and_what_forgetting_costs() -> None:
    """Under last-tile-call the help says when c is due and the penalty; without the call,
    it says nothing of one."""
    called = new_game(2, get_variant("last-tile-call"), seed=3)
    assert called.current_player is not None
    text = _full_help(called, called.current_player)
    assert (
        "While you hold two tiles, call 'last tile' (c) before you play: a turn that leaves "
        "you one tile without the call ends with 2 tiles drawn as the penalty."
    ) in text
    plain = new_game(2, HUB, seed=3)
    assert plain.current_player is not None
    assert "last tile" not in _full_help(plain, plain.current_player)


def test_p4_a_pass_before_any_first_turn_tile_is_a_pass_with_a_marker() -> None:
    """Only a pass after a first-turn tile stops the chain without a marker; one after
    drawing and playing nothing is a pass, and the menu says a marker goes down."""
    state = _state_where(
        STANDARD,
        1,
        lambda s: (
            s.current_player is not None
            and not s.had_first_turn[s.current_player]
            and s.turn_tiles == 0
            and Pass() in legal_moves(s)
        ),
    )
    assert state.current_player is not None
    mine = view(state, state.current_player)
    assert _describe(Pass(), mine) == "pass (end the turn; a marker goes on your train)"


def test_play_hint_is_numbered_as_the_menu_is() -> None:
    result = CliRunner().invoke(
        cli, ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy"],
        input="h\nq\n", prog_name="mexican-train",
    )  # fmt: skip
    hint = re.search(r"^Hint: (\d+\) .*)$", result.stdout, re.MULTILINE)
    assert hint is not None, result.stdout
    assert f"  {hint[1]}" in result.stdout.split("Your move [")[0].splitlines()


@pytest.mark.parametrize("word", ["q", "quit", "exit", "Q"])
def test_play_q_quit_or_exit_leaves_the_game(word: str) -> None:
    result = CliRunner().invoke(
        cli, ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy"],
        input=f"{word}\n", prog_name="mexican-train",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game abandoned" in result.stdout
    assert "I did not understand" not in result.stdout


@pytest.mark.parametrize("word", ["q", "quit", "exit", "Q"])
def test_play_q_at_the_next_rounds_prompt_leaves_the_game(word: str) -> None:
    """Between rounds q leaves too, as the help says: it does not deal the next round."""
    args = ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy"]
    first = CliRunner().invoke(cli, args, input="1\n" * 60, prog_name="mexican-train")
    # Each of the person's prompts in round 1 reads one line; the next line is the deal's.
    typed = first.stdout.split("Press Enter to deal round 2")[0].count("Your move [")
    assert 0 < typed < 60, first.stdout
    result = CliRunner().invoke(
        cli, args, input="1\n" * typed + f"{word}\n", prog_name="mexican-train"
    )
    assert result.exit_code == 0, result.output
    before, prompt, after = result.stdout.partition("Press Enter to deal round 2 (q to quit)")
    assert "Round 1 over" in before
    assert prompt
    assert "Game abandoned" in after
    assert "Round 2" not in after


def test_the_usage_shows_each_commands_summary_whole() -> None:
    """`mexican-train` alone lists every command with its whole first line, none cut short.

    On an 80-column terminal, where click writes the help 78 columns wide.
    """
    usage = CliRunner().invoke(cli, [], prog_name="mexican-train", terminal_width=78)
    listing = usage.stdout.split("Commands:", 1)[1]
    summaries = [line for line in listing.splitlines() if line.strip()]
    assert len(summaries) == len(cli.commands)
    for line in summaries:
        assert not line.rstrip().endswith("..."), line


class _Terminal(io.BytesIO):
    """Typed input that says it is a terminal, as a person's is."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("option", [[], ["--no-review"]])
def test_play_asks_for_a_review_on_a_terminal_unless_told_not_to(option: list[str]) -> None:
    args = ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy", *option]
    # Seed 3's first round ends within 60 of the person's moves (asserted below), then
    # "n" answers the review's question where it is asked, and "q" leaves.
    typed = _Terminal(b"1\n" * 60 + b"n\n" + b"q\n")
    result = CliRunner().invoke(cli, args, input=typed, prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    assert "Round 1 over" in result.stdout
    assert ("Review this round?" in result.stdout) == (not option)
    assert "reviewed" not in result.stdout


def test_play_record_is_saved_when_each_round_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--record saves before the deal, at the end of every round and on leaving; each save
    is whole before it replaces the one before."""
    saved = tmp_path / "game.json"
    replace = os.replace
    records: list[GameRecord] = []

    def reading_each_save(source: str, target: str) -> None:
        records.append(record_from_json(json.loads(Path(source).read_text(encoding="utf-8"))))
        replace(source, target)

    monkeypatch.setattr(os, "replace", reading_each_save)
    args = ["play", "-p", "2", "-r", "short-game", "--seed", "3", "--record", str(saved)]
    result = CliRunner().invoke(cli, args, input="1\n" * 2000, prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    ends = [replay(game) for game in records]
    assert [(state.round_number, state.is_round_over) for state in ends] == [
        (1, False), (1, True), (2, True), (3, True), (3, True)
    ]  # fmt: skip


def test_analyze_refuses_the_seat_one_past_the_last(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(GameRecord(3, HUB, 5))))
    result = run("analyze", str(path), "--seat", "3")
    assert_one_line_error(result, "--seat: the game has seats 0-2, not 3")
    assert result.exit_code == 2


def test_simulate_fixed_seats_keeps_each_bot_in_its_seat() -> None:
    args = ["-n", "2", "-p", "2", "-r", "short-game", "--bots", "planner,random", "--json"]
    rotated = json.loads(run("simulate", *args).stdout)
    fixed = json.loads(run("simulate", *args, "--fixed-seats").stdout)
    bots = [BOTS_BY_NAME["planner"](), BOTS_BY_NAME["random"]()]
    expected = simulate(bots, get_variant("short-game"), games=2, seed=0, rotate_seats=False)
    assert fixed == json.loads(json.dumps(expected.to_dict()))
    assert rotated["rotate_seats"] is True
    assert fixed != rotated


def test_serve_says_a_db_folder_it_cannot_make_is_the_databases_fault(tmp_path: Path) -> None:
    (tmp_path / "a file").write_text("not a folder")
    result = run("serve", "--port", "0", "--db", str(tmp_path / "a file" / "tables.sqlite3"))
    assert_one_line_error(result, "cannot open the tables' database")
    assert "cannot make its folder" in result.stderr
    assert "cannot serve on" not in result.stderr
    assert result.exit_code == 1


@pytest.fixture
def never_served(monkeypatch: pytest.MonkeyPatch) -> None:
    """A serve that gets as far as listening fails the test instead of serving for good."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("serve went on to listen")

    monkeypatch.setattr("mexican_train._frontends.web.make_server", refused)


@pytest.mark.usefixtures("never_served")
def test_serve_refuses_another_programs_database_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "theirs.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)")
    result = run("serve", "--port", "0", "--db", str(path))
    assert_one_line_error(
        result, "is not a mexican-train tables' database (it holds the tables users)"
    )
    assert result.exit_code == 1


@pytest.mark.usefixtures("never_served")
@pytest.mark.parametrize("name", ["", ":memory:"])
def test_serve_refuses_a_db_that_names_no_file(name: str) -> None:
    result = run("serve", "--port", "0", "--db", name)
    assert_one_line_error(result, f"--db {name!r} names no file: give one, or --no-db")
    assert result.exit_code == 2


# -- bots go by the name the person chose ---------------------------------------------------


def test_demo_names_a_bot_chosen_by_level_by_its_level() -> None:
    """--bots easy,Planner: the seats are "seat 0 (easy)" and "seat 1 (planner)", not the
    greedy bot that easy stands for; a bot named by kind goes by its kind, in lower case."""
    result = run("demo", "-p", "2", "-r", "short-game", "--bots", "easy,Planner", "--seed", "4")
    assert result.exit_code == 0, result.output
    assert "seat 0 (easy)" in result.stdout
    assert "seat 1 (planner)" in result.stdout
    assert "(greedy)" not in result.stdout
    assert "(Planner)" not in result.stdout


def test_play_names_an_opponent_chosen_by_level_by_its_level() -> None:
    result = CliRunner().invoke(
        cli, ["play", "-p", "3", "-r", "short-game", "--seed", "1", "--no-review",
              "--bots", "medium,greedy"],
        input="q\n", prog_name="mexican-train",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "seat 1 (medium)" in result.stdout
    assert "seat 2 (greedy)" in result.stdout
    assert "(planner)" not in result.stdout


def test_simulate_names_a_bot_chosen_by_level_by_its_level() -> None:
    """The report and the JSON name each player as --bots did: a level by the level."""
    args = ["simulate", "-p", "2", "-r", "short-game", "-n", "2", "--seed", "1"]
    result = run(*args, "--bots", "easy,medium", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == ["easy", "medium"]
    assert [p["name"] for p in data["player_stats"]] == ["easy", "medium"]
    assert "easy" in run(*args, "--bots", "easy,medium").stdout
    by_kind = json.loads(run(*args, "--bots", "greedy,planner", "--json").stdout)
    assert by_kind["players"] == ["greedy", "planner"]  # as before
    assert by_kind["player_stats"] == [
        {**p, "name": kind}
        for p, kind in zip(data["player_stats"], ["greedy", "planner"], strict=True)
    ]  # the same bots, the same games: only the names differ


def test_serve_seats_a_bot_chosen_by_name_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """serve hands the web table a library bot or level by its name (which it shows and a
    database keeps), and a bot of the person's own as the player."""
    from mexican_train._frontends import web

    seen: dict[str, object] = {}
    monkeypatch.setattr(web, "serve", lambda **options: seen.update(options))
    result = run("serve", "--no-db", "-p", "4", "--bots", "HARD,planner,test_cli:_Cheat")
    assert result.exit_code == 0, result.output
    bots = seen["bots"]
    assert isinstance(bots, list)
    assert bots[:2] == ["hard", "planner"]
    assert not isinstance(bots[2], str)
    assert bots[2].name == "_Cheat"


def _widest(text: str) -> int:
    return max(map(len, text.splitlines()))


def test_demo_fits_an_80_column_terminal_as_play_does() -> None:
    """Prose wrapped at 79 columns; a long train goes on under its first tile, as in play."""
    result = run("demo", "-p", "8", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert _widest(result.stdout) <= 79
    lines = result.stdout.splitlines()
    rows = [i for i, line in enumerate(lines) if line.startswith("  seat ") and "12-" in line]
    continued = [i for i in rows if lines[i + 1].startswith(" " * 6) and "-" in lines[i + 1]]
    assert continued, "no train long enough to wrap: choose another deal"
    for i in continued:
        first_tile = lines[i].index("12-")
        assert len(lines[i + 1]) - len(lines[i + 1].lstrip()) == first_tile
    # A seat and its label stay on one line: "seat 1 (greedy)", never "seat" / "1 (greedy)".
    for line, after in itertools.pairwise(lines):
        assert not re.search(r"[Ss]eat$", line), (line, after)
        assert not (re.search(r"[Ss]eat \d+$", line) and after.lstrip().startswith("(")), (
            line,
            after,
        )


@pytest.mark.parametrize(
    "args",
    [["--list"], ["--table"], *([name] for name in variant_names())],
    ids=lambda args: " ".join(args),
)
def test_rules_fits_an_80_column_terminal(args: list[str]) -> None:
    result = run("rules", *args)
    assert result.exit_code == 0, result.output
    assert _widest(result.stdout) <= 79


CTRL_C_BOT = """
class CtrlC:  # plays the first move; Ctrl-C strikes during the 1000th choice of the run
    choices = 0

    def choose(self, view, moves):
        type(self).choices += 1
        if type(self).choices == 1000:
            raise KeyboardInterrupt
        return moves[0]
"""


@pytest.mark.parametrize("as_json", [False, True], ids=["report", "json"])
def test_ctrl_c_stops_simulate_with_the_results_of_the_games_done(
    as_json: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C ends simulate (130) with the results of the games that finished, then says so."""
    (tmp_path / "ctrl_c_bot.py").write_text(CTRL_C_BOT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "ctrl_c_bot", raising=False)
    args = ["simulate", "-r", "short-game", "-n", "50", "-p", "2", "--bots", "ctrl_c_bot:CtrlC"]
    result = run(*args, *(["--json"] if as_json else []))
    assert result.exit_code == 130, result.output
    done = re.fullmatch(
        r"Error: interrupted after (\d+) of 50 games; the results above are theirs\n",
        result.stderr,
    )
    assert done is not None, result.stderr
    played = int(done.group(1))
    assert 0 < played < 50
    if as_json:
        saved = SimulationResult.from_dict(json.loads(result.stdout))
        assert (saved.completed_games, saved.games) == (played, 50)
    else:
        assert result.stdout.startswith(f"Rules: short-game\n{played} games, 2 players")


HOUSE_RULES_PLUGIN = """
import attrs

from mexican_train import STANDARD


class Unreadable:
    open_from_turn = None

    def is_open(self, table, seat):
        return table.trains[seat + 100]


class Undecided:
    def __bool__(self):  # a rule is named whatever its truth
        return False

    def obligation(self, doubles):
        raise ValueError("which double first?")

    def follow_up(self, doubles):
        raise ValueError("which double first?")


class Forgetful:
    open_from_turn = None

    def is_open(self, table, seat):
        with open("the-rules-notes.txt") as notes:  # not there
            return notes.read() == "open"


class NoSuchTrain(LookupError):
    def __init__(self, seat, table):  # pickle cannot make it again: its args are a sentence
        super().__init__(f"no train for seat {seat}")


class Lost:
    open_from_turn = None

    def is_open(self, table, seat):
        raise NoSuchTrain(seat, table)


class Exhausted:
    open_from_turn = None

    def is_open(self, table, seat):
        return next(iter(()))


UNREADABLE = attrs.evolve(STANDARD, mexican_train=Unreadable())
FORGETFUL = attrs.evolve(STANDARD, mexican_train=Forgetful())
UNDECIDED = attrs.evolve(STANDARD, open_doubles=Undecided())
LOST = attrs.evolve(STANDARD, mexican_train=Lost())
EXHAUSTED = attrs.evolve(STANDARD, mexican_train=Exhausted())
"""


@pytest.fixture
def house_rules_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed package, as importlib.metadata finds one, that registers six variants
    (docs/howto/house-rules.rst, "Share it"): five whose rules raise, one that fails to load."""
    (tmp_path / "house_rules_plugin.py").write_text(HOUSE_RULES_PLUGIN)
    info = tmp_path / "house_rules_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: house-rules-plugin\nVersion: 1.0\n"
    )
    (info / "entry_points.txt").write_text(
        "[mexican_train.variants]\n"
        "unreadable-mexican = house_rules_plugin:UNREADABLE\n"
        "undecided-doubles = house_rules_plugin:UNDECIDED\n"
        "forgetful-mexican = house_rules_plugin:FORGETFUL\n"
        "lost-mexican = house_rules_plugin:LOST\n"
        "exhausted-mexican = house_rules_plugin:EXHAUSTED\n"
        "not-there = house_rules_plugin:NOT_THERE\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "house_rules_plugin", raising=False)


@pytest.mark.usefixtures("house_rules_plugin")
@pytest.mark.parametrize(
    ("rules", "said"),
    [
        (
            "unreadable-mexican",
            "the Mexican train rule house_rules_plugin.Unreadable (Rules.mexican_train, V2) "
            "failed in is_open(): IndexError: tuple index out of range",
        ),
        (
            "undecided-doubles",
            "the open-double rule house_rules_plugin.Undecided (Rules.open_doubles, V3) "
            "failed in follow_up(): ValueError: which double first?",
        ),
        (  # not taken for output that cannot be written
            "forgetful-mexican",
            "the Mexican train rule house_rules_plugin.Forgetful (Rules.mexican_train, V2) "
            "failed in is_open(): FileNotFoundError: [Errno 2] No such file or directory",
        ),
        (  # an exception pickle cannot make again, which a worker cannot send back as it is
            "lost-mexican",
            "the Mexican train rule house_rules_plugin.Lost (Rules.mexican_train, V2) "
            "failed in is_open(): NoSuchTrain: no train for seat ",
        ),
        (  # a StopIteration, which a worker sends back as a RuntimeError
            "exhausted-mexican",
            "the Mexican train rule house_rules_plugin.Exhausted (Rules.mexican_train, V2) "
            "failed in is_open(): StopIteration",
        ),
    ],
)
@pytest.mark.parametrize(
    "command", [["demo", "-q"], ["simulate", "-n", "2"], ["simulate", "-n", "2", "--workers", "2"]]
)
def test_a_rule_of_your_own_that_raises_is_named_in_one_line(
    command: list[str], rules: str, said: str
) -> None:
    """The rule, its method, the exception and the line of the rule's code that raised it
    (the traceback is not shown), exit status 1, in a worker process of simulate too; a
    library caller gets the exception."""
    result = run(*command, "--rules", rules, "--seed", "1")
    assert_one_line_error(result, said)
    assert "house_rules_plugin.py, line " in result.stderr
    assert result.exit_code == 1
    with pytest.raises((IndexError, ValueError, FileNotFoundError, LookupError, RuntimeError)):
        simulate([GreedyPlayer()] * 4, get_variant(rules), games=1, seed=1)


@pytest.mark.usefixtures("house_rules_plugin")
def test_a_rule_of_your_own_that_raises_in_play_is_named_in_one_line() -> None:
    result = CliRunner().invoke(
        cli,
        ["play", "-p", "2", "--rules", "undecided-doubles", "--seed", "1"],
        input="1\n" * 400,
        prog_name="mexican-train",
    )
    assert_one_line_error(result, "the open-double rule house_rules_plugin.Undecided")
    assert result.exit_code == 1


def _compiled_caller() -> Callable[[Callable[[], object]], object]:
    """Return a function of the package's as mypyc compiles it: its frame names the file
    by the path the build was made from, not where the package is, and keeps the
    module's globals."""
    namespace: dict[str, Any] = {"__name__": "mexican_train._core.engine"}
    source = "def ask(method):\n    return method()\n"
    exec(compile(source, "src/mexican_train/_core/engine.py", "exec"), namespace)
    return cast(Callable[[Callable[[], object]], object], namespace["ask"])


class _Unreadable:
    def is_open(self) -> bool:
        raise IndexError("tuple index out of range")


def test_a_rule_asked_by_the_compiled_engine_is_named_in_one_line() -> None:
    """The compiled build's frames are the package's by their module, whatever file
    they name: the rule asked from one is the user's, and the line shown its own."""
    with pytest.raises(IndexError) as raised:
        _compiled_caller()(_Unreadable().is_open)
    said = cli_module._rule_failure(raised.value)
    assert said is not None
    assert said.startswith(
        f"the Mexican train rule {__name__}._Unreadable (Rules.mexican_train, V2) "
        "failed in is_open(): IndexError: tuple index out of range ("
    )
    assert f"{Path(__file__).name}, line " in said


def test_a_bot_whose_call_the_compiled_engine_refuses_is_shown_its_own_line() -> None:
    """The line shown is the bot's that made the call, not the compiled engine's that
    raised (a path of the build, outside the package as installed)."""

    def choose() -> object:
        return _compiled_caller()(cast(Callable[[], object], None))  # not callable

    with pytest.raises(TypeError) as raised:
        choose()
    told = cli_module._how_raised(raised.value, raised.value.__traceback__)
    assert "src/mexican_train/_core/engine.py" not in told
    assert f"{Path(__file__).name}, line " in told


@pytest.mark.usefixtures("house_rules_plugin")
@pytest.mark.parametrize(
    ("args", "where"),
    [
        (["demo", "--rules", "not-there"], "--rules"),
        (["demo", "--rules", "hub+not-there"], "--rules"),
        (["demo", "--house", "not-there"], "--house"),
        (["rules", "not-there"], "NAME"),
    ],
)
def test_a_registered_variant_that_fails_to_load_is_named_with_its_option(
    args: list[str], where: str
) -> None:
    result = run(*args)
    assert_one_line_error(
        result,
        f"{where}: the variant 'not-there' registered in 'mexican_train.variants' as "
        "'house_rules_plugin:NOT_THERE' failed to load",
    )
    assert result.exit_code == 2


def test_a_bug_of_the_package_keeps_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a rule of the user's own is said in one line: an exception from this package's
    own code is a bug, reported with its traceback."""

    def broken(*args: object, **kwargs: object) -> str:
        raise IndexError("a bug")

    monkeypatch.setattr(cli_module, "render_text", broken)
    result = run("demo", "-p", "2", "--seed", "1")
    assert isinstance(result.exception, IndexError)


def test_play_review_fits_an_80_column_terminal() -> None:
    """The review question's answer to a word it does not take, and the review itself,
    are wrapped to 79 columns as the rest of play is (seed 3's first round ends within 60
    of the person's moves; the 1s left over are such words)."""
    args = ["play", "-p", "2", "-r", "hub", "--seed", "3", "--bots", "greedy"]
    typed = _Terminal(b"1\n" * 60 + b"maybe\n" + b"y\n" + b"q\n")
    result = CliRunner().invoke(cli, args, input=typed, prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    assert "I did not understand 'maybe': y reviews your moves" in result.stdout
    assert "Better: " in result.stdout
    lines = [line.split("q to quit]: ")[-1] for line in result.stdout.splitlines()]
    assert max(len(line) for line in lines) <= 79, max(lines, key=len)


@pytest.mark.usefixtures("failing_bots")
def test_a_bots_long_name_is_cut_short_and_its_control_characters_left_out() -> None:
    """A bot of the user's own goes by its name, which the commands show on one line,
    without what would move a terminal's cursor or colour its text, and cut short to keep
    the table's and the standings' columns: 8 players fit an 80-column terminal."""
    result = run("demo", "-p", "8", "--seed", "2", "--bots", "failing_bots:Verbose,planner")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout
    assert "seat 0 (The Bot Of Many Words...)" in result.stdout
    assert _widest(result.stdout) <= 79
    standings = result.stdout.split("Final standings (lowest total wins, E5):\n")[1]
    ends = {len(line.removesuffix("  <- winner")) for line in standings.splitlines()}
    assert len(ends) == 1, standings  # the totals in one column


def test_the_standings_of_ten_players_or_more_keep_their_columns() -> None:
    result = run("demo", "-q", "-p", "12", "--seed", "1")
    assert result.exit_code == 0, result.output
    standings = result.stdout.split("Final standings (lowest total wins, E5):\n")[1]
    lines = standings.splitlines()
    assert lines[0].startswith("   1. seat ")
    assert lines[9].startswith("  10. seat ")
    ends = {len(line.removesuffix("  <- winner")) for line in lines}
    assert len(ends) == 1, standings


@pytest.mark.parametrize(
    ("command", "cited"),
    [
        ("demo", "The rules say how many they deal for (S1; standard: 2-14, hub: 2-12)."),
        ("play", "Fix the deals (and the random bots) to replay a game (S6)."),
        ("serve", "The rules say how many they deal for (S1;"),
        ("analyze", "never the hidden tiles (S5)."),
    ],
)
def test_the_help_cites_the_rule_it_teaches(command: str, cited: str) -> None:
    """The rule ids are those of the docs' rule pages, as demo's and play's words cite them."""
    assert cited in " ".join(run(command, "--help").stdout.split())


@pytest.mark.parametrize(("name", "start"), [("standard", "Then, each turn"), ("hub", "Each turn")])
def test_v1_rules_tells_a_turn_after_the_first_only_where_the_first_is_told(
    name: str, start: str
) -> None:
    """Under hub the first turn is an ordinary one (V1): no "Then" after a first turn
    that the text never told."""
    text = " ".join(run("rules", name).stdout.split())
    assert f"- {start}, play one tile on your own train" in text


def test_play_names_the_trains_a_tile_fits_as_a_list_in_words() -> None:
    moves = (Play(Tile(6, 5), 0), Play(Tile(6, 5), 2), Play(Tile(6, 5), MEXICAN))
    with pytest.raises(
        ValueError,
        match=re.escape(
            "6-5 can go on your train, seat 2's train or the Mexican train: say which, e.g. '6-5 m'."
        ),
    ):
        _read_move("6-5", moves, 0, HUB)
    with pytest.raises(ValueError, match=re.escape("or seat 2's train: say which, e.g. '6-5 2'.")):
        _read_move("6-5", moves[:2], 0, HUB)


def test_e3a_rules_cites_the_rule_the_last_tile_call_takes_the_place_of() -> None:
    text = " ".join(run("rules", "last-tile-call").stdout.split())
    assert (
        "without calling draws 2 (the house rule last-tile-call, in place of E3a's announcement)."
        in text
    )


@pytest.mark.parametrize("typed", ["0", "-1", "+4", "4", "99999999999"])
def test_play_says_a_number_out_of_the_menu_is_no_move(typed: str) -> None:
    """A signed number is read as a move's number too, and refused as one: not "I did not
    understand" with the whole help, as for a word."""
    moves = (Draw(), Pass(), CallLastTile())
    with pytest.raises(ValueError, match=r"^There is no move [-+\d]+(\.\.\.)?: choose 1-3\.$"):
        _read_move(typed, moves, 0, HUB)
    assert _read_move("+2", moves, 0, HUB) == Pass()


def test_play_says_the_engines_open_double_refusals_in_the_players_words() -> None:
    """The refusals under open doubles, as the engine words them, read as one sentence with
    the player's own train called theirs: a binding double left by an earlier turn (D2,
    D3), any one of several under V3, and this turn's doubles covered in order (D3)."""
    hands = ["6-3 6-5 5-5 3-3 5-2 3-1 6-4", "0-0 1-0 1-1 2-0 2-1 2-2 4-4"]

    on, draw, stop = scenario.on, Draw(), Pass()

    def laid(rules: Rules) -> GameState:
        state = scenario.start(hands, rules=rules, boneyard="4-1 4-0")
        moves = (on("6-3", MEXICAN), draw, stop, on("6-5", 0), draw, stop, on("5-5", 0))
        return scenario.run(state, *moves, on("3-3", MEXICAN))

    def said(state: GameState, move: Play) -> str:
        assert state.current_player is not None
        with pytest.raises(IllegalMoveError) as refused:
            apply(state, move)
        return _in_player_words(refused.value.reason, state.current_player)

    assert said(laid(HUB), on("3-1", MEXICAN)) == (
        "of this turn's doubles, the double on your train must be covered first (D3)."
    )
    left = scenario.run(laid(HUB), on("6-4", 1))
    assert said(left, on("4-4", 1)) == (
        "the open double on seat 0's train must be covered first (D2/D3)."
    )
    left = scenario.run(laid(get_variant("hub+any-double")), on("6-4", 1))
    assert said(left, on("4-4", 1)) == (
        "an open double must be covered first, any one of those on seat 0's train or the "
        "Mexican train (D2/D3)."
    )


def test_a_double_that_lifts_the_marker_says_it_plays_again_next_to_the_tile() -> None:
    """D1, P6: a double on the player's own marked train is told as a double right after
    the tile, then the marker that comes off; after the marker it read as if the marker
    were the double."""
    small = attrs.evolve(HUB, max_pip=4, hand_size=3)
    hands = [["4-3", "1-0", "2-0"], ["4-1", "2-1", "2-2"]]
    first = [Tile(0, 0), Tile(3, 3)]
    dealt = {Tile.parse(tile) for hand in hands for tile in hand} | {Tile(4, 4), *first}
    state = new_game(2, small, deal=Deal(hands, first + [t for t in full_set(4) if t not in dealt]))
    for move in (Play(Tile(4, 3), 0), Play(Tile(4, 1), 1), Draw(), Pass(), Play(Tile(2, 1), 1)):
        state = apply(state, move)
    state = apply(state, Draw())  # seat 0 draws the 3-3, which fits its marked train
    assert state.train(0).marked
    move = Play(Tile(3, 3), 0)
    told = Narrator(["seat 0", "seat 1"], you=0).move(state, move, apply(state, move))
    assert told == (
        "You play 3-3 on your train, a double: you play again (D1), and the marker comes off (P6)."
    )


@pytest.mark.skipif(sys.platform == "win32", reason="closing a file descriptor with the shell")
@pytest.mark.parametrize(
    ("args", "status", "error"),
    [
        (["play"], 1, "Error: cannot read your moves: standard input is closed\n"),
        (
            ["analyze", "-"],
            2,
            "Error: Invalid value for 'RECORD.json': '-': standard input is closed "
            "(see 'mexican-train analyze --help')\n",
        ),
    ],
)
def test_a_closed_standard_input_is_said_in_one_line(
    args: list[str], status: int, error: str
) -> None:
    """play reads the person's moves, analyze - the record, from standard input: closed
    (<&-), it was a traceback."""
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" -m mexican_train "$@" <&-', sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (status, error)


def test_v2_plays_table_says_whether_the_mexican_train_is_open_to_you() -> None:
    """V2 (standard): the Mexican train opens to a player from their second turn, and the
    table shown at each turn says so on the Mexican train's row."""
    args = ["play", "-p", "3", "--seed", "11", "--bots", "planner", "--no-review"]
    result = CliRunner().invoke(cli, args, input="1\n" * 4 + "q\n", prog_name="mexican-train")
    assert result.exit_code == 0, result.output
    rows = [line.split("> ")[1] for line in result.stdout.splitlines() if "Mexican train  " in line]
    assert rows[0] == "9 [not open to you]"  # the first turn (P4)
    assert rows[-1].endswith(" [open to you]")
