"""The web table's game logic (`mexican_train.web.WebTable`) and ``mexican-train serve``.

The HTTP layer's abuse tests are in test_http_hardening.py; a real browser plays in
tests_browser/ (run by .ci/run).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import IO, Any

import attrs
import pytest
from click.testing import CliRunner

from child_processes import as_a_terminal_would, posix_only
from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    DealError,
    Draw,
    GameState,
    InvalidArgumentError,
    Move,
    NextRound,
    Pass,
    Play,
    PlayerView,
    Rules,
    Tile,
    legal_moves,
    spectator_view,
    view,
)
from mexican_train._frontends.cli import cli
from mexican_train._frontends.web import SPECTATOR, lobby_table, seed_warning, shareable_host
from mexican_train.events import Event, derive_events
from mexican_train.players import GreedyPlayer, PlannerPlayer, RandomPlayer
from mexican_train.serialize import to_json, view_from_json
from mexican_train.variants import combine, get_variant
from mexican_train.web import RequestError, WebServer, WebTable, make_server
from serving import serving

SHORT = attrs.evolve(STANDARD, max_pip=6, rounds=2)
TIMEOUT = 20  # seconds: a hung server fails the test instead of blocking it


def _tiles_named(document: dict[str, Any]) -> set[Tile]:
    """Every tile written anywhere in *document* (its JSON and log included)."""
    text = json.dumps(document)
    return {Tile.parse(t) for t in re.findall(r"\b\d+-\d+\b", text)}


def _hidden(table: WebTable, seat: int) -> set[Tile]:
    """The tiles *seat* may not see: the other hands' (the boneyard's never appear as tiles)."""
    state = table.state
    return {tile for s in range(state.players) if s != seat for tile in state.hand(s)}


def _step(table: WebTable) -> bool:
    """Let whoever is to move play once (a person, or the bots); False between rounds."""
    current = table.state.current_player
    if current is None:
        return False
    if current in table.tokens:
        table.play(current, _person_move(table, current))
    else:
        table.play_bots()
    return True


def _person_move(table: WebTable, seat: int) -> Move:
    return legal_moves(view(table.state, seat))[0]


@pytest.mark.parametrize("house", [(), ("dead-doubles-bind",), ("doubles-never-bind",)])
def test_d2_d4_a_documents_doubles_say_what_the_moves_allow(house: tuple[str, ...]) -> None:
    """D2, D3, D4: ``must_cover`` names the trains a player to move must cover, and the moves
    offered are plays on them alone (a draw or pass aside); ``dead_doubles`` names the open
    doubles nothing can cover; both are empty when no double is open."""
    base = combine("hub", *house) if house else HUB
    rules = attrs.evolve(base, max_pip=6, hand_size=7, rounds=1)
    bound = dead = 0
    for seed in range(40):
        table = WebTable(3, rules, bots={2: GreedyPlayer()}, seed=seed)
        while _step(table):
            state = table.state
            seat = state.current_player
            if seat is None:  # the round is over
                continue
            document = table.document(seat if seat in table.tokens else SPECTATOR)
            assert set(document["dead_doubles"]) <= set(state.open_doubles)
            assert set(document["must_cover"]) <= set(state.open_doubles)
            plays = [m for m in legal_moves(state) if isinstance(m, Play)]
            if document["must_cover"] and not state.turn_doubles:
                bound += 1
                assert all(play.train in document["must_cover"] for play in plays)
            dead += bool(document["dead_doubles"])
            if "doubles-never-bind" in house:
                assert document["must_cover"] == []
            if "dead-doubles-bind" not in house:
                assert not set(document["dead_doubles"]) & set(document["must_cover"])
    assert bound > 0 or "doubles-never-bind" in house
    assert dead > 0


@pytest.mark.parametrize(
    "variant",
    ["standard", "hub", "train-dominoes", "mexican-after-own-train", "mexican-after-all-trains"],
)
def test_v2_a_documents_mexican_open_is_what_the_rule_and_the_moves_say(variant: str) -> None:
    """V2: ``mexican_open`` says, for each seat, what the rules' Mexican-train rule answers;
    a seat to move that is bound by no double and holds a tile fitting the Mexican train is
    offered a play there exactly when it is open to it.  Under ``train-dominoes`` it never
    is, under ``hub`` always; the others open it during a round."""
    rules = attrs.evolve(get_variant(variant), max_pip=6, hand_size=7, rounds=1)
    seen: set[bool] = set()
    checked = 0
    for seed in range(12):
        table = WebTable(3, rules, bots={1: GreedyPlayer(), 2: GreedyPlayer()}, seed=seed)
        while _step(table):
            state = table.state
            for seat in (0, SPECTATOR):
                document = table.document(seat)
                opens = document["mexican_open"]
                assert opens == [rules.mexican_train.is_open(state, s) for s in range(3)]
                seen.update(opens)
            mover = state.current_player
            if mover is None or state.open_doubles or state.turn_doubles:
                continue
            end = state.train(MEXICAN).open_end
            fits = [t for t in state.hand(mover) if t.shows(end)]
            if fits and state.has_had_first_turn(mover):
                offered = any(m == Play(fits[0], MEXICAN) for m in legal_moves(state))
                assert offered == table.document(SPECTATOR)["mexican_open"][mover]
                checked += 1
    assert checked > 0
    expected = {"train-dominoes": {False}, "hub": {True}}.get(variant, {True, False})
    assert seen == expected


def test_s5_a_document_holds_the_seats_view_and_nothing_hidden() -> None:
    """S5: the document's view is the seat's own; no other hand's tile appears anywhere."""
    table = WebTable(3, SHORT, bots={2: GreedyPlayer()}, seed=5)
    for _ in range(30):
        for seat in table.tokens:
            document = table.document(seat)
            assert view_from_json(document["view"]) == view(table.state, seat)
            # Tiles on the table are public; the other hands' never are.
            on_table = {t for train in table.state.trains for t in train.tiles}
            assert (_tiles_named(document) - on_table) & _hidden(table, seat) == set()
        if not _step(table):
            break


def test_the_end_of_a_round_is_told_to_each_seat_with_itself_as_you() -> None:
    """E1-E3: each seat reads "you" for itself in the round-over line, whoever moved last."""
    for seed in range(40):
        table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=seed)
        while not table.state.is_round_over:
            if table.state.current_player == 0:
                table.play(0, _person_move(table, 0))
            else:
                table.play_bots()
        bot_last = table.document(0)["log"][-2].startswith(table.labels[1])
        if table.state.round_scores[-1][0] == 0 and bot_last:  # the person went out (E1)
            break
    else:
        pytest.fail("no deal where the person goes out and the bot moves last")
    mine = table.document(0)["log"][-1]
    theirs = table.document(1)["log"][-1]
    bot = table.labels[1]
    points = table.state.round_scores[-1]
    assert mine == f"Round 1 is over: you went out (E1). Points: you 0, {bot} {points[1]}."
    assert theirs == f"Round 1 is over: Seat 0 went out (E1). Points: Seat 0 0, you {points[1]}."


def test_a_person_and_bots_play_a_whole_game() -> None:
    """People move through play(), bots through play_bots(); the game ends with winners (E5)."""
    table = WebTable(3, SHORT, bots={1: PlannerPlayer(), 2: RandomPlayer(seed=1)}, seed=2)
    for _ in range(2000):
        table.play_bots()
        if table.state.is_over:
            break
        table.play(0, _person_move(table, 0))  # NextRound() between rounds (E4)
    else:
        pytest.fail("the game did not end")
    final = table.document(0)
    assert final["winners"] == list(table.state.winners)
    assert final["scores"]["totals"] == list(table.state.scores)
    assert len(final["scores"]["rounds"]) == 2
    assert final["status"].startswith("The game is over")
    assert final["moves"] == []


def test_a_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    table = WebTable(3, SHORT, bots={2: GreedyPlayer()}, seed=5)
    current = table.state.current_player
    assert current in (0, 1)
    waiting = 1 - current
    before = table.state
    with pytest.raises(RequestError) as caught:
        table.play(waiting, Draw())
    assert (caught.value.status, caught.value.error) == (409, "not your turn")
    assert table.state is before
    assert table.version == 0


def test_an_illegal_move_gets_the_rules_reason() -> None:
    """apply() decides: a move the rules refuse is a 422 naming the rule."""
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    assert Draw() not in legal_moves(table.state)  # seat 0 has a tile to play
    with pytest.raises(RequestError) as caught:
        table.play(0, Draw())
    assert caught.value.status == 422
    assert re.match(r"[SPDEV]\d", caught.value.reason), caught.value.reason
    assert table.version == 0


def test_a_stale_version_is_refused() -> None:
    """A move sent for a table that has moved on (a double click) is not played twice."""
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    table.play(0, _person_move(table, 0), version=0)
    before = table.state
    with pytest.raises(RequestError, match="moved on") as caught:
        table.play(0, Pass(), version=0)  # refused for its version, whatever the move
    assert table.state is before
    assert caught.value.status == 409


def test_e4_only_a_person_deals_the_next_round() -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    while not table.state.is_round_over:
        table.play_bots()
        if table.state.current_player == 0:
            table.play(0, _person_move(table, 0))
    assert table.play_bots() == 0  # bots do not deal
    with pytest.raises(RequestError, match="a person deals"):
        table.play(1, NextRound())
    assert table.document(0)["moves"][0]["kind"] == "next-round"
    table.play(0, NextRound())
    assert table.state.round_number == 2


class _Keeper:
    """Plays the first move; keeps every event it is told, as SearchPlayer keeps a round."""

    def __init__(self) -> None:
        self.told: list[object] = []

    def observe(self, events: object) -> None:
        self.told.extend(events if isinstance(events, tuple) else (events,))

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        return moves[0]


def test_a_new_game_seats_bots_that_know_nothing_of_the_last() -> None:
    """S5: a bot that keeps the round's events starts a new game afresh, as simulate's and
    the environments' bots do; the bot given is never told anything."""
    given = _Keeper()
    table = WebTable(2, SHORT, bots={1: given}, seed=2)
    for _ in range(2000):
        table.play_bots()
        if table.state.is_over:
            break
        table.play(0, _person_move(table, 0))
    seated = table._bots[1]
    assert isinstance(seated, _Keeper)
    assert seated.told
    assert not given.told
    table.again(0)
    fresh = table._bots[1]
    assert isinstance(fresh, _Keeper)
    assert fresh is not seated
    assert fresh.told == []


def test_a_failing_bot_does_not_stop_the_table() -> None:
    """A bot that raises, or returns an illegal move, plays its first legal move instead."""

    class Broken:
        def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
            raise RuntimeError("bug")

    class Cheat:
        def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
            return Pass() if Pass() not in moves else Draw()

    table = WebTable(3, SHORT, bots={1: Broken(), 2: Cheat()}, seed=4)
    failures: list[str] = []
    table.bot_failed = failures.append
    for _ in range(200):
        table.play_bots()
        if table.state.is_round_over:
            break
        table.play(0, _person_move(table, 0))
    assert table.state.is_round_over
    # Not silently: the log says so in public words, bot_failed says what went wrong.
    said = table.document(0)["log"]
    assert "Seat 1 (Broken)'s bot failed: its first legal move was played for it." in said
    assert "Seat 2 (Cheat)'s bot failed: its first legal move was played for it." in said
    assert failures[0].startswith(
        "Seat 1 (Broken)'s bot failed in choose(): RuntimeError: bug; its first legal move, "
    )
    assert any(line.startswith("Seat 2 (Cheat)'s bot chose an illegal move, ") for line in failures)


class _Stuck:
    """Chooses its first legal move once the test lets it (`release`); counts its calls."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = self.answered = self.running = self.most_at_once = 0
        self._counting = threading.Lock()

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        with self._counting:
            self.calls += 1
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        try:
            self.release.wait(TIMEOUT)
            return moves[0]
        finally:
            with self._counting:
                self.running -= 1
                self.answered += 1


def _to_seat_1s_turn(table: WebTable) -> None:
    """Let the person at seat 0 move (or deal) until it is seat 1's turn."""
    while table.state.current_player != 1:
        assert not table.state.is_over
        if table.state.current_player is None:
            table.play(0, NextRound())
        else:
            table.play(0, _person_move(table, 0))


def test_a_bot_that_takes_too_long_is_played_for_and_never_asked_twice_at_once() -> None:
    """A bot gets bot_timer seconds a move; then its first legal move is played, and while
    its late choice runs on it is not asked again: the table plays for it, says so once,
    and asks it again once it has answered (the answer discarded)."""
    stuck = _Stuck()
    table = WebTable(2, SHORT, bots={1: stuck}, seed=4, bot_timer=1)
    failures: list[str] = []
    table.bot_failed = failures.append
    try:
        _to_seat_1s_turn(table)
        assert table.play_bots(1) == 1  # after a second: its first legal move, for it
        assert stuck.calls == 1
        took = "Seat 1 (_Stuck)'s bot took more than 1 s: its first legal move was played for it."
        assert took in table.document(0)["log"]
        assert failures[0].startswith(
            "Seat 1 (_Stuck)'s bot took more than 1 s to choose; its first legal move, "
        )
        for _ in range(3):  # its next moves: played for at once, the bot not asked again
            _to_seat_1s_turn(table)
            assert table.play_bots(1) == 1
        assert stuck.calls == 1
        late = "Seat 1 (_Stuck)'s bot is still on an earlier move: its first legal move is "
        assert sum(line.startswith(late) for line in table.document(0)["log"]) == 1
        assert len(failures) == 2  # said once, not at every move
        assert failures[1].startswith("Seat 1 (_Stuck)'s bot has not answered an earlier move")
        version = table.version
        stuck.release.set()  # its late answer comes, and is not played
        deadline = time.monotonic() + TIMEOUT
        while stuck.answered < 1:
            assert time.monotonic() < deadline, "the bot never answered"
            table.wait(0, since=table.version, timeout=0.05)
        assert table.version == version
        while stuck.calls < 2:  # once its answer is in, it is asked again
            assert time.monotonic() < deadline, "the bot was never asked again"
            _to_seat_1s_turn(table)
            table.play_bots(1)
        assert stuck.most_at_once == 1
    finally:
        stuck.release.set()
        table.close()


def test_closing_the_table_does_not_wait_for_a_bot_that_hangs() -> None:
    stuck = _Stuck()
    table = WebTable(2, SHORT, bots={1: stuck}, seed=4, bot_timer=None)  # no limit
    _to_seat_1s_turn(table)
    table.start()
    try:
        deadline = time.monotonic() + TIMEOUT
        while stuck.calls < 1:
            assert time.monotonic() < deadline, "the bot was never asked"
            table.wait(0, since=table.version, timeout=0.05)
        table.close()
        assert table._thread is not None
        assert not table._thread.is_alive()
    finally:
        stuck.release.set()
        table.close()


class _ObservesBadly:
    def __init__(self) -> None:
        self.observed = 0

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        return moves[0]

    def observe(self, events: object) -> None:
        self.observed += 1
        raise ValueError("no history")


def test_a_bot_whose_observe_fails_does_not_stop_the_table() -> None:
    """As for a failure in choose: the log says so in public words, bot_failed says what
    went wrong, and the table goes on; the bot plays on, told nothing more."""
    table = WebTable(2, SHORT, bots={1: _ObservesBadly()}, seed=4)
    failures: list[str] = []
    table.bot_failed = failures.append
    while _step(table):
        pass
    assert table.state.is_round_over
    _until_logged(table, "Seat 1 (_ObservesBadly)'s bot failed: it plays on, told no more")
    assert failures == [
        "Seat 1 (_ObservesBadly)'s bot failed in observe(): ValueError: no history; "
        "it is told no more of this game's moves"
    ]
    seated = table._bots[1]
    assert isinstance(seated, _ObservesBadly)
    assert seated.observed == 1


def test_a_moves_events_are_derived_once_for_the_log_and_the_bots_that_observe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mexican_train._bots import simulate
    from mexican_train._frontends import web

    derived: list[Move] = []

    def counted(before: GameState, move: Move, after: GameState) -> tuple[Event, ...]:
        derived.append(move)
        return derive_events(before, move, after)

    monkeypatch.setattr(simulate, "derive_events", counted)
    monkeypatch.setattr(web, "derive_events", counted)
    table = WebTable(2, SHORT, bots={1: _Keeper()}, seed=4)
    while _step(table):
        pass
    assert any(isinstance(move, Play) for move in derived)
    assert len(derived) == table.version


def test_a_server_logs_why_a_bot_failed(tmp_path: Path) -> None:
    class Broken:
        def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
            raise RuntimeError("bug")

    log = (tmp_path / "log").open("w+")
    table = WebTable(2, SHORT, bots={0: Broken()}, seed=4)
    server = make_server(table, port=0, log=log)
    try:
        deadline = time.monotonic() + TIMEOUT
        while "RuntimeError: bug" not in Path(log.name).read_text():
            assert time.monotonic() < deadline, "the failure was never logged"
            time.sleep(0.05)
    finally:
        server.server_close()
        table.close()
        log.close()
    assert (
        "Seat 0 (Broken)'s bot failed in choose(): RuntimeError: bug" in Path(log.name).read_text()
    )


def test_the_log_says_what_happened_in_public_words() -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    move = _person_move(table, 0)
    table.play(0, move)
    table.play_bots()
    mine, theirs = table.document(0)["log"], table.document(1)["log"]
    assert mine[1].startswith("You ")  # after who plays first (S3)
    assert theirs[1].startswith("Seat 0 ")
    drawn = [line for line in theirs if "drew" in line]
    assert all(not re.search(r"\d-\d", line) for line in drawn)  # never named to the others


def test_p6_a_tile_on_a_marked_train_is_logged_to_its_owner_as_on_your_train() -> None:
    """P6: another seat's tile on a person's marked train reads "on your train" in that
    person's log, and the train's name in everybody else's."""
    rules = attrs.evolve(HUB, max_pip=6, hand_size=5, rounds=1)
    for seed in range(40):
        table = WebTable(3, rules, bots={1: GreedyPlayer(), 2: GreedyPlayer()}, seed=seed)
        while not table.state.is_round_over:
            table.play_bots()
            if table.state.current_player == 0:  # draw and pass where it can: a marker
                moves = legal_moves(view(table.state, 0))
                table.play(0, next((m for m in moves if m in (Draw(), Pass())), moves[0]))
            mine = [line for line in table.document(0)["log"] if "on your train" in line]
            if any(not line.startswith("You ") for line in mine):
                break
        else:
            continue
        line = next(line for line in mine if not line.startswith("You "))
        mover = line.split(" played ")[0]
        theirs = line.replace("on your train", "on Seat 0's train")
        other = next(s for s in (1, 2) if not mover.startswith(f"Seat {s}"))
        assert theirs in table.document(other)["log"]
        assert theirs in table.document(SPECTATOR)["log"]
        return
    pytest.fail("no seat played on seat 0's marked train")


def test_the_log_holds_every_line_of_the_round_and_starts_again_at_the_deal() -> None:
    """E4: the document's log is the whole round, from its deal; the next deal starts a new one."""
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    moves = 0
    while not table.state.is_round_over:
        moves += table.play_bots()
        if not table.state.is_round_over:
            table.play(0, _person_move(table, 0))
            moves += 1
    log = table.document(0)["log"]
    announced = sum(line.endswith("one tile left (E3a).") for line in log)
    # Who plays first, one line a move, one a seat down to one tile (E3a), and the round's
    # end (E1 or E2).
    assert len(log) == 1 + moves + announced + 1
    assert log[-1].startswith("Round 1 is over")
    table.play(0, NextRound())
    assert table.document(0)["log"][0] == f"Round 2 dealt (engine {table.state.engine})."
    assert len(table.document(0)["log"]) == 2  # and who plays first


def _to_move(table: WebTable) -> int:
    seat = table.state.current_player
    assert seat is not None
    return seat


@pytest.mark.parametrize(
    ("rules", "seed", "first", "theirs"),
    [
        # S3: Seat 2 was dealt the engine.
        (STANDARD, 1, 2, "Seat 2 (greedy) held the engine 12-12 and plays first (S3)."),
        # S3: nobody was, and the players drew for it: their hands hold more than 15 (S1).
        (
            STANDARD,
            2,
            3,
            "Nobody was dealt the engine 12-12: the players drew in turn, keeping what they"
            " drew, until Seat 3 (greedy) drew it; Seat 3 (greedy) plays first (S3).",
        ),
        # S4: the engine is set aside, and the first player rotates.
        (
            HUB,
            1,
            0,
            "The engine 12-12 is set aside; Seat 0 plays first, and the first player moves"
            " one seat on each round (S4).",
        ),
    ],
)
def test_the_log_opens_each_round_with_who_plays_first_and_why(
    rules: Rules, seed: int, first: int, theirs: str
) -> None:
    """A person who counts 17 tiles in a hand the deal table says is 15 reads why (S3);
    each round, and each new game, says who plays first."""
    bots = {seat: GreedyPlayer() for seat in (2, 3)}
    table = WebTable(4, rules, bots=bots, seed=seed)
    assert table.state.first_player == first
    watcher = 1 if first == 0 else 0
    assert table.document(watcher)["log"] == [theirs]
    assert table.document(SPECTATOR)["log"] == [theirs]
    if first in (0, 1):
        assert table.document(first)["log"][0].startswith(("You held", "The engine"))
    while not table.state.is_round_over:
        table.play_bots()
        if not table.state.is_round_over:
            table.play(_to_move(table), legal_moves(table.state)[0])
    table.play(0, NextRound())
    log = table.document(watcher)["log"]
    assert "Round 2 dealt" in log[0]
    assert "plays first" in log[1] or "play first" in log[1]


def test_s5_only_the_drawer_is_told_which_tile_was_drawn() -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    for _ in range(200):
        table.play_bots()
        if Draw() in legal_moves(table.state):
            break
        table.play(0, _person_move(table, 0))
    else:
        pytest.fail("seat 0 never had to draw")
    before = set(table.state.hand(0))
    table.play(0, Draw())
    (tile,) = set(table.state.hand(0)) - before
    assert table.document(0)["log"][-1] == f"You drew {tile}."
    assert table.document(1)["log"][-1] == "Seat 0 drew a tile."


def test_the_page_cites_only_rules_the_docs_define() -> None:
    """Every rule id the page, its hints or its documents cite heads a section of the docs."""
    docs = Path(__file__).resolve().parent.parent / "docs" / "explanation"
    pages = [*docs.glob("rules/*.rst"), docs / "rulebooks.rst"]
    defined = {
        match[1]
        for page in pages
        for match in re.finditer(r"^([SPDEV][0-9]+a?) \u2014 ", page.read_text("utf-8"), re.M)
    }
    assert {"P5", "P6", "D2", "E4"} <= defined
    webpage = resources.files("mexican_train._frontends") / "webpage"
    texts = [webpage / name for name in ("index.html", "board.js", "table.js")]
    texts.append(resources.files("mexican_train._frontends") / "web.py")
    for text in texts:
        cited = set(re.findall(r"\b([SPDEV][0-9]+a?)\b", text.read_text("utf-8")))
        assert cited <= defined, (text.name, cited - defined)


def test_seat_for_checks_the_token() -> None:
    table = WebTable(3, SHORT, bots={1: GreedyPlayer()})
    assert [table.seat_for(table.tokens[s]) for s in (0, 2)] == [0, 2]
    with pytest.raises(RequestError) as no_token:
        table.seat_for(None)
    with pytest.raises(RequestError) as wrong:
        table.seat_for("not-a-token")
    assert (no_token.value.status, wrong.value.status) == (401, 403)


@pytest.mark.parametrize(
    ("players", "bots", "delay", "error"),
    [
        (2, {0: GreedyPlayer(), 1: GreedyPlayer()}, 0.0, InvalidArgumentError),
        (2, {5: GreedyPlayer()}, 0.0, InvalidArgumentError),
        (2, {}, -1.0, InvalidArgumentError),
        (2, {}, float("nan"), InvalidArgumentError),
        (99, {}, 0.0, DealError),
    ],
    ids=["all-bots", "no-such-seat", "negative-delay", "nan-delay", "too-many-players"],
)
def test_a_table_that_cannot_be_is_refused(
    players: int, bots: dict[int, Any], delay: float, error: type[Exception]
) -> None:
    with pytest.raises(error):
        WebTable(players, STANDARD, bots=bots, bot_delay=delay)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "chess"], "no bot called 'chess'"),
        (["--bots", "no.such.module:Bot"], "cannot import"),
        (["--rules", "chess"], "chess"),
        (["--house", "no-such-house-rule"], "no-such-house-rule"),
        (["--players", "4", "--people", "5"], "--people is at most --players (4)"),
        (["--players", "40"], "40"),
    ],
)
def test_serve_refuses_bad_options_before_it_listens(args: list[str], message: str) -> None:
    """serve reads --rules, --house and --bots as every game command does, and refuses what
    cannot be played before it starts a server."""
    result = CliRunner().invoke(cli, ["serve", "--port", "0", *args])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


#: A server whose start meets Ctrl-C where Python ignores exceptions (a weakref's callback,
#: as an import's module lock has), before uvicorn takes SIGINT over.
_CTRL_C_AS_IT_STARTS = """
import signal, weakref
from mexican_train import STANDARD
from mexican_train.web import WebServer, WebTable

server = WebServer(("127.0.0.1", 0), WebTable(2, STANDARD), log=None)
config = server._server.config
loop_factory = config.get_loop_factory

class Thing:
    pass

def starting():
    thing = Thing()
    ref = weakref.ref(thing, lambda ref: signal.raise_signal(signal.SIGINT))
    del thing  # the callback runs, and raises KeyboardInterrupt where it is ignored
    return loop_factory()

config.get_loop_factory = starting
try:
    server.serve_forever()
except KeyboardInterrupt:
    print("interrupted")
finally:
    server.server_close()
"""


@posix_only
def test_ctrl_c_as_the_server_starts_stops_it_wherever_it_lands() -> None:
    """Python's SIGINT handler raises KeyboardInterrupt wherever the signal lands: in a
    weakref's callback (an import's lock) it was ignored, the Ctrl-C lost, and the server
    served on.  serve_forever takes SIGINT over before it starts: the signal stops it."""
    done = subprocess.run(
        [sys.executable, "-c", _CTRL_C_AS_IT_STARTS],
        capture_output=True, text=True, timeout=TIMEOUT, preexec_fn=as_a_terminal_would,
        check=False,
    )  # fmt: skip
    assert done.stdout == "interrupted\n", done.stderr
    assert done.returncode == 0, done.stderr


# -- over HTTP, with the table's own server ----------------------------------------------------


@pytest.fixture
def served() -> Iterator[WebServer]:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    server = WebServer(("127.0.0.1", 0), table, log=None, long_poll=0.2)
    table.start()
    with serving(server):
        yield server


def _request(server: WebServer, path: str, body: object = None, token: str | None = None) -> Any:
    url = f"http://127.0.0.1:{server.server_address[1]}{path}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST" if data else "GET")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_the_page_and_its_files_are_served_without_a_token(served: WebServer) -> None:
    for path, kind in [
        ("/", "text/html"),
        ("/board.js", "text/javascript"),
        ("/table.js", "text/javascript"),
        ("/lobby.js", "text/javascript"),
        ("/table.css", "text/css"),
    ]:
        status, headers, body = _request(served, path)
        assert status == 200
        assert headers["Content-Type"].startswith(kind)
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert body


@pytest.mark.parametrize(
    "path",
    ["/../pyproject.toml", "/%2e%2e/%2e%2e/etc/passwd", "/webpage/table.js", "/table.js/..",
     "//etc/passwd", "/%5c..%5cweb.py", "/index.html", "/TABLE.JS", "/table.js%00.css"],
)  # fmt: skip
def test_only_the_pages_files_are_served_by_their_own_paths(served: WebServer, path: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", served.server_address[1], timeout=TIMEOUT)
    try:
        connection.request("GET", path)
        answered = connection.getresponse()
        body = answered.read()
    finally:
        connection.close()
    assert answered.status == 404, body
    assert answered.getheader("Cache-Control") == "no-store"
    assert answered.getheader("X-Content-Type-Options") == "nosniff"
    assert json.loads(body)["error"] == "not found"


@pytest.mark.parametrize(
    ("method", "path", "use"),
    [("GET", "/api/move", "POST"), ("POST", "/api/view", "GET or HEAD"),
     ("GET", "/api/tables", "POST"), ("POST", "/", "GET or HEAD"),
     ("PUT", "/api/view", "GET or HEAD")],
)  # fmt: skip
def test_a_method_not_served_at_a_path_is_a_405_whose_reason_says_which_are(
    served: WebServer, method: str, path: str, use: str
) -> None:
    """The reason says which methods to use, as the Allow header does: a person reads
    the reason, not the headers."""
    connection = http.client.HTTPConnection("127.0.0.1", served.server_address[1], timeout=TIMEOUT)
    try:
        connection.request(method, path)
        answered = connection.getresponse()
        body = json.loads(answered.read())
    finally:
        connection.close()
    assert answered.status == 405
    assert answered.getheader("Allow") == use.replace(" or ", ", ")
    assert body == {
        "error": "method not allowed",
        "reason": f"{method} is not served at {path}; use {use}",
    }


def test_the_page_is_kept_by_no_cache_and_framed_by_no_site(served: WebServer) -> None:
    status, headers, _ = _request(served, "/")
    assert status == 200
    assert headers["Cache-Control"] == "no-store"  # a seat's link is the page's URL
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "'unsafe-eval'" not in policy
    assert "script-src 'self';" in policy  # no inline script
    assert "style-src 'self';" in policy  # no inline style


def test_a_move_over_http_is_checked_and_answered(served: WebServer) -> None:
    token = served.table.tokens[0]
    status, _, body = _request(served, "/api/view", token=token)
    document = json.loads(body)
    assert status == 200
    assert document["seat"] == 0
    notation = document["moves"][0]["notation"]
    status, _, body = _request(served, "/api/move", {"move": notation, "version": 0}, token)
    assert status == 200, body
    document = json.loads(body)
    assert document["version"] >= 1
    # The bot answers in its own thread: wait for seat 0's turn again, so that the refusals
    # below come from the rules and the request checks, not from "not your turn".
    for _ in range(50):
        if document["moves"]:
            break
        status, _, body = _request(served, f"/api/view?since={document['version']}", token=token)
        document = json.loads(body)
    assert document["moves"], document["status"]
    for bad, expected in [
        ({"move": "6-6@5"}, 422),  # no train 5: the rules refuse it
        ({"move": "zz"}, 400),
        ({"move": "draw", "extra": 1}, 400),
        ({"move": "draw", "version": "1"}, 400),
        ([], 400),
    ]:
        status, _, body = _request(served, "/api/move", bad, token)
        assert status == expected, (bad, body)
        assert set(json.loads(body)) == {"error", "reason"}


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("max_per_client", 0, "max_per_client is a whole number from 1, not 0"),
        ("max_connections", "5", "max_connections is a whole number from 1, not '5'"),
        ("max_tables", -3, "max_tables is a whole number from 1, not -3"),
        ("max_tables_per_client", True, "max_tables_per_client is a whole number from 1, not True"),
        ("long_poll", float("nan"), "long_poll is a number of seconds over 0, not nan"),
        ("request_timeout", -1, "request_timeout is a number of seconds over 0, not -1"),
        ("request_timeout", float("inf"), "request_timeout is a number of seconds over 0, not inf"),
    ],
)
def test_a_server_refuses_bounds_that_are_not_counts_or_seconds(
    option: str, value: object, message: str
) -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()})
    with pytest.raises(InvalidArgumentError) as refused:
        WebServer(("127.0.0.1", 0), table, log=None, **{option: value})  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_a_move_followed_by_junk_is_refused_however_long(served: WebServer) -> None:
    token = served.table.tokens[0]
    document = json.loads(_request(served, "/api/view", token=token)[2])
    notation = document["moves"][0]["notation"]
    for junk in [" junk", " " * 80 + "junk"]:  # the junk past 64 characters too
        status, _, body = _request(served, "/api/move", {"move": notation + junk}, token)
        assert status == 400, body
        assert json.loads(body)["error"] == "bad move"
        assert served.table.version == document["version"]  # nothing played


def test_a_long_poll_answers_when_the_table_changes(served: WebServer) -> None:
    token = served.table.tokens[0]
    status, _, body = _request(served, "/api/view?since=0", token=token)
    assert (status, json.loads(body)["version"]) == (200, 0)  # nothing changed: the same
    status, _, body = _request(served, "/api/view?since=x", token=token)
    assert status == 400


def test_links_carry_the_token_in_the_fragment(served: WebServer) -> None:
    (link,) = served.links().values()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/#token=[\w-]+", link)


# -- the command line ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "chess"], "no rules called 'chess'"),
        (["--players", "2", "--people", "3"], "--people"),
        (["--bots", "chess"], "no bot called 'chess'"),
        (["--players", "99"], ""),
        (["--port", "70000"], "--port"),
        (["--db", "x.db", "--no-db"], "--db and --no-db: choose one"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["serve", *args], standalone_mode=True)
    assert result.exit_code != 0
    assert message in result.output


def test_serve_reports_a_port_in_use() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "mexican_train", "serve", "--port", str(port), "-q"],
            capture_output=True, text=True, timeout=TIMEOUT, check=False,
        )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.startswith(f"Error: cannot serve on 127.0.0.1:{port}")
    assert "Traceback" not in result.stderr


def _links_printed(process: subprocess.Popen[str]) -> list[tuple[str, str]]:
    """Read what ``serve`` prints up to "Press Ctrl-C"; return its (seat, link) pairs."""
    assert process.stdout is not None
    lines = [process.stdout.readline()]
    while lines[-1] and not lines[-1].startswith("Press Ctrl-C"):
        lines.append(process.stdout.readline())
    return re.findall(r"seat (\d): (http://\S+)", "".join(lines))


@posix_only
def test_serve_prints_the_links_and_stops_on_ctrl_c() -> None:
    """``mexican-train serve`` serves the page; the links carry the tokens after '#'."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with subprocess.Popen(
        [sys.executable, "-m", "mexican_train", "serve", "--port", "0", "--people", "2",
         "--bots", "greedy", "--bot-delay", "0", "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=as_a_terminal_would,
    ) as process:  # fmt: skip
        try:
            links = _links_printed(process)
            assert [seat for seat, _ in links] == ["0", "1"]
            base, token = links[0][1].split("#token=")
            with urllib.request.urlopen(base, timeout=TIMEOUT) as answer:
                assert b"<title>Mexican Train</title>" in answer.read()
            request = urllib.request.Request(
                base + "api/view", headers={"Authorization": f"Bearer {token}"}
            )
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                assert json.loads(answer.read())["seat"] == 0
        finally:
            process.send_signal(signal.SIGINT)
            try:
                out, err = process.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()  # a server deaf to Ctrl-C fails the test, not blocks it
                raise
    assert process.returncode == 0, err
    assert "Stopped." in out


@posix_only
def test_serve_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    """SIGTERM (``kill``, a service manager's stop) stops ``serve`` as Ctrl-C does: its
    tables and its database are closed (the database's journal folded back into it), and
    it says "Stopped." and exits 0, whenever the signal comes (here as soon as the links
    are printed, before it serves).  Its default ended the process at once: uvicorn,
    which answers the signal, raised it again once it had stopped serving."""
    db = tmp_path / "tables.sqlite3"
    with subprocess.Popen(
        [sys.executable, "-m", "mexican_train", "serve", "--port", "0", "--db", str(db), "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    ) as process:  # fmt: skip
        try:
            assert _links_printed(process)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                out, err = process.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                raise
    assert process.returncode == 0, err
    assert "Stopped." in out
    assert "Traceback" not in err
    assert sorted(path.name for path in tmp_path.iterdir()) == [db.name]  # no -wal left


def _ctrl_c_twice() -> tuple[int, str, str]:
    """Start ``serve``, press Ctrl-C, and again once it is stopping; return its status and
    what it printed to stdout and stderr."""
    with subprocess.Popen(
        [sys.executable, "-m", "mexican_train", "serve", "--port", "0", "--no-db", "-q"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"), preexec_fn=as_a_terminal_would,
    ) as process:  # fmt: skip
        try:
            base = _links_printed(process)[0][1].split("#")[0]
            port = int(base.rsplit(":", 1)[1].strip("/"))
            with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as held:
                held.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: localhost\r\n\r\n")
                answer = held.makefile("rb")
                assert _read_answer(answer).startswith(b"HTTP/1.1 200")  # uvicorn has Ctrl-C
                process.send_signal(signal.SIGINT)
                # The second Ctrl-C once the server is stopping: it closes the idle
                # connection at once, then waits a tenth of a second at least before it
                # would end the lifespan.
                assert answer.read() == b""
        finally:
            process.send_signal(signal.SIGINT)
            try:
                out, err = process.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                raise
    return process.returncode, out, err


@posix_only
def test_serve_stops_quietly_on_ctrl_c_twice() -> None:
    """A second Ctrl-C while the server stops forces it to (uvicorn skips the lifespan's
    end): it stops all the same, saying "Stopped.", with no traceback of the lifespan the
    event loop cancels.

    The server stops within a few tenths of a second of the first Ctrl-C: a second one
    that comes later (the test slowed by a loaded machine) finds the command over, "Stopped."
    printed, and ends it (status 130, "Error: interrupted", or -2, Python ending by
    the signal).  Such a run tried nothing: it is run again.
    """
    for _ in range(5):
        status, out, err = _ctrl_c_twice()
        assert "Traceback" not in err + out, err
        assert "Stopped." in out
        if status == 0:
            break
    assert status == 0, f"the second Ctrl-C came after the stop in 5 runs: {status}, {err}"


def _read_answer(answer: IO[bytes]) -> bytes:
    """Read one HTTP answer from *answer*; return its status line."""
    status = answer.readline()
    length = 0
    while (line := answer.readline()) != b"\r\n":
        name, _, value = line.partition(b":")
        length = int(value) if name.lower() == b"content-length" else length
    answer.read(length)
    return status


@posix_only
def test_serve_stops_quietly_on_ctrl_c_while_a_page_long_polls() -> None:
    """A long poll in flight when Ctrl-C comes is answered at once, as at the end of its
    time: uvicorn gave it a second, then cancelled it and printed its traceback."""
    with subprocess.Popen(
        [sys.executable, "-m", "mexican_train", "serve", "--port", "0", "--no-db", "-q",
         "--players", "2", "--people", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"), preexec_fn=as_a_terminal_would,
    ) as process:  # fmt: skip
        try:
            base, token = _links_printed(process)[0][1].split("#token=")
            port = int(base.rsplit(":", 1)[1].strip("/"))
            with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as polling:
                # Pipelined after a view: once the view is answered, the poll has begun
                # (two people: nothing moves), and uvicorn has Ctrl-C.
                view = "GET /api/view{} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {}\r\n\r\n"
                polling.sendall((view.format("", token) + view.format("?since=0", token)).encode())
                answers = polling.makefile("rb")
                assert _read_answer(answers).startswith(b"HTTP/1.1 200")
                process.send_signal(signal.SIGINT)
                assert _read_answer(answers).startswith(b"HTTP/1.1 200")  # the poll's
        finally:
            try:
                out, err = process.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()  # a server deaf to Ctrl-C fails the test, not blocks it
                raise
    assert process.returncode == 0, err
    assert "Stopped." in out
    assert err == ""


def test_serve_bounds_the_connections_it_serves_at_once() -> None:
    """``--max-connections``: past it, a request is answered 503 and nothing else changes."""
    with subprocess.Popen(
        [sys.executable, "-m", "mexican_train", "serve", "--port", "0", "--no-db", "-q",
         "--max-connections", "1", "--max-per-client", "4"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    ) as process:  # fmt: skip
        try:
            base = _links_printed(process)[0][1].split("#")[0]
            port = int(base.rsplit(":", 1)[1].strip("/"))
            with urllib.request.urlopen(base, timeout=TIMEOUT) as answer:
                assert answer.status == 200  # one connection at a time is served
            with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as held:
                held.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")  # being served
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(base, timeout=TIMEOUT)
                assert refused.value.code == 503
        finally:
            process.kill()
            process.communicate(timeout=TIMEOUT)


def test_links_of_a_server_on_an_ipv6_address_bracket_it() -> None:
    """``http://::1:8000/`` is no URL: an IPv6 address goes in brackets, ``http://[::1]:8000/``."""
    if not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=1)
    try:
        server = make_server(table, "::1", 0, log=None)
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with serving(server):
        port = server.server_address[1]
        (link,) = server.links().values()
        assert link.startswith(f"http://[::1]:{port}/#token=")
        watch = server.spectator_link()
        assert watch is not None
        assert watch.startswith(f"http://[::1]:{port}/#token=")
        base, token = link.split("#token=")
        request = urllib.request.Request(
            base + "api/view", headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            assert json.load(answer)["seat"] == 0
    assert shareable_host("fe80::1") == "[fe80::1]"


def test_links_on_every_interface_name_an_address_others_can_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Listening on 0.0.0.0, the links give the machine's network address, never 0.0.0.0."""
    lan = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.1.1", 0)),
           (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.168.1.20", 0))]  # fmt: skip
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: lan)
    assert shareable_host("0.0.0.0") == "192.168.1.20"
    assert shareable_host("10.0.0.5") == "10.0.0.5"  # an address given is kept
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: lan[:1])
    assert shareable_host("0.0.0.0") == socket.gethostname()  # no address but loopback: the name
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=1)
    server = make_server(table, "0.0.0.0", 0, log=None)
    try:
        (link,) = server.links().values()
        assert link.startswith(f"http://{socket.gethostname()}:{server.server_address[1]}/#token=")
    finally:
        server.server_close()


def test_a_seed_with_several_people_is_warned_about() -> None:
    assert seed_warning(None, 4) is None
    assert seed_warning(3, 1) is None  # one person against bots: a replay, nobody to cheat
    warning = seed_warning(3, 2)
    assert warning is not None
    assert "--seed 3" in warning
    assert "every hand" in warning


def test_e3a_the_log_announces_a_seat_down_to_one_tile() -> None:
    """E3a: when a play leaves a seat one tile, every seat's log says so (no move needed)."""
    table = WebTable(
        2, attrs.evolve(HUB, max_pip=6, hand_size=7, rounds=2), bots={1: GreedyPlayer()}, seed=4
    )
    for _ in range(300):
        table.play_bots()
        if table.state.current_player != 0:
            break
        move = _person_move(table, 0)
        before = len(table.state.hand(0))
        table.play(0, move)
        if before != 1 and len(table.state.hand(0)) == 1:
            assert "You have one tile left (E3a)." in table.document(0)["log"]
            theirs = table.document(1)["log"]
            assert any(line.endswith(" has one tile left (E3a).") for line in theirs)
            return
    pytest.fail("seat 0 never came down to one tile")


# -- a seat left empty, a turn left unplayed -------------------------------------------------------


def _until_logged(table: WebTable, words: str) -> list[str]:
    """Wait (at most TIMEOUT) until a line of the log, as the bot's seat 1 sees it, says *words*."""
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        log = table.document(1)["log"]
        if any(words in line for line in log):
            return list(log)
        table.wait(1, since=table.version, timeout=0.1)
    raise AssertionError(f"nobody said {words!r}: {table.document(1)['log']}")


def test_takeover_a_bot_plays_a_seat_left_empty_and_hands_it_back() -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4, takeover=1, bot_delay=0.3)
    table.arrive(0)  # seat 0's page is open: nobody plays for it
    table.start()
    try:
        table.leave(0)  # gone: a second later a bot plays for it
        _until_logged(table, "Seat 0 is away: a bot plays for them until they are back.")
        before = table.version
        table.wait(1, since=before, timeout=TIMEOUT)
        assert table.version > before  # the seat's moves are made without its person
        table.arrive(0)
        _until_logged(table, "Seat 0 is back and plays again.")
        assert table.connected == (True, True)
    finally:
        table.close()


def test_takeover_ends_when_a_long_poll_of_the_seat_begins() -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4, takeover=1, bot_delay=0.3)
    table.start()  # no page of seat 0 ever: a second later a bot plays for it
    try:
        _until_logged(table, "Seat 0 is away: a bot plays for them until they are back.")
        with table.polling(0):  # a page that follows the table by long polls
            _until_logged(table, "Seat 0 is back and plays again.")
    finally:
        table.close()


def test_a_turn_timer_makes_the_move_a_person_did_not_make() -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4, turn_timer=1)
    table.arrive(0)  # the person is there, and does not move
    table.start()
    try:
        log = _until_logged(table, "Seat 0's time ran out: a bot moves for them.")
        assert sum("time ran out" in line for line in log) == 1  # told once a turn
        assert "Your time ran out: a bot moves for you." in table.document(0)["log"]
    finally:
        table.close()


def test_a_document_says_the_seconds_left_under_the_turn_timer() -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4, turn_timer=60)
    assert table.state.current_player == 0
    for seat in (0, 1, SPECTATOR):  # everybody sees the clock of the person to move
        assert 0 < table.document(seat)["seconds_left"] <= 60
    table.play(0, legal_moves(view(table.state, 0))[0])
    assert table.state.current_player == 1
    assert table.document(0)["seconds_left"] is None  # a bot moves: no clock
    untimed = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    assert untimed.document(0)["seconds_left"] is None


@pytest.mark.parametrize(
    "options",
    [
        {"takeover": 0},
        {"turn_timer": float("nan")},
        {"takeover": "5"},
        {"bot_timer": 0.5},
        {"bot_timer": float("inf")},
    ],
)
def test_takeover_turn_timer_and_bot_timer_are_seconds(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgumentError, match="seconds from 1 to 86400"):
        WebTable(2, SHORT, bots={1: GreedyPlayer()}, **options)


@pytest.mark.parametrize(
    ("asked", "reason"),
    [
        ({"players": 4, "people": 6}, "people is how many of the 4 players are people, 1-4, not 6"),
        ({"players": 0}, "a table has 2-8 players, not 0"),
        ({"players": "4"}, 'a table has 2-8 players, not "4"'),
        ({"players": True}, "a table has 2-8 players, not true"),
        ({"level": "expert"}, 'the bots\' level is easy, medium, hard, not "expert"'),
        ({"rules": 3}, "rules is the name of the rules, such as 'standard', not 3"),
        (
            {"house": "open-hands"},
            'house is a list of up to 8 house rules\' names, not "open-hands"',
        ),
        ({"level": "x" * 100}, "the bots' level is easy, medium, hard, not \"" + "x" * 36 + "..."),
        ({"level": ["easy"]}, 'the bots\' level is easy, medium, hard, not ["easy"]'),
        ({"level": {"easy": 1}}, 'the bots\' level is easy, medium, hard, not {"easy": 1}'),
    ],
)
def test_the_lobby_says_which_part_of_a_request_is_wrong(asked: object, reason: str) -> None:
    with pytest.raises(RequestError) as refused:
        lobby_table(asked, "t1")
    assert (refused.value.status, refused.value.reason) == (400, reason)


# -- spectators -----------------------------------------------------------------------------------


def test_s5_a_spectators_document_holds_no_hand_and_no_move() -> None:
    """Whatever the hands hold, a spectator's document names no tile of any hand (S5)."""
    table = WebTable(3, SHORT, bots={2: GreedyPlayer()}, seed=5)
    watcher = table.seat_for(table.spectator_token)
    assert watcher == SPECTATOR
    for _ in range(30):
        document = table.document(watcher)
        assert document["view"]["hand"] == []
        assert document["moves"] == []
        assert document["view"] == to_json(spectator_view(table.state))
        # The log speaks of every seat by name: nobody is "you" to a spectator.
        assert not any(line.startswith("You") or " you" in line for line in document["log"])
        on_table = {t for train in table.state.trains for t in train.tiles}
        assert (_tiles_named(document) - on_table) & _hidden(table, watcher) == set()
        if not _step(table):
            break
    assert table.version >= 10


def test_a_spectators_document_does_not_depend_on_the_hands() -> None:
    """Noninterference: two tables alike but for their hidden tiles show spectators the same."""
    first = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=5)
    second = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=5)
    state = first.state
    mine, theirs = state.hands
    # One tile changes hands: what each seat holds differs, what is public does not.
    swapped = state.replace(hands=((theirs[0], *mine[1:]), (mine[0], *theirs[1:])))
    assert swapped != state
    second._state = swapped
    assert second.document(SPECTATOR) == first.document(SPECTATOR)
    assert second.document(0) != first.document(0)  # a seat's own document does differ


def test_e4_between_rounds_a_spectator_is_not_told_to_deal() -> None:
    """A person reads "deal the next round"; a spectator, who cannot, reads who will."""
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=4)
    while not table.state.is_round_over:
        _step(table)
    assert table.document(0)["status"] == "Round 1 of 2 is over: deal the next round."
    assert table.document(SPECTATOR)["status"] == (
        "Round 1 of 2 is over: a person at the table deals the next round."
    )


def test_a_spectator_cannot_move() -> None:
    table = WebTable(2, SHORT, bots={1: GreedyPlayer()}, seed=5)
    with pytest.raises(RequestError) as refused:
        table.play(SPECTATOR, Draw())
    assert refused.value.status == 403
    assert table.version == 0


# -- bots go by the name they were given ----------------------------------------------------


def test_a_bot_given_by_name_is_shown_and_kept_by_that_name() -> None:
    """A seat given a level (or a library bot's name) shows it, and a database keeps it:
    ``Seat 1 (hard)``, not the search bot hard stands for; a player goes by its kind."""
    from mexican_train.players import SearchPlayer

    table = WebTable(4, SHORT, bots={1: "HARD", 2: "planner", 3: SearchPlayer()})
    try:
        assert table.labels[1:] == ("Seat 1 (hard)", "Seat 2 (planner)", "Seat 3 (search)")
        assert table.document(0)["names"][1:] == list(table.labels[1:])
        assert isinstance(table._bots[1], SearchPlayer)
        names = table.bot_names()
        assert (names[1], names[2]) == ("hard", "planner")
        assert names[3].endswith(":SearchPlayer")
    finally:
        table.close()
    with pytest.raises(InvalidArgumentError, match="the bot of seat 1 is a player or one of"):
        WebTable(2, SHORT, bots={1: "grandmaster"})


def test_a_kept_bot_named_by_level_comes_back_by_that_name() -> None:
    """A restart makes a bot again from its kept name: a level stays a level (and its
    label), a class kept by an earlier version is made again from its class."""
    from mexican_train._frontends.web import _bot_from_name
    from mexican_train.players import SearchPlayer

    assert _bot_from_name("hard") == "hard"
    assert isinstance(_bot_from_name("mexican_train._bots.search:SearchPlayer"), SearchPlayer)
    table = WebTable(2, SHORT, bots={1: "easy"}, seed=2)
    resumed = WebTable.resume(
        table.record(),
        (),
        table.token_hashes,
        {s: _bot_from_name(n) for s, n in table.bot_names().items()},
    )
    try:
        assert resumed.labels == table.labels == ("Seat 0", "Seat 1 (easy)")
    finally:
        table.close()
        resumed.close()


class _Counted:
    """Something a database could name that is not a bot: calling it is noted."""

    calls = 0

    @classmethod
    def make(cls) -> GreedyPlayer:
        cls.calls += 1
        return GreedyPlayer()


def test_a_kept_name_that_is_no_bot_class_calls_nothing() -> None:
    """A database edited by hand may name any ``module:name``: only a class with a
    ``choose`` method is made again; a function is never called, the greedy bot sits."""
    from mexican_train._frontends.web import _bot_from_name

    for name in (f"{__name__}:_Counted.make", "builtins:dict", "no_such_module:Bot"):
        assert isinstance(_bot_from_name(name), GreedyPlayer)
    assert _Counted.calls == 0


def test_the_lobby_shows_its_bots_by_the_level_chosen() -> None:
    table = lobby_table({"rules": "hub", "players": 3, "people": 1, "level": "hard"}, "t1")
    try:
        assert table.labels[1:] == ("Seat 1 (hard)", "Seat 2 (hard)")
        assert table.bot_names() == {1: "hard", 2: "hard"}
    finally:
        table.close()
