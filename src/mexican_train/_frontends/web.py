"""The web table: a game served to browsers, with bots in the seats nobody takes.

`WebTable` holds the game and the seats' secret tokens; `make_server` serves it over
HTTP and WebSockets (``app.py``: Starlette on uvicorn, with a guard).  The page (``webpage/``) is
plain HTML, CSS and JavaScript: no build step.  Each seat only ever receives its own
view (S5), and every move is checked by `apply` on the server.  Everything here goes
through the library's public API.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import hmac
import importlib
import json
import math
import re
import secrets
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import Future
from typing import IO, Any, Final, cast

import attrs

from .._bots.coach import analyze
from .._bots.names import BOT_TIMER, BOTS, LEVELS, make_bot, player_name
from .._bots.players import GreedyPlayer, PlannerPlayer, Player
from .._bots.simulate import observers_of, observing_copies, tell_events
from .._catalogue.variants import combine, get_variant, variant_name
from .._core.engine import (
    apply,
    closing_order,
    dead_doubles,
    doubles_to_cover,
    legal_moves,
    mexican_open,
    new_game,
)
from .._core.errors import IllegalMoveError, InvalidArgumentError, MexicanTrainError
from .._core.moves import MEXICAN, CallLastTile, Draw, Move, NextRound, Pass, Play
from .._core.rules import STANDARD, EnginePlacement, Rules
from .._core.state import GameState
from .._core.view import PlayerView, spectator_view, view
from .._formats.events import Event, OneTileLeft, derive_events
from .._formats.notation import format_move
from .._formats.record import GameRecord, ReplayError, replay
from .._formats.serialize import to_json
from .app import LONG_POLL, WebServer, shareable_host
from .http import MAX_CONNECTIONS, MAX_PER_CLIENT, RequestError, checked_hosts, refuse_gone
from .lobby import LOBBY_PLAYERS, NEVER_GIVEN, TABLE_IDLE, expiry_reason, lobby_choices
from .narrate import drawn_for_engine, marker_rule, review_report, round_result
from .store import UNTOUCHED, StoredTable, StoreError, TableStore, token_hash

__all__ = [
    "BOT_TIMER",
    "REVIEW_SAMPLES",
    "SPECTATOR",
    "WebServer",
    "WebTable",
    "lobby_choices",
    "lobby_table",
    "make_server",
    "seed_warning",
    "serve",
    "shareable_host",
]


# The most of a bot's name a seat's label shows: a name of the bot's own may be long.
_NAME_SHOWN: Final = 32
_NAME = re.compile(r"[A-Za-z0-9_-]{0,16}")
#: The seat number of the table's spectators (`WebTable.seat_for`, `WebTable.document`).
SPECTATOR: Final = -1
#: The sampled deals per decision in a round's review (`WebTable.review`): its cost.
REVIEW_SAMPLES: Final = 16


def _label(name: str | None, seat: int) -> str:
    if name is None:
        return f"Seat {seat}"
    return f"Seat {seat} ({name[:_NAME_SHOWN]})"


def _seated(seat: object, bot: object) -> tuple[Player, str | None]:
    """Return the player *bot* stands for, and the library name it was given, if any.

    A bot given by name (``"planner"``, or a level, ``"hard"``) is made by `make_bot`
    and goes by that name, in lower case; a `Player` goes by `player_name`.
    """
    if not isinstance(bot, str):
        return cast(Player, bot), None
    if bot.lower() not in BOTS:
        raise InvalidArgumentError(
            f"the bot of seat {seat!r} is a player or one of {', '.join(BOTS)}, not {bot!r}"
        )
    return make_bot(bot), bot.lower()


class _BotCalls:
    """One seated bot's calls, made one at a time and in order, in a thread of its own.

    The table asks a bot to ``observe`` each move's events and to ``choose`` its moves
    here, never under the table's lock: a bot that hangs holds up nobody but itself
    (the table stops waiting for it after `WebTable.bot_timer`).  Python cannot stop a
    thread, so a call that runs late runs on, and the calls after it wait their turn:
    the bot is never called twice at once, and it is told every move, in order, before
    it chooses again.  The thread ends whenever no call is waiting.
    """

    def __init__(
        self, seat: int, bot: Player, observe_failed: Callable[[_BotCalls, Exception], None]
    ) -> None:
        self.seat = seat
        self.bot = bot
        found = observers_of({seat: bot})  # its observe method, if it has one
        self._observe: Callable[[tuple[Event, ...]], object] | None = found[0][1] if found else None
        self._observe_failed = observe_failed
        self._waiting: collections.deque[Callable[[], None]] = collections.deque()
        self._lock = threading.Lock()
        self._running = False
        self._choosing: Future[Move] | None = None
        #: Whether the table said that the bot is still on a move it was asked for earlier.
        self.told_late = False

    @property
    def late(self) -> bool:
        """Whether a choice the bot was asked for has not come back yet."""
        return self._choosing is not None and not self._choosing.done()

    def observe(self, events: tuple[Event, ...]) -> None:
        """Have the bot told *events*, those of one move, as its seat may see them (S5)."""
        if self._observe is not None:
            self._call(lambda: self._observe_now(events))

    def _observe_now(self, events: tuple[Event, ...]) -> None:
        observe = self._observe
        if observe is None:  # it failed on an earlier move: it is told nothing more
            return
        try:
            tell_events(((self.seat, observe),), events)
        except Exception as error:  # a user's bot that fails must not stop the table
            self._observe = None
            self._observe_failed(self, error)

    def choose(self, mine: PlayerView, moves: tuple[Move, ...]) -> Future[Move]:
        """Ask the bot for its move; return its answer to come (or the exception it raised)."""
        answer: Future[Move] = Future()

        def call() -> None:
            answer.set_running_or_notify_cancel()
            try:
                answer.set_result(self.bot.choose(mine, moves))
            except Exception as error:
                answer.set_exception(error)

        self._choosing, self.told_late = answer, False
        self._call(call)
        return answer

    def _call(self, call: Callable[[], None]) -> None:
        with self._lock:
            self._waiting.append(call)
            if self._running:
                return
            self._running = True
        threading.Thread(target=self._run, name=f"bot at seat {self.seat}", daemon=True).start()

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._waiting:
                    self._running = False
                    return
                call = self._waiting.popleft()
            call()


class WebTable:
    """A game at one table: people in some seats, bots in the others, one token per person.

    The table is safe to share between threads: a server's handlers read documents
    and play moves through it, and `start` runs the bots in a thread of their own.
    A person's seat is known by its token only; a document holds that seat's view
    and nothing else (S5).

    Args:
        players: the number of seats (S1 decides whether the rules allow it).
        rules: the rules to play by.
        bots: a bot for each seat a bot takes, by seat; the other seats are people's.
            A bot is a player, or the name of a library bot or a level (`make_bot`:
            ``"planner"``, ``"hard"``), which the seat's label shows (``Seat 2 (hard)``)
            and a database keeps; a player goes by `player_name`.
        seed: fixes the deals, to replay a game.
        bot_delay: seconds a bot waits before each move, so people see the moves arrive.
        takeover: seconds after which a bot plays a person's seat that no page is
            connected to (see `arrive`) nor long-polling (`polling`); it hands the seat
            back as soon as one is again.
            None: never.
        turn_timer: seconds a person has for each move; then a bot makes that move for
            them.  None: no limit.
        bot_timer: seconds a bot has for each move (`BOT_TIMER`, a minute); then the
            table plays the bot's first legal move for it, as for a bot that fails, and
            discards the bot's late answer.  None: no limit.
        name: the table's name among the tables of one server (up to 16 letters, digits,
            ``-`` and ``_``); its tokens start with it, so that a token names its table.
        clock: the wall clock of the table's last activity (`active`), in seconds since
            the epoch.

    Raises:
        DealError: if the rules cannot deal for *players* (S1).
        InvalidArgumentError: if a bot's seat does not exist, a bot's name is not
            a library bot's or a level's, every seat is a bot's,
            *bot_delay* is not a number of seconds from 0 to 60, or *takeover*,
            *turn_timer* or *bot_timer* is not a number of seconds from 1 to 86400.

    >>> from mexican_train import STANDARD
    >>> from mexican_train.players import PlannerPlayer
    >>> table = WebTable(4, STANDARD, bots={1: PlannerPlayer(), 2: PlannerPlayer()}, seed=1)
    >>> sorted(table.tokens)
    [0, 3]
    >>> doc = table.document(0)
    >>> doc["seat"], doc["view"]["type"], len(doc["view"]["hand"])
    (0, 'view', 15)
    """

    def __init__(
        self,
        players: int = 4,
        rules: Rules = STANDARD,
        *,
        bots: Mapping[int, Player | str] | None = None,
        seed: int | None = None,
        bot_delay: float = 0.0,
        takeover: float | None = None,
        turn_timer: float | None = None,
        bot_timer: float | None = BOT_TIMER,
        name: str = "",
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise InvalidArgumentError(
                f"a table's name is up to 16 letters, digits, - and _, not {name!r}"
            )
        state = new_game(players, rules, seed)  # S1: DealError for a count the rules refuse
        given = dict(bots or {})
        for seat in given:
            if type(seat) is not int or not 0 <= seat < players:
                raise InvalidArgumentError(
                    f"bots are given by seat, 0-{players - 1}; there is no seat {seat!r}"
                )
        seated = {seat: _seated(seat, bot) for seat, bot in given.items()}
        made: dict[int, Player] = {seat: player for seat, (player, _) in seated.items()}
        # The library name each bot given by name goes by, by seat: its label, and its
        # name in a database (`bot_names`).
        self._bot_given = {seat: named for seat, (_, named) in seated.items() if named}
        if len(made) >= players:
            raise InvalidArgumentError(
                f"every one of the {players} seats has a bot: leave at least one for a person"
            )
        if (
            not isinstance(bot_delay, (int, float))
            or not math.isfinite(bot_delay)
            or not 0 <= bot_delay <= 60
        ):
            raise InvalidArgumentError(
                f"bot_delay is a number of seconds from 0 to 60, not {bot_delay!r}"
            )
        timers = (("takeover", takeover), ("turn_timer", turn_timer), ("bot_timer", bot_timer))
        for option, value in timers:
            if value is not None and (
                not isinstance(value, (int, float))
                or not math.isfinite(value)
                or not 1 <= value <= 86400
            ):
                raise InvalidArgumentError(
                    f"{option} is a number of seconds from 1 to 86400, or None, not {value!r}"
                )
        self._state = state
        self._given = made  # the bots as given, never told anything: each game seats copies
        self._bots = observing_copies(made)
        self.takeover = takeover
        self.turn_timer = turn_timer
        #: The seconds a bot has for each move, or None (see the *bot_timer* argument).
        self.bot_timer = bot_timer
        self._stand_ins: dict[int, Player] = {}  # bots playing for people, by seat
        self._turn_began = time.monotonic()
        self._timed_out = -1  # the version whose turn ran out, once told
        #: Called with each move's number (from 1), seat and move before the table applies
        #: it; if it raises, the move is not applied.  ``mexican-train serve --db`` commits
        #: moves to a database here.  The table's other changes wait for it (this hook,
        #: `restarted` and `expiring` run one at a time), but its readers do not: a slow
        #: database holds up no document, nor a server's event loop.
        self.journal: Callable[[int, int, Move], None] | None = None
        #: Called with the record of a new game dealt at the table (`again`) before it
        #: starts; if it raises, the game stays as it was.
        self.restarted: Callable[[GameRecord], None] | None = None
        #: Called with one line, naming the seat and what went wrong, when a bot raises,
        #: chooses an illegal move or takes more than `bot_timer` seconds: the table plays
        #: its first legal move for it and goes on; when a bot's ``observe`` raises: the
        #: bot plays on, told nothing more of the game.  A `WebServer` writes the line to
        #: its log.
        self.bot_failed: Callable[[str], None] | None = None
        #: Called when the table expires (`expire`), before it closes; if it raises, the
        #: table stays as it was.  ``mexican-train serve --db`` deletes the table here.
        self.expiring: Callable[[], None] | None = None
        #: Called when a server gives the table up unserved, its links never given (its
        #: bots could not start, or the server stopped while its lobby made it), after it
        #: closes.  ``mexican-train serve --db`` deletes the table here: a restart does
        #: not bring it back.
        self.discarding: Callable[[], None] | None = None
        #: Called with the address of whoever made the table in a server's lobby once the
        #: server serves it, just before it sends them its links.  ``mexican-train serve
        #: --db`` notes it in the database here: a table kept but never noted so (the
        #: server killed between keeping it and answering) expires as the server starts
        #: again.
        self.handed: Callable[[str], None] | None = None
        self._clock = clock
        self._active = clock()
        self._expired: str | None = None  # why the table expired, in words
        self._calls = self._bot_calls()
        self.bot_delay = float(bot_delay)
        #: The display name of each seat, ``Seat 2``, or ``Seat 2 (planner)`` for a bot: the
        #: name it was given by (``Seat 2 (hard)``), or else its `player_name`.
        self.labels: tuple[str, ...] = tuple(
            _label(self._bot_given.get(s) or (player_name(made[s]) if s in made else None), s)
            for s in range(players)
        )
        #: The table's name among a server's tables, which its tokens start with (and a dot).
        self.name = name
        #: The secret token of each person's seat, by seat.
        self.tokens: Mapping[int, str] = {
            seat: self._new_token() for seat in range(players) if seat not in made
        }
        #: The SHA-256 of each person's token, by seat, which a database keeps instead of it.
        self.token_hashes: Mapping[int, str] = {
            seat: token_hash(token) for seat, token in self.tokens.items()
        }
        #: The token of the table's spectators, which shows the public view only (S5).
        self.spectator_token: str | None = self._new_token()
        #: Its SHA-256, which a database keeps (as seat `SPECTATOR`).
        self.spectator_hash = token_hash(self.spectator_token)
        self._version = 0
        self._moves: list[Move] = []  # the game's moves, to review its rounds (`review`)
        self._began = 0  # the version the game began at
        self._reviews: dict[tuple[int, int, int], dict[str, Any]] = {}
        self._reviewing = threading.Lock()  # one review made at a time; the others wait for it
        #: The round's log: each line as each seat reads it, by seat; it opens with who
        #: plays first, and why (S3, S4).
        self._log: list[tuple[str, ...]] = [_first_player(state, self.labels)]
        self._changed = threading.Condition()
        # The table's changes of its game (a move, a new game, an expiry) one at a time:
        # each is checked and made under `_changed`, but the hook that keeps it first (a
        # database's `journal`, `restarted`, `expiring`) runs under this lock alone, so
        # that a slow database holds up no reader (a server's event loop reads the table
        # under `_changed`).  Taken before `_changed`, never under it.
        self._writing = threading.Lock()
        self._closed = False
        self._thread: threading.Thread | None = None
        self._listeners: list[Callable[[], None]] = []
        self._present = [0] * players  # the pages open at each seat
        self._away_since: list[float | None] = [time.monotonic()] * players
        self._polls = [0] * players  # the long polls of each seat in flight (`polling`)

    def _new_token(self) -> str:
        secret = secrets.token_urlsafe(24)
        return f"{self.name}.{secret}" if self.name else secret

    @classmethod
    def resume(
        cls,
        game: GameRecord,
        seats: Sequence[int],
        token_hashes: Mapping[int, str],
        bots: Mapping[int, Player | str],
        *,
        bot_delay: float = 0.0,
        takeover: float | None = None,
        turn_timer: float | None = None,
        bot_timer: float | None = BOT_TIMER,
        name: str = "",
        began: int = 0,
        active: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> WebTable:
        """Return the table of the record *game* at its position, its seats' tokens still good.

        *seats* is the seat that made each move of the record, *token_hashes* the hash of
        each person's token (`token_hashes`), and of the spectators' as seat `SPECTATOR`.  The record is replayed through the engine
        (`~mexican_train.replay`), then move by move into the table's log.  The tokens
        themselves are not known, only their hashes: the people keep their links.
        *bot_delay*, *takeover*, *turn_timer*, *bot_timer* and *name* are the table's
        options (see `WebTable`).  *began* is the version the table had reached when the game was
        dealt (a new game at the table, `again`): the table's version goes on from
        there, so open pages take its documents for the newest.  *active* is the time of
        its last move, by *clock* (`active`; None: now).

        Raises:
            mexican_train.ReplayError: if the record does not replay.
        """
        replay(game)  # a record that does not replay is refused before anything is set up
        table = cls(
            game.players,
            game.rules,
            bots=bots,
            seed=game.seed,
            bot_delay=bot_delay,
            takeover=takeover,
            turn_timer=turn_timer,
            bot_timer=bot_timer,
            name=name,
            clock=clock,
        )
        table.tokens = {}
        table.token_hashes = {s: h for s, h in token_hashes.items() if s != SPECTATOR}
        table.spectator_token = None
        table.spectator_hash = token_hashes.get(SPECTATOR, "")
        with table._changed:
            table._version = table._began = began
            for seat, move in zip(seats, game.moves, strict=True):
                table._commit(seat, table._state, move, apply(table._state, move))
            if active is not None:
                table._active = active
        return table

    def kept_hashes(self) -> dict[int, str]:
        """Return the token hashes a database keeps, by seat: each person's, and the
        spectators' (`SPECTATOR`) unless the table has no spectators' link."""
        hashes = dict(self.token_hashes)
        if self.spectator_hash:
            hashes[SPECTATOR] = self.spectator_hash
        return hashes

    def bot_names(self) -> dict[int, str]:
        """Return how a database names each bot, by seat: by the library name it was
        given (``hard``), or else by its class, ``module:Class``."""
        return {
            seat: self._bot_given.get(seat) or f"{type(bot).__module__}:{type(bot).__qualname__}"
            for seat, bot in self._bots.items()
        }

    def record(self) -> GameRecord:
        """Return the record of the game's start: its players, rules and seed (S6)."""
        with self._changed:
            state = self._state
        return GameRecord(state.players, state.rules, state.seed)

    # -- who is there -----------------------------------------------------------------------

    def listen(self, callback: Callable[[], None]) -> None:
        """Call *callback* (from any thread, quickly) whenever the table or its presence changes."""
        with self._changed:
            self._listeners.append(callback)

    def arrive(self, seat: int) -> None:
        """Count one more page open at *seat* (a server's WebSocket, while it is connected)."""
        if seat == SPECTATOR:
            return
        with self._changed:
            self._present[seat] += 1
            self._away_since[seat] = None
            self._back(seat)
            self._tell()

    @contextlib.contextmanager
    def polling(self, seat: int) -> Iterator[None]:
        """Count a long poll of *seat* in flight as its person there, for the takeover.

        A page that cannot keep a WebSocket follows the table by long polls: while one
        waits, no bot plays for the seat, and the seat's time away starts when it ends.
        Polls do not make the seat `connected` (only a WebSocket does).
        """
        if seat == SPECTATOR:
            yield
            return
        with self._changed:
            self._polls[seat] += 1
            if self._back(seat):
                self._tell()
        try:
            yield
        finally:
            with self._changed:
                self._polls[seat] -= 1
                if not self._present[seat] and not self._polls[seat]:
                    self._away_since[seat] = time.monotonic()

    def _back(self, seat: int) -> bool:
        """End a takeover of *seat*, its person back; return whether one ended (under the lock)."""
        if self._stand_ins.pop(seat, None) is None or self.takeover is None:
            return False
        label = self.labels[seat]
        self._note(seat, f"{label} is back and plays again.", "You are back.")
        return True

    def leave(self, seat: int) -> None:
        """Count one page fewer at *seat* (see `arrive`)."""
        if seat == SPECTATOR:
            return
        with self._changed:
            self._present[seat] = max(0, self._present[seat] - 1)
            if not self._present[seat]:
                self._away_since[seat] = time.monotonic()
            self._tell()

    @property
    def connected(self) -> tuple[bool, ...]:
        """Whether each seat is taken now (a bot's always, a person's while a page is open).

        >>> table = WebTable(2, bots={1: GreedyPlayer()})
        >>> table.connected
        (False, True)
        >>> table.arrive(0); table.connected
        (True, True)
        """
        with self._changed:
            return tuple(
                seat in self._bots or count > 0 for seat, count in enumerate(self._present)
            )

    @property
    def closed(self) -> bool:
        """Whether `close` was called, or the table expired."""
        return self._closed

    @property
    def active(self) -> float:
        """When the table last saw a move or a new game (or was made), by its clock.

        >>> table = WebTable(2, bots={1: GreedyPlayer()}, clock=lambda: 1000.0)
        >>> table.active
        1000.0
        """
        with self._changed:
            return self._active

    @property
    def expired(self) -> str | None:
        """Why the table expired (`expire`), in words to show its people; None while it has not."""
        with self._changed:
            return self._expired

    def expire(self, idle: float) -> bool:
        """Close the table if it has seen no move nor new game for *idle* seconds; return
        whether it did.

        `expiring` is called first, and no move can come between it and the close: if it
        raises, the table stays as it was, and the error goes on.  An expired table
        refuses moves (410, with the reason `expired` gives), and its bots stop.

        >>> now = [0.0]
        >>> table = WebTable(2, bots={1: GreedyPlayer()}, clock=lambda: now[0])
        >>> table.expire(3600), table.expired
        (False, None)
        >>> now[0] = 7200.0
        >>> table.expire(3600), table.expired
        (True, 'nobody played at this table for 1 hour, so it has expired: make a new one in the lobby')
        """
        return self._close(idle)

    def _note(self, seat: int, others: str, own: str) -> None:
        """Add a line to the log that is not a move (under the lock)."""
        self._log.append(_readings(self._state.players, seat, others, own))

    def _tell(self) -> None:
        """Wake whoever waits, and call the listeners (under the lock)."""
        self._changed.notify_all()
        for callback in self._listeners:
            callback()

    # -- reading ----------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The game as it stands, every hand included; never send it to a seat."""
        with self._changed:
            return self._state

    @property
    def version(self) -> int:
        """How many moves the table has applied; it grows with every move."""
        with self._changed:
            return self._version

    def seat_for(self, token: str | None) -> int:
        """Return the seat whose token is *token*, or `SPECTATOR` for the spectators' token.

        Raises:
            RequestError: 401 without a token, 403 for a token no seat has.

        >>> table = WebTable(2, bots={1: GreedyPlayer()})
        >>> table.seat_for(table.tokens[0])
        0
        """
        if token is None:
            raise RequestError(
                401, "no token", "send your seat's token as 'Authorization: Bearer <token>'"
            )
        found = None
        given = token_hash(token)
        for seat, kept in (*self.token_hashes.items(), (SPECTATOR, self.spectator_hash)):
            # A constant-time comparison with every seat: a token must not leak through timing.
            if hmac.compare_digest(given, kept):
                found = seat
        if found is None:
            raise RequestError(403, "wrong token", "no seat at this table has that token")
        return found

    def document(self, seat: int) -> dict[str, Any]:
        """Return what *seat* may know now, as JSON-ready data (S5).

        For `SPECTATOR`, the public view: no hand, no moves (`~mexican_train.spectator_view`).

        The document holds the seat's view in the library's JSON (``"view"``), the
        moves the seat may make now (``"moves"``, empty when it is not its turn), whose
        turn it is (``"status"``), every line of the round's log (``"log"``, oldest
        first, from the deal; between rounds, the round just finished), ``"connected"``,
        whether each seat is taken now (a bot's always, a person's while their page is
        connected), ``"version"``, which grows with every move, ``"seconds_left"``:
        with a turn timer (*turn_timer*), the seconds the person to move had left when the document
        was made (the page counts them down), else null, and what the open doubles ask:
        ``"must_cover"``, the trains whose double the player to move must cover before
        playing elsewhere (D2, D3), ``"dead_doubles"``, those nothing can cover any more
        (D4), and ``"cover_order"``, the trains whose double the rule closes one at a time,
        in that order (D3, V3); and ``"mexican_open"``, for each seat, whether the
        Mexican train is open to it now (V2).  The page draws the table from the view;
        `~mexican_train.render.render_svg` draws it as a picture.

        >>> table = WebTable(2, bots={1: GreedyPlayer()}, seed=3)
        >>> sorted(table.document(0))  # doctest: +NORMALIZE_WHITESPACE
        ['bots', 'connected', 'cover_order', 'dead_doubles', 'log', 'mexican_open', 'moves',
         'must_cover', 'names', 'scores', 'seat', 'seconds_left', 'status', 'version', 'view',
         'winners']
        """
        with self._changed:
            state, version, log = self._state, self._version, list(self._log)
            left = self._seconds_left()
        mine = spectator_view(state) if seat == SPECTATOR else view(state, seat)
        names = [("You" if s == seat else label) for s, label in enumerate(self.labels)]
        moves = () if seat == SPECTATOR else legal_moves(mine)
        return {
            "seat": seat,
            "version": version,
            "names": names,
            "bots": sorted(self._bots),
            "connected": list(self.connected),
            "view": to_json(mine),
            "moves": [_move_document(move, mine) for move in moves],
            "status": _status(mine, names),
            "scores": _score_table(mine),
            "winners": list(mine.winners),
            "log": [line[seat] for line in log],  # SPECTATOR (-1) reads the last reading
            "seconds_left": left,
            # What the open doubles ask, as the rules' open-double rule says (public).
            "must_cover": list(doubles_to_cover(state)),
            "dead_doubles": list(dead_doubles(state)),
            "cover_order": list(closing_order(state)[0]),
            "mexican_open": list(mexican_open(state)),  # as the Mexican-train rule says (V2)
        }

    def _seconds_left(self) -> float | None:
        """Return the seconds the person to move has left under the turn timer (under the lock).

        None without a `turn_timer`, between rounds, and while a bot moves.
        """
        seat = self._state.current_player
        if self.turn_timer is None or seat is None or seat in self._bots:
            return None
        if seat in self._stand_ins:  # a bot plays for the person while they are away
            return None
        used = time.monotonic() - self._turn_began
        return round(max(0.0, self.turn_timer - used), 1)

    def wait(self, seat: int, since: int, timeout: float = LONG_POLL) -> dict[str, Any]:
        """Return *seat*'s document once the table's version is not *since* (or *timeout* passed).

        >>> table = WebTable(2, bots={1: GreedyPlayer()})
        >>> table.wait(0, since=-1)["version"]
        0
        """
        with self._changed:
            self._changed.wait_for(lambda: self._version != since or self._closed, timeout)
        return self.document(seat)

    # -- moving -----------------------------------------------------------------------------

    def play(self, seat: int, move: Move, version: int | None = None) -> dict[str, Any]:
        """Apply *seat*'s *move* and return the seat's new document.

        Between rounds any person may deal the next round (E4).

        Args:
            seat: the seat that moves (a person's: bots move by themselves).
            move: the move, checked by `apply`.
            version: the version the seat saw; if the table has moved on since, the
                move is refused (a double click does not play twice).

        Raises:
            RequestError: 409 if it is not the seat's turn or the table moved on,
                422 if the rules refuse the move (the reason names the rule), 410 if
                the table has expired or closed.

        >>> table = WebTable(2, bots={1: GreedyPlayer()}, seed=3)
        >>> seat = table.state.current_player
        >>> seat
        0
        >>> table.play(0, legal_moves(table.state)[0])["version"]
        1
        """
        if seat == SPECTATOR:
            raise RequestError(403, "a spectator", "a spectator watches: only seats move")
        with self._writing:
            with self._changed:
                refuse_gone(self._expired, self._closed)
                if version is not None and version != self._version:
                    raise RequestError(
                        409,
                        "table changed",
                        f"the table moved on since you looked (version {version}, now "
                        f"{self._version}): look again and choose again",
                    )
                current = self._state.current_player
                if current is not None and current != seat:
                    raise RequestError(409, "not your turn", f"it is {self.labels[current]}'s turn")
                if current is None and seat in self._bots:
                    raise RequestError(409, "not your turn", "a person deals the next round")
                before = self._state
                try:
                    after = apply(before, move)
                except IllegalMoveError as error:
                    raise RequestError(422, "illegal move", error.reason) from None
                number = self._version + 1
            self._keep(number, seat, move)
            with self._changed:
                self._commit(seat, before, move, after)
        return self.document(seat)

    def again(self, seat: int) -> dict[str, Any]:
        """Deal a new game at the table once its game is over; return *seat*'s document.

        The seats, their tokens (so their links) and the bots stay; the version goes on
        growing, so pages take the new game for the newest document.  `restarted`, if
        set, is told the new game's record first (a database keeps it as a new table).

        Raises:
            RequestError: 409 while the game is not over, 403 for a spectator.

        >>> table = WebTable(2, bots={1: GreedyPlayer()}, seed=3)
        >>> table.again(0)
        Traceback (most recent call last):
        ...
        mexican_train.web.RequestError: 409 not over: the game is not over: finish it first
        """
        if seat == SPECTATOR:
            raise RequestError(403, "a spectator", "a spectator watches: only seats deal")
        with self._writing:
            with self._changed:
                refuse_gone(self._expired, self._closed)
                if not self._state.is_over:
                    raise RequestError(409, "not over", "the game is not over: finish it first")
                state = new_game(self._state.players, self._state.rules, None)
            if self.restarted is not None:  # under `_writing` alone: no reader waits for it
                try:
                    self.restarted(GameRecord(state.players, state.rules, state.seed))
                except MexicanTrainError as error:
                    raise RequestError(
                        503, "not saved", f"the game could not be kept: {error}"
                    ) from None
            with self._changed:
                self._deal(seat, state)
        return self.document(seat)

    def _deal(self, seat: int, state: GameState) -> None:
        """Start the new game *state*, dealt by *seat*, at the table (under the lock)."""
        self._state = state
        self._version += 1
        self._began = self._version
        self._moves = []
        self._reviews.clear()
        # A bot that keeps the round's events starts the new game without the old one's.
        self._bots = observing_copies(self._given)
        self._calls = self._bot_calls()
        label = self.labels[seat]
        self._log.clear()  # a document's log is the round's, from its deal (E4)
        self._note(seat, f"{label} dealt a new game.", "You dealt a new game.")
        self._log.append(_first_player(state, self.labels))
        self._turn_began = time.monotonic()
        self._active = self._clock()
        self._tell()

    def review(self, seat: int) -> dict[str, Any]:
        """Return the coach's review of *seat*'s decisions in the last round that is over.

        Each decision is judged only by what the seat could know then (S5,
        `~mexican_train.analyze`, with `REVIEW_SAMPLES` sampled deals each); the
        answer holds ``"round"``, and the biggest mistakes worded as
        ``mexican-train analyze`` prints them: ``"heading"``, ``"mistakes"`` (each
        ``{"said", "better"}``) and ``"ending"``.  A review takes a while: it is made
        once per game, round and seat, and kept.

        Raises:
            RequestError: 403 for a spectator (no decisions), 409 before the first
                round is over.

        >>> table = WebTable(2, bots={1: GreedyPlayer()}, seed=3)
        >>> table.review(0)
        Traceback (most recent call last):
        ...
        mexican_train.web.RequestError: 409 no round over: no round is over yet: a review comes at the end of a round
        """
        if seat == SPECTATOR:
            raise RequestError(403, "a spectator", "a spectator has no decisions to review")
        with self._changed:
            state, moves, began = self._state, list(self._moves), self._began
        over = state.round_number - (state.current_player is not None)
        if over < 1:
            raise RequestError(
                409, "no round over", "no round is over yet: a review comes at the end of a round"
            )
        key = (began, over, seat)
        with self._reviewing:
            kept = self._reviews.get(key)
            if kept is None:
                # The moves of rounds 1 to *over*: those before the deal of the next round.
                deals = [n for n, move in enumerate(moves) if isinstance(move, NextRound)]
                end = deals[over - 1] if len(deals) >= over else len(moves)
                game = GameRecord(state.players, state.rules, state.seed, moves=moves[:end])
                reviews = list(
                    analyze(  # trains named as the table names them: "Seat 1 (hard)'s train"
                        game, seat, samples=REVIEW_SAMPLES, round_number=over, names=self.labels
                    )
                )
                report = review_report(reviews, f"seat {seat}", REVIEW_SAMPLES, yours=True)
                kept = {
                    "round": over,
                    "heading": report.heading,
                    "mistakes": [{"said": s, "better": b} for s, b in report.mistakes],
                    "ending": report.ending,
                }
                with self._changed:
                    if self._began == began:  # not a review of a game dealt over since
                        self._reviews[key] = kept
        return kept

    def _keep(self, number: int, seat: int, move: Move) -> None:
        """Give the journal, if any, the table's move *number*, *seat*'s *move*, before it
        is applied (under `_writing` alone: a slow database holds up no reader).

        Raises:
            RequestError: 503 if the journal cannot keep it: it is not applied.
        """
        if self.journal is not None:
            try:
                self.journal(number, seat, move)
            except MexicanTrainError as error:
                raise RequestError(
                    503, "not saved", f"the move could not be kept: {error}"
                ) from None

    def _commit(self, seat: int, before: GameState, move: Move, after: GameState) -> None:
        """Apply *seat*'s *move*, which took the game from *before* to *after*, log it, and
        wake whoever waits (under the lock)."""
        events = derive_events(before, move, after)  # for the log, and the bots that observe
        for calls in self._calls.values():
            calls.observe(events)
        self._state = after
        self._version += 1
        self._moves.append(move)
        if isinstance(move, NextRound):
            self._log.clear()  # a document's log is the round's, from its deal (E4)
        self._log.extend(_describe(before, after, seat, move, events, self.labels))
        self._turn_began = time.monotonic()
        self._active = self._clock()
        self._tell()

    def _bot_calls(self) -> dict[int, _BotCalls]:
        """Return the calls of each of the game's bots (`_BotCalls`), by seat."""
        return {
            seat: _BotCalls(seat, bot, self._observe_failed) for seat, bot in self._bots.items()
        }

    def _bot_to_move(self) -> tuple[int, PlayerView, Player] | None:
        """Return the seat a bot is to move for now, its view and the bot (under the lock)."""
        seat = self._state.current_player
        if seat is None:
            return None
        bot = self._bots[seat] if seat in self._bots else self._stand_in(seat)
        return None if bot is None else (seat, view(self._state, seat), bot)

    def _stand_in(self, seat: int) -> Player | None:
        """Return the bot that plays for person *seat* now, if one does (under the lock).

        One does while the seat has had no page connected for `takeover` seconds, and
        for a move the person did not make within `turn_timer` seconds.
        """
        now = time.monotonic()
        away = self._away_since[seat]
        label = self.labels[seat]
        if (
            self.takeover is not None
            and away is not None
            and not self._polls[seat]
            and now - away >= self.takeover
        ):
            if seat not in self._stand_ins:
                self._stand_ins[seat] = PlannerPlayer()
                self._note(
                    seat,
                    f"{label} is away: a bot plays for them until they are back.",
                    "You were away: a bot plays for you until you are back.",
                )
            return self._stand_ins[seat]
        if self.turn_timer is not None and now - self._turn_began >= self.turn_timer:
            if self._timed_out != self._version:  # told once a turn
                self._timed_out = self._version
                self._note(
                    seat,
                    f"{label}'s time ran out: a bot moves for them.",
                    "Your time ran out: a bot moves for you.",
                )
            return PlannerPlayer()
        return None

    def play_bots(self, limit: int = 10_000) -> int:
        """Play the bots' moves, at once, until a person is to move or the round ends.

        Return how many moves were played.  `start` does the same in a thread, with
        ``bot_delay`` seconds between moves.

        >>> table = WebTable(2, bots={1: GreedyPlayer()}, seed=3)
        >>> table.play_bots()
        0
        """
        played = 0
        while played < limit and self._play_one_bot():
            played += 1
        return played

    def _play_one_bot(self) -> bool:
        with self._changed:
            turn = self._bot_to_move()
            version = self._version
            calls = self._calls.get(turn[0]) if turn is not None else None
        if turn is None:
            return False
        seat, mine, bot = turn
        moves = legal_moves(mine)
        label = self.labels[seat]
        failure = None  # what went wrong with the bot's choice, in one line
        public = f"{label}'s bot failed: its first legal move was played for it."
        if calls is None:  # a stand-in for a person, the library's own: asked at once
            try:
                move = bot.choose(mine, moves)
            except Exception as error:  # never expected, but the table must go on
                move, failure = moves[0], _failure(error, label, "choose()")
        elif calls.late:  # still on an earlier choice: never called twice at once
            move = moves[0]
            if not calls.told_late:  # said once, not at every move
                calls.told_late = True
                failure = (
                    f"{label}'s bot has not answered an earlier move yet, so it is not "
                    "asked again until it does"
                )
                public = (
                    f"{label}'s bot is still on an earlier move: its first legal move is "
                    "played for it until it answers."
                )
        else:
            move, failure, public = self._ask(calls, mine, moves, public)
        with self._writing:
            with self._changed:
                if self._closed:
                    return False  # closed (or expired) while the bot chose: nothing more is kept
                if self._version != version:
                    return True  # a person back from a takeover moved: never apply stale
                before = self._state
                try:
                    after = apply(before, move)
                except IllegalMoveError as error:
                    failure = (
                        f"{label}'s bot chose an illegal move, {_shown_move(move)}: {error.reason}"
                    )
                    move = moves[0]  # a bot's illegal choice: its first legal move
                    after = apply(before, move)
                number = self._version + 1
            try:
                self._keep(number, seat, move)
            except RequestError:  # the journal could not keep it: the bot tries again later
                return False
            with self._changed:
                self._commit(seat, before, move, after)
                if failure is not None:
                    self._bot_failed(seat, failure, moves[0], public)
        return True

    def _ask(
        self, calls: _BotCalls, mine: PlayerView, moves: tuple[Move, ...], public: str
    ) -> tuple[Move, str | None, str]:
        """Return the move a seated bot chooses within `bot_timer` seconds, else its first
        legal move; and what went wrong, if anything, with the log's words for it.

        The wait ends early if the table closes.  A late answer is never used.
        """
        label = self.labels[calls.seat]
        answer = calls.choose(mine, moves)
        with self._changed:
            answer.add_done_callback(lambda _: self._wake())
            self._changed.wait_for(lambda: answer.done() or self._closed, self.bot_timer)
        if not answer.done():
            if self._closed or self.bot_timer is None:  # closed: nothing more is played
                return moves[0], None, public
            limit = f"{self.bot_timer:g} s"
            return (
                moves[0],
                f"{label}'s bot took more than {limit} to choose",
                f"{label}'s bot took more than {limit}: its first legal move was played for it.",
            )
        try:
            return answer.result(), None, public
        except Exception as error:  # a user's bot that fails must not stop the table
            return moves[0], _failure(error, label, "choose()"), public

    def _wake(self) -> None:
        with self._changed:
            self._changed.notify_all()

    def _bot_failed(self, seat: int, failure: str, instead: Move, public: str) -> None:
        """Say that *seat*'s bot failed and *instead* was played for it (under the lock).

        The table's log says so in *public*'s words, since *failure*, a line that names
        the seat and what went wrong, may name a tile of the bot's hand (S5):
        `bot_failed` gets it whole.
        """
        self._note(seat, public, public)
        if self.bot_failed is not None:
            self.bot_failed(
                f"{failure}; its first legal move, {format_move(instead)}, was played instead"
            )

    def _observe_failed(self, calls: _BotCalls, error: Exception) -> None:
        """Say that a bot's ``observe`` raised *error*: it is told nothing more this game.

        Called from the bot's own thread (`_BotCalls`); a bot of a game dealt over since,
        or of a closed table, is not spoken of.
        """
        with self._changed:
            if self._closed or self._calls.get(calls.seat) is not calls:
                return
            label = self.labels[calls.seat]
            said = f"{label}'s bot failed: it plays on, told no more of this game's moves."
            self._note(calls.seat, said, said)
            if self.bot_failed is not None:
                failure = _failure(error, label, "observe()")
                self.bot_failed(f"{failure}; it is told no more of this game's moves")
            self._tell()

    def start(self) -> None:
        """Run the bots in a thread, where each waits ``bot_delay`` seconds, then moves.

        >>> table = WebTable(2, bots={1: GreedyPlayer()}, seed=2)  # the bot moves first
        >>> table.start()
        >>> table.wait(0, since=0)["log"][1].startswith("Seat 1 (greedy) ")
        True
        >>> table.close()
        """
        if self._thread is None:
            self._thread = threading.Thread(target=self._run_bots, name="bots", daemon=True)
            self._thread.start()

    def _bots_may_act(self) -> bool:
        return self._closed or self._bot_to_move() is not None

    def _run_bots(self) -> None:
        # With a takeover or a turn timer, time alone can make a bot's turn: look often.
        tick = None if self.takeover is None and self.turn_timer is None else 0.25
        while True:
            with self._changed:
                if not self._changed.wait_for(self._bots_may_act, tick):
                    continue
                if self._closed:
                    return
                # Let people see the last move before the bot answers it.
                if self._changed.wait_for(lambda: self._closed, self.bot_delay):
                    return
            self._play_one_bot()

    def close(self) -> None:
        """Stop the bots' thread and wake every waiting request.

        A server closes the table's pages' WebSockets with code 4404 (the table has
        closed), or 1012 when it closes the table as it stops (`WebServer.server_close`);
        its links are answered 410 ``{"error": "closed"}`` from then on, and the table
        itself takes no move nor new game (`play`, `again`: `RequestError` 410).

        >>> table = WebTable(2, bots={1: GreedyPlayer()})
        >>> table.start(); table.close()
        >>> table.wait(0, since=table.version, timeout=60)["seat"]  # answers at once
        0
        """
        self._close(None)

    def _close(self, idle: float | None) -> bool:
        """Close the table, and stop its bots; return whether it closed.

        With *idle*, it expires: only if it has seen no move nor new game for *idle*
        seconds, once `expiring` has returned, and no move comes between the two (both
        under `_writing`; `expiring` not under `_changed`, so that no reader waits for it).
        """
        if idle is None:
            with self._changed:
                self._closed = True
                self._tell()
        else:
            with self._writing:
                with self._changed:
                    if self._closed or self._clock() - self._active < idle:
                        return False
                if self.expiring is not None:
                    self.expiring()
                with self._changed:
                    self._expired = expiry_reason(idle)
                    self._closed = True
                    self._tell()
        if self._thread is not None:
            self._thread.join(5)
        return True


# -- what a document says ---------------------------------------------------------------------


def _train_words(train: int, seat: int, labels: Sequence[str], own: str) -> str:
    if train == MEXICAN:
        return "the Mexican train"
    if train == seat:
        return f"{own} train"
    return f"{labels[train]}'s train"


def _move_document(move: Move, table: PlayerView) -> dict[str, Any]:
    """Return a legal move as the page uses it: its notation, kind, tile, train and words."""
    seat = table.seat if table.seat is not None else -1
    tile = train = None
    if isinstance(move, Play):
        kind, tile, train = "play", str(move.tile), move.train
        where = f"seat {move.train}'s" if move.train not in {MEXICAN, seat} else "your"
        words = f"Play {move.tile} on {'the Mexican' if move.train == MEXICAN else where} train"
    elif isinstance(move, Draw):
        kind, words = "draw", "Draw a tile"
    elif isinstance(move, Pass):
        stop = (
            table.rules.first_turn is not None
            and not table.had_first_turn[seat]
            and table.turn_tiles > 0
        )
        if stop:
            words = "End your first turn (P4)"
        elif table.trains[seat].marked:
            words = "Pass (your train keeps its marker)"
        else:  # P4, D1, D2 or P5: the rule that marks the train
            words = f"Pass (a marker goes on your train, {marker_rule(table)})"
        kind = "pass"
    elif isinstance(move, CallLastTile):
        kind, words = "call", "Call 'last tile'"
    else:
        kind, words = "next-round", f"Deal round {table.round_number + 1}"
    return {
        "notation": format_move(move),
        "json": to_json(move),
        "kind": kind,
        "tile": tile,
        "train": train,
        "words": words,
    }


def _status(table: PlayerView, names: Sequence[str]) -> str:
    if table.is_over:
        winners = " and ".join(names[s] for s in table.winners)
        verb = "win" if winners == "You" or " and " in winners else "wins"
        return f"The game is over: {winners} {verb} (E5, the lowest total)."
    if table.current_player is None:
        over = f"Round {table.round_number} of {table.rounds} is over"
        if table.seat is None:  # a spectator does not deal (E4)
            return f"{over}: a person at the table deals the next round."
        return f"{over}: deal the next round."
    if table.is_my_turn:
        return f"Your turn (round {table.round_number} of {table.rounds})."
    return f"{names[table.current_player]} to play (round {table.round_number} of {table.rounds})."


def _score_table(table: PlayerView) -> dict[str, Any]:
    return {
        "rounds": [list(points) for points in table.round_scores],
        "totals": list(table.scores),
    }


def _describe(
    before: GameState,
    after: GameState,
    seat: int,
    move: Move,
    events: tuple[Event, ...],
    labels: Sequence[str],
) -> list[tuple[str, ...]]:
    """Say what *seat*'s *move* did, in public words only: each line as `_readings` gives it.

    *events* are the move's (`derive_events`).
    """
    who = labels[seat]
    said: list[tuple[str, str]] = []  # each line to the others, and to *seat* itself
    owners: dict[int, tuple[int, str]] = {}  # a line another seat reads otherwise, by line
    if isinstance(move, Play):
        theirs = _train_words(move.train, seat, labels, "their own")
        yours = _train_words(move.train, seat, labels, "your")
        out = ""
        first_turn = before.rules.first_turn is not None and not before.had_first_turn[seat]
        if move.tile.is_double and not after.hand(seat) and not first_turn:
            out = ": going out on a double ends the round (D5)"
        said.append(
            (
                f"{who} played {move.tile} on {theirs}{out}.",
                f"You played {move.tile} on {yours}{out}.",
            )
        )
        if move.train not in (seat, MEXICAN):  # the train's owner reads it as theirs
            owners[len(said) - 1] = (move.train, f"{who} played {move.tile} on your train{out}.")
        if OneTileLeft(seat) in events:
            said.append((f"{who} has one tile left (E3a).", "You have one tile left (E3a)."))
    elif isinstance(move, Draw):
        # Only the drawer is told which tile (S5): the others learn that a tile was drawn.
        drawn = sorted(set(after.hand(seat)) - set(before.hand(seat)))
        own = f"You drew {', '.join(map(str, drawn))}." if drawn else "You drew a tile."
        said.append((f"{who} drew a tile.", own))
    elif isinstance(move, Pass):
        marked = after.trains[seat].marked and not before.trains[seat].marked
        if marked:
            rule = marker_rule(before)  # P4, D1, D2 or P5
            said.append(
                (
                    f"{who} passed: a marker goes on their train ({rule}).",
                    f"You passed: a marker goes on your train ({rule}).",
                )
            )
        else:
            said.append((f"{who} ended the turn.", "You ended your turn."))
    elif isinstance(move, CallLastTile):
        said.append((f"{who} called 'last tile'.", "You called 'last tile'."))
    elif isinstance(move, NextRound):
        text = f"Round {after.round_number} dealt (engine {after.engine})."
        said.append((f"{who}: {text}", text))
    lines = [_readings(after.players, seat, others, own) for others, own in said]
    for number, (reader, text) in owners.items():
        lines[number] = (*lines[number][:reader], text, *lines[number][reader + 1 :])
    if isinstance(move, NextRound):
        lines.append(_first_player(after, labels))
    if after.is_round_over and not before.is_round_over:
        # Each seat reads itself as "you" among the others' names; a spectator reads names.
        lines.append(
            tuple(
                _round_over(
                    after, [("you" if s == reader else name) for s, name in enumerate(labels)]
                )
                for reader in (*range(after.players), SPECTATOR)
            )
        )
    return lines


def _first_player(dealt: GameState, labels: Sequence[str]) -> tuple[str, ...]:
    """Say who plays first in the round just *dealt*, and why (S3, S4), as `_readings` does.

    Under S3 a seat's hand may hold more tiles than the deal gave (S1): nobody was dealt
    the engine, and the players drew for it.

    >>> from mexican_train import HUB, new_game
    >>> names = ["Ann", "Bo", "Cy", "Di"]
    >>> _first_player(new_game(4, STANDARD, seed=1), names)[1]
    'Cy held the engine 12-12 and plays first (S3).'
    >>> _first_player(new_game(4, STANDARD, seed=2), names)[3]
    'Nobody was dealt the engine 12-12: the players drew in turn, keeping what they drew, until you drew it; you play first (S3).'
    >>> _first_player(new_game(4, HUB, seed=1), names)[0]
    'The engine 12-12 is set aside; you play first, and the first player moves one seat on each round (S4).'
    """
    first, engine = dealt.first_player, dealt.engine
    if dealt.rules.engine_placement is EnginePlacement.SET_ASIDE:
        rotates = "the first player moves one seat on each round (S4)."
        others = f"The engine {engine} is set aside; {labels[first]} plays first, and {rotates}"
        own = f"The engine {engine} is set aside; you play first, and {rotates}"
    elif any(drawn_for_engine(dealt)):
        drew = f"Nobody was dealt the engine {engine}: the players drew in turn, keeping what they drew"
        others = f"{drew}, until {labels[first]} drew it; {labels[first]} plays first (S3)."
        own = f"{drew}, until you drew it; you play first (S3)."
    else:
        others = f"{labels[first]} held the engine {engine} and plays first (S3)."
        own = f"You held the engine {engine} and play first (S3)."
    return _readings(dealt.players, first, others, own)


def _failure(error: Exception, label: str, where: str) -> str:
    """Say in one line that the bot of the seat *label* raised *error* in *where*
    (``"choose()"``): its message when that names the bot already (the command line's
    bots of your own), as its type's."""
    if getattr(error, "names_the_bot", False):
        return str(error)
    return f"{label}'s bot failed in {where}: {type(error).__name__}: {error}"


def _shown_move(move: object) -> str:
    """Return *move* in notation, or its repr when it is no move at all."""
    try:
        return format_move(cast(Move, move))
    except TypeError:
        return repr(move)


def _readings(players: int, seat: int, others: str, own: str) -> tuple[str, ...]:
    """Return one line of the log as each seat reads it, then as a spectator reads it.

    *seat* reads *own*, everybody else *others*: a document picks its reader's with
    ``line[seat]``, and `SPECTATOR`, -1, picks the last.
    """
    return (*(own if s == seat else others for s in range(players)), others)


def _round_over(after: GameState, labels: Sequence[str]) -> str:
    """Say how the round that just ended ended (E1, E2) and what each seat scored (E3)."""
    return f"Round {after.round_number} is over: {round_result(after, labels)}."


# -- the server ----------------------------------------------------------------------------------


def seed_warning(seed: int | None, people: int) -> str | None:
    """Return a warning for a table dealt from a known *seed* with several *people*, or None.

    A fixed seed is for replaying a game: from the seed and their own hand, a player
    can deal every other hand, so people playing one another must not be given one.

    >>> seed_warning(None, 3) is None, seed_warning(7, 1) is None
    (True, True)
    >>> print(seed_warning(7, 2))
    Warning: --seed 7 fixes the deals, for replaying a game: a player who knows the seed knows every hand. Leave it out when several people play.
    """
    if seed is None or people < 2:
        return None
    return (
        f"Warning: --seed {seed} fixes the deals, for replaying a game: a player who "
        "knows the seed knows every hand. Leave it out when several people play."
    )


_LOBBY_FIELDS: Final = frozenset({"rules", "house", "players", "people", "level"})


def lobby_table(
    request: object,
    name: str,
    bot_delay: float = 0.6,
    *,
    takeover: float | None = None,
    turn_timer: float | None = None,
    bot_timer: float | None = BOT_TIMER,
    clock: Callable[[], float] = time.time,
) -> WebTable:
    """Return the table a lobby's request asks for, named *name* (its bots not started yet).

    *request* is ``{"rules": name, "house": [names], "players": n, "people": k,
    "level": "easy" | "medium" | "hard"}``: *people* seats for people (the first ones),
    bots of that level in the others.  *bot_delay*, *takeover*, *turn_timer*,
    *bot_timer* and *clock* are the table's (`WebTable`): ``mexican-train serve`` gives
    its own options.

    Raises:
        RequestError: 400 for a request that is not one, or rules that cannot deal.

    >>> table = lobby_table({"rules": "hub", "players": 3, "people": 2, "level": "easy"}, "t1")
    >>> sorted(table.tokens), table.tokens[0].startswith("t1."), table.labels[2]
    ([0, 1], True, 'Seat 2 (easy)')
    >>> table.close()
    """
    if not isinstance(request, dict) or not set(request) <= _LOBBY_FIELDS:
        raise RequestError(400, "bad request", f"a table is asked for with {sorted(_LOBBY_FIELDS)}")
    rules, house = request.get("rules", "standard"), request.get("house", [])
    players, people = request.get("players", 4), request.get("people", 1)
    level = request.get("level", "medium")
    fewest, most = LOBBY_PLAYERS
    # Each field is checked in turn, so that the reason names the one that is wrong.
    wrong = None
    if not isinstance(rules, str):
        wrong = f"rules is the name of the rules, such as 'standard', not {_shown(rules)}"
    elif (
        not isinstance(house, list)
        or not all(isinstance(part, str) for part in house)
        or len(house) > 8
    ):
        wrong = f"house is a list of up to 8 house rules' names, not {_shown(house)}"
    elif type(players) is not int or not fewest <= players <= most:
        wrong = f"a table has {fewest}-{most} players, not {_shown(players)}"
    elif type(people) is not int or not 1 <= people <= players:
        wrong = (
            f"people is how many of the {players} players are people, "
            f"1-{players}, not {_shown(people)}"
        )
    elif not isinstance(level, str) or level not in LEVELS:  # a list is no key of LEVELS
        wrong = f"the bots' level is {', '.join(LEVELS)}, not {_shown(level)}"
    if wrong is not None:
        raise RequestError(400, "bad request", wrong)
    try:
        chosen = combine(rules, *house) if house else get_variant(rules)
        bots: dict[int, Player | str] = dict.fromkeys(range(people, players), cast(str, level))
        table = WebTable(
            players,
            chosen,
            bots=bots,
            bot_delay=bot_delay,
            takeover=takeover,
            turn_timer=turn_timer,
            bot_timer=bot_timer,
            name=name,
            clock=clock,
        )
    except MexicanTrainError as error:
        raise RequestError(400, "bad request", str(error)) from None
    return table


def _shown(value: object) -> str:
    """Return a value a request gave, as a reason quotes it: short, whatever its size."""
    try:
        text = json.dumps(value)  # as the request wrote it: a JSON request's values always are
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def make_server(
    table: WebTable,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    log: IO[str] | None = sys.stderr,
    lobby: bool = False,
    max_connections: int = MAX_CONNECTIONS,
    max_per_client: int = MAX_PER_CLIENT,
    table_idle: float | None = TABLE_IDLE,
    allowed_hosts: Collection[str] = (),
) -> WebServer:
    """Return a server for *table* listening on *host*:*port* (port 0: any free port).

    With *lobby*, the page without a token is the lobby, where anyone who can reach the
    server makes tables (`lobby_table`; 200 served at once at most, 20 of them made from
    one address), each of which expires once nobody has played at it for *table_idle*
    seconds (24 hours; None: never).  *max_connections* and *max_per_client* bound the
    connections it serves at once, from all clients together and from one address;
    *allowed_hosts* are the names it answers besides its own (`WebServer`).

    Call ``serve_forever()`` on it (in a thread, if you like) and ``server_close()``
    when done; the table's bots start with the server.  `WebServer.links` gives each
    person's link.

    >>> table = WebTable(2, bots={1: GreedyPlayer()})
    >>> server = make_server(table, port=0, log=None)
    >>> server.links()[0].startswith("http://127.0.0.1:")
    True
    >>> server.server_close()
    """
    server = WebServer(
        (host, port),
        table,
        log=log,
        lobby=lobby_table if lobby else None,
        max_connections=max_connections,
        max_per_client=max_per_client,
        table_idle=table_idle,
        allowed_hosts=allowed_hosts,
    )
    table.start()
    return server


def serve(
    *,
    players: int = 4,
    people: int = 1,
    bots: Sequence[Player | str] = (),
    rules: Rules = STANDARD,
    seed: int | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    bot_delay: float = 0.6,
    out: IO[str] = sys.stdout,
    log: IO[str] | None = sys.stderr,
    db: str | None = None,
    takeover: float | None = None,
    turn_timer: float | None = None,
    bot_timer: float | None = BOT_TIMER,
    max_connections: int = MAX_CONNECTIONS,
    max_per_client: int = MAX_PER_CLIENT,
    table_idle: float | None = TABLE_IDLE,
    allowed_hosts: Collection[str] = (),
) -> None:
    """Serve a table until interrupted: people in the first *people* seats, *bots* in the rest.

    Prints the link of each person's seat to *out*.  This is ``mexican-train serve``,
    which reads *rules* and *bots* from its ``--rules``/``--house`` and ``--bots``.  A bot
    is a player, or the name of a library bot or a level, as `WebTable` takes them.
    *bot_delay*, *takeover*, *turn_timer* and *bot_timer* are the options of every table
    served: the one served from the start, those the lobby makes and those kept in *db*
    (see `WebTable`).

    With *db*, the path of an SQLite database, every move is committed there before it
    is applied.  The database keeps the latest table of the command line's for each
    players, people and rules: the one of *players*, *people* and *rules*, if its game
    is not over, is served again at its position instead of a new one (its seats' links
    still work, its bots are made again from their names or classes); a finished one is
    replaced by the new table, deleted with all its games.  Those of other options stay
    while unfinished (*out* says so).  Every table of the lobby the database holds is
    served again too, finished or not, counted in the share of the address that made
    it; but one kept as the lobby made it whose links were never known sent (a server
    killed in between) expires at once, its links saying why.

    A table made in the lobby expires once nobody has played at it for *table_idle*
    seconds (None: never), across restarts: it is deleted from the database, which
    keeps its name, so that its links say it expired and no new table takes the name.
    The table served from the start never expires.  *allowed_hosts* are the names the
    server answers besides its own (`WebServer`).

    Raises:
        MexicanTrainError: for a player count the game refuses (`DealError`),
            *people* and *bots* that do not fill the seats, or *allowed_hosts* that are
            not host names (`InvalidArgumentError`).
        OSError: if *host*:*port* cannot be listened on.
        StoreError: if the database *db* cannot be opened (another program's, a newer
            one, one in use by another server) or a table in it read (one changed by
            hand).  A start that fails keeps no table in it.
    """
    if not 1 <= people <= players:
        raise InvalidArgumentError(
            f"--people is how many seats people take, 1-{players}, not {people}"
        )
    if len(bots) != players - people:
        raise InvalidArgumentError(
            f"{players - people} bots fill the seats people do not take, not {len(bots)}"
        )
    allowed_hosts = checked_hosts(allowed_hosts)  # before the database keeps anything
    store = TableStore(db) if db is not None else None
    server = None
    try:
        options = _TableOptions(bot_delay, takeover, turn_timer, bot_timer)
        found: _Resumed | str | None = None
        others: list[StoredTable] = []  # the command line's, of other options, unfinished
        lobby_kept: list[tuple[WebTable, str]] = []  # each with the address that made it
        never_given: list[str] = []
        if store is not None:  # every kept table is read before anything is written
            stored = store.tables()
            found, others = _command_line_tables(stored, store, players, people, rules, options)
            lobby_kept, never_given = _lobby_tables(stored, store, options, table_idle)
        resumed = isinstance(found, _Resumed)
        if isinstance(found, _Resumed):
            table = found.table
        else:
            table = WebTable(
                players,
                rules,
                bots={people + i: bot for i, bot in enumerate(bots)},
                seed=seed,
                bot_delay=bot_delay,
                takeover=takeover,
                turn_timer=turn_timer,
                bot_timer=bot_timer,
            )
        server = WebServer(  # make_server's, but the table is kept once the port is bound:
            (host, port),  # a table whose links were never printed is never kept
            table,
            log=log,
            lobby=options.lobby(),
            max_connections=max_connections,
            max_per_client=max_per_client,
            table_idle=table_idle,
            allowed_hosts=allowed_hosts,
        )
        printing: int | None = None  # the new table kept, not given until its links are
        if store is not None:
            if isinstance(found, _Resumed):
                _keep(table, store, found.number, found.began)
            else:  # it replaces the one of its options, and every finished one
                number = printing = store.replace(
                    table.record(),
                    table.kept_hashes(),
                    table.bot_names(),
                    keep=[kept.number for kept in others],
                    given=False,
                )
                _keep(table, store, number)
        table.start()
        if store is not None:
            for name in never_given:  # its links may have reached nobody: they say why
                store.expire(name, NEVER_GIVEN)
            for name, reason in store.expired().items():  # their links are told, still
                server.add_expired(name, reason)
            for kept, maker in lobby_kept:
                server.add(kept, expires=True, maker=maker or None)
            # One left idle while the server was stopped expires now, before its bots
            # start: a bot's move would make it active again.
            server.expire_idle()
            for kept, _ in lobby_kept:
                if not kept.closed:
                    kept.start()
            server.lobby = _kept_lobby(store, options.lobby(), table_idle)
        warning = seed_warning(seed, people)
        if warning is not None and not resumed:
            print(warning, file=out)
        shown = shareable_host(host)
        print(f"Mexican Train at http://{shown}:{server.server_address[1]}/", file=out)
        if resumed:
            print(
                f"The table kept in {db} is back at move {table.version}: the links "
                "given for it still work (on this address and port).",
                file=out,
            )
        else:
            if isinstance(found, str):
                print(
                    f"The table kept in {db} for these options is replaced by this one, "
                    f"as {found}: its links no longer work.",
                    file=out,
                )
            if db is not None:
                print(f"Every move is kept in {db}: a restart resumes the table.", file=out)
            print("Open your seat's link (keep it secret: it is the seat's key):", file=out)
        for seat, link in server.links().items():
            print(f"  seat {seat}: {link}", file=out)
        watch = server.spectator_link()
        if watch is not None:
            print(f"  spectators: {watch}", file=out)
        for other in others:
            print(
                f"{db} also keeps an unfinished table served with {_options_words(other)}: "
                "serve with those options to play on at it.",
                file=out,
            )
        if store is not None and printing is not None:  # its links are printed
            out.flush()
            store.give(printing, "")
        print("Press Ctrl-C to stop.", file=out, flush=True)
        server.serve_forever()
    finally:
        if server is not None:
            server.server_close()
        if store is not None:
            store.close()


def _keep(
    table: WebTable,
    store: TableStore,
    number: int,
    began: int = 0,
    idle: float | None = None,
    maker: str = "",
) -> None:
    """Commit *table*'s moves to *store* (as table *number*), and each new game as a new table.

    A move is applied, and so acknowledged, only once it is committed.  *began* is the
    version the table's game began at; a new game is kept with its own, so that a
    restart resumes the table at the version open pages last saw.  A table of the
    lobby's that expires after *idle* seconds is deleted, its name and why kept; the
    address that made it (*maker*, or the one it is handed to: `WebTable.handed`) is
    kept with each of its games.
    """
    kept = [number, began]  # the table's number in the store, the version its game began at
    made = [maker]

    def journal(count: int, seat: int, move: Move) -> None:
        store.append(kept[0], count - kept[1], seat, move)

    def restarted(record: GameRecord) -> None:
        began = table.version + 1
        number = store.add(
            record, table.kept_hashes(), table.bot_names(), table.name, began, maker=made[0]
        )
        kept[:] = [number, began]

    def handed(address: str) -> None:
        store.give(kept[0], address)
        made[0] = address

    table.journal = journal
    table.restarted = restarted
    if table.name:  # the lobby's
        table.handed = handed
        if idle is not None:  # an expired table is deleted
            reason = expiry_reason(idle)  # what the table says when it expires
            table.expiring = lambda: store.expire(table.name, reason)


def _kept_lobby(
    store: TableStore,
    make: Callable[[object, str], WebTable],
    idle: float | None,
) -> Callable[[object, str], WebTable]:
    """Return the lobby of ``serve --db``: it makes each table as *make* does (serve's
    `lobby_table`, with its options), keeps it in *store* and commits its moves there
    (`_keep`; it expires after *idle* seconds).  A table the server gives up unserved
    (`WebTable.discarding`) is deleted from *store* again.  A table *store* cannot keep
    is refused, as a move it cannot keep is: `RequestError` 503 ``"not saved"``.  A table
    is kept not given (`StoredTable.given`) until the server serves it and sends its
    links (`WebTable.handed`)."""

    def lobby(request: object, name: str) -> WebTable:
        made = make(request, name)
        try:
            number = store.add(
                made.record(), made.kept_hashes(), made.bot_names(), name, given=False
            )
        except StoreError as error:
            made.close()
            raise RequestError(503, "not saved", f"the table could not be kept: {error}") from None
        _keep(made, store, number, idle=idle)
        made.discarding = lambda: store.discard(number)
        return made

    return lobby


@attrs.frozen
class _TableOptions:
    """serve's options of every table it serves: its own, the lobby's, those resumed."""

    bot_delay: float
    takeover: float | None
    turn_timer: float | None
    bot_timer: float | None = BOT_TIMER

    def lobby(self) -> Callable[[object, str], WebTable]:
        """Return the lobby that makes tables of these options (`lobby_table`)."""
        return functools.partial(
            lobby_table,
            bot_delay=self.bot_delay,
            takeover=self.takeover,
            turn_timer=self.turn_timer,
            bot_timer=self.bot_timer,
        )


@attrs.frozen
class _Resumed:
    number: int  # the table's number in the store
    began: int  # the version its game began at
    table: WebTable


def _command_line_tables(
    stored: list[StoredTable],
    store: TableStore,
    players: int,
    people: int,
    rules: Rules,
    options: _TableOptions,
) -> tuple[_Resumed | str | None, list[StoredTable]]:
    """Return the command line's table of *players* seats, *people* of them people's,
    under *rules*, resumed if its game is not over (else why not, in words; None: none
    is kept), and the other command-line tables to keep, unfinished, of other options.

    The database keeps the latest game of one command-line table for each players,
    people and rules: serving with those options again resumes it.  Asked for another
    game, the server deals a new one, which replaces this one.
    """
    latest: dict[tuple[int, int, Rules], StoredTable] = {}
    for kept in stored:  # oldest first: the latest game of each options stays
        if not kept.name:
            start = kept.record
            latest[start.players, start.players - len(kept.bots), start.rules] = kept
    mine = latest.pop((players, people, rules), None)
    # A table whose links were never printed (the server killed as it started) is kept
    # no longer: nobody may have them.
    others = [kept for kept in latest.values() if kept.given and not _is_over(kept, store)]
    if mine is None:
        return None, others
    if not mine.given:
        return "its links were never printed (the server stopped as it started)", others
    table = _resume(mine, options, store)
    if table.state.is_over:
        return "its game is over", others
    return _Resumed(mine.number, mine.began, table), others


def _is_over(kept: StoredTable, store: TableStore) -> bool:
    """Return whether the game *kept* is over.

    Raises:
        StoreError: if its record does not replay (a row changed by hand), naming it.
    """
    try:
        return replay(kept.record).is_over
    except ReplayError as error:
        raise _unreadable(kept, store, error) from None


def _options_words(kept: StoredTable) -> str:
    """Return the options *kept* was served with, as the command line says them."""
    start = kept.record
    words = f"--players {start.players} --people {start.players - len(kept.bots)}"
    name = variant_name(start.rules)
    if name is None:
        return f"{words} and rules of a program's own"
    base, *house = name.split("+")
    return " ".join([words, f"--rules {base}", *(f"--house {rule}" for rule in house)])


def _lobby_tables(
    stored: list[StoredTable], store: TableStore, options: _TableOptions, idle: float | None
) -> tuple[list[tuple[WebTable, str]], list[str]]:
    """Return the tables the lobby made of those *stored* in *store*, each at its latest
    game, over or not (a finished table's links deal its next game), with the address
    that made it (``""``: not known); and the names of those whose links were never
    noted given (`StoredTable.given`), which are not served.  Each expires after *idle*
    seconds (None: never)."""
    latest = {table.name: table for table in stored if table.name}
    tables = []
    never_given = []
    for kept in latest.values():
        if not kept.given:
            never_given.append(kept.name)
            continue
        table = _resume(kept, options, store)
        _keep(table, store, kept.number, kept.began, idle, kept.maker)
        tables.append((table, kept.maker))
    return tables, never_given


def _resume(kept: StoredTable, options: _TableOptions, store: TableStore) -> WebTable:
    """Return the table *kept* describes, at its position, its bots made again.

    Raises:
        StoreError: if its record does not replay, or the table cannot be served as it is
            kept (a name or seats `WebTable` refuses): a row changed by hand, naming it.
    """
    try:
        return WebTable.resume(
            kept.record,
            kept.seats,
            kept.token_hashes,
            {seat: _bot_from_name(name) for seat, name in kept.bots.items()},
            bot_delay=options.bot_delay,
            takeover=options.takeover,
            turn_timer=options.turn_timer,
            bot_timer=options.bot_timer,
            name=kept.name,
            began=kept.began,
            active=kept.active,
        )
    except ReplayError as error:
        raise _unreadable(kept, store, error) from None
    except MexicanTrainError as error:  # its name, or every seat a bot's
        raise StoreError(
            f"table {kept.number} of the tables' database {store.path} cannot be served: "
            f"{error}. {UNTOUCHED}"
        ) from None


def _unreadable(kept: StoredTable, store: TableStore, error: ReplayError) -> StoreError:
    """Return the error for the table *kept* in *store*, whose record does not replay."""
    return StoreError(
        f"table {kept.number} of the tables' database {store.path} does not replay: "
        f"{error}. {UNTOUCHED}"
    )


def _bot_from_name(name: str) -> Player | str:
    """Return the bot a database names: a library bot or level by its name (``hard``), or
    one named ``module:Class`` made again with no arguments (greedy if it cannot be).

    Only a class with a ``choose`` method is called: a name in a database edited by
    hand that names a function (``os:abort``) calls nothing.
    """
    if name.lower() in BOTS:
        return name.lower()
    module, _, qualname = name.partition(":")
    try:
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
        if not isinstance(found, type) or not callable(getattr(found, "choose", None)):
            return GreedyPlayer()
        bot: Player = found()
    except Exception:  # a bot that cannot be made again: the greedy one takes its seat
        return GreedyPlayer()
    return bot
