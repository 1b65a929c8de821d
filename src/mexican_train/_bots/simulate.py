"""Run many independent, seeded games between players and summarise them.

Every game's seed is derived from the simulation's seed and the game's
number, every seat of every game gets a fresh copy of its player, and the per-game
results are summed, which no order of the games changes.  So the statistics are the
same whether
the games run in this process, in a `concurrent.futures.ProcessPoolExecutor`
or on any other `concurrent.futures.Executor`, such as the one a Dask
cluster hands out (``distributed.Client.get_executor()``).
"""

from __future__ import annotations

import copy
import hashlib
import heapq
import itertools
import math
import pickle
import statistics
import sys
import textwrap
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar, cast, runtime_checkable

import attrs

from .._catalogue.variants import variant_name
from .._core.bounds import BOUNDS, check_bound
from .._core.engine import apply, legal_moves, new_game
from .._core.errors import IllegalMoveError, InvalidArgumentError, shown
from .._core.moves import DRAW, NEXT_ROUND, PASS, Move, Play
from .._core.rules import STANDARD, Rules
from .._core.state import GameState
from .._core.view import view
from .._formats.events import Event, derive_events, redact_events
from .._formats.serialize import SchemaError, read_value, write_value
from .names import player_name
from .players import Player

if TYPE_CHECKING:
    from concurrent.futures import Future

# Student's t for a two-sided 95% interval, by degrees of freedom 1 to 30.
_T95 = (
    12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851,
    2.364624252, 2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830,
    2.160368656, 2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.100922040,
    2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
    2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
)  # fmt: skip
_Z95 = 1.959963984540054


def _t95(df: int) -> float:
    """Return Student's t quantile for a two-sided 95% interval with *df* degrees of freedom.

    From a table up to 30 degrees of freedom, then the Cornish-Fisher expansion
    around the normal quantile to its fourth term (within 10⁻⁶ from there on).

    >>> round(_t95(1), 3), round(_t95(10), 3), round(_t95(1000), 3)
    (12.706, 2.228, 1.962)
    """
    if df <= len(_T95):
        return _T95[df - 1]
    z = _Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * df**4)
    )


@attrs.frozen
class Summary:
    """The mean of a sample with its spread and a 95% confidence interval.

    The interval is Student's, mean ± t standard errors (t = 12.7 for two
    values, 2.0 for forty, 1.96 in the limit): it assumes the values are
    independent, and close enough to normal for their mean to be.  With one
    value there is no interval: *low* and *high* are the value itself, and
    a report shows none.  An empty sample has ``count == 0``
    and every other field 0.

    Attributes:
        count: how many values.
        mean: their mean.
        stdev: their sample standard deviation (0 with fewer than two values).
        low: the lower end of the 95% confidence interval of the mean.
        high: the upper end of it.
        minimum: the smallest value.
        maximum: the largest value.

    >>> Summary.of([10, 20, 30])
    Summary(count=3, mean=20.0, stdev=10.0, low=-4.841..., high=44.841..., minimum=10, maximum=30)
    """

    count: int
    mean: float
    stdev: float
    low: float
    high: float
    minimum: float
    maximum: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        """Return the summary of *values*.

        >>> Summary.of([]).count
        0
        """
        n = len(values)
        if n == 0:
            return cls(0, 0.0, 0.0, 0.0, 0.0, 0, 0)
        if all(type(value) is int for value in values):
            # Whole numbers (scores, turns, tiles) summarised as simulate sums them
            # game by game: the same figures either way, on every Python.
            sums = _Sums()
            for value in values:
                sums.add(cast(int, value))
            return sums.summary()
        mean = statistics.fmean(values)
        stdev = statistics.stdev(values) if n > 1 else 0.0
        return cls._of(n, mean, stdev, min(values), max(values))

    @classmethod
    def _of(cls, n: int, mean: float, stdev: float, least: float, greatest: float) -> Summary:
        half = _t95(n - 1) * stdev / math.sqrt(n) if n > 1 else 0.0
        return cls(n, mean, stdev, mean - half, mean + half, least, greatest)

    @property
    def margin(self) -> float:
        """The ``±`` figure, half the width of the confidence interval."""
        return (self.high - self.low) / 2


class _Sums:
    """Whole numbers summed as they come: a `Summary` of them, without keeping them."""

    __slots__ = ("count", "greatest", "least", "squares", "total")

    def __init__(self) -> None:
        self.count = self.total = self.squares = self.least = self.greatest = 0

    def copy(self) -> _Sums:
        sums = _Sums()
        sums.count, sums.total, sums.squares = self.count, self.total, self.squares
        sums.least, sums.greatest = self.least, self.greatest
        return sums

    def add(self, value: int) -> None:
        if not self.count or value < self.least:
            self.least = value
        if not self.count or value > self.greatest:
            self.greatest = value
        self.count += 1
        self.total += value
        self.squares += value * value

    def summary(self) -> Summary:
        """Return the `Summary` of the numbers added, exactly as `statistics` gives it.

        The mean is the sum over the count, correctly rounded, as `statistics.fmean`
        gives it; the standard deviation the correctly rounded square root of the exact
        variance, as `statistics.stdev` gives it (from Python 3.11).
        """
        n = self.count
        if n == 0:
            return Summary.of(())
        stdev = 0.0
        if n > 1:
            # The sample variance, (n Σx² - (Σx)²) / (n (n - 1)), as a fraction in lowest terms.
            top, bottom = n * self.squares - self.total * self.total, n * (n - 1)
            common = math.gcd(top, bottom)
            stdev = _sqrt_of_fraction(top // common, bottom // common)
        return Summary._of(n, self.total / n, stdev, self.least, self.greatest)


def _sqrt_of_fraction(top: int, bottom: int) -> float:
    """Return the square root of *top* / *bottom*, correctly rounded.

    As `statistics` computes it from Python 3.11: an integer square root with
    round-to-odd, in twice a float's precision and 3 bits more, then one rounding.

    >>> _sqrt_of_fraction(2, 1) == 2**0.5, _sqrt_of_fraction(9, 4)
    (True, 1.5)
    """
    shift = (top.bit_length() - bottom.bit_length() - _SQRT_BITS) // 2
    if shift >= 0:
        root = _isqrt_rounded_to_odd(top, bottom << 2 * shift) << shift
        return root / 1
    return _isqrt_rounded_to_odd(top << -2 * shift, bottom) / (1 << -shift)


def _isqrt_rounded_to_odd(top: int, bottom: int) -> int:
    """Return the square root of *top* / *bottom* as a whole number, rounded to odd."""
    root = math.isqrt(top // bottom)
    return root | (root * root * bottom != top)


_SQRT_BITS = 2 * sys.float_info.mant_dig + 3


@attrs.frozen
class PlayerStats:
    """How one of the simulated players did, over the games that finished.

    Attributes:
        name: the player's name (`simulate`'s *names*, or else `player_name`).
        wins: games won, shared wins included (E5).
        shared_wins: of those, the wins shared with another player.
        score: the player's final game score (E3: lower is better).
        illegal_moves: illegal moves the player made; each ended its game.

    >>> from mexican_train.players import GreedyPlayer, RandomPlayer
    >>> result = simulate([GreedyPlayer(), RandomPlayer(1)], STANDARD, games=4, seed=1)
    >>> [(stats.name, stats.wins) for stats in result.player_stats]
    [('greedy', 4), ('random(seed=1)', 0)]
    """

    name: str
    wins: int
    shared_wins: int
    score: Summary
    illegal_moves: int


@attrs.frozen
class RuleCounters:
    """How often rule situations came up, summed over the games that finished.

    Attributes:
        tiles_played: tiles placed on trains (P2).
        first_turn_tiles: of those, tiles placed in a first turn that builds
            the player's own train (P4).
        draws: tiles drawn from the boneyard (P5, D1, D2).
        passes: turns ended with `Pass` (P5a).
        markers_placed: markers put on a train (P6).
        doubles_played: doubles placed on trains (D1).
        doubles_opened: doubles left open at the end of a turn (D2).
        doubles_closed: open doubles covered in a later turn (D2).
        rounds_gone_out: rounds ended by a player going out (E1, D5).
        rounds_blocked: rounds that ended blocked (E2).

    Counters add up, field by field:

    >>> total = RuleCounters(draws=2) + RuleCounters(draws=3, passes=1)
    >>> total.draws, total.passes, total.tiles_played
    (5, 1, 0)
    """

    tiles_played: int = 0
    first_turn_tiles: int = 0
    draws: int = 0
    passes: int = 0
    markers_placed: int = 0
    doubles_played: int = 0
    doubles_opened: int = 0
    doubles_closed: int = 0
    rounds_gone_out: int = 0
    rounds_blocked: int = 0

    def __add__(self, other: RuleCounters) -> RuleCounters:
        return RuleCounters(
            *(a + b for a, b in zip(attrs.astuple(self), attrs.astuple(other), strict=True))
        )


@attrs.frozen
class IllegalMove:
    """An illegal move a player made: the game stopped there and counts for nobody.

    Attributes:
        game: the game's number, from 0.
        game_seed: the game's seed (`game_seed`), to replay it with `new_game`.
        round_number: the round it happened in.
        seat: the seat of the player.
        player_index: the player's place in the list given to `simulate`.
        player: the player's name.
        move: what the player returned, as an error shows a value: its ``repr``,
            cut after 80 characters (a huge whole number described by its size).
        reason: why it is illegal, as `IllegalMoveError` says.

    >>> from mexican_train import Pass
    >>> class Stubborn:
    ...     name = "stubborn"
    ...     def choose(self, view, moves):
    ...         return Pass()
    ...
    >>> result = simulate([Stubborn(), Stubborn()], STANDARD, games=1, seed=1)
    >>> illegal = result.illegal_moves[0]
    >>> illegal.player, illegal.move, illegal.reason.startswith("P7")
    ('stubborn', 'Pass()', True)
    """

    game: int
    game_seed: int
    round_number: int
    seat: int
    player_index: int
    player: str
    move: str
    reason: str


@attrs.frozen
class SimulationResult:
    """What `simulate` found: a frozen value, equal for equal simulations.

    Players are listed in the order they were given to `simulate`, whatever
    seats they took.  Scores and wins count the games that finished; a game
    in which a player made an illegal move stops there, counts for nobody, and is
    counted in the player's `PlayerStats` and listed in ``illegal_moves`` (the first
    `ILLEGAL_MOVES_KEPT` of them: a player that breaks the rules in every game of a
    large simulation would fill the memory with them).

    Attributes:
        players: the players' names.
        rules: the rules played.
        games: the games asked for.
        seed: the simulation's seed.
        rotate_seats: whether the seats rotated from game to game.
        completed_games: the games that finished.
        player_stats: one `PlayerStats` per player.
        rounds: rounds played in finished games.
        round_turns: turns per round (a turn ends when play passes on).
        round_tiles: tiles played per round.
        counters: how often each rule situation came up.
        illegal_moves: the illegal moves of the first `ILLEGAL_MOVES_KEPT` games
            stopped by one (by game number, whatever order the games finished in).

    >>> from mexican_train.players import GreedyPlayer, RandomPlayer
    >>> result = simulate([GreedyPlayer(), RandomPlayer(1)], STANDARD, games=4, seed=1)
    >>> result.completed_games, result.wins, result.rounds
    (4, (4, 0), 40)
    """

    players: tuple[str, ...]
    rules: Rules = attrs.field(repr=False)
    games: int
    seed: int
    rotate_seats: bool
    completed_games: int
    player_stats: tuple[PlayerStats, ...]
    rounds: int
    round_turns: Summary
    round_tiles: Summary
    counters: RuleCounters
    illegal_moves: tuple[IllegalMove, ...]

    @property
    def blocked_rate(self) -> float:
        """The share of rounds that ended blocked (E2), from 0 to 1."""
        return self.counters.rounds_blocked / self.rounds if self.rounds else 0.0

    @property
    def stopped_games(self) -> int:
        """The games stopped at an illegal move, listed in ``illegal_moves`` or not."""
        return sum(p.illegal_moves for p in self.player_stats)

    @property
    def wins(self) -> tuple[int, ...]:
        """Games won by each player, shared wins included."""
        return tuple(p.wins for p in self.player_stats)

    @property
    def mean_scores(self) -> tuple[float, ...]:
        """Each player's mean game score."""
        return tuple(p.score.mean for p in self.player_stats)

    def to_dict(self) -> dict[str, Any]:
        """Return the result as a JSON-compatible dict, its settings included.

        Every field is there, ``rules`` as a game's JSON document writes them, and two
        figures worked out from them: ``variant``, the rules' variant name (None for rules
        of your own), and ``blocked_rate``.  `from_dict` reads it back.  Rules with a
        pluggable rule of your own class are written ``null``: JSON cannot name it.

        >>> from mexican_train.players import GreedyPlayer
        >>> result = simulate([GreedyPlayer(), GreedyPlayer()], STANDARD, games=2, seed=1)
        >>> data = result.to_dict()
        >>> sorted(data)[:4], data["variant"], data["rules"]["max_pip"]
        (['blocked_rate', 'completed_games', 'counters', 'games'], 'standard', None)
        """
        data = attrs.asdict(self, filter=_not_the_rules)
        try:
            data["rules"] = write_value(self.rules, Rules)
        except TypeError:  # a pluggable rule of the user's own class
            data["rules"] = None
        data["variant"] = variant_name(self.rules)
        data["blocked_rate"] = self.blocked_rate
        return data

    @classmethod
    def from_dict(cls, data: object, rules: Rules | None = None) -> SimulationResult:
        """Return the result `to_dict` gave *data* for (read back from JSON, say).

        Args:
            data: a dict as `to_dict` returns it (untrusted); ``variant`` and
                ``blocked_rate``, worked out from the rest, are not read.
            rules: the rules played, for a result whose rules are written ``null`` (a
                pluggable rule of your own class), or in place of those written; None
                reads them from *data*.

        Raises:
            SchemaError: if *data* is not such a dict; ``error.path`` says where.
            TypeError: if *rules* is not a `Rules`.

        >>> import json
        >>> from mexican_train.players import GreedyPlayer
        >>> result = simulate([GreedyPlayer(), GreedyPlayer()], STANDARD, games=2, seed=1)
        >>> saved = json.dumps(result.to_dict())
        >>> SimulationResult.from_dict(json.loads(saved)) == result
        True
        """
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"rules is a Rules value or None, not {shown(rules)}")
        if type(data) is not dict:
            raise SchemaError("$", f"a simulation's result is a JSON object, not {shown(data)}")
        fields = {key: value for key, value in data.items() if key not in _WORKED_OUT}
        if rules is not None:
            # Read with stand-in rules, which the given ones then replace.
            fields["rules"] = write_value(STANDARD, Rules)
        elif "rules" in fields and fields["rules"] is None:
            raise SchemaError(
                "$.rules",
                "the rules are written null (a pluggable rule of your own class, which JSON "
                "cannot name): give them, from_dict(data, rules=...)",
            )
        result = read_value(fields, cls)
        names = [stats.name for stats in result.player_stats]
        if names != list(result.players):
            raise SchemaError(
                "$.player_stats",
                f"the stats are of {shown(names)}, not the players, {shown(result.players)}",
            )
        _check_counts(result)
        if result.completed_games + result.stopped_games > result.games:
            raise SchemaError(
                "$.completed_games",
                f"{result.completed_games} games finished and {result.stopped_games} stopped "
                f"at an illegal move: more than the {result.games} games played",
            )
        return result if rules is None else attrs.evolve(result, rules=rules)

    def report(self) -> str:
        """Return a plain-text table of the results, for terminals and logs.

        >>> from mexican_train.players import GreedyPlayer, RandomPlayer
        >>> result = simulate([GreedyPlayer(), RandomPlayer(1)], STANDARD, games=4, seed=1)
        >>> print(result.report().splitlines()[0])
        4 games, 2 players, seats rotated: 40 rounds, 22 blocked (55.0%)
        """
        seats = "seats rotated" if self.rotate_seats else "fixed seats"
        games = f"{self.completed_games} game{'' if self.completed_games == 1 else 's'}"
        # E3: no score is below 0 unless the double-blank scores less, so neither is an interval.
        floor = 0.0 if self.rules.double_blank_score >= 0 else float("-inf")
        lines = [
            f"{games}, {len(self.players)} players, {seats}: "
            f"{self.rounds} rounds, {self.counters.rounds_blocked} blocked "
            f"({100 * self.blocked_rate:.1f}%)"
        ]
        names = [f"{i + 1}. {p.name}" for i, p in enumerate(self.player_stats)]
        width = max(len("player"), *map(len, names))
        lines.append(f"{'player':<{width}}  {'wins':>5}  {'mean score':>10}  {'95% CI':>17}")
        for name, p in zip(names, self.player_stats, strict=True):
            ci = f"{max(p.score.low, floor):.1f} - {p.score.high:.1f}" if p.score.count > 1 else "-"
            lines.append(f"{name:<{width}}  {p.wins:>5}  {p.score.mean:>10.1f}  {ci:>17}")
        shared = [
            f"{name}\xa0{p.shared_wins}"
            for name, p in zip(names, self.player_stats, strict=True)
            if p.shared_wins
        ]
        if shared:  # E5: every winner of a tied game counts it, so wins may add up to more
            lines.append(
                _fitted(f"wins shared in a tie for the lowest total (E5): {', '.join(shared)}", 4)
            )
        c = self.counters
        lines.append(
            f"per round: {self.round_turns.mean:.1f} turns, {self.round_tiles.mean:.1f} tiles"
        )
        # Each counter kept whole with its number: its spaces are no-break ones till filled.
        counters = [
            f"doubles played {c.doubles_played},",
            f"opened {c.doubles_opened},",
            f"closed {c.doubles_closed};",
            f"markers {c.markers_placed};",
            f"draws {c.draws}",
        ]
        lines.append(_fitted("in all: " + " ".join(w.replace(" ", "\xa0") for w in counters), 8))
        for illegal in self.illegal_moves:
            who = f"seat {illegal.seat} ({illegal.player})"
            said = illegal_move_said(who, illegal.move, illegal.reason)
            lines.append(_fitted(f"game {illegal.game}, round {illegal.round_number}: {said}", 4))
        more = self.stopped_games - len(self.illegal_moves)
        if more > 0:
            lines.append(
                f"and {more} more game{'s' if more > 1 else ''} stopped at an illegal move"
            )
        return "\n".join(lines)


def _check_counts(result: SimulationResult) -> None:
    """Refuse a result read back whose settings `simulate` refuses, or whose counts no
    simulation gives (below 0, more wins than games finished), with a `SchemaError`."""
    for name in ("games", "seed"):
        value = getattr(result, name)
        if value not in BOUNDS[name]:
            raise SchemaError(f"$.{name}", BOUNDS[name].refusal(value))
    counts = {"$.completed_games": result.completed_games, "$.rounds": result.rounds}
    counts.update(
        (f"$.counters.{field.name}", getattr(result.counters, field.name))
        for field in attrs.fields(RuleCounters)
    )
    for path, count in counts.items():
        if count < 0:
            raise SchemaError(path, f"a count is from 0, not {count}")
    for index, stats in enumerate(result.player_stats):
        if not 0 <= stats.shared_wins <= stats.wins <= result.completed_games:
            raise SchemaError(
                f"$.player_stats[{index}]",
                f"{stats.wins} wins, {stats.shared_wins} of them shared, in "
                f"{result.completed_games} games finished",
            )
        if stats.illegal_moves < 0:
            raise SchemaError(
                f"$.player_stats[{index}].illegal_moves",
                f"a count is from 0, not {stats.illegal_moves}",
            )


#: The most columns a line of `SimulationResult.report` takes: it fits a terminal of 80.
_REPORT_WIDTH: Final = 79


def _fitted(line: str, indent: int) -> str:
    """Return *line* in lines of at most `_REPORT_WIDTH` columns, going on *indent* columns
    in, broken at spaces only (a no-break space in *line* is written as a space)."""
    return textwrap.fill(
        line,
        _REPORT_WIDTH,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    ).replace("\xa0", " ")


#: How many illegal moves a `SimulationResult` lists: those of the first games stopped by one.
ILLEGAL_MOVES_KEPT: Final = 100

#: What `SimulationResult.to_dict` works out from the fields, and `from_dict` does not read.
_WORKED_OUT: Final = frozenset({"variant", "blocked_rate"})


def _not_the_rules(field: attrs.Attribute[Any], value: object) -> bool:
    return field.name != "rules"


def illegal_move_said(who: str, move: str, reason: str) -> str:
    """Return the words that tell that *who* made an illegal *move*, refused for *reason*.

    The one wording of a player's illegal move, in `SimulationResult.report` and on
    the command line (``demo``, ``play``).

    Args:
        who: the player, as the front end names its seat (``"seat 0 (cheater)"``).
        move: what the player returned, as `IllegalMove.move` shows it.
        reason: why it is illegal, as `IllegalMoveError` says, naming the rule.

    >>> illegal_move_said("seat 0 (cheater)", "Pass()", "P7/P5a: a player who has a legal play must make one")
    'seat 0 (cheater) made an illegal move, Pass(): P7/P5a: a player who has a legal play must make one'
    """
    return f"{who} made an illegal move, {move}: {reason}"


def game_seed(seed: int, game: int) -> int:
    """Return the seed of game number *game* of a simulation seeded with *seed*.

    A hash, so that any game can be replayed alone with ``new_game(..., seed=...)``.

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True

    Raises:
        TypeError: if *seed* or *game* is not an int (a bool or a str is not one), as
            `new_game` refuses such a seed.
        InvalidArgumentError: if *seed* has more than 64 bits, or *game* is below 0.
    """
    if type(seed) is not int:
        raise TypeError(f"a seed is a whole number, not {shown(seed)}")
    seed = check_bound("seed", seed, "seed")
    if type(game) is not int:
        raise TypeError(f"a game number is a whole number, not {shown(game)}")
    if game < 0:
        raise InvalidArgumentError(f"game is a whole number from 0, not {shown(game)}")
    text = f"mexican-train/simulate/{seed}/{game}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


@attrs.frozen
class _Game:
    """One finished (or stopped) game, indexed by player, not by seat."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    round_turns: tuple[int, ...]
    round_tiles: tuple[int, ...]
    counters: RuleCounters
    illegal: IllegalMove | None


@attrs.frozen
class _Batch:
    players: tuple[Any, ...]
    names: tuple[str, ...]  # the players' names, in the same order
    rules: Rules
    seed: int
    rotate_seats: bool
    start: int
    stop: int
    sent: bool  # played by an executor, which may send the games' results back by pickle


#: What a worker process sends back instead of an exception of the games it plays: set
#: there by a front end, around the work, to a function that gives a picklable exception
#: (or None: the exception goes as it would).  ``simulate --workers`` says a rule of the
#: user's own that raises in one line so, whether or not its exception pickles.
SENT_INSTEAD: Final[ContextVar[Callable[[Exception], Exception | None] | None]] = ContextVar(
    "SENT_INSTEAD", default=None
)


def _play_batch(batch: _Batch) -> list[_Game]:
    # Module level, so that every executor can pickle it by reference.
    try:
        return [_play_game(batch, number) for number in range(batch.start, batch.stop)]
    except Exception as error:
        instead = SENT_INSTEAD.get()
        sent = instead(error) if instead is not None else None
        if sent is None:
            if isinstance(error, StopIteration):  # a player's (or a rule's) own
                raise _stopped(error) from error
            if not batch.sent or _comes_back(error):
                raise
            sent = RuntimeError(_told_whole(error))
    # Raised here, the exception sent has no context: a pickle that sends an exception's
    # context too (tblib's, which Dask installs) would send the exception again.
    raise sent


def _stopped(error: StopIteration) -> RuntimeError:
    """Return *error*, a StopIteration of a player's code, as a RuntimeError with its notes.

    Raised on as it is, it would end the loop over the batches that meets it as if
    every game were played, and the games after it would be dropped without a word:
    in a generator, Python turns it into a RuntimeError for that reason (PEP 479).
    """
    told = RuntimeError(
        f"{error!r} cannot go on as it is: it would end the loop over the games "
        "as if every one were played"
    )
    for note in getattr(error, "__notes__", ()):
        add_note(told, note)
    return told


def _comes_back(error: Exception) -> bool:
    """Tell whether *error* can be pickled and made again, to be sent back to `simulate`."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return False
    return True


def _told_whole(error: Exception) -> str:
    """Return *error* as a text that tells all it would have: its traceback, and its notes.

    For a player's exception that pickle cannot make again in the process `simulate`
    runs in (its ``__init__`` takes other arguments than its ``args``): sent as it is,
    it would break a process pool, and say only that a worker ended.
    """
    notes = "".join(f"\n{note}" for note in getattr(error, "__notes__", ()))
    trace = "".join(
        traceback.format_exception(type(error), error, error.__traceback__, chain=False)
    )
    return (
        f"{type(error).__name__}: {error}{notes}\n(the exception cannot be sent back from the "
        f"process that played the game: pickle cannot make it again; its traceback there:)\n"
        + trace
    )


def _play_game(batch: _Batch, number: int) -> _Game:
    count = len(batch.players)
    # Seat s holds player (s + number) mod n when rotating, so each player sits everywhere.
    by_seat = [(seat + number) % count if batch.rotate_seats else seat for seat in range(count)]
    # A fresh copy of each player for each game (no state carries over), and one per
    # seat: a player listed twice is two players, not one that hears every seat.
    players = [copy.deepcopy(player) for player in batch.players]
    chooses = [players[by_seat[seat]].choose for seat in range(count)]  # each seat's method
    observers = observers_of({seat: players[by_seat[seat]] for seat in range(count)})
    seed = game_seed(batch.seed, number)
    state = new_game(count, batch.rules, seed=seed)
    tally = _Tally(batch.rules)
    record = tally.record

    def where() -> str:
        return (
            f"in game {number} of the simulation, round {state.round_number} "
            f"(new_game(..., seed={seed}) deals that game again)"
        )

    while True:
        seat = state.current_player
        if seat is None:  # between rounds, or the game is over
            if state.is_over:
                break
            move: Move = NEXT_ROUND
        else:
            try:
                moves = legal_moves(state)
            except Exception as error:  # the rules' own (a pluggable rule's bad answer)
                _located(
                    error, f"raised by the rules while listing the moves of seat {seat}, ", where()
                )
                raise
            try:
                move = chooses[seat](view(state, seat), moves)
            except Exception as error:  # the player's own bug: say where it struck, and go on
                name = batch.names[by_seat[seat]]
                _located(error, f"raised by the player {name!r} at seat {seat}, ", where())
                raise
        try:
            after = apply(state, move)
        except IllegalMoveError as error:  # a player's move: the next round's is always legal
            assert seat is not None
            illegal = IllegalMove(
                number, seed, state.round_number, seat, by_seat[seat], batch.names[by_seat[seat]],
                shown(move), error.reason,
            )  # fmt: skip
            return _Game((), (), (), (), tally.counters(), illegal)
        except Exception as error:  # the rules' own, met while listing the next moves
            after_whom = "the next round's deal" if seat is None else f"a move of seat {seat}"
            _located(error, f"raised by the rules after {after_whom}, ", where())
            raise
        if seat is not None:
            record(state, move, after, seat)
        if observers:
            events = derive_events(state, move, after)
            for observer in observers:  # one at a time, to name the player of one that fails
                try:
                    tell_events((observer,), events)
                except Exception as error:  # the player's own bug: tell_events named the seat
                    name = batch.names[by_seat[observer[0]]]
                    _located(error, f"that is the player {name!r}, ", where())
                    raise
        state = after
    scores = tuple(state.scores[by_seat.index(p)] for p in range(count))
    winners = tuple(sorted(by_seat[seat] for seat in state.winners))
    return _Game(scores, winners, tuple(tally.turns), tuple(tally.tiles), tally.counters(), None)


def _located(error: Exception, who: str, where: str) -> None:
    """Note on *error* *who* raised it and *where* in the simulation; tell a `PlayerFailure`."""
    if isinstance(error, PlayerFailure) and error.where is None:
        error.where = where
    add_note(error, who + where)


def add_note(error: BaseException, text: str) -> None:
    """Add *text* to *error*'s traceback, where Python has notes (3.11 and later)."""
    note = getattr(error, "add_note", None)
    if note is not None:
        note(text)


#: A seat and its player's ``observe`` method.
Observer = tuple[int, Callable[[tuple[Event, ...]], object]]
Observers = Sequence[Observer]


def observers_of(players: Mapping[int, object]) -> Observers:
    """Return the ``observe`` methods of the players that have one, by seat.

    >>> from mexican_train.players import PlannerPlayer, SearchPlayer
    >>> [seat for seat, _ in observers_of({0: PlannerPlayer(), 2: SearchPlayer()})]
    [2]
    """
    found: list[Observer] = []
    for seat, player in players.items():
        observe = getattr(player, "observe", None)
        if callable(observe):
            found.append((seat, observe))
    return found


_Seated = TypeVar("_Seated")


def observing_copies(players: Mapping[int, _Seated]) -> dict[int, _Seated]:
    """Return *players* by seat, each that has an ``observe`` method replaced by a fresh copy.

    An observing player (`SearchPlayer`) keeps the round's history, so a game that
    seats these copies carries nothing over from another game, and the players
    given are never told anything.  The others are the same objects.

    >>> from mexican_train.players import PlannerPlayer, SearchPlayer
    >>> planner, search = PlannerPlayer(), SearchPlayer()
    >>> seated = observing_copies({0: planner, 1: search})
    >>> seated[0] is planner, seated[1] is search, seated[1] == search
    (True, False, True)
    """
    return {
        seat: copy.deepcopy(player) if callable(getattr(player, "observe", None)) else player
        for seat, player in players.items()
    }


def tell(observers: Observers, before: GameState, move: Move, after: GameState) -> None:
    """Tell each observing seat what *move* did, as that seat may see it (S5).

    Front ends and runners call it after every move, `NextRound` included, for the
    players that take note of the round (`SearchPlayer.observe`).  An exception from
    a player's ``observe`` goes on, as `tell_events` lets it.
    """
    if observers:
        tell_events(observers, derive_events(before, move, after))


def tell_events(observers: Observers, events: tuple[Event, ...]) -> None:
    """Tell each observing seat *events*, the events of one move, as that seat may see them (S5).

    For a runner that derives a move's events for itself (`derive_events`): it tells
    them without deriving them again.  An exception from a player's ``observe`` goes
    on, noted with its seat; a `PlayerFailure` is given its seat.

    >>> from mexican_train.events import TileDrawn
    >>> told = []
    >>> tell_events([(1, told.append)], (TileDrawn(0, None),))
    >>> told
    [(TileDrawn(seat=0, tile=None),)]
    """
    for seat, observe in observers:
        try:
            observe(redact_events(events, seat))
        except Exception as error:  # the player's own bug: say at which seat it struck
            if isinstance(error, PlayerFailure) and error.seat is None:
                error.seat = seat
            add_note(error, f"raised by the observe() of the player at seat {seat}")
            raise


class PlayerFailure(Exception):
    """A failure of a player's own code, raised by a wrapper that reports it in one line.

    ``observe`` is not told its seat: `tell_events` sets *seat* before the failure
    goes on, and `simulate` *where* (the game and its seed), so that the report can
    name them.  (The command line's bots of your own
    raise one.)
    """

    #: The seat of the player that failed, once known.
    seat: int | None = None
    #: Where in a simulation it failed, once known: ``"in game 3 of the simulation,
    #: round 2 (new_game(..., seed=...) deals that game again)"``.
    where: str | None = None


class _Tally:
    """Counts rule situations by comparing each state with the next."""

    __slots__ = (
        "doubles_closed",
        "doubles_opened",
        "doubles_played",
        "draws",
        "first_turn_tiles",
        "first_turns",
        "markers_placed",
        "passes",
        "round_tiles",
        "round_turns",
        "rounds_blocked",
        "rounds_gone_out",
        "tiles",
        "tiles_played",
        "turns",
    )

    def __init__(self, rules: Rules) -> None:
        self.first_turns = rules.first_turn is not None  # P4 applies
        self.tiles_played = self.first_turn_tiles = self.draws = self.passes = 0
        self.markers_placed = self.doubles_played = self.doubles_opened = 0
        self.doubles_closed = self.rounds_gone_out = self.rounds_blocked = 0
        self.turns: list[int] = []
        self.tiles: list[int] = []
        self.round_turns = 0
        self.round_tiles = 0

    def counters(self) -> RuleCounters:
        return RuleCounters(
            self.tiles_played, self.first_turn_tiles, self.draws, self.passes,
            self.markers_placed, self.doubles_played, self.doubles_opened,
            self.doubles_closed, self.rounds_gone_out, self.rounds_blocked,
        )  # fmt: skip

    def record(self, before: GameState, move: Move, after: GameState, seat: int) -> None:
        """Count what *move*, made by *seat* (the player to move in *before*), did."""
        # Moves are interned and apply accepts only legal ones: the types are exact.
        if type(move) is Play:
            self.tiles_played += 1
            self.round_tiles += 1
            if self.first_turns and not before.has_had_first_turn(seat):
                self.first_turn_tiles += 1  # P4
            if move.tile.is_double:
                self.doubles_played += 1  # D1
            if move.train in before.open_doubles:
                self.doubles_closed += 1  # D2: a tile on an open double closes it
        elif move is PASS:
            self.passes += 1
        else:
            # P5: a draw (or the last-tile call) leaves the turn with the player and
            # the table as it was; nothing else can have changed.
            if move is DRAW:
                self.draws += 1
            return
        if after.is_round_over:
            self.round_turns += 1
            self.turns.append(self.round_turns)
            self.tiles.append(self.round_tiles)
            self.round_turns = self.round_tiles = 0
            # E1/E2: a round ends with a hand emptied, or blocked with none.
            if 0 in after.hand_sizes:
                self.rounds_gone_out += 1
            else:
                self.rounds_blocked += 1
            return
        if after.current_player != seat:
            self.round_turns += 1
        # (Each test below skips what cannot have changed: the engine shares the
        # tuples a move leaves alone, so an unchanged one is the same object.)
        opened_now = after.open_doubles
        if opened_now and opened_now is not before.open_doubles:
            opened = before.open_doubles
            for train in opened_now:
                if train not in opened:
                    self.doubles_opened += 1  # D2: doubles left open as the turn ends
        # P5, P5a, P6: only a turn ended without a (final) tile places a marker,
        # and only on the player's own train.
        if move is PASS and after.trains[seat].marked and not before.trains[seat].marked:
            self.markers_placed += 1


def _batches(
    players: tuple[Any, ...],
    names: tuple[str, ...],
    rules: Rules,
    games: int,
    seed: int,
    rotate: bool,
    size: int,
    sent: bool,
) -> Iterator[_Batch]:
    for start in range(0, games, size):
        yield _Batch(players, names, rules, seed, rotate, start, min(start + size, games), sent)


#: How many batches `simulate` hands an executor at a time.  An executor keeps a future
#: of each batch it is given (some 2 kB, and a task for a Dask scheduler), so a window
#: bounds that memory: 200,000 games and more in batches of 50, two windows hold some
#: 16 MB.
_WINDOW: Final = 4096


def _mapped(executor: SupportsMap, batches: Iterator[_Batch]) -> Iterator[list[_Game]]:
    """Return *executor*'s results of *batches*, in order, with at most 2 `_WINDOW`
    batches sent and not read at a time.

    A `concurrent.futures.Executor` (Dask's among them) is given each batch as one
    returns, and the batches not yet played are cancelled when the results are closed
    (at Ctrl-C).  Any other ``map`` is called with a window of batches, the next
    window sent before the last one's results are read, so that the workers do not
    wait for them; a ``map`` that returns a list once the batches are played
    (``multiprocessing.Pool``'s) is read at once.
    """
    # An Executor's module is loaded once there is one: it is not imported for nothing.
    module = sys.modules.get("concurrent.futures")
    if module is not None and isinstance(executor, module.Executor):
        futures: deque[Future[list[_Game]]] = deque()
        try:
            for batch in batches:
                futures.append(executor.submit(_play_batch, batch))
                if len(futures) == 2 * _WINDOW:
                    yield futures.popleft().result()
            while futures:
                yield futures.popleft().result()
        finally:
            for future in futures:
                future.cancel()
        return
    pending: Iterable[list[_Game]] = ()
    while True:
        # A list, not a generator: Dask's executor refuses to map over iterators.
        window = list(itertools.islice(batches, _WINDOW))
        if not window:
            break
        sent = executor.map(_play_batch, window)
        yield from pending
        pending = sent
        if isinstance(sent, list):
            yield from pending
            pending = ()
    yield from pending


_Item = TypeVar("_Item")
_Result = TypeVar("_Result")


@runtime_checkable
class SupportsMap(Protocol):
    """What `simulate` can run games on: anything with a ``map(function, items)``.

    ``map`` must return ``function(item)`` once for each item, in any order (the
    result does not depend on it): a `concurrent.futures.Executor` (a
    `concurrent.futures.ProcessPoolExecutor`, a Dask cluster's ``client.get_executor()``),
    a ``multiprocessing.Pool`` or Ray's ``ray.util.multiprocessing.Pool`` do.  `simulate`
    calls it with a few thousand items at a time.  A `concurrent.futures.Executor` is
    given the items through its ``submit`` instead, one as each result is read, so
    that those not begun can be cancelled at Ctrl-C.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> isinstance(ThreadPoolExecutor(1), SupportsMap)
    True
    """

    def map(self, function: Callable[[_Item], _Result], items: list[_Item], /) -> Iterable[_Result]:
        """Return ``function(item)`` for each of *items*."""


def simulate(
    players: Sequence[Player],
    rules: Rules = STANDARD,
    games: int = 100,
    seed: int = 0,
    executor: SupportsMap | None = None,
    *,
    rotate_seats: bool = True,
    batch_size: int | None = None,
    progress: Callable[[int], object] | None = None,
    names: Sequence[str] | None = None,
) -> SimulationResult:
    """Play *games* independent games between *players* and return their statistics.

    One player per seat: ``len(players)`` is the number of players.  Game
    number *i* is dealt from ``game_seed(seed, i)``; with *rotate_seats*,
    the players move one seat on each game (player *p* sits in seat
    ``(p - i) mod n``), so nobody keeps the advantage of a seat.  The result
    is the same with or without an *executor*, and with any executor,
    because games are independent and their results are summed, in any order.

    Args:
        players: the players, as `Player` objects (picklable ones to use an
            executor that runs other processes).
        rules: the rules to play by.
        games: how many games, at least 1.
        seed: the seed every game's seed comes from.
        executor: run batches of games on it, at most 8,192 batches at a time (its
            ``submit`` for a `concurrent.futures.Executor`, else its ``map``): any object
            (`SupportsMap`) whose ``map(function, items)`` gives ``function(item)`` for each item,
            e.g. a `concurrent.futures.ProcessPoolExecutor`, a Dask cluster's
            ``client.get_executor()``, a ``multiprocessing.Pool`` or Ray's
            ``ray.util.multiprocessing.Pool``; None plays them here, one after another.
        rotate_seats: move the players round the table from game to game.
        batch_size: games per task sent to *executor*; by default a fortieth of
            the games, rounded down, at least 1 and at most 50 (so one game a task
            below 80 games, 40 to 60 tasks up to 2,000 games, and tasks of 50 games
            beyond).
        progress: called with the number of games just finished, as they finish; its
            exception goes on, and the batches *executor* has not begun are cancelled.
        names: the players' names in the result, one per player, in the same order;
            None names each by `player_name`.  ``mexican-train simulate`` names a bot
            chosen as a level by the level (``hard``, not ``search``).

    Returns:
        A `SimulationResult`.

    Raises:
        DealError: if the rules cannot deal for ``len(players)`` players.
        InvalidArgumentError: if *games* or *batch_size* is not a whole number from 1
            to 10,000,000, or *seed* has more than 64 bits.
        TypeError: if *players* is not a list (a mapping of seats, say); if a player
            is a class, not an object of it, has no ``choose`` method, cannot be copied
            (``copy.deepcopy``) or cannot be pickled for an *executor* that is a process
            pool of the standard library's; or if *executor* has no ``map``,
            *rotate_seats* is not a bool, or *names* is not one str per player.
        RuntimeError: if a player's exception, in a game played by *executor*, cannot
            be pickled and made again: its type, message, notes and traceback as text.
        SimulationInterrupted: at Ctrl-C (a `KeyboardInterrupt`), with the result of
            the games that finished.

    A player's own exception, from ``choose`` or ``observe``, goes on as it is, noted
    with the player, its seat, the game, the round and the game's seed (a
    `StopIteration` as a `RuntimeError` that says so, with those notes, as it would
    end the loop over the games); so does the rules' own (a pluggable rule's exception,
    or a `RulesError` for its bad answer), met while listing a seat's moves or those
    after a move (`apply` lists them), noted as the rules'.

    >>> from mexican_train.players import GreedyPlayer, RandomPlayer
    >>> result = simulate([GreedyPlayer(), RandomPlayer(1)], STANDARD, games=10, seed=1)
    >>> result.wins
    (10, 0)
    >>> result.player_stats[0].score.mean < result.player_stats[1].score.mean
    True
    """
    if isinstance(players, (str, bytes)) or not isinstance(players, Iterable):
        raise TypeError(f"players is a list of Player objects, one per seat, not {players!r}")
    if isinstance(players, Mapping):
        raise TypeError(
            "players is a list of Player objects in seat order (seat 0 first), not a mapping "
            f"of seats to players, {shown(players)}; list them in seat order, and pass "
            "rotate_seats=False to keep them in those seats"
        )
    players = tuple(players)
    for index, player in enumerate(players):
        if isinstance(player, type):  # its choose would take the view for self
            raise TypeError(
                f"player {index} is the class {player.__name__}, not a player: "
                f"make one, {player.__name__}()"
            )
        if not callable(getattr(player, "choose", None)):
            raise TypeError(f"a player needs a choose(view, moves) method; {player!r} has none")
    games = check_bound("games", games, "games")
    if type(seed) is not int:
        raise TypeError(f"a seed is a whole number, not {shown(seed)}")
    seed = check_bound("seed", seed, "seed")  # as new_game's (S6)
    new_game(len(players), rules, seed=0)  # DealError now, not in a worker
    if batch_size is None:
        batch_size = 1 if executor is None else max(1, min(50, games // 40))
    else:
        batch_size = check_bound("games", batch_size, "batch_size")
    if executor is not None and not callable(getattr(executor, "map", None)):
        raise TypeError(
            f"executor needs a map(fn, items) method, like an Executor; not {executor!r}"
        )
    if type(rotate_seats) is not bool:  # it is kept in the result, and reported
        raise TypeError(f"rotate_seats is True or False, not {shown(rotate_seats)}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress is a function of the games just finished, not {progress!r}")
    named = _names(players, names)
    check_copies(players, named, _pickles(executor))
    sent = executor is not None
    batches = _batches(players, named, rules, games, seed, rotate_seats, batch_size, sent)
    # Here lazily, a batch made when it is played; on an executor a window at a time.
    results = map(_play_batch, batches) if executor is None else _mapped(executor, batches)
    # Each game is summed in as it comes, and dropped: memory does not grow with games.
    # A batch is summed into a copy, which then takes the totals' place in one step: a
    # Ctrl-C in the middle of a game's sums cannot leave them half made.
    totals = _Totals(len(players))
    try:
        for batch in results:
            summing = totals.copy()
            for game in batch:
                summing.add(game)
            totals = summing
            if progress is not None:
                progress(len(batch))
    except BaseException as error:  # Ctrl-C, or progress's own exception
        close = getattr(results, "close", None)
        if close is not None:  # the batches an executor has not begun are not played
            close()
        if not isinstance(error, KeyboardInterrupt) or isinstance(error, SimulationInterrupted):
            raise  # progress's own, or that of a simulation a player runs, interrupted
        # Ctrl-C: the games summed so far are a result, kept; the batch in play is not.
        raise SimulationInterrupted(
            totals.result(named, rules, games, seed, rotate_seats)
        ) from error
    return totals.result(named, rules, games, seed, rotate_seats)


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped `simulate`: *result* holds what the games that came back found.

    A `KeyboardInterrupt`, so that it ends a program as Ctrl-C does unless caught.
    Games are summed in a batch at a time, as each batch comes back; the batches in
    play are dropped, and those a `concurrent.futures.Executor` has not begun are
    cancelled.  In this process, and on an executor that gives the batches back in
    order (a `concurrent.futures.Executor`, Dask's among them, or a
    ``multiprocessing.Pool``), the games summed are the first ones: *result* is that
    of ``simulate`` asked for that many games, but for its ``games``, which are the
    games asked for.

    Attributes:
        result: the `SimulationResult` of the games summed before Ctrl-C.

    >>> from mexican_train.players import GreedyPlayer
    >>> def ctrl_c(games: int) -> None:
    ...     raise KeyboardInterrupt  # as Ctrl-C does, after the first game
    ...
    >>> try:
    ...     simulate([GreedyPlayer(), GreedyPlayer()], STANDARD, games=5, progress=ctrl_c)
    ... except SimulationInterrupted as interrupted:
    ...     print(interrupted)
    ...     result = interrupted.result
    ...
    interrupted after 1 of 5 games
    >>> result.completed_games, result.games
    (1, 5)
    """

    def __init__(self, result: SimulationResult) -> None:
        played = result.completed_games + result.stopped_games
        super().__init__(f"interrupted after {played} of {result.games} games")
        self.result = result

    def __reduce__(self) -> tuple[Any, ...]:
        return (SimulationInterrupted, (self.result,))


def _pickles(executor: object) -> bool:
    """Tell whether *executor* is one of the standard library's process pools.

    They send the players to their processes with `pickle`.  (A Dask client's
    executor uses cloudpickle, which takes more, and says itself what it cannot
    send.)  A pool's module is looked at only once loaded, as it is when
    *executor* is one of its pools: ``multiprocessing`` takes long to import.
    """
    process = sys.modules.get("concurrent.futures.process")
    if process is not None and isinstance(executor, process.ProcessPoolExecutor):
        return True
    pool = sys.modules.get("multiprocessing.pool")
    return (
        pool is not None
        and isinstance(executor, pool.Pool)
        and not isinstance(executor, pool.ThreadPool)
    )


def check_copies(
    players: tuple[Any, ...],
    names: tuple[str, ...],
    pickles: bool,
    *,
    sent_by: str = "the executor sends the players to other processes",
    instead: str = "play in this process (executor=None)",
) -> None:
    """Refuse, naming it, a player no game can have a copy of, or that cannot be pickled.

    Every game plays a copy of each player (``copy.deepcopy``), made in the process that
    plays the game; with *pickles*, the players are first pickled to reach it.  Tried
    here, a failure names the player before any game is played, not in a worker.  A
    player that does not pickle is refused with who sends it (*sent_by*) and what to do
    *instead*, which a front end words as its options.
    """
    for index, (player, name) in enumerate(zip(players, names, strict=True)):
        try:
            copy.deepcopy(player)
        except Exception as error:
            raise TypeError(
                f"every game plays a copy of each player (copy.deepcopy), and player {index} "
                f"({name!r}) cannot be copied: {type(error).__name__}: {error}"
            ) from error
        if not pickles:
            continue
        try:
            pickle.dumps(player)
        except Exception as error:
            raise TypeError(
                f"{sent_by} with pickle, and player {index} ({name!r}) does not pickle: "
                f"{type(error).__name__}: {error}; define its class, and any function it keeps, "
                f"at a module's top level, or {instead}"
            ) from error


def _names(players: tuple[Any, ...], names: object) -> tuple[str, ...]:
    # The players' names: *names*, checked, or each player's own (player_name).
    if names is None:
        return tuple(player_name(player) for player in players)
    given = (
        tuple(names) if isinstance(names, Iterable) and not isinstance(names, (str, bytes)) else ()
    )
    if len(given) != len(players) or not all(isinstance(name, str) for name in given):
        raise TypeError(
            f"names is a list of {len(players)} names (str), one per player, not {shown(names)}"
        )
    return cast(tuple[str, ...], given)


class _Totals:
    """The games' results summed as they come, in any order: all a `SimulationResult` needs."""

    def __init__(self, count: int) -> None:
        self.finished = 0
        self.scores = [_Sums() for _ in range(count)]
        self.wins = [0] * count
        self.shared_wins = [0] * count
        self.illegal_moves = [0] * count
        self.turns = _Sums()
        self.tiles = _Sums()
        self.counters = RuleCounters()
        # The illegal moves of the first games stopped by one: a heap, the last game on top.
        self.illegal: list[tuple[int, IllegalMove]] = []

    def copy(self) -> _Totals:
        """Return a copy, which the games added to it leave this one without."""
        totals = copy.copy(self)
        totals.scores = [sums.copy() for sums in self.scores]
        totals.wins, totals.shared_wins = self.wins[:], self.shared_wins[:]
        totals.illegal_moves, totals.illegal = self.illegal_moves[:], self.illegal[:]
        totals.turns, totals.tiles = self.turns.copy(), self.tiles.copy()
        return totals

    def add(self, game: _Game) -> None:
        if game.illegal is not None:  # a stopped game counts for nobody
            self.illegal_moves[game.illegal.player_index] += 1
            heapq.heappush(self.illegal, (-game.illegal.game, game.illegal))
            if len(self.illegal) > ILLEGAL_MOVES_KEPT:
                heapq.heappop(self.illegal)
            return
        self.finished += 1
        for sums, score in zip(self.scores, game.scores, strict=True):
            sums.add(score)
        shared = len(game.winners) > 1
        for index in game.winners:
            self.wins[index] += 1
            self.shared_wins[index] += shared
        for turns in game.round_turns:
            self.turns.add(turns)
        for tiles in game.round_tiles:
            self.tiles.add(tiles)
        self.counters += game.counters

    def result(
        self, names: tuple[str, ...], rules: Rules, games: int, seed: int, rotate: bool
    ) -> SimulationResult:
        stats = tuple(
            PlayerStats(name, wins, shared, scores.summary(), illegal)
            for name, wins, shared, scores, illegal in zip(
                names, self.wins, self.shared_wins, self.scores, self.illegal_moves, strict=True
            )
        )
        return SimulationResult(
            names, rules, games, seed, rotate, self.finished, stats, self.turns.count,
            self.turns.summary(), self.tiles.summary(), self.counters,
            tuple(illegal for _, illegal in sorted(self.illegal, reverse=True)),
        )  # fmt: skip
