"""The command line, ``mexican-train``: demo, play, simulate, rules and serve.

Built on click, and only on the public API.  Bad input (an unknown variant,
an impossible player count, a malformed option) gives one ``Error:`` line on
stderr and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import codecs
import contextlib
import importlib
import json
import math
import multiprocessing
import os
import re
import shlex
import signal
import sys
import textwrap
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import FrameType, TracebackType
from typing import Any, Final, NoReturn, TypeVar, cast

import attrs
import click

from .. import COMPILED
from .._bots.coach import analyze as run_analysis
from .._bots.names import BOT_TIMER, BOTS, player_name
from .._bots.players import Player
from .._bots.search import SearchPlayer
from .._bots.simulate import (
    SENT_INSTEAD,
    PlayerFailure,
    SimulationInterrupted,
    check_copies,
    illegal_move_said,
    observers_of,
    tell,
)
from .._bots.simulate import simulate as run_simulation
from .._catalogue.variants import (
    combine,
    describe_rules,
    describe_variant,
    get_variant,
    variant_name,
    variant_names,
)
from .._core.bounds import BOUNDS
from .._core.engine import apply, doubles_to_cover, legal_moves, new_game
from .._core.errors import (
    DealError,
    IllegalMoveError,
    InvalidArgumentError,
    MexicanTrainError,
    RulesError,
    UnknownVariantError,
    close_names,
    shown,
)
from .._core.moves import MEXICAN, NEXT_ROUND, CallLastTile, Draw, Move, Pass, Play
from .._core.rules import HUB, STANDARD, Rules
from .._core.state import GameState, standing_keys
from .._core.tiles import Tile, TileNotationError
from .._core.view import PlayerView, view
from .._formats.record import GameRecord, record, replay
from .._formats.render import render_text
from .._formats.serialize import SchemaError, record_from_json, to_json
from .explain import explain_rules
from .http import (
    MAX_CONNECTIONS,
    MAX_PER_CLIENT,
    RequestError,
    checked_hosts,
    lacks_web_extra,
    read_json,
)
from .lobby import MAX_TABLES, MAX_TABLES_PER_CLIENT, TABLE_IDLE
from .narrate import Narrator, review_report, round_result

__all__ = [
    "bots_from_option",
    "bots_option",
    "cli",
    "main",
    "named_bots_from_option",
    "players_option",
    "rules_from_options",
    "rules_label",
    "rules_options",
    "seed_option",
]

# Exit statuses (docs/reference/cli.rst): 0 success (a chosen quit too), 1 a failure
# while running, 2 a usage error (a bad option, or a name of rules, variant or bot that
# does not exist), 130 stopped by Ctrl-C (the shell's code for it).
_EXIT_FAILURE = 1
_EXIT_INTERRUPTED = 130
#: What a person types to leave the game, at any prompt of ``play``.
_QUIT_WORDS: Final = frozenset({"q", "quit", "exit"})


def _plain(text: str) -> str:
    """Return *text* with its reST markup (``code``, :role:`target`) stripped for a terminal."""
    text = re.sub(r":\w+:`~?([^`<]*?)\s*(?:<[^>]*>)?`", r"\1", text)
    return re.sub(r"``?([^`]+)``?", r"\1", text)


# -- the options every game command shares (demo, play, simulate, serve) ---------------
#
# One scheme on every command: --rules NAME plus repeatable --house NAME choose the
# rules (variants.combine), --players is always a count, --bots names the bots (built-in
# or a user's own, module:Class), --seed fixes the deals.  Another command uses them by
# stacking the decorators and calling rules_from_options / bots_from_option.


def rules_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--rules NAME`` and repeatable ``--house NAME`` (parameters *rules*, *house*)."""
    command = click.option(
        "--house",
        multiple=True,
        metavar="NAME",
        help="Add a house rule to the rules (repeat for several); see 'rules --list'.",
    )(command)
    return click.option(
        "--rules",
        "-r",
        default="standard",
        show_default=True,
        metavar="NAME",
        help="The rules: standard (Rulebook A), hub (Rulebook B) or a variant.",
    )(command)


def players_option(default: int = 4, help: str = "How many players.") -> Callable[..., Any]:
    """Return the ``--players N`` option (parameter *players*): always a count.

    The rules decide which counts they deal for (S1); `check_game` says which.
    """
    return click.option(
        "--players",
        "-p",
        type=int,
        default=default,
        show_default=True,
        metavar="N",
        help=f"{help}  The rules say how many they deal for (S1; standard: {_player_counts(STANDARD)}, hub: {_player_counts(HUB)}).",
    )


def _check_seed(context: click.Context, parameter: click.Parameter, value: int | None) -> Any:
    if value is not None and value not in BOUNDS["seed"]:
        raise click.BadParameter(BOUNDS["seed"].refusal(value), context, parameter)
    return value


class _Seconds(click.FloatRange):
    """A number of seconds within a range; ``nan``, which compares with nothing, refused."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            try:
                float(value)
            except ValueError:  # click's own words would be "is not a valid seconds"
                self.fail(f"{_shown(value)} is not a number of {self.name}", param, ctx)
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{_shown(str(value))} is not a number of {self.name}", param, ctx)
        return seconds


class _Hours(_Seconds):
    """A number of hours within a range; ``nan`` refused."""

    name = "hours"


def bots_option(default: str, help: str) -> Callable[..., Any]:
    """Return the ``--bots`` option (parameter *bots*): names, comma-separated."""
    return click.option("--bots", "-b", default=default, show_default=True, help=help)


#: The ``--seed`` option (parameter *seed*), for commands that deal games.
seed_option = click.option(
    "--seed",
    type=int,
    default=None,
    callback=_check_seed,
    help="Fix the deals (and the random bots) to replay a game (S6).",
)

_BOTS_HELP = (
    f"The bots, comma-separated and repeated round the table: {', '.join(BOTS)}, "
    "or your own as module:Class (a class with choose(view, moves))."
)


def rules_from_options(rules: str, house: Sequence[str] = (), option: str = "--rules") -> Rules:
    """Return the rules named by ``--rules`` and ``--house`` (`variants.combine`).

    *option* names the rules' parameter in messages (``NAME`` for ``rules``).

    Raises:
        click.UsageError: an unknown name (with the names close to it), or house
            rules that conflict.
    """
    # Each name looked up on its own first, so that a failure names its option: an
    # unknown name, or a variant an installed package registers that fails to load.
    for where, name in ((option, rules), *(("--house", name) for name in house)):
        try:
            get_variant(name)
        except UnknownVariantError as error:
            if error.reason:  # the form of the name is wrong, not the name
                raise click.UsageError(f"{where}: {error.reason}") from None
            raise click.UsageError(
                f"{where}: there {'is no variant' if where == '--house' else 'are no rules'} "
                f"called {_shown(error.name)}"
                f"{close_names(error.name, error.known)}; "
                "'mexican-train rules --list' lists them"
            ) from None
        except RulesError as error:
            raise click.UsageError(f"{where}: {error}") from None
    try:
        return combine(rules, *house) if house else get_variant(rules)
    except RulesError as error:  # house rules that conflict, with the rules or each other
        raise click.UsageError(f"--house: {error}") from None


def rules_label(rules: Rules) -> str:
    """Return the name of *rules* for a heading: a variant's name, or ``custom``."""
    return variant_name(rules) or "custom"


def _load_user_bot(spec: str, option: str) -> object:
    """Return the class or object that ``module:Name`` names."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise click.UsageError(
            f"{option}: there is no bot called {_shown(spec)}{close_names(spec, list(BOTS))}; "
            f"the bots are {', '.join(BOTS)}, or your own as module:Class"
        )
    # As 'python -m' does, find modules in the current directory too.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as error:
        raise click.UsageError(
            f"{option}: cannot import {module_name!r} for the bot {spec!r}: "
            f"{_why_not_imported(module_name, error)}"
        ) from None
    found = getattr(module, attribute, None)
    if found is None:
        raise click.UsageError(f"{option}: the module {module_name!r} has no {attribute!r}")
    return found


def _why_not_imported(module_name: str, error: Exception) -> str:
    """Return why *module_name* did not import, in one line.

    A module that is not there is looked for where the command runs, so the reason says
    where that is; any other failure is the module's own, named with its exception and
    the line of the user's code that raised it, as a bot's failure while playing is.
    """
    missing = getattr(error, "name", None) if isinstance(error, ModuleNotFoundError) else None
    if missing and (module_name == missing or module_name.startswith(missing + ".")):
        return (
            f"there is no module {missing!r} in this folder ({os.getcwd()}) "
            "or among the installed packages"
        )
    if isinstance(error, SyntaxError):
        return f"SyntaxError: {error}"  # its message names the file and the line
    return _how_raised(error, error.__traceback__)


def _make_player(found: object, spec: str, option: str) -> _UserBot:
    if isinstance(found, type):
        try:
            found = found()
        except Exception as error:
            raise click.UsageError(
                f"{option}: cannot make the bot {spec}() with no arguments: {error}"
            ) from None
    if not callable(getattr(found, "choose", None)):
        raise click.UsageError(
            f"{option}: {spec!r} is not a player: a player has a method choose(view, moves)"
        )
    made = _ObservingUserBot if callable(getattr(found, "observe", None)) else _UserBot
    return made(cast(Player, found), spec, _shown_name(player_name(found)))


#: The longest name a bot of the user's own is shown by: the table, the lists and the
#: standings keep their columns in 80 with 8 players, whatever the bot calls itself.
_NAME_WIDTH: Final = 24


def _shown_name(name: str) -> str:
    r"""Return a bot's *name* as the commands show it: on one line, its control characters
    (which would move a terminal's cursor or colour its text) made spaces, and cut short
    to `_NAME_WIDTH` characters.

    >>> _shown_name("Ann"), _shown_name("The Bot Of\nMany Words\x1b[31m That Goes On")
    ('Ann', 'The Bot Of Many Words...')
    """
    name = " ".join("".join(c if c.isprintable() else " " for c in name).split()) or "?"
    return name if len(name) <= _NAME_WIDTH else name[: _NAME_WIDTH - 3].rstrip() + "..."


#: This package's name, to tell its frames from the user's code's (`_in_package`).
_PACKAGE_NAME: Final = __name__.partition(".")[0]


def _in_package(frame: FrameType) -> bool:
    """Tell whether *frame* runs this package's code.

    Told by the module's name, not the file's: a frame of a module compiled with mypyc
    names the file by the path it was built from (``src/mexican_train/_core/engine.py``),
    not where the package is installed, but keeps the module's globals.
    """
    module = frame.f_globals.get("__name__")
    return isinstance(module, str) and (
        module == _PACKAGE_NAME or module.startswith(_PACKAGE_NAME + ".")
    )


def _how_raised(error: Exception, tb: TracebackType | None) -> str:
    """Return *error* in one line: its type, its message and the line that raised it,
    which a traceback (not printed) would have shown.

    That line is the last of *tb*'s frames in the user's code: outside this package and
    Python's import machinery (``<frozen importlib._bootstrap>``); the last of all if
    none is (a call of the library's that the user's code got wrong points into it).
    """
    frames = list(traceback.walk_tb(tb))
    mine = [
        (frame, line)
        for frame, line in frames
        if not _in_package(frame) and not frame.f_code.co_filename.startswith("<")
    ]
    shown = mine or frames
    line = f" ({shown[-1][0].f_code.co_filename}, line {shown[-1][1]})" if shown else ""
    return f"{type(error).__name__}: {error}{line}"


#: The methods by which the engine asks the pluggable rules of a `Rules` value, and the
#: rule each belongs to.
_RULE_METHODS: Final = {
    "is_open": ("Mexican train rule", "Rules.mexican_train, V2"),
    "obligation": ("open-double rule", "Rules.open_doubles, V3"),
    "follow_up": ("open-double rule", "Rules.open_doubles, V3"),
}


def _rule_failure(error: Exception) -> str | None:
    """Return the one line that says which rule of the user's own raised *error*, and
    how; None if no such rule did.

    Such a rule (`MexicanTrainRule`, `OpenDoubleRule`), of a variant an installed
    package registers, is a method of the user's code called from this package: a
    frame outside it, of one of `_RULE_METHODS`, whose caller is inside.
    """
    if isinstance(error, RuntimeError) and isinstance(error.__cause__, StopIteration):
        error = error.__cause__  # made a RuntimeError on its way, lest it end a loop (PEP 479)
    called_from_package = False
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        inside = _in_package(tb.tb_frame)
        rule = tb.tb_frame.f_locals.get("self")
        if (
            not inside
            and called_from_package
            and code.co_name in _RULE_METHODS
            and rule is not None
        ):
            kind, field = _RULE_METHODS[code.co_name]
            named = f"{type(rule).__module__}.{type(rule).__qualname__}"
            return (
                f"the {kind} {named} ({field}) failed in {code.co_name}(): {_how_raised(error, tb)}"
            )
        called_from_package = inside
        tb = tb.tb_next
    return None


@attrs.frozen
class _UserBot:
    """A bot of the user's own (``--bots module:Class``), whose failures end in one line.

    It chooses as *bot* does and goes by its name; an exception from the bot's code
    becomes a `click.ClickException` that names the bot, the seat it played, the
    exception and the line of the bot's code that raised it (exit status 1), in this
    process or in a worker of ``simulate``.
    """

    bot: Player
    spec: str
    name: str

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        try:
            return self.bot.choose(view, moves)
        except Exception as error:
            raise self._failed("choose()", error, view.seat) from error

    def _failed(self, where: str, error: Exception, seat: int | None) -> _BotFailed:
        tb = error.__traceback__
        told = _how_raised(error, None if tb is None else tb.tb_next)  # tb is choose's call
        return _BotFailed(f"your bot {self.spec} failed in {where}", told, seat)


@attrs.frozen
class _ObservingUserBot(_UserBot):
    """A bot of the user's own with an ``observe`` method, told each move as `_UserBot`
    chooses: a failure there ends in one line too.

    Only such a bot has the method: the runners work out each move's events for the
    players that have one (`observers_of`).
    """

    def observe(self, events: object) -> None:
        try:
            cast(Any, self.bot).observe(events)
        except Exception as error:  # the runner that calls it names the seat (tell_events)
            raise self._failed("observe()", error, None) from error


class _BotFailed(click.ClickException, PlayerFailure):
    """A bot of the user's own failed: the message says which, where, at which seat and how.

    *said* names the bot and its method, *why* the exception and the line that raised
    it; the seat, and where in a simulation, go between them once known
    (`PlayerFailure`).
    """

    #: The web table shows the message as it is, not after the exception's type.
    names_the_bot = True

    def __init__(
        self, said: str, why: str, seat: int | None = None, where: str | None = None
    ) -> None:
        super().__init__(f"{said}: {why}")
        self.said, self.why, self.seat, self.where = said, why, seat, where

    def format_message(self) -> str:
        at = "" if self.seat is None else f" at seat {self.seat}"
        where = "" if self.where is None else f", {self.where}"
        return f"{self.said}{at}{where}: {self.why}"

    def __str__(self) -> str:
        return self.format_message()

    def __reduce__(self) -> tuple[Any, ...]:
        # Made again in the process a simulate worker sends it to, its seat included.
        return (_BotFailed, (self.said, self.why, self.seat, self.where))


def bots_from_option(text: str, seats: int, option: str = "--bots") -> list[Player]:
    """Return *seats* players from the names in *text*, repeated round the table.

    A name is a library bot (``planner``, ``greedy``, ``random``, ``search``), a
    level (``easy``, ``medium``, ``hard``), or
    ``module:Class`` for your own: a class with a ``choose(view, moves)``
    method, made with no arguments for each seat (or an object with that
    method, shared by the seats it fills).

    Raises:
        click.UsageError: a name that is no bot, or a bot that cannot be loaded.
    """
    return [player for _, player in named_bots_from_option(text, seats, option)]


def named_bots_from_option(
    text: str, seats: int, option: str = "--bots"
) -> list[tuple[str, Player]]:
    """Return `bots_from_option`'s players, each with the name it is shown by.

    A bot named as a library bot or a level goes by the name the person gave, in
    lower case (``hard``, not the ``search`` bot it stands for); a bot of your own by
    `player_name`.

    Raises:
        click.UsageError: a name that is no bot, or a bot that cannot be loaded.
    """
    specs = [part.strip() for part in text.split(",")]
    if not any(specs):
        raise click.UsageError(f"{option}: name at least one bot ({', '.join(BOTS)})")
    if not all(specs):
        raise click.UsageError(
            f"{option}: {_shown(text)} has an empty name; separate the names with one comma"
        )
    found = {spec: _load_user_bot(spec, option) for spec in specs if spec.lower() not in BOTS}
    players: list[tuple[str, Player]] = []
    for seat in range(seats):
        spec = specs[seat % len(specs)]
        built_in = BOTS.get(spec.lower())
        if built_in is not None:
            players.append((spec.lower(), built_in()))
        else:
            mine = _make_player(found[spec], spec, option)
            players.append((mine.name, mine))
    for spec in found:  # a bad name fails even when the table has fewer seats than names
        if spec not in specs[:seats]:
            _make_player(found[spec], spec, option)
    return players


def _player_counts(rules: Rules) -> str:
    """Return the player counts *rules* deal for (S1, S2), as ranges: "2-8", "2-4, 6"."""
    counts = []
    for players in rules.deal_table.player_counts:
        try:
            new_game(players, rules, seed=0)
        except (DealError, RulesError):  # S2: a set without the rules' highest engine
            continue
        counts.append(players)
    spans: list[list[int]] = []
    for players in counts:
        if spans and spans[-1][-1] == players - 1:
            spans[-1][-1] = players
        else:
            spans.append([players, players])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in spans) or "no"


def _check_game(players: int, rules: Rules) -> None:
    """Refuse, as a usage error, a player count the rules do not deal for (S1, S2)."""
    try:
        new_game(players, rules, seed=0)
    except (DealError, RulesError):
        raise click.UsageError(
            f"--players: the {rules_label(rules)} rules allow {_player_counts(rules)} "
            f"players, not {players}"
        ) from None


class _Group(click.Group):
    """A group that reports every error in one line, without a traceback."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        if sys.stdout is None:  # started with standard output closed (>&-)
            _fail("cannot write the output: standard output is closed", _EXIT_FAILURE)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx is not None else self._where(args)
            _fail(f"{error.format_message()} (see '{where} --help')", error.exit_code)
        except click.ClickException as error:
            _fail(error.format_message(), error.exit_code)
        except click.Abort:
            _fail("interrupted", _EXIT_INTERRUPTED)
        except MexicanTrainError as error:
            _fail(str(error), _EXIT_FAILURE)
        except Exception as error:
            # A rule of the user's own, said in one line; then output that cannot be
            # written (stdout on a full disk, a closed file; click handles EPIPE); else a
            # bug of the package's, whose traceback is for the bug's report.
            failure = _rule_failure(error)
            if failure is not None:
                _fail(failure, _EXIT_FAILURE)
            if isinstance(error, OSError):
                _fail(f"cannot write the output: {error.strerror or error}", _EXIT_FAILURE)
            raise
        sys.exit(code if isinstance(code, int) else 0)

    def _where(self, args: Sequence[str] | None) -> str:
        # The command a parse error without a context belongs to (an option's missing
        # value): the first word of the arguments, when it names one (the group's own
        # options take no value).
        given = sys.argv[1:] if args is None else args
        first = next((word for word in given if not word.startswith("-")), None)
        return f"mexican-train {first}" if first in self.commands else "mexican-train"


def _fail(message: str, code: int) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


@click.group(
    cls=_Group,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(
    package_name="mexican-train",
    prog_name="mexican-train",
    # mexican_train.COMPILED: which build of the core is imported.
    message=f"%(prog)s, version %(version)s ({'compiled' if COMPILED else 'pure Python'})",
)
@click.pass_context
def cli(context: click.Context) -> None:
    """Mexican Train dominoes: bots, games and simulations in the terminal.

    Start with 'mexican-train demo' to watch a game, 'mexican-train play' to
    play one, and 'mexican-train rules' to read the rules.
    """
    if context.invoked_subcommand is None:
        click.echo(context.get_help())  # no command: the usage, and a success


# -- shared printing -------------------------------------------------------------


def _train_name(train: int, seat: int | None) -> str:
    if train == MEXICAN:
        return "the Mexican train"
    return "your train" if train == seat else f"seat {train}'s train"


def _stops_first_turn(table: PlayerView) -> bool:
    """Whether a Pass now only stops a first-turn chain (P4), which places no marker."""
    seat = table.seat
    return (
        seat is not None
        and table.rules.first_turn is not None
        and not table.had_first_turn[seat]
        and table.turn_tiles > 0
    )


def _describe(move: Move, table: PlayerView) -> str:
    seat = table.seat
    if isinstance(move, Play):
        return f"play {move.tile} on {_train_name(move.train, seat)}"
    if isinstance(move, Draw):
        return "draw a tile"
    if isinstance(move, Pass):
        if _stops_first_turn(table):
            return "stop here (your first turn ends; no marker, P4)"
        if seat is not None and table.trains[seat].marked:
            return "pass (end the turn; your train keeps its marker)"
        return "pass (end the turn; a marker goes on your train)"
    if isinstance(move, CallLastTile):
        return "call 'last tile'"
    return "deal the next round"


def _standings(state: GameState, names: Sequence[str], you: int | None = None) -> str:
    # E5: by total, and on a tie by the rounds at 0, then the lowest round other than 0.
    keys = standing_keys(state.scores, state.round_scores, state.rules.tie_break)
    order = sorted(range(state.players), key=lambda seat: (keys[seat], seat))
    lines = ["Final standings (lowest total wins, E5):"]
    shown = [f"{name} (you)" if seat == you else name for seat, name in enumerate(names)]
    # The names and the totals in columns, past a 10th rank and a long name too.
    width, digits = max(20, *map(len, shown)), len(str(state.players))
    for rank, seat in enumerate(order, start=1):
        crown = "  <- winner" if seat in state.winners else ""
        lines.append(f"  {rank:>{digits}}. {shown[seat]:<{width}} {state.scores[seat]:>5}{crown}")
    return "\n".join(lines)


def _round_summary(state: GameState, names: Sequence[str]) -> str:
    return f"Round {state.round_number} over: {round_result(state, names)}."


#: What the commands print is fitted to an 80-column terminal: a line of 80 would leave
#: some terminals' cursor past the edge, and an empty line after it.
_WIDTH: Final = 79


def _say(text: str, indent: str = "", hang: int = 0) -> None:
    """Echo *text*, each of its lines wrapped to `_WIDTH` columns, never inside a tile
    nor between a seat and its label ("seat 1 (greedy)").

    Each line starts after *indent*; the lines a long one goes on to start *hang*
    columns further in (a list's text under its text, not under its name).
    """
    rest = indent + " " * hang
    click.echo(
        "\n".join(
            textwrap.fill(
                _whole(_SEAT, line),
                _WIDTH,
                initial_indent=indent,
                subsequent_indent=rest,
                break_long_words=False,
                break_on_hyphens=False,
            ).replace("\xa0", " ")
            or line
            for line in text.split("\n")
        )
    )


def _whole(pattern: re.Pattern[str], line: str) -> str:
    """Return *line* with the spaces inside *pattern*'s matches made no-break ones, which
    textwrap never breaks at (it breaks at ASCII whitespace only): put them back after."""
    return pattern.sub(lambda match: match[0].replace(" ", "\xa0"), line)


#: A seat and its label ("Seat 3 (planner)"), kept on one line.
_SEAT: Final = re.compile(r"[Ss]eat \d+(?: \([^)]*\))?")


# -- demo ----------------------------------------------------------------------------


@cli.command()
@rules_options
@players_option(help="How many bots play.")
@bots_option("planner,greedy,random", _BOTS_HELP)
@seed_option
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary of each round.")
def demo(
    rules: str, house: tuple[str, ...], players: int, bots: str, seed: int | None, quiet: bool
) -> None:
    """Watch bots play a complete game.

    The first round is told move by move, with the table at its end; then
    each later round in a sentence, and the final standings.  --quiet prints
    only the summary.
    """
    chosen = rules_from_options(rules, house)
    _check_game(players, chosen)
    seated = named_bots_from_option(bots, players)
    table = [bot for _, bot in seated]
    names = [f"seat {seat} ({name})" for seat, (name, _) in enumerate(seated)]
    state = new_game(players, chosen, seed=seed)
    _say(
        f"Mexican Train: {players} bots play a whole game under the {rules_label(chosen)} "
        f"rules (seed {state.seed}; --seed {state.seed} replays it)."
    )
    narrator = Narrator(names)
    if not quiet:
        _say(
            "Rule ids in brackets, such as (S3) or (D1), name the rule that applies; "
            "'mexican-train rules' explains each one."
        )
        click.echo("")
        _say(narrator.round_start(state))
    moves = 0
    observers = observers_of(dict(enumerate(table)))  # bots that keep the round (S5)
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            before, state = state, apply(state, NEXT_ROUND)
            tell(observers, before, NEXT_ROUND, state)
            moves = 0
            continue
        mine = view(state, seat)
        move = table[seat].choose(mine, legal_moves(mine))
        before, state = state, _bot_moves(state, move, names[seat])
        tell(observers, before, move, state)
        moves += 1
        if not quiet and state.round_number == 1:
            # Each move a line of its own, a longer one going on under its text.
            _say(narrator.move(before, move, state), indent="  ", hang=2)
            note = narrator.turn_end(before, state)
            if note:
                _say(note, indent="  ", hang=2)
        if state.is_round_over:
            if not quiet and state.round_number == 1:
                click.echo("")
                click.echo(render_text(state, names=names, width=_WIDTH))
                click.echo("")
            _say(f"{_round_summary(state, names)} ({moves} moves)", hang=2)
    click.echo("")
    click.echo(_standings(state, names))


def _bot_moves(state: GameState, move: Move, name: str) -> GameState:
    """Return the state after a bot's *move*; a move the rules refuse ends the command (1)."""
    try:
        return apply(state, move)
    except IllegalMoveError as error:
        raise click.ClickException(illegal_move_said(name, shown(move), error.reason)) from None


# -- play ----------------------------------------------------------------------------


def _help(rules: Rules) -> str:
    """Return how to enter a move, with the last-tile call only where the rules have it."""
    call = ", c to call 'last tile'" if rules.last_tile_penalty else ""
    return (
        "Enter a move's number (Enter alone takes the only move), or a tile such as 6-5 "
        f"(add m for the Mexican train or a seat number, e.g. '6-5 m'), d to draw, "
        f"p to pass{call}, h for a hint (the search bot's move), ? for help, q to quit."
    )


def _full_help(state: GameState, seat: int) -> str:
    """Return the help for this turn: how to enter a move, and why these moves."""
    mine = view(state, seat)
    lines = [_help(state.rules), ""]
    rules, first_turn = state.rules, state.rules.first_turn
    if first_turn is not None and not state.had_first_turn[seat]:
        lines.append(
            "This is your first turn of the round: "
            + (
                "you build your own train, as many tiles in a row as fit, and may stop "
                "after the first one (P4)."
                if first_turn.chain
                else "you play a single tile, on your own train (P4)."
            )
            + (
                "  If you cannot start it, draw one tile and play it if it fits (P4)."
                if first_turn.may_draw
                else ""
            )
        )
    elif doubles_to_cover(state) and not state.turn_tiles:
        lines.append(
            "A double is open: you must cover it before playing anywhere else; if you "
            "cannot, draw, and if that does not help, pass (D2)."
        )
    elif state.turn_doubles:
        lines.append("You played a double: play again, on it or anywhere you may play (D1).")
    else:
        lines.append(
            "Play one tile on your train, on the Mexican train once it is open to you, or "
            "on a train with a marker (P3).  "
            + (
                "If you cannot, draw until a tile fits or the boneyard is empty; if none "
                "does, pass and a marker goes on your train (P5)."
                if rules.draw_until_playable
                else "If you cannot, draw one tile; if it does not fit either, pass and a "
                "marker goes on your train (P5)."
            )
            + (
                ""
                if rules.must_play
                else "  You may also draw instead of playing, and then play or pass (V6)."
            )
        )
    anywhere = " a tile anywhere" if rules.marker_lifts_anywhere else " on it"
    lines.append(
        "A marker (shown on a train) opens that train to everyone until its owner plays"
        f"{anywhere} (P6).  The player who runs out of tiles ends the round; the others score "
        "the pips left in hand, and the lowest total after all rounds wins (E1, E3, E5)."
    )
    penalty = rules.last_tile_penalty
    if penalty:
        lines.append(
            "While you hold two tiles, call 'last tile' (c) before you play: a turn that "
            f"leaves you one tile without the call ends with {penalty} "
            f"tile{'' if penalty == 1 else 's'} drawn as the penalty."
        )
    lines.append(
        f"You hold {len(mine.hand)} tiles; the boneyard has {mine.boneyard_size}.  "
        "'mexican-train rules' explains every rule."
    )
    return "\n".join(lines)


def _in_player_words(reason: str, seat: int) -> str:
    """Return an engine refusal as one clause in the player's words, its rule at the end.

    "P4: ... a player plays only on their own train, not on seat 1's train" becomes
    "on the first turn ... you play only on your own train, not on seat 1's train (P4)."
    """
    text = reason.replace("; see legal_moves()", "")
    text = re.sub(r" \(Rules\.\w+ is \w+\)", "", text)
    text = re.sub(
        rf"\bseat {seat} (does|holds|has)\b",
        lambda m: "you " + {"does": "do", "holds": "hold", "has": "have"}[m[1]],
        text,
    )
    text = re.sub(rf"\bto seat {seat}\b(?!')", "to you", text)
    text = text.replace(f"seat {seat}'s train", "your train")
    text = text.replace("a player plays only on their own train", "you play only on your own train")
    text = text.replace(f"their own train ({seat})", "your own train")
    text = text.replace("Pass()", "p (pass)")  # a move as the person types it
    # The last-tile call, a house rule without a rule id, named in the sentence.
    text = text.replace("last tile: a player calls holding", "you call 'last tile' holding")
    text = text.replace("last tile: you have already called", "you have already called 'last tile'")
    rule, colon, rest = text.partition(": ")
    if colon and re.fullmatch(r"[A-Z]\d+[a-z]?(/[A-Z]\d+[a-z]?)*", rule):
        text = f"{rest} ({rule})"
    return text if text.endswith(".") else text + "."


def _is_number(word: str) -> bool:
    # ASCII digits only: str.isdigit() also takes superscripts, which int() refuses, and
    # Arabic-Indic digits, which it reads; and few of them, so int() never meets 5000 digits.
    return word.isascii() and word.isdigit() and len(word) <= 6


def _shown(text: str) -> str:
    """Return *text* quoted for an error message, cut short when it is long."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


def _parse_train(word: str, seat: int) -> int:
    word = word.lower()
    if word in {"m", "mex", "mexican"}:
        return MEXICAN
    if word in {"me", "mine", "own"}:
        return seat
    if _is_number(word):
        return int(word)
    raise ValueError(f"{_shown(word)} is not a train: use m, or a seat number.")


def _choose(moves: tuple[Move, ...]) -> str:
    """Return what a person may type for one of *moves*, for the line that answers a move
    it cannot read (the help, at ?, tells the rest)."""
    if len(moves) == 1:
        return "press Enter for the only move, or type ? for help."
    return f"choose 1-{len(moves)}, a tile such as 6-5, or ? for help."


def _read_move(text: str, moves: tuple[Move, ...], seat: int, rules: Rules) -> Move:
    """Return the move *text* asks for; raise ValueError with a message for the player."""
    words = text.split()
    if not words:
        if len(moves) == 1:
            return moves[0]  # Enter takes the only move
        told = _choose(moves)
        raise ValueError(told[0].upper() + told[1:])
    first = words[0].lower()
    digits = first[1:] if first[0] in "+-" else first  # "-1" and "+2" are numbers too
    if len(words) == 1 and digits.isascii() and digits.isdigit():
        number = int(digits) if _is_number(digits) and first[0] != "-" else 0
        if not 1 <= number <= len(moves):
            shown = first if len(first) <= 20 else first[:20] + "..."
            raise ValueError(f"There is no move {shown}: choose 1-{len(moves)}.")
        return moves[number - 1]
    simple: dict[str, Move] = {"d": Draw(), "draw": Draw(), "p": Pass(), "pass": Pass()}
    if rules.last_tile_penalty:  # the call exists only where the rules have it
        simple.update({"c": CallLastTile(), "call": CallLastTile()})
    if len(words) == 1 and first in simple:
        return simple[first]
    if len(words) == 1 and first in {"c", "call"}:  # play --help names c, with this proviso
        raise ValueError(
            "These rules have no 'last tile' call: it is the house rule last-tile-call "
            "('mexican-train rules last-tile-call')."
        )
    if len(words) >= 2 and _is_number(words[0]) and _is_number(words[1]):
        words = [f"{words[0]}-{words[1]}", *words[2:]]  # "6 5" is the tile 6-5
    if len(words) > 2:
        raise ValueError(f"I did not understand {_shown(text)}: {_choose(moves)}")
    try:
        tile = Tile.parse(words[0])
    except TileNotationError:
        raise ValueError(f"I did not understand {_shown(text)}: {_choose(moves)}") from None
    if len(words) == 2:
        return Play(tile, _parse_train(words[1], seat))
    fitting = [m for m in moves if isinstance(m, Play) and m.tile is tile]
    if len(fitting) > 1:
        *others, last = (_train_name(m.train, seat) for m in fitting)
        where = f"{', '.join(others)} or {last}"
        train = fitting[-1].train  # the example names a train the tile fits
        example = f"{tile} {'m' if train == MEXICAN else train}"
        raise ValueError(f"{tile} can go on {where}: say which, e.g. '{example}'.")
    if fitting:
        return fitting[0]
    return Play(tile, seat)  # not legal: apply() will say why


class _Quit(Exception):
    """The player chose to leave the game (q, or Ctrl-D at the prompt)."""


def _human_turn(
    state: GameState, seat: int, names: Sequence[str], narrator: Narrator, hint: Player
) -> tuple[Move, GameState]:
    mine = view(state, seat)
    moves = legal_moves(mine)
    click.echo("")
    click.echo(render_text(mine, names=names, width=_WIDTH))
    click.echo("Your moves:")
    for number, move in enumerate(moves, start=1):
        click.echo(f"  {number}) {_describe(move, mine)}")
    choices = "Enter" if len(moves) == 1 else f"1-{len(moves)}"
    while True:
        text = click.prompt(f"Your move [{choices}, ? for help]", default="", show_default=False)
        if text.strip().lower() in _QUIT_WORDS:
            raise _Quit
        if text.strip().lower() in {"?", "help"}:
            _say(_full_help(state, seat))
            continue
        if text.strip().lower() in {"h", "hint"}:
            # The search bot's choice, from what this seat has seen only (S5).
            best = hint.choose(mine, moves)
            click.echo(f"Hint: {moves.index(best) + 1}) {_describe(best, mine)}")
            continue
        try:
            move = _read_move(text, moves, seat, state.rules)
            if isinstance(move, Play) and move.tile.high > state.max_pip:
                raise ValueError(
                    f"There is no {move.tile} in this game: it is played with a "
                    f"double-{state.max_pip} set."
                )
            after = apply(state, move)
        except IllegalMoveError as error:
            _say(f"Not allowed: {_in_player_words(error.reason, seat)}")
            continue
        except ValueError as error:
            _say(str(error))
            continue
        _say(narrator.move(state, move, after))
        note = narrator.turn_end(state, after)
        if note:
            _say(note)
        return move, after


@cli.command()
@rules_options
@players_option(help="Players, you included.")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat, from 0.")
@bots_option("planner", "Your opponents: " + _BOTS_HELP[4:])
@seed_option
@click.option(
    "--review/--no-review",
    default=None,
    help="Review your moves after each round, or never (default: ask, on a terminal).",
)
@click.option(
    "--record",
    "record_file",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Save the game's record to FILE as JSON, after each round and when you leave, "
    "for 'mexican-train analyze FILE'.  A FILE that exists is replaced.",
)
def play(
    rules: str,
    house: tuple[str, ...],
    players: int,
    seat: int,
    bots: str,
    seed: int | None,
    review: bool | None,
    record_file: str | None,
) -> None:
    """Play against bots in the terminal.

    On your turn the table and your legal moves are shown; type a move's
    number (Enter alone when there is only one), or a tile such as 6-5 or 6 5
    (with m for the Mexican train, or a seat number), d to draw, p to pass, c to call
    'last tile' (under rules with the call), h for a hint (the search bot's
    move), ? for help.  q or Ctrl-D leaves the game (exit status 0); Ctrl-C
    stops it (130).  At the end of each round, on a terminal, it offers a
    review of your moves, as analyze gives it; --record saves the game for
    analyze.
    """
    chosen = rules_from_options(rules, house)
    _check_game(players, chosen)
    if not 0 <= seat < players:
        raise click.UsageError(
            f"--seat: there is no seat {seat} with {players} players (seats 0-{players - 1})"
        )
    if sys.stdin is None:  # started with standard input closed (<&-)
        raise click.ClickException("cannot read your moves: standard input is closed")
    opponents = [s for s in range(players) if s != seat]
    seated = dict(zip(opponents, named_bots_from_option(bots, len(opponents)), strict=True))
    table = {s: bot for s, (_, bot) in seated.items()}
    names = [f"seat {s}" for s in range(players)]
    for s, (name, _) in seated.items():
        names[s] = f"seat {s} ({name})"
    # render_text marks the reader's own seat "(you)" by itself.
    state = new_game(players, chosen, seed=seed)
    start, played = state, list[Move]()
    if record_file is not None:
        try:  # written at once: a path that cannot be written stops the game before it starts
            _write_record(record_file, start, played)
        except OSError as error:
            raise click.UsageError(
                f"--record: cannot write {click.format_filename(record_file)}: "
                f"{error.strerror or error}"
            ) from None
    ask = review is None and sys.stdin.isatty()  # offer a review on a terminal only
    narrator = Narrator(names, you=seat, reveal=False)
    _say(f"Mexican Train, {rules_label(chosen)} rules, {players} players; you are seat {seat}.")
    _say(_help(chosen))
    _say(narrator.round_start(state))
    try:
        _play_game(state, seat, table, names, narrator, start, played, review, ask, record_file)
    finally:
        if record_file is not None:
            _save_record(record_file, start, played)
            shown_file = click.format_filename(record_file)
            _say(f"The game's record is in {shown_file}; to review your moves:")
            # A line of its own, not wrapped: a command to copy whole, where a name
            # starting with '-' would be read as standard input or an option.
            path = f"./{shown_file}" if shown_file.startswith("-") else shown_file
            click.echo(f"  mexican-train analyze {shlex.quote(path)} --seat {seat}")


def _play_game(
    state: GameState,
    seat: int,
    table: dict[int, Player],
    names: Sequence[str],
    narrator: Narrator,
    start: GameState,
    played: list[Move],
    review: bool | None,
    ask: bool,
    record_file: str | None,
) -> None:
    """Play the game from *state*, appending every move to *played*, until it ends or stops.

    The bots that keep the round's events, and the search bot that gives the person's
    hints, are told every move as their seat sees it (S5).
    """
    hint = SearchPlayer()
    observers = observers_of({**table, seat: hint})
    move: Move
    try:
        while not state.is_over:
            current, before = state.current_player, state
            if current is None:
                answer = click.prompt(
                    f"Press Enter to deal round {state.round_number + 1} (q to quit)",
                    default="",
                    show_default=False,
                )
                if answer.strip().lower() in _QUIT_WORDS:
                    raise _Quit
                move, state = NEXT_ROUND, apply(state, NEXT_ROUND)
                _say(narrator.round_start(state))
            elif current == seat:
                move, state = _human_turn(state, seat, names, narrator, hint)
            else:
                mine = view(state, current)
                move = table[current].choose(mine, legal_moves(mine))
                state = _bot_moves(state, move, names[current])
                _say(narrator.move(before, move, state))
                note = narrator.turn_end(before, state)
                if note:
                    _say(note)
            played.append(move)
            tell(observers, before, move, state)
            if state.is_round_over:
                click.echo("")
                # The whole table, every hand shown: the person's seat is named "(you)" here
                # too, as in their own view and the final standings.
                yours = [f"{name} (you)" if s == seat else name for s, name in enumerate(names)]
                click.echo(render_text(state, names=yours, width=_WIDTH))
                _say(_round_summary(state, yours))
                if record_file is not None:
                    _save_record(record_file, start, played)
                if review or (ask and _wants_review()):
                    _review_round(record(start, played), seat, state.round_number)
    except (_Quit, EOFError):  # a chosen quit: q, or Ctrl-D (end of input) at a prompt
        click.echo("\nGame abandoned. Bye!")
        return
    except (KeyboardInterrupt, click.Abort) as error:
        # click.prompt turns Ctrl-D into Abort too: the end of input means a quit.
        click.echo("\nGame abandoned. Bye!")
        if isinstance(error, click.Abort) and not isinstance(error.__context__, KeyboardInterrupt):
            return
        sys.exit(_EXIT_INTERRUPTED)
    click.echo("")
    click.echo(_standings(state, names, you=seat))


def _wants_review() -> bool:
    """Ask whether to review the round just over: y, or n / Enter; q leaves the game."""
    while True:
        answer = click.prompt("Review this round? [y/N, q to quit]", default="", show_default=False)
        word = answer.strip().lower()
        if word in _QUIT_WORDS:
            raise _Quit
        if word in {"y", "yes"}:
            return True
        if word in {"", "n", "no"}:
            return False
        _say(
            f"I did not understand {_shown(answer)}: y reviews your moves of the round, "
            "n or Enter goes on, q quits."
        )


def _write_record(path: str, start: GameState, played: Sequence[Move]) -> None:
    """Write the record of the game from *start* with the moves *played* to *path* as JSON.

    Whole or not at all: the text goes to a file beside *path*, which then replaces it,
    so a game stopped while it is written leaves the last record saved, never half of one.
    """
    text = json.dumps(to_json(record(start, played)))
    partial = f"{path}.partial"
    try:
        with open(partial, "w", encoding="utf-8") as file:
            file.write(text + "\n")
        os.replace(partial, path)
    except BaseException:  # a failed write or replace, or Ctrl-C: no partial file is left
        with contextlib.suppress(OSError):
            os.remove(partial)
        raise


def _save_record(path: str, start: GameState, played: Sequence[Move]) -> None:
    """Write the record as `_write_record` does; a failure ends the command (1)."""
    try:
        _write_record(path, start, played)
    except OSError as error:
        raise click.ClickException(
            f"cannot write the record to {click.format_filename(path)}: {error.strerror or error}"
        ) from None


# -- simulate ------------------------------------------------------------------------


@cli.command()
@rules_options
@players_option(help="How many players at the table.")
@bots_option("random,greedy,planner,greedy", _BOTS_HELP)
@click.option(
    "--games",
    "-n",
    # A bound, so that a typo cannot queue more batches than memory holds.
    type=click.IntRange(min=BOUNDS["games"].low, max=BOUNDS["games"].high),
    default=100,
    show_default=True,
    help="How many games.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    callback=_check_seed,
    help="The simulation's seed.",
)
@click.option(
    "--workers",
    "-j",
    type=click.IntRange(min=1, max=256),
    default=1,
    show_default=True,
    help="Processes to run games in.",
)
@click.option("--fixed-seats", is_flag=True, help="Do not rotate the players round the table.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def simulate(
    rules: str,
    house: tuple[str, ...],
    players: int,
    bots: str,
    games: int,
    seed: int,
    workers: int,
    fixed_seats: bool,
    as_json: bool,
) -> None:
    """Simulate many games between bots.

    Prints wins and mean scores with 95% confidence intervals for each
    player (--json for the whole result with its settings, rules and
    seed, which SimulationResult.from_dict reads).  An interval never reaches below
    the smallest score the rules allow (0 unless the double-blank scores
    less, E3).  The same seed gives the same numbers with any number of
    --workers.  A progress bar shows on a terminal only.  Ctrl-C stops the
    games and prints the results of those that finished (status 130).
    """
    chosen = rules_from_options(rules, house)
    _check_game(players, chosen)
    seated = named_bots_from_option(bots, players)
    try:  # as simulate does, but in the words of the options
        check_copies(
            tuple(bot for _, bot in seated), tuple(name for name, _ in seated), workers > 1,
            sent_by="the worker processes are sent the players",
            instead="play in this process, --workers 1",
        )  # fmt: skip
    except TypeError as error:
        raise click.UsageError(f"--bots: {error}") from None
    executor: Executor | None = None
    if workers > 1:  # Ctrl-C is this process's to answer (_stop_workers)
        executor = _Workers(workers, initializer=signal.signal, initargs=_NO_SIGINT)
    interrupted: SimulationInterrupted | None = None
    try:
        with click.progressbar(
            length=games,
            label="Playing",
            file=sys.stderr,
            show_pos=True,
            hidden=not sys.stderr.isatty(),
        ) as bar:
            result = run_simulation(
                [bot for _, bot in seated], chosen, games, seed, executor,
                rotate_seats=not fixed_seats, progress=bar.update,
                names=[name for name, _ in seated],
            )  # fmt: skip
    except BaseException as error:
        # Ctrl-C, or a bot's failure in one worker: the games in play in the others, a
        # bot stuck in one of them, are not waited for.
        if executor is not None:
            _stop_workers(executor)
        if isinstance(error, BrokenProcessPool):  # its traceback tells neither the games nor why
            raise click.ClickException(
                f"a worker process ended abruptly, after {bar.pos} of {games} games: killed "
                "(out of memory, say) or ended by a bot's own code"
            ) from None
        if not isinstance(error, SimulationInterrupted):
            raise
        interrupted, result = error, error.result  # Ctrl-C: report the games done
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if interrupted is not None and not result.completed_games + result.stopped_games:
        _fail(str(interrupted), _EXIT_INTERRUPTED)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        click.echo(f"Rules: {rules_label(chosen)}")
        click.echo(result.report())
    if interrupted is not None:
        _fail(f"{interrupted}; the results above are theirs", _EXIT_INTERRUPTED)
    if result.stopped_games:
        count = result.stopped_games
        raise click.ClickException(
            f"{count} game{'s' if count > 1 else ''} stopped at an illegal move "
            f"({'illegal_moves in the JSON' if as_json else 'listed above'})"
        )


#: The worker processes of ``simulate --workers`` ignore Ctrl-C (SIGINT): the command
#: answers it, and stops them (`_stop_workers`).
_NO_SIGINT: Final = (signal.SIGINT, signal.SIG_IGN)


_Returned = TypeVar("_Returned")


class _Workers(ProcessPoolExecutor):
    """The worker processes of ``simulate --workers``, whose rule of the user's own that
    raises is said in one line, as in one process (`_rule_failure`).

    The line is made in the worker: the traceback it is read from does not come back
    with the exception.
    """

    def submit(
        self, fn: Callable[..., _Returned], /, *args: Any, **kwargs: Any
    ) -> Future[_Returned]:
        return super().submit(_rule_failure_in_one_line, fn, *args, **kwargs)


def _rule_failure_in_one_line(
    function: Callable[..., _Returned], *args: Any, **kwargs: Any
) -> _Returned:
    """Return *function*'s result; a rule of the user's own that raises is sent back as a
    `click.ClickException` that says which and how, whether or not its own exception
    pickles (`SENT_INSTEAD`; module level: a worker unpickles it)."""
    told = SENT_INSTEAD.set(_rule_failure_sent)
    try:
        return function(*args, **kwargs)
    finally:
        SENT_INSTEAD.reset(told)


def _rule_failure_sent(error: Exception) -> Exception | None:
    """Return a `click.ClickException` that says in one line which rule of the user's own
    raised *error*, and how; None if no such rule did."""
    failure = _rule_failure(error)
    return None if failure is None else click.ClickException(failure)


def _stop_workers(executor: Executor) -> None:
    """Stop *executor*'s worker processes now, games and all, for Ctrl-C or a failure.

    A pool's shutdown waits for the games its workers play, and a bot that never
    returns would hold it for ever; the workers are this command's only child
    processes.
    """
    executor.shutdown(wait=False, cancel_futures=True)
    for worker in multiprocessing.active_children():
        worker.terminate()
        worker.join()


# -- analyze -------------------------------------------------------------------------


class _RecordFile(click.File):
    """A file to read, ``-`` standard input; a closed standard input refused in words."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value == "-" and sys.stdin is None:  # started with it closed (<&-)
            self.fail(f"{_shown(value)}: standard input is closed", param, ctx)
        return super().convert(value, param, ctx)


@cli.command()
@click.argument("record_file", metavar="RECORD.json", type=_RecordFile("rb"))
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    default=None,
    help="The seat to review (default: every seat).",
)
@click.option(
    "--round",
    "round_number",
    type=click.IntRange(min=1),
    default=None,
    help="The round to review, from 1 (default: every round).",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="How many of the biggest mistakes to show.",
)
@click.option(
    "--samples",
    type=click.IntRange(min=1, max=10_000),
    default=40,
    show_default=True,
    help="Sampled deals per decision: more is slower and steadier.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    callback=_check_seed,
    help="The coach's seed.",
)
def analyze(
    record_file: Any, seat: int | None, round_number: int | None, top: int, samples: int, seed: int
) -> None:
    """Review a recorded game: its biggest mistakes, and better moves.

    Each decision is judged from what its seat could know: its own tiles and
    what the table showed, never the hidden tiles (S5).  The record is the JSON of
    a GameRecord, as 'play --record FILE' saves it (in Python:
    mexican_train.serialize.to_json).
    """
    name = click.format_filename(record_file.name)
    raw = record_file.read().removeprefix(codecs.BOM_UTF8)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise click.UsageError(
            f"{name} is not JSON: the file is not UTF-8 text ({error.reason})"
        ) from None
    try:
        # As the web table reads a body: UTF-8 (a byte-order mark allowed), nested at
        # most 32 deep, standard JSON only.
        game = record_from_json(read_json(raw))
    except RequestError as error:
        raise click.UsageError(f"{name} is not JSON: {error.reason}") from None
    except SchemaError as error:
        raise click.UsageError(f"{name} is not a game record: {error}") from None
    if seat is not None and seat >= game.players:
        raise click.UsageError(f"--seat: the game has seats 0-{game.players - 1}, not {seat}")
    who = "every seat" if seat is None else f"seat {seat}"
    if round_number is not None:
        rounds = replay(game).round_number
        if round_number > rounds:
            raise click.UsageError(
                f"--round: the game has {_rounds(rounds)}, not round {round_number}"
            )
        who += f" in round {round_number}"
    # A long game takes a while (each decision's moves are played out in *samples*
    # deals): say so at once, on stderr, so that the report alone goes to stdout.
    click.echo(f"Reviewing the moves of {who}...", err=True)
    # Every seat's review is read by one person: each reason names its seat ("seat 1's
    # train", "better for seat 1"); one seat's speaks to its player throughout ("your
    # 7th move", "your train"), as play's review does.
    yours = seat is not None
    reviews = run_analysis(
        game, seat, samples=samples, seed=seed, round_number=round_number, yours=yours
    )
    click.echo(review_report(list(reviews), who, samples, top, yours=yours).text())


def _rounds(count: int) -> str:
    return "round 1 only" if count == 1 else f"rounds 1-{count}"


_REVIEW_SAMPLES = 40
_REVIEW_TOP = 5


def _review_round(game: GameRecord, seat: int, round_number: int) -> None:
    """Print the review of *seat*'s moves in round *round_number* of *game* (`play`)."""
    click.echo(f"Reviewing your moves of round {round_number}...")
    reviews = run_analysis(game, seat, samples=_REVIEW_SAMPLES, round_number=round_number)
    report = review_report(list(reviews), f"seat {seat}", _REVIEW_SAMPLES, _REVIEW_TOP, yours=True)
    click.echo(report.text())


# -- rules ---------------------------------------------------------------------------


@cli.command()
@click.argument("name", required=False)
@click.option(
    "--house",
    multiple=True,
    metavar="NAME",
    help="Add a house rule to the rules (repeat for several).",
)
@click.option(
    "--list",
    "list_only",
    is_flag=True,
    help="List every variant with its first sentence, and stop.",
)
@click.option("--table", is_flag=True, help="Show every rule axis in a table instead of prose.")
def rules(name: str | None, house: tuple[str, ...], list_only: bool, table: bool) -> None:
    """Explain the rules of a preset, variant or combination.

    NAME is a preset (standard, hub) or a variant; the default is standard.
    With --house, house rules are added to it, as in the game commands.
    """
    if list_only:
        if name is not None or house or table:
            given = name if name is not None else ("--house" if house else "--table")
            raise click.UsageError(
                f"--list lists every variant and takes nothing else, not {_shown(given)}"
            )
        names = variant_names()
        width = max(map(len, names))
        for variant in names:
            first = _plain(describe_variant(variant)).split(". ")[0].rstrip(".")
            _say(f"{variant:<{width}}  {first}.", hang=width + 2)
        return
    chosen = rules_from_options("standard" if name is None else name, house, option="NAME")
    label = rules_label(chosen)
    click.echo(f"The {label} rules")
    click.echo("=" * len(f"The {label} rules"))
    if label != "custom":
        _say(_plain(describe_variant(label)))
    click.echo("")
    if table:
        described = describe_rules(chosen)
        width = max(map(len, described))
        for axis, text in described.items():
            _say(f"{axis:<{width}}  {text}", indent="  ", hang=width + 2)
        return
    click.echo(explain_rules(chosen, _WIDTH))
    click.echo("")
    _say(
        "Rule ids (S1, P4, D2...) are those of the documentation's pages "
        "'The rules as implemented'."
    )


# -- serve ---------------------------------------------------------------------------


def _check_host(context: click.Context, parameter: click.Parameter, value: str) -> str:
    # An empty host would listen on every interface: say so rather than do it.
    if not value.strip():
        raise click.BadParameter(
            "give an address: 127.0.0.1 for this machine only, 0.0.0.0 for every network",
            context,
            parameter,
        )
    try:
        value.encode("idna")
    except UnicodeError:
        raise click.BadParameter(
            f"{_shown(value)} is not a host name or address", context, parameter
        ) from None
    return value


@cli.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    callback=_check_host,
    help="The address to listen on.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="The port to listen on (0: any free port).",
)
@players_option(help="Seats at the table, people and bots.")
@click.option(
    "--people",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Seats for people (the first ones); bots take the others.",
)
@rules_options
@bots_option("planner", _BOTS_HELP)
@seed_option
@click.option(
    "--bot-delay",
    type=_Seconds(0, 60),
    default=0.6,
    show_default=True,
    help="Seconds a bot waits before it moves.",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default=None,
    help="Keep the tables in this SQLite database: a restart resumes them "
    "[default: tables.sqlite3 in your data folder, e.g. ~/.local/share/mexican-train].",
)
@click.option("--no-db", is_flag=True, help="Keep nothing: the table ends with the server.")
@click.option(
    "--takeover",
    type=_Seconds(1, 86400),
    default=None,
    metavar="SECONDS",
    help="A bot plays a seat whose page has been gone this long, until it is back.",
)
@click.option(
    "--turn-timer",
    type=_Seconds(1, 86400),
    default=None,
    metavar="SECONDS",
    help="Seconds a person has for each move; then a bot makes it for them.",
)
@click.option(
    "--bot-timer",
    type=_Seconds(1, 86400),
    default=BOT_TIMER,
    show_default=True,
    metavar="SECONDS",
    help="Seconds a bot has for each move; then the table plays its first legal move "
    "for it, and says so.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(1, 65536),
    default=MAX_CONNECTIONS,
    show_default=True,
    help="Connections served at once, all clients together (a table with every page "
    "open holds two a seat); past it a request is answered 503.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="A name the server answers to besides its own (repeat for several; '*' for any): "
    "the name others reach it by, or a reverse proxy's, whether it passes its name on or "
    "its own address (its pages' Origin is that name).  A request for another name is "
    "refused, so that a web page cannot point a name of its own at this machine and use "
    "the server; so is a move or a WebSocket from another site's page.",
)
@click.option(
    "--max-per-client",
    type=click.IntRange(1, 65536),
    default=MAX_PER_CLIENT,
    show_default=True,
    help="Connections served at once from one address (behind a reverse proxy, every "
    "client has the proxy's: let the proxy limit each client and raise this).",
)
@click.option(
    "--table-idle",
    type=_Hours(0.1, 8760),
    default=round(TABLE_IDLE / 3600),
    show_default=True,
    metavar="HOURS",
    help="Hours a table made in the lobby lives with nobody playing at it; then it "
    "expires: the server lets it go and deletes it from --db, and its links say so.  "
    f"The lobby makes a table while fewer than {MAX_TABLES} are served, and fewer than "
    f"{MAX_TABLES_PER_CLIENT} of those made from the same address.",
)
@click.option("--quiet", "-q", is_flag=True, help="Do not print the access log.")
def serve(
    host: str,
    port: int,
    players: int,
    people: int,
    rules: str,
    house: tuple[str, ...],
    bots: str,
    seed: int | None,
    bot_delay: float,
    db: str | None,
    no_db: bool,
    takeover: float | None,
    turn_timer: float | None,
    bot_timer: float,
    max_connections: int,
    max_per_client: int,
    allowed_hosts: tuple[str, ...],
    table_idle: float,
    quiet: bool,
) -> None:
    """Play in the browser: serve a table and print each person's link.

    Open the link printed for your seat; bots play the seats nobody takes.
    Several people share a table with --people: each gets a link of their
    own (the part after # is the seat's secret key).  With --host 0.0.0.0
    the links name this machine's network address.  --seed is for replaying
    a game: whoever knows it knows every hand, so leave it out when several
    people play.  The table is kept in a database (--db; --no-db for none),
    every move committed before it is acknowledged: a restart resumes an
    unfinished table of the same players and rules, and its links still
    work.  The page without a link is the lobby, where anyone who can reach
    the server makes tables; one that nobody plays at for --table-idle
    hours expires (the table above never does).  Ctrl-C stops it.
    """
    from .store import StoreError, default_path

    try:
        from .web import serve as serve_table  # the server is loaded only for this command
    except ImportError as error:
        if not lacks_web_extra(error):
            raise
        raise click.ClickException(
            f"serve needs the web extra ({error.name} is missing): pip install 'mexican-train[web]'"
        ) from None

    for name in allowed_hosts:
        try:
            checked_hosts([name])
        except InvalidArgumentError:
            raise click.BadParameter(
                f"a host name without a port (table.example.org), an address, or '*', "
                f"not {shown(name)}",
                param_hint="'--allowed-host'",
            ) from None
    chosen = rules_from_options(rules, house)
    _check_game(players, chosen)
    if people > players:
        raise click.UsageError(f"--people is at most --players ({players}), not {people}")
    # Checked even with no seat for a bot.  A library bot or level goes to the table by
    # its name, which the table shows and keeps (a restart makes it again from the name).
    seated = [
        bot if isinstance(bot, _UserBot) else name
        for name, bot in named_bots_from_option(bots, players - people)
    ]
    if no_db and db is not None:
        raise click.UsageError("--db and --no-db: choose one")
    if not no_db and db is None:
        db = str(default_path())
    if db in ("", ":memory:"):  # SQLite keeps these in memory or a temporary file
        raise click.UsageError(f"--db {db!r} names no file: give one, or --no-db to keep nothing")
    # SIGTERM (kill, a service manager's stop) stops the server as Ctrl-C does, whenever
    # it comes: its tables and database closed, "Stopped.", status 0.  Its default would
    # end the process at once (uvicorn, which answers it while serving, raises it again).
    terminate = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        serve_table(
            players=players, people=people, bots=seated, rules=chosen, seed=seed,
            host=host, port=port, bot_delay=bot_delay, log=None if quiet else sys.stderr,
            db=db, takeover=takeover, turn_timer=turn_timer, bot_timer=bot_timer,
            max_connections=max_connections, max_per_client=max_per_client,
            table_idle=table_idle * 3600, allowed_hosts=allowed_hosts,
        )  # fmt: skip
    except KeyboardInterrupt:
        click.echo("Stopped.")
    except StoreError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(
            f"cannot serve on {host}:{port}: {error.strerror or error}"
        ) from None
    finally:
        signal.signal(signal.SIGTERM, terminate)


def main() -> None:
    """Run the command line (the ``mexican-train`` console script)."""
    cli.main(prog_name="mexican-train")
