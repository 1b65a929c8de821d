"""Moves told in words, for the command line's ``demo`` and ``play``, and the coach's review.

Only the public API: a move is told from the states before and after it.  A
`Narrator` explains markers, open doubles and the first turn the first time
they happen, and cites the rule each time (its id, as on the docs' rule pages).
`review_report` words the coach's reviews as ``mexican-train analyze`` prints them
and the web table shows them.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

import attrs

from .._bots.coach import Review, points_words
from .._core.engine import dead_doubles, doubles_to_cover, legal_moves
from .._core.moves import MEXICAN, CallLastTile, Draw, Move, NextRound, Pass, Play
from .._core.rules import EnginePlacement
from .._core.state import GameState
from .._core.tiles import Tile
from .._core.view import PlayerView
from .._formats.events import OneTileLeft, derive_events

__all__ = [
    "Narrator",
    "ReviewReport",
    "drawn_for_engine",
    "marker_rule",
    "review_report",
    "round_result",
]


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _tiles(tiles: Sequence[Tile]) -> str:
    return _and([str(tile) for tile in tiles])


def _gained(before: GameState, after: GameState, seat: int) -> list[Tile]:
    old = set(before.hands[seat])
    return [tile for tile in after.hands[seat] if tile not in old]


def drawn_for_engine(dealt: GameState) -> list[int]:
    """Return how many tiles each seat drew looking for the round's engine (S3), by seat.

    All 0 when a seat was dealt it, or when the engine is set aside (S4).  Read from the
    hands of the round just *dealt*: the deal gave each ``hand_size`` tiles (S1), and the
    first player's engine has left its hand.
    """
    if dealt.rules.engine_placement is EnginePlacement.SET_ASIDE:
        return [0] * dealt.players
    extra = [len(dealt.hands[s]) - dealt.hand_size for s in range(dealt.players)]
    extra[dealt.first_player] += 1  # the engine left the first player's hand
    return extra


def round_result(state: GameState, names: Sequence[str]) -> str:
    """Return how the round just over ended and what each seat scored, *names* by seat:
    ``seat 1 went out (E1). Points: seat 0 12, seat 1 0`` (E1, E2, E3)."""
    points = state.round_scores[-1]
    out = [names[s] for s in range(state.players) if not state.hands[s]]
    how = f"{' and '.join(out)} went out (E1)" if out else "the round is blocked (E2)"
    scores = ", ".join(f"{names[s]} {points[s]}" for s in range(state.players))
    return f"{how}. Points: {scores}"


def marker_rule(before: GameState | PlayerView) -> str:
    """Return the id of the rule by which a `Pass` made in *before* marks the mover's train.

    P4 on a first turn that laid no tile, D1 after a double the player could not
    follow, D2 for a player bound by an open double they could not cover, else P5.
    """
    seat = before.current_player
    assert seat is not None  # a Pass has a mover
    if before.rules.first_turn is not None and not before.had_first_turn[seat]:
        return "P4"
    if before.turn_doubles:
        return "D1"
    return "D2" if doubles_to_cover(before) else "P5"


class Narrator:
    """Tell the moves of a game in words, one sentence or two each.

    Args:
        names: one name per seat (``"seat 2 (planner)"``, or ``"you"``).
        you: the seat of the person reading, told as "you"; None for nobody.
        reveal: whether tiles drawn by others are named (a demo shows every hand).
    """

    def __init__(self, names: Sequence[str], you: int | None = None, reveal: bool = True) -> None:
        self.names = list(names)
        self.you = you
        self.reveal = reveal
        self.explained: set[str] = set()

    def _once(self, topic: str, text: str) -> str:
        """Return *text* the first time *topic* comes up, else nothing."""
        if topic in self.explained:
            return ""
        self.explained.add(topic)
        return " " + text

    def who(self, seat: int, start: bool = True) -> str:
        """Return how to call *seat*: "you" or its name, capitalised to start a sentence."""
        name = "you" if seat == self.you else self.names[seat]
        return name[:1].upper() + name[1:] if start else name

    def _verb(self, seat: int, verb: str, you_verb: str | None = None) -> str:
        if seat == self.you:
            return you_verb or verb.removesuffix("s")
        return verb

    def train(self, train: int, seat: int) -> str:
        """Return how the mover calls *train*: "its own train", "the Mexican train"..."""
        if train == MEXICAN:
            return "the Mexican train"
        if train == seat:
            return "your train" if seat == self.you else "its own train"
        if train == self.you:
            return "your train"
        return f"seat {train}'s train"

    def round_start(self, state: GameState) -> str:
        """Return how the round's engine was placed and who plays first (S3, S4)."""
        first = state.first_player
        name = self.who(first, start=False)
        plays = self._verb(first, "plays", "play")
        head = f"Round {state.round_number} of {state.rounds}: the engine is {state.engine} (S2)."
        if state.rules.engine_placement is EnginePlacement.SET_ASIDE:
            return f"{head} It was set aside before the deal, and {name} {plays} first (S4)."
        extra = drawn_for_engine(state)
        places = self._verb(first, "places", "place")
        if not any(extra):
            held = self._verb(first, "holds", "hold")
            return f"{head} {self.who(first)} {held} it, {places} it and {plays} first (S3)."
        drew = [f"{self.who(s, start=False)} drew {n}" for s, n in enumerate(extra) if n]
        return (
            f"{head} Nobody held it, so the players drew in turn until {name} drew it, "
            f"and {name} {places} it and {plays} first (S3).  The tiles drawn stay in the "
            f"players' hands ({', '.join(drew)})."
        )

    def move(self, before: GameState, move: Move, after: GameState) -> str:
        """Return the sentence that tells *move*, made in *before*, leading to *after*."""
        if isinstance(move, NextRound):
            return self.round_start(after)
        seat = before.current_player
        assert seat is not None  # a move other than NextRound has a mover
        who = self.who(seat)
        if isinstance(move, (Play, Pass)):
            told = (
                self._play(before, move, after, seat)
                if isinstance(move, Play)
                else self._pass(before, after, seat)
            )
            # The last-tile call: a turn that ends with one tile, uncalled, draws a penalty,
            # named as a draw is (to its drawer, or where every hand is shown).
            drawn = _gained(before, after, seat)
            if drawn and not after.is_round_over:
                what = (
                    _tiles(drawn)
                    if self.reveal or seat == self.you
                    else f"{len(drawn)} tile{'' if len(drawn) == 1 else 's'}"
                )
                they = "you" if seat == self.you else "it"
                told += (
                    f" {who} did not call 'last tile', so {they} "
                    f"{self._verb(seat, 'draws', 'draw')} {what} as the penalty."
                )
            if isinstance(move, Play) and OneTileLeft(seat) in derive_events(before, move, after):
                # E3a: the announcement is made for the player (no call to make).
                rule = self._once("one-tile", "(E3a: the table announces it)") or " (E3a)"
                told += f" {who} {self._verb(seat, 'has', 'have')} one tile left{rule}."
            return told
        if isinstance(move, Draw):
            drawn = _gained(before, after, seat)
            if drawn and (self.reveal or seat == self.you):
                what = f"{self._verb(seat, 'draws', 'draw')} {_tiles(drawn)}"
            else:
                what = f"{self._verb(seat, 'draws', 'draw')} a tile"
            if not before.rules.must_play and any(isinstance(m, Play) for m in legal_moves(before)):
                return f"{who} {what} from the boneyard (V6: a voluntary draw)."
            if before.turn_doubles:
                # D1: the draw a double brings, for a player who cannot follow it.
                rule = self._once(
                    "follow-draw", "(D1: a player who cannot follow a double draws one tile)"
                )
                return f"{who} {what} from the boneyard{rule or ' (D1)'}."
            if doubles_to_cover(before):
                # D2: the draw of a player bound by an open double they cannot cover.
                rule = self._once(
                    "cover-draw", "(D2: a player who cannot cover an open double draws one tile)"
                )
                return f"{who} {what} from the boneyard{rule or ' (D2)'}."
            if before.rules.first_turn is not None and not before.had_first_turn[seat]:
                # P4, V1: the first turn's own draw (first-turn-draw), not an ordinary one.
                rule = self._once(
                    "first-turn-draw",
                    "(P4, V1: a player who cannot start their train on the first turn "
                    "draws one tile)",
                )
                return f"{who} {what} from the boneyard{rule or ' (P4, V1)'}."
            rule = (
                "(P7: drawing is only for a player with no legal play)"
                if before.rules.must_play
                else "(P5: a player with no legal play draws one tile)"
            )
            return f"{who} {what} from the boneyard{self._once('draw', rule)}."
        assert isinstance(move, CallLastTile)
        return f"{who} {self._verb(seat, 'calls', 'call')} 'last tile'."

    def _play(self, before: GameState, move: Play, after: GameState, seat: int) -> str:
        who = self.who(seat)
        text = f"{who} {self._verb(seat, 'plays', 'play')} {move.tile} on "
        text += self.train(move.train, seat)
        notes = []
        rule = before.rules.first_turn
        first_turn = rule is not None and not before.had_first_turn[seat]
        if rule is not None and first_turn and before.turn_tiles == 0:
            notes.append(
                self._once(
                    "first-turn",
                    "(P4: in the first turn of a round a player builds their own train, "
                    "as many tiles in a row as fit)"
                    if rule.chain
                    else "(P4: in the first turn of a round a player plays a single tile, "
                    "on their own train)",
                ).strip()
            )
        if move.train in before.open_doubles and move.train not in after.open_doubles:
            notes.append("closing the open double there (D2)")
        # D1 next to the tile it is said of, before the marker the tile lifts (P6).
        if move.tile.is_double and not first_turn and not after.is_round_over:
            notes.append(
                "a double: " + ("you play" if seat == self.you else "it plays") + " again (D1)"
            )
        if before.trains[move.train].marked and not after.trains[move.train].marked:
            notes.append("and the marker comes off (P6)")
        elif before.trains[seat].marked and not after.trains[seat].marked:
            whose = "your" if seat == self.you else "its"
            notes.append(f"and the marker on {whose} own train comes off (P6: a tile anywhere)")
        text += "".join((" " if note.startswith("(") else ", ") + note for note in notes if note)
        if not after.hands[seat]:
            text += f"; {'you have' if seat == self.you else 'it has'} no tile left"
            if first_turn and not after.is_round_over:
                # P4: going out in a first turn ends the round only once all have had theirs.
                text += " (P4: the round ends once every player has had their first turn)"
            elif move.tile.is_double and not first_turn:
                text += " (D5: going out on a double ends the round, with no tile to follow it)"
        return text + "."

    def _pass(self, before: GameState, after: GameState, seat: int) -> str:
        who = self.who(seat)
        first_turn = before.rules.first_turn is not None and not before.had_first_turn[seat]
        if first_turn and before.turn_tiles > 0:
            return f"{who} {self._verb(seat, 'stops', 'stop')} the first-turn train there (P4)."
        if after.trains[seat].marked and not before.trains[seat].marked:
            whose = "your" if seat == self.you else "its"
            until = (
                "plays a tile anywhere"
                if before.rules.marker_lifts_anywhere
                else "plays on it again"
            )
            explain = self._once(
                "marker", f"A marker opens a train to every player until its owner {until} (P6)."
            )
            stuck = "cannot play" if before.rules.must_play or before.turn_tiles else "passes"
            # P4: the first turn never draws; D1: a double not followed marks the train;
            # D2: so does an open double not covered; P5: any other turn without a tile.
            rule = marker_rule(before)
            if rule == "D1":  # the turn ends without following the double
                stuck = "cannot follow the double"
            elif rule == "D2":
                stuck = "cannot cover the open double"
            passes = self._verb(seat, "passes", "pass")
            lead = f"{who} {passes}" if stuck == "passes" else f"{who} {stuck} and {passes}"
            return f"{lead}: a marker goes on {whose} train ({rule}).{explain}"
        marked = "your" if seat == self.you else "its"
        return f"{who} {self._verb(seat, 'passes', 'pass')} ({marked} train is already marked)."

    def turn_end(self, before: GameState, after: GameState) -> str:
        """Return a note when a move leaves a double open for the next player (D2), else ""."""
        new = [train for train in after.open_doubles if train not in before.open_doubles]
        if not new or after.is_round_over:
            return ""
        binding = doubles_to_cover(after)
        if len(new) > 1:  # D3: several doubles left open in one turn, each told
            where = f"The doubles on {_and([self.train(t, -1) for t in new])} are left open"
            if not binding:
                if set(new) <= set(dead_doubles(after)):
                    return f"{where}, but nothing can cover them any more: they bind nobody (D4)."
                return f"{where}; under these rules they bind nobody (V3)."
            if len(binding) > 1:  # V3: any one of the open doubles may be covered first
                return (
                    f"{where}: whoever moves next must cover one of the {len(binding)} open "
                    "doubles, any one (D2, V3)."
                )
            first = self.train(binding[0], -1)
            return f"{where}: the double on {first} must be covered first (D2, D3)."
        where = f"The double on {self.train(new[0], -1)} is left open"
        if new[0] not in binding:
            if new[0] in dead_doubles(after):
                return f"{where}, but nothing can cover it any more: it binds nobody (D4)."
            if not binding:  # the open-double rule binds nobody to it (V3)
                return f"{where}; under these rules it binds nobody (V3)."
            earlier = self.train(binding[0], -1)
            return f"{where}: the double on {earlier} must be covered before it (D3)."
        if len(binding) > 1:  # V3: any one of the open doubles may be covered first
            return (
                f"{where}: whoever moves next must cover one of the {len(binding)} open "
                "doubles, any one (D2, V3)."
            )
        if "open-double" in self.explained:
            rest = "the next player must cover it (D2)."
        else:
            self.explained.add("open-double")
            rest = "whoever moves next must cover it before playing anywhere else (D2)."
        return f"{where}: {rest}"


@attrs.frozen
class ReviewReport:
    """The coach's reviews in words: what was reviewed, the biggest mistakes, and the sum.

    Attributes:
        heading: how many decisions of whom were reviewed, and with how many samples.
        mistakes: the biggest mistakes, the biggest first: each as where it was and
            what it lost, then what was better.
        ending: the points lost in all (by each seat, for several seats), that no
            move lost any, or that there was nothing to review.
    """

    heading: str
    mistakes: tuple[tuple[str, str], ...]
    ending: str

    def text(self) -> str:
        """Return the report as ``mexican-train analyze`` prints it."""
        lines = [self.heading]
        if self.mistakes:
            lines.append(f"The biggest mistakes ({len(self.mistakes)}):")
        for said, better in self.mistakes:
            # 79 columns in all, as the command line's prose (cli._WIDTH).
            lines.append(textwrap.fill(said, 79, initial_indent="  ", subsequent_indent="    "))
            lines.append(textwrap.indent(textwrap.fill(better, 75), "    "))
        lines.append(textwrap.fill(self.ending, 79))
        return "\n".join(lines)


def _ordinal(number: int) -> str:
    """Return *number* as an English ordinal: ``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``.

    >>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th']
    """
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{({1: 'st', 2: 'nd', 3: 'rd'}).get(number % 10, 'th')}"


def _possessive(seat: int) -> str:
    return f"seat {seat}'s"


def review_report(
    reviews: Sequence[Review], who: str, samples: int, top: int = 5, *, yours: bool = False
) -> ReviewReport:
    """Word *reviews* of *who* (``"seat 2"``), made with *samples* samples: the *top* mistakes.

    A mistake is a decision that lost points against the best move found (its loss > 0),
    said with the loss's standard error (`Review.loss_se`): "lost 5.9 points (+/- 7.1)".
    Each is placed as a person can find it again: by its round, its place among its
    seat's own moves of the round (`Review.seat_move`) and the tiles the seat held --
    ``round 1, seat 0's 5th move (12 tiles in hand)`` -- as every front end shows it.
    *who* may be ``"every seat"``, for the review of them all.
    With *yours*, the review speaks to the seat's player (``mexican-train play``, the
    web table, ``mexican-train analyze --seat``): ``your 5th move``, ``decisions of
    yours`` (``decisions of yours in round 2`` for *who* ``"seat 0 in round 2"``).
    """
    mistakes = sorted((r for r in reviews if r.loss > 0), key=lambda r: -r.loss)[:top]
    whose = re.sub(r"^seat [0-9]+", "yours", who) if yours else who  # "yours in round 2"
    if not reviews:  # every move forced, or none made: nothing was chosen, nothing to judge
        if yours:  # to the seat's player: at the table, or of a record (analyze --seat)
            said = f"No decision of {whose} to review: you never had a choice between moves."
        else:  # of a record, which may end before a seat moved
            whose = re.sub(r"^every seat\b", "any seat", who)
            said = f"No decision of {whose} to review: every move was forced, or none was made."
        return ReviewReport(said, (), "Nothing to review.")
    return ReviewReport(
        f"{len(reviews)} decision{'' if len(reviews) == 1 else 's'} of {whose} reviewed, "
        f"{samples} sampled deal{'' if samples == 1 else 's'} each.",
        tuple(
            (
                f"round {r.round_number}, {'your' if yours else _possessive(r.seat)} "
                f"{_ordinal(r.seat_move)} move "
                f"({r.hand_size} tile{'' if r.hand_size == 1 else 's'} in hand): "
                f"lost {points_words(r.loss)} points{_give_or_take(r)}",
                f"Better: {r.reason}.",
            )
            for r in mistakes
        ),
        _lost_in_all(reviews) if mistakes else "No move lost points against the best move found.",
    )


def _give_or_take(review: Review) -> str:
    """The loss's standard error, as a review says it (none from one sample)."""
    return f" (+/- {review.loss_se:.1f})" if review.loss_se > 0 else ""


def _lost_in_all(reviews: Sequence[Review]) -> str:
    """The points *reviews* lost in all: of each seat apart, when they are of several
    seats (a sum over players who played one another tells nothing of any of them)."""
    seats = sorted({review.seat for review in reviews})
    lost = {seat: sum(r.loss for r in reviews if r.seat == seat) for seat in seats}
    if len(seats) == 1:
        said = points_words(lost[seats[0]], about=True)
        return f"In all, {said} points lost against the best moves found."
    each = ", ".join(
        f"{points_words(points, about=True) if points else 'none'} by seat {seat}"
        for seat, points in lost.items()
    )
    return f"In all, points lost against the best moves found: {each}."
