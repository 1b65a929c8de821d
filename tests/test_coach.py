"""`analyze`: the coach judges each decision from what its seat could know (S5)."""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import statistics
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from mexican_train import (
    HUB,
    STANDARD,
    Deal,
    Draw,
    GameRecord,
    GameState,
    GreedyPlayer,
    InvalidArgumentError,
    Move,
    Pass,
    PlannerPlayer,
    ReplayError,
    Tile,
    analyze,
    apply,
    determinize,
    full_set,
    legal_moves,
    new_game,
    record,
    replay_states,
    view,
)
from mexican_train._bots.playout import playout
from mexican_train._frontends.cli import cli
from mexican_train._frontends.narrate import review_report
from mexican_train.serialize import to_json


def _game(seed: int = 5, players: int = 3, max_pip: int = 9) -> GameRecord:
    """A one-round game: a greedy seat 0 against planners."""
    state = new_game(players, attrs.evolve(HUB, max_pip=max_pip, rounds=1), seed=seed)
    start, moves = state, []
    bots = [GreedyPlayer()] + [PlannerPlayer()] * (players - 1)
    while state.current_player is not None:
        mine = view(state, state.current_player)
        moves.append(bots[state.current_player].choose(mine, legal_moves(mine)))
        state = apply(state, moves[-1])
    return record(start, moves)


def test_each_decision_has_a_best_move_and_a_loss_of_at_least_zero() -> None:
    game = _game()
    reviews = list(analyze(game, seat=0, samples=6, seed=2))
    assert reviews
    for review in reviews:
        assert review.seat == 0
        assert review.chosen == game.moves[review.move_number - 1]
        assert review.loss >= 0
        assert (review.loss == 0) == (review.chosen == review.best)
        values = [value for _, value in review.values]
        assert values == sorted(values)
        moves = [move for move, _ in review.values]
        assert review.chosen in moves
        assert review.best in moves
        assert dict(review.values)[review.chosen] - dict(review.values)[review.best] == (
            pytest.approx(review.loss)
        )
        assert review.reason
    assert any(review.loss > 0 for review in reviews), "a greedy player errs somewhere"


def test_a_forced_move_is_no_decision() -> None:
    """A move that was the only legal one (a forced draw or pass, P5) is never reviewed."""
    game = _game()
    choices = {
        number: len(legal_moves(state))
        for number, state in enumerate(replay_states(game), start=1)
        if state.current_player == 0 and number <= len(game.moves)
    }
    reviewed = {review.move_number: review for review in analyze(game, seat=0, samples=2)}
    assert any(count == 1 for count in choices.values())
    assert set(reviewed) == {number for number, count in choices.items() if count > 1}
    assert all(len(review.values) == choices[number] for number, review in reviewed.items())


def test_the_reviews_depend_on_the_seed_alone_and_cover_every_seat() -> None:
    game = _game(seed=7)
    first = list(analyze(game, samples=4, seed=1))
    assert first == list(analyze(game, samples=4, seed=1))
    assert {review.seat for review in first} == {0, 1, 2}
    only = list(analyze(game, seat=1, samples=4, seed=1))
    assert only == [review for review in first if review.seat == 1]


def test_s5_the_coach_does_not_look_at_hidden_tiles() -> None:
    """Two deals that seat 0 cannot tell apart get the same review of its first move."""
    game = _game(seed=11)
    state = game.start()
    seat = state.current_player
    assert seat is not None
    # Another deal of the tiles the seat cannot see.
    other = determinize(view(state, seat), random.Random(1))
    assert other.hands != state.hands
    assert view(other, seat) == view(state, seat)
    move = game.moves[0]
    mine = list(analyze(record(state, [move]), seat=seat, samples=5, seed=3))
    theirs = list(analyze(record(other, [move]), seat=seat, samples=5, seed=3))
    assert mine == theirs


def _unseen_swapped(game: GameRecord, seat: int) -> GameRecord:
    """Return *game* dealt otherwise: the tiles *seat* never sees change places.

    A tile the seat never holds and nobody plays stays hidden from it (S5) in every
    state of the record; those tiles are shuffled among the other hands and the
    boneyard until the moves replay (a seat that drew must still have had nothing
    to play, P7).
    """
    start, *_, end = replay_states(game)
    # Seen: the tiles on the table at the end, and every tile the seat ever held.
    others = {tile for other, hand in enumerate(end.hands) if other != seat for tile in hand}
    seen = set(full_set(start.max_pip)) - set(end.boneyard) - others
    seen |= {tile for state in replay_states(game) for tile in state.hands[seat]}
    parts = [list(hand) for hand in start.hands] + [list(start.boneyard)]
    slots = [
        (part, index)
        for part, tiles in enumerate(parts)
        if part != seat
        for index, tile in enumerate(tiles)
        if tile not in seen
    ]
    rng = random.Random(0)
    for _ in range(300):
        unseen = [parts[part][index] for part, index in slots]
        rng.shuffle(unseen)
        dealt = [list(tiles) for tiles in parts]
        for (part, index), tile in zip(slots, unseen, strict=True):
            dealt[part][index] = tile
        other = attrs.evolve(game, deal=Deal(dealt[:-1], dealt[-1]))
        try:
            list(replay_states(other))
        except ReplayError:
            continue
        if dealt != parts:
            return other
    raise AssertionError("no other deal of the unseen tiles replays the moves")


def _drawn(before: GameState, after: GameState) -> set[Tile]:
    seat = before.current_player
    assert seat is not None
    return set(after.hands[seat]) - set(before.hands[seat])


def test_s5_the_coach_judges_a_round_alike_whatever_the_tiles_the_seat_never_sees() -> None:
    """Two records of a round that seat 0 cannot tell apart, move for move -- the other
    hands differ, and so do tiles the others draw -- get the same reviews for seat 0."""
    played = _game(seed=0)
    start = played.start()
    # The round's last move shows every hand (E3): stop before it.
    game = attrs.evolve(played, deal=Deal(start.hands, start.boneyard), moves=played.moves[:-1])
    other = _unseen_swapped(game, 0)
    mine, theirs = list(replay_states(game)), list(replay_states(other))
    assert all(view(a, 0) == view(b, 0) for a, b in zip(mine, theirs, strict=True))
    assert any(
        type(move) is Draw
        and mine[number].current_player != 0
        and _drawn(mine[number], mine[number + 1]) != _drawn(theirs[number], theirs[number + 1])
        for number, move in enumerate(game.moves)
    ), "another seat draws a tile in one record and another tile in the other"
    reviews = list(analyze(game, seat=0, samples=8, seed=1))
    assert len(reviews) > 5
    assert reviews == list(analyze(other, seat=0, samples=8, seed=1))


def test_analyze_refuses_a_seat_or_samples_out_of_range() -> None:
    game = _game()
    with pytest.raises(InvalidArgumentError, match="seat"):
        analyze(game, seat=3)
    with pytest.raises(InvalidArgumentError, match="samples"):
        analyze(game, samples=0)
    with pytest.raises(InvalidArgumentError, match=r"seed is a whole number, not 1\.5"):
        analyze(game, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameRecord"):
        analyze("game.json")  # type: ignore[arg-type]


def test_a_record_that_does_not_replay_is_refused_at_the_call() -> None:
    """The error comes before any review, not after the reviews of the moves before it."""
    game = _game()
    moves = list(game.moves)
    moves[20] = moves[0]  # a tile already on the table
    bad = attrs.evolve(game, moves=moves)
    with pytest.raises(ReplayError) as caught:
        analyze(bad, seat=0, samples=2)
    assert caught.value.move_number == 21


def test_the_command_line_prints_the_biggest_mistakes(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(_game())))
    result = CliRunner().invoke(cli, ["analyze", str(path), "--seat", "0", "--samples", "6"])
    assert result.exit_code == 0, result.output
    assert "decisions of yours reviewed" in result.output
    assert "The biggest mistakes" in result.output
    assert "Better: play" in result.output
    bad = CliRunner().invoke(cli, ["analyze", str(path), "--seat", "7"])
    assert bad.exit_code != 0
    assert "seats 0-2" in bad.output


def test_the_how_to_shows_what_the_command_prints_for_its_game(tmp_path: Path) -> None:
    """docs/howto/review-your-game.rst quotes the start of the review of the game it
    records (the double-12 set: HUB's own), line for line."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(_game(max_pip=12))))
    result = CliRunner().invoke(cli, ["analyze", str(path), "--seat", "0"], terminal_width=80)
    assert result.exit_code == 0, result.output
    page = (Path(__file__).resolve().parent.parent / "docs/howto/review-your-game.rst").read_text()
    block = page.split("   $ mexican-train analyze game.json --seat 0\n", 1)[1].splitlines()
    quoted = [line[3:] for line in itertools.takewhile(lambda line: line.strip() != "...", block)]
    assert len(quoted) == 8
    assert result.output.splitlines()[: len(quoted)] == quoted


def _two_rounds() -> GameRecord:
    state = new_game(2, attrs.evolve(HUB, max_pip=9, rounds=2), seed=3)
    start, moves = state, []
    while not state.is_over:
        mine = view(state, state.current_player) if state.current_player is not None else state
        move = legal_moves(mine)[0]
        moves.append(move)
        state = apply(state, move)
    return record(start, moves)


def test_a_round_is_reviewed_alone() -> None:
    game = _two_rounds()
    every = list(analyze(game, seat=0, samples=2, seed=4))
    second = list(analyze(game, seat=0, samples=2, seed=4, round_number=2))
    assert second
    assert second == [review for review in every if review.round_number == 2]
    assert len(second) < len(every)
    for bad in (0, "2", 1.0):
        with pytest.raises(InvalidArgumentError, match="round_number"):
            analyze(game, round_number=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="a round of the record, 1-2, not 3"):
        analyze(game, round_number=3)


def test_the_command_line_reviews_a_round_alone(tmp_path: Path) -> None:
    game = _two_rounds()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(game)))
    args = ["analyze", str(path), "--seat", "0", "--samples", "2", "--round", "2"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    second = list(analyze(game, seat=0, samples=2, round_number=2))
    # A line on stderr says the review has begun; the report follows on stdout.
    said, report = result.output.split("\n", 1)
    assert said == "Reviewing the moves of seat 0 in round 2..."
    assert report == review_report(second, "seat 0 in round 2", 2, yours=True).text() + "\n"
    # One seat's review speaks to its player throughout, as play's does.
    assert report.startswith(f"{len(second)} decisions of yours in round 2 reviewed")
    assert "seat 0's" not in report
    bad = CliRunner().invoke(cli, ["analyze", str(path), "--round", "3"])
    assert bad.exit_code == 2
    assert "--round: the game has rounds 1-2, not round 3" in bad.output


def test_p4_a_pass_that_ends_a_first_turn_chain_is_not_called_a_pass() -> None:
    """Under Rulebook A a pass after the first turn's first tile ends the chain, no marker."""
    state = start = new_game(2, attrs.evolve(STANDARD, max_pip=9, rounds=1), seed=1)
    moves: list[Move] = []
    while state.current_player == state.first_player or not moves:
        # The first seat lays one tile of its first turn, then stops the chain.
        legal = legal_moves(state)
        move = Pass() if Pass() in legal and state.turn_tiles else legal[0]
        moves.append(move)
        state = apply(state, move)
    stops = [r for r in analyze(record(start, moves), samples=4) if r.chosen == Pass()]
    assert stops
    assert all("stop your first turn there (no marker)" in r.reason for r in stops)
    assert not any("pass" in r.reason for r in stops)


def test_a_review_of_one_decision_says_one_decision() -> None:
    """The heading counts in English: "1 decision", "2 decisions" (the web table's too)."""
    reviews = list(analyze(_game(), 0, samples=2))
    assert len(reviews) > 1
    one = review_report(reviews[:1], "seat 0", 1).heading
    assert one == "1 decision of seat 0 reviewed, 1 sampled deal each."
    many = review_report(reviews, "seat 0", 2).heading
    assert many == f"{len(reviews)} decisions of seat 0 reviewed, 2 sampled deals each."


def test_a_review_of_no_decision_says_there_was_no_choice_to_judge() -> None:
    """A round whose every move was forced (a draw, then a pass) has nothing to judge: the
    review says so, not "0 decisions ... reviewed" and "No move lost points", which read
    as praise for moves nobody chose."""
    report = review_report([], "seat 0", 16, yours=True)
    assert report.heading == "No decision of yours to review: you never had a choice between moves."
    assert report.mistakes == ()
    assert report.ending == "Nothing to review."
    assert review_report([], "seat 2", 16).heading.startswith("No decision of seat 2 to review")
    # analyze --seat --round: the round is said to the seat's player too.
    alone = review_report([], "seat 0 in round 2", 16, yours=True).heading
    assert alone.startswith("No decision of yours in round 2 to review")


def test_analyze_of_a_game_left_before_any_move_says_no_seat_made_a_decision(
    tmp_path: Path,
) -> None:
    """A record of no move (play --record, then q at once): no seat chose, and the line
    says so in words that fit every seat, not "No decision of every seat"."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(record(new_game(2, HUB, seed=1), []))))
    result = CliRunner().invoke(cli, ["analyze", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "No decision of any seat to review: every move was forced, or none was made.\n"
        "Nothing to review.\n"
    )


def test_a_decision_is_placed_by_the_seats_own_moves_of_its_round() -> None:
    """A person finds a reviewed move as their Nth move of the round, with the tiles they
    held: ``move_number``, its place in the record, counts every seat's moves and every
    round before, which nobody at the table counts."""
    game = _two_rounds()
    states = list(replay_states(game))
    reviews = list(analyze(game, seat=0, samples=2, seed=4))
    assert {review.round_number for review in reviews} == {1, 2}
    for review in reviews:
        before = states[review.move_number - 1]
        own = [
            number
            for number, state in enumerate(states[: review.move_number], start=1)
            if state.current_player == 0 and state.round_number == review.round_number
        ]
        assert review.seat_move == len(own)  # this move the last of them
        assert review.hand_size == len(before.hands[0])
    later = [review for review in reviews if review.round_number == 2]
    assert later[0].seat_move < later[0].move_number  # round 1's moves are not counted


def test_every_front_end_words_a_mistake_by_the_seats_own_move_and_hand() -> None:
    """analyze, play's end-of-round review and the web table's all print review_report's
    line: the round, the seat's own move as an ordinal, the tiles in its hand."""
    reviews = list(analyze(_game(), seat=0, samples=6, seed=2))
    mistakes = sorted((r for r in reviews if r.loss > 0), key=lambda r: -r.loss)
    report = review_report(reviews, "seat 0", 6, top=len(mistakes))
    for review, (said, _) in zip(mistakes, report.mistakes, strict=True):
        n, hand = review.seat_move, review.hand_size
        suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        assert said == (
            f"round 1, seat 0's {n}{suffix} move ({hand} tile{'s' if hand != 1 else ''} "
            f"in hand): lost {review.loss:.1f} points".replace("lost 0.0", "lost less than 0.1")
            + f" (+/- {review.loss_se:.1f})"
        )


def test_a_losss_standard_error_is_that_of_the_differences_deal_by_deal() -> None:
    """``loss_se`` is the standard error of the paired differences between the move made
    and the best one, over the sampled deals: recomputed here for a first decision from
    the same deals and playouts; 0 when the move made is the best, and with one sample."""
    game = _game()
    start = next(replay_states(game))
    for seed in range(20):  # a seed under which the first decision lost points
        first = next(analyze(game, seat=0, samples=6, seed=seed))
        if first.loss > 0:
            break
    else:
        pytest.fail("the first decision was the best move found under every seed")
    assert first.move_number == 1  # so the round has shown nothing before it
    rng = random.Random(f"analyze|{seed}|1")
    differences = []
    for _ in range(6):
        world = determinize(view(start, 0), rng, [])
        made, best = (playout(apply(world, move), 0) for move in (first.chosen, first.best))
        differences.append(made - best)
    assert first.loss == pytest.approx(statistics.fmean(differences))
    assert first.loss_se == pytest.approx(statistics.stdev(differences) / math.sqrt(6))
    reviews = list(analyze(game, seat=0, samples=6, seed=2))
    assert all(r.loss_se == 0 for r in reviews if r.chosen == r.best)
    assert all(r.loss_se == 0 for r in analyze(game, seat=0, samples=1, seed=2))


def test_the_coach_calls_other_seats_trains_by_the_names_it_is_given() -> None:
    """The reasons name another seat's train as the front end names the seat; without
    names, ``seat 1's train``; the seat's own train is "your train" either way."""
    game = _game(seed=6)  # seat 0 weighs moves on seat 1's train and on seat 2's
    plain = list(analyze(game, seat=0, samples=4, seed=2))
    names = ("Seat 0 (you)", "Seat 1 (hard)", "Ann")
    named = list(analyze(game, seat=0, samples=4, seed=2, names=names))
    assert any("seat 1's train" in r.reason for r in plain)
    assert any("seat 2's train" in r.reason for r in plain)
    for before, after in zip(plain, named, strict=True):
        assert after.reason == before.reason.replace(
            "seat 1's train", "Seat 1 (hard)'s train"
        ).replace("seat 2's train", "Ann's train")
        assert attrs.evolve(after, reason=before.reason) == before
    assert not any("Seat 0 (you)" in r.reason for r in named)


@pytest.mark.parametrize("names", [("a", "b"), "abc", ("a", "b", 3), 7])
def test_analyze_refuses_names_that_are_not_one_str_per_seat(names: object) -> None:
    with pytest.raises(InvalidArgumentError, match="names is None or one str per seat"):
        analyze(_game(), names=names)  # type: ignore[arg-type]


def test_a_loss_below_a_tenth_of_a_point_is_said_to_be_less_than_0_1() -> None:
    """A mistake loses more than 0 points; one that loses less than 0.05 (a few samples'
    difference of one pip) reads "less than 0.1 points", never "lost 0.0 points": in the
    review's reason and in the report of it."""
    reviews = analyze(_game(seed=6), seat=0, samples=20, seed=2)
    small = next(r for r in reviews if 0 < r.loss < 0.05)
    assert small.reason.startswith("play 4-2 on your train rather than play 7-0 on the Mexican ")
    assert ": less than 0.1 points better for you against the others" in small.reason
    said, _ = review_report([small], "seat 0", 20).mistakes[0]
    assert said.endswith(f"): lost less than 0.1 points (+/- {small.loss_se:.1f})"), said
    ending = review_report([small], "seat 0", 20).ending
    assert ending == "In all, less than 0.1 points lost against the best moves found."


def test_a_review_of_every_seat_names_the_seat_of_each_reason() -> None:
    """Not "your train" nor "better for you": the reader of every seat's review is none
    of them, and the mistakes of several seats follow one another."""
    reviews = [r for r in analyze(_game(), samples=4, seed=1, yours=False) if r.loss > 0]
    assert {review.seat for review in reviews} == {0, 1, 2}
    for review in reviews:
        assert f"points better for seat {review.seat} against the others" in review.reason
        assert f"the tiles seat {review.seat} could not see" in review.reason
        assert not re.search(r"\byou(r)?\b", review.reason), review.reason
    own = [r for r in reviews if f"on seat {r.seat}'s train" in r.reason]
    assert own  # a seat's own train named as the others' trains are
    named = list(analyze(_game(), samples=4, seed=1, yours=False, names=["Ann", "Bob", "Cy"]))
    assert any("better for Bob against" in review.reason for review in named)
    with pytest.raises(TypeError, match="yours is True or False, not 1"):
        analyze(_game(), yours=1)  # type: ignore[arg-type]


def test_the_command_line_review_of_every_seat_names_the_seats(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(_game())))
    result = CliRunner().invoke(cli, ["analyze", str(path), "--samples", "4", "--top", "20"])
    assert result.exit_code == 0, result.output
    assert "decisions of every seat reviewed" in result.stdout
    assert not re.search(r"\byou(r)?\b", result.stdout), result.stdout
    assert "better for seat 1 against the others" in " ".join(result.stdout.split())
    one = CliRunner().invoke(cli, ["analyze", str(path), "--seat", "0", "--samples", "4"])
    assert "better for you against the others" in " ".join(one.stdout.split())


def test_a_review_of_one_sample_says_one_deal() -> None:
    """With ``samples=1`` a reason speaks of 1 deal, not "on average over 1 deals"."""
    reviews = list(analyze(_game(), seat=0, samples=1, seed=1))
    mistake = next(r for r in reviews if r.loss > 0)
    assert mistake.reason.endswith(
        " at the end of the round, in 1 deal of the tiles you could not see"
    )
    best = next(r for r in reviews if r.loss == 0)
    assert best.reason.endswith(" was the best move found (1 sampled deal)")
    assert not any("1 deals" in r.reason or "average" in r.reason for r in reviews)


def test_the_best_move_comes_first_among_the_values_even_when_others_tie_with_it() -> None:
    """``values`` is best first: when the move made ties with the lowest value, it is
    `best` and comes first, not another move of the same value listed before it."""
    reviews = list(analyze(_game(seed=4), samples=2, seed=1))
    tied = [
        r for r in reviews if r.loss == 0 and [v for _, v in r.values].count(r.values[0][1]) > 1
    ]
    assert tied, "some move made ties with another"
    for review in reviews:
        assert review.values[0] == (review.best, dict(review.values)[review.best])


def test_the_review_of_every_seat_sums_the_points_lost_seat_by_seat(tmp_path: Path) -> None:
    """One sum over several seats adds up losses of players who played against one another,
    a number that says nothing of any of them: each seat's sum is told."""
    game = _game()
    reviews = list(analyze(game, samples=4, seed=1, yours=False))
    lost = [sum(r.loss for r in reviews if r.seat == seat) for seat in range(3)]
    assert all(lost)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_json(game)))
    result = CliRunner().invoke(cli, ["analyze", str(path), "--samples", "4", "--seed", "1"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    ending = text[text.index("In all,") :]
    assert ending == (
        "In all, points lost against the best moves found: "
        + ", ".join(f"about {points:.1f} by seat {seat}" for seat, points in enumerate(lost))
        + "."
    )
    assert max(len(line) for line in result.stdout.splitlines()) <= 79
    one = " ".join(review_report([r for r in reviews if r.seat == 1], "seat 1", 4).text().split())
    assert one.endswith(f" In all, about {lost[1]:.1f} points lost against the best moves found.")
