"""The command line, ``mexican-train``: demo, play, simulate, rules and serve.

Built on click, and only on the public API.  Bad input (an unknown variant,
an impossible player count, a malformed option) gives one ``Error:`` line on
stderr and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, NoReturn

import click

from ._engine import apply, legal_moves, new_game
from ._errors import IllegalMoveError, MexicanTrainError
from ._moves import MEXICAN, CallLastTile, Draw, Move, NextRound, Pass, Play
from ._players import GreedyPlayer, PlannerPlayer, Player, RandomPlayer
from ._rules import Rules
from ._search import SearchPlayer
from ._simulate import simulate as run_simulation
from ._state import GameState
from ._tiles import Tile, TileNotationError
from ._view import PlayerView, view
from .render import render_text
from .variants import describe_rules, get_variant, variant_names

__all__ = ["cli", "main"]

#: The bots the command line knows, by name.
BOTS = ("planner", "greedy", "random", "search")

_EXIT_INTERRUPTED = 130  # the shell's code for a program stopped by Ctrl-C


def _make_bot(name: str, index: int) -> Player:
    if name == "planner":
        return PlannerPlayer()
    if name == "greedy":
        return GreedyPlayer()
    if name == "search":
        return SearchPlayer(seed=index)
    return RandomPlayer(seed=index)


def _bot_names(text: str, option: str) -> list[str]:
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    for name in names:
        if name not in BOTS:
            raise click.UsageError(
                f"{option}: no bot named {name!r}; the bots are: {', '.join(BOTS)}"
            )
    if not names:
        raise click.UsageError(f"{option}: name at least one bot ({', '.join(BOTS)})")
    return names


def _rules(name: str) -> Rules:
    # UnknownVariantError is a MexicanTrainError: reported in one line by _Group.main.
    return get_variant(name)


def _check_game(players: int, rules: Rules) -> None:
    new_game(players, rules, seed=0)  # S1: DealError for an impossible player count


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
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx is not None else "mexican-train"
            _fail(f"{error.format_message()} (see '{where} --help')", error.exit_code)
        except click.ClickException as error:
            _fail(error.format_message(), error.exit_code)
        except click.Abort:
            _fail("interrupted", _EXIT_INTERRUPTED)
        except MexicanTrainError as error:
            _fail(str(error), 1)
        except OSError as error:  # stdout on a full disk, a closed file... (click handles EPIPE)
            _fail(f"cannot write the output: {error.strerror or error}", 1)
        sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str, code: int) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


_VARIANT = click.option(
    "--variant",
    "-v",
    default="standard",
    show_default=True,
    metavar="NAME",
    help="The rules: standard, hub, or a variant listed by 'rules --list'.",
)
_SEED = click.option(
    "--seed", type=int, default=None, help="Fix the deals (and the random bots) to replay a game."
)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mexican-train", prog_name="mexican-train")
def cli() -> None:
    """Mexican Train dominoes: bots, games and simulations in the terminal."""


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
        return "pass (end the turn; a marker goes on your train)"
    if isinstance(move, CallLastTile):
        return "call 'last tile'"
    return "deal the next round"


def _standings(state: GameState, names: Sequence[str]) -> str:
    order = sorted(range(state.players), key=lambda seat: (state.scores[seat], seat))
    lines = ["Final standings (lowest total wins, E5):"]
    for rank, seat in enumerate(order, start=1):
        crown = "  <- winner" if seat in state.winners else ""
        lines.append(f"  {rank}. {names[seat]:<20} {state.scores[seat]:>5}{crown}")
    return "\n".join(lines)


def _round_summary(state: GameState, names: Sequence[str]) -> str:
    points = state.round_scores[-1]
    out = [names[s] for s in range(state.players) if not state.hands[s]]
    how = f"{' and '.join(out)} went out (E1)" if out else "the round is blocked (E2)"
    scores = ", ".join(f"{names[s]} {points[s]}" for s in range(state.players))
    return f"Round {state.round_number} over: {how}. Points: {scores}."


# -- demo ----------------------------------------------------------------------------


@cli.command()
@_VARIANT
@click.option("--players", "-p", type=int, default=4, show_default=True, help="How many bots.")
@click.option(
    "--bots",
    default="planner,greedy,random",
    show_default=True,
    help="Bots to seat, comma-separated, repeated round the table: planner, greedy, random, search.",
)
@_SEED
def demo(variant: str, players: int, bots: str, seed: int | None) -> None:
    """Watch bots play a complete game.

    The table is shown after each round (every hand included), then the
    final standings.
    """
    rules = _rules(variant)
    kinds = _bot_names(bots, "--bots")
    _check_game(players, rules)
    seats = [kinds[i % len(kinds)] for i in range(players)]
    table = [_make_bot(kind, i) for i, kind in enumerate(seats)]
    names = [f"seat {i} ({kind})" for i, kind in enumerate(seats)]
    state = new_game(players, rules, seed=seed)
    click.echo(f"Mexican Train, {variant} rules, {players} players, seed {state.seed}.")
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            state = apply(state, NextRound())
            continue
        mine = view(state, seat)
        state = apply(state, table[seat].choose(mine, legal_moves(mine)))
        if state.is_round_over:
            click.echo("")
            click.echo(render_text(state, names=names))
            click.echo(_round_summary(state, names))
    click.echo("")
    click.echo(_standings(state, names))


# -- play ----------------------------------------------------------------------------

_HELP = (
    "Enter a move's number, or a tile such as 6-5 (add m for the Mexican train or a seat "
    "number, e.g. '6-5 m'), d to draw, p to pass, c to call 'last tile', h for a hint "
    "(what the search bot would play), q to quit."
)


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
    raise ValueError(f"{_shown(word)} is not a train: use m, or a seat number")


def _read_move(text: str, moves: tuple[Move, ...], seat: int) -> Move:
    """Return the move *text* asks for; raise ValueError with a message for the player."""
    words = text.split()
    if not words:
        raise ValueError(_HELP)
    first = words[0].lower()
    if len(words) == 1 and first.isascii() and first.isdigit():
        number = int(first) if _is_number(first) else 0
        if not 1 <= number <= len(moves):
            shown = first if len(first) <= 20 else first[:20] + "..."
            raise ValueError(f"there is no move {shown}: choose 1-{len(moves)}")
        return moves[number - 1]
    simple: dict[str, Move] = {
        "d": Draw(), "draw": Draw(), "p": Pass(), "pass": Pass(),
        "c": CallLastTile(), "call": CallLastTile(),
    }  # fmt: skip
    if len(words) == 1 and first in simple:
        return simple[first]
    if len(words) > 2:
        raise ValueError(f"I did not understand {_shown(text)}. {_HELP}")
    try:
        tile = Tile.parse(words[0])
    except TileNotationError:
        raise ValueError(f"I did not understand {_shown(text)}. {_HELP}") from None
    if len(words) == 2:
        return Play(tile, _parse_train(words[1], seat))
    fitting = [m for m in moves if isinstance(m, Play) and m.tile is tile]
    if len(fitting) > 1:
        where = ", ".join(_train_name(m.train, seat) for m in fitting)
        raise ValueError(f"{tile} can go on {where}: say which, e.g. '{tile} m'")
    if fitting:
        return fitting[0]
    return Play(tile, seat)  # not legal: apply() will say why


def _human_turn(state: GameState, seat: int, names: Sequence[str]) -> GameState:
    mine = view(state, seat)
    moves = legal_moves(mine)
    click.echo("")
    click.echo(render_text(mine, names=names))
    click.echo("Your moves:")
    for number, move in enumerate(moves, start=1):
        click.echo(f"  {number}) {_describe(move, mine)}")
    while True:
        text = click.prompt(
            f"Your move [1-{len(moves)}, ? for help]", default="", show_default=False
        )
        if text.strip().lower() in {"q", "quit", "exit"}:
            raise KeyboardInterrupt
        if text.strip() in {"?", "help"}:
            click.echo(_HELP)
            continue
        if text.strip().lower() in {"h", "hint"}:
            # Issue 12: the search bot's choice, from this seat's view only (S5).
            hint = SearchPlayer(seed=state.round_number).choose(mine, moves)
            click.echo(f"Hint: {moves.index(hint) + 1}) {_describe(hint, mine)}")
            continue
        try:
            move = _read_move(text, moves, seat)
            return apply(state, move)
        except IllegalMoveError as error:
            click.echo(f"Not allowed: {error.reason}")
        except ValueError as error:
            click.echo(str(error))


@cli.command()
@_VARIANT
@click.option(
    "--players", "-p", type=int, default=4, show_default=True, help="Players, you included."
)
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat, from 0.")
@click.option(
    "--bots",
    default="planner",
    show_default=True,
    help="Your opponents, comma-separated, repeated round the table: planner, greedy, random, search.",
)
@_SEED
def play(variant: str, players: int, seat: int, bots: str, seed: int | None) -> None:
    """Play against bots in the terminal.

    On your turn the table and your legal moves are shown; type a move's
    number, or a tile such as 6-5 (with m for the Mexican train, or a seat
    number), d to draw, p to pass, h for a hint (the search bot's move).
    q or Ctrl-C leaves the game.
    """
    rules = _rules(variant)
    kinds = _bot_names(bots, "--bots")
    _check_game(players, rules)
    if not 0 <= seat < players:
        raise click.UsageError(
            f"--seat: there is no seat {seat} with {players} players (seats 0-{players - 1})"
        )
    opponents = [s for s in range(players) if s != seat]
    table: dict[int, Player] = {}
    names = [f"seat {s}" for s in range(players)]
    for i, s in enumerate(opponents):
        kind = kinds[i % len(kinds)]
        table[s] = _make_bot(kind, i)
        names[s] = f"seat {s} ({kind})"
    state = new_game(players, rules, seed=seed)
    click.echo(f"Mexican Train, {variant} rules, {players} players; you are seat {seat}.")
    click.echo(_HELP)
    try:
        while not state.is_over:
            current = state.current_player
            if current is None:
                click.prompt(
                    f"Press Enter to deal round {state.round_number + 1}",
                    default="",
                    show_default=False,
                )
                state = apply(state, NextRound())
            elif current == seat:
                state = _human_turn(state, seat, names)
            else:
                mine = view(state, current)
                move = table[current].choose(mine, legal_moves(mine))
                click.echo(f"{names[current]}: {_describe(move, mine).replace('your', 'own')}")
                state = apply(state, move)
            if state.is_round_over:
                click.echo("")
                click.echo(render_text(state, names=names))
                click.echo(_round_summary(state, names))
    except (KeyboardInterrupt, EOFError, click.Abort):
        click.echo("\nGame abandoned. Bye!")
        sys.exit(_EXIT_INTERRUPTED)
    click.echo("")
    click.echo(_standings(state, names))


# -- simulate ------------------------------------------------------------------------


@cli.command()
@_VARIANT
@click.option(
    "--players",
    "-p",
    default="random,greedy,planner,greedy",
    show_default=True,
    help="One bot per seat, comma-separated: planner, greedy, random, search.",
)
@click.option(
    "--games",
    "-n",
    # A bound, so that a typo cannot queue more batches than memory holds.
    type=click.IntRange(min=1, max=10_000_000),
    default=100,
    show_default=True,
    help="How many games.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The simulation's seed.")
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
    variant: str,
    players: str,
    games: int,
    seed: int,
    workers: int,
    fixed_seats: bool,
    as_json: bool,
) -> None:
    """Simulate many games between bots.

    Prints wins and mean scores with 95% confidence intervals for each
    player (--json for the whole result).  The same seed gives the same
    numbers with any number of --workers.
    """
    rules = _rules(variant)
    kinds = _bot_names(players, "--players")
    _check_game(len(kinds), rules)
    bots = [_make_bot(kind, i) for i, kind in enumerate(kinds)]
    executor: Executor | None = ProcessPoolExecutor(workers) if workers > 1 else None
    try:
        with click.progressbar(
            length=games, label="Playing", file=sys.stderr, show_pos=True
        ) as bar:
            result = run_simulation(
                bots, rules, games, seed, executor,
                rotate_seats=not fixed_seats, progress=bar.update,
            )  # fmt: skip
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if as_json:
        data = {"variant": variant, **result.to_dict()}
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(f"Variant: {variant}")
        click.echo(result.report())


# -- rules ---------------------------------------------------------------------------


@cli.command()
@click.argument("name", default="standard")
@click.option("--list", "list_only", is_flag=True, help="List the variant names and stop.")
def rules(name: str, list_only: bool) -> None:
    """Print the rules of a preset or variant.

    NAME is a preset (standard, hub) or a variant; the default is standard.
    """
    if list_only:
        for variant in variant_names():
            click.echo(variant)
        return
    chosen = _rules(name)
    click.echo(f"Rules of {name!r} (rule ids as in the rules specification):")
    described = describe_rules(chosen)
    width = max(map(len, described))
    for axis, text in described.items():
        click.echo(f"  {axis:<{width}}  {text}")
    click.echo("Deal (S1): players -> set, tiles each")
    for players in chosen.deal_table.player_counts:
        try:
            max_pip, hand = chosen.deal_table.lookup(players, chosen.max_pip, chosen.hand_size)
        except MexicanTrainError as error:
            click.echo(f"  {players:>2}: {error}")
            continue
        click.echo(f"  {players:>2}: double-{max_pip}, {hand} tiles")


# -- serve ---------------------------------------------------------------------------


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="The port to listen on (0: any free port).",
)
@click.option(
    "--players", "-p", type=click.IntRange(min=1), default=4, show_default=True,
    help="Seats at the table, people and bots.",
)  # fmt: skip
@click.option(
    "--people",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Seats for people (the first ones); bots take the others.",
)
@click.option("--rules", default="standard", show_default=True, metavar="NAME", help="The rules.")
@click.option("--house", multiple=True, metavar="NAME", help="A house rule to add (repeatable).")
@click.option(
    "--bots",
    default="planner",
    show_default=True,
    help="The bots, comma-separated, repeated round the table: planner, greedy, random, "
    "search, or package.module:Class.",
)
@_SEED
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 60),
    default=0.6,
    show_default=True,
    help="Seconds a bot waits before it moves.",
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
    quiet: bool,
) -> None:
    """Play in the browser: serve a table and print each person's link.

    Open the link printed for your seat; bots play the seats nobody takes.
    Several people share a table with --people: each gets a link of their
    own (the part after # is the seat's secret key).  Ctrl-C stops it.
    """
    from ._web import serve as serve_table  # the server is loaded only for this command

    try:
        serve_table(
            players=players, people=people, bots=bots, rules=rules, houses=house, seed=seed,
            host=host, port=port, bot_delay=bot_delay, log=None if quiet else sys.stderr,
        )  # fmt: skip
    except KeyboardInterrupt:
        click.echo("Stopped.")
    except OSError as error:
        raise click.ClickException(
            f"cannot serve on {host}:{port}: {error.strerror or error}"
        ) from None


def main() -> None:
    """Run the command line (the ``mexican-train`` console script)."""
    cli.main(prog_name="mexican-train")
