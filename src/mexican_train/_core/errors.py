"""The exception hierarchy: one base class, each error also a builtin a user would catch."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

#: `shown` describes a whole number longer than this instead of writing it; the JSON reader
#: refuses one before reading any field (no field needs more than 64 bits).
SHOWN_BITS: Final = 1000

#: `shown` cuts a str longer than this, and any other value but a whole number whose repr is
#: longer than twice this, so that a message stays one readable line whatever it was given.
SHOWN_CHARS: Final = 40


def shown(value: object) -> str:
    """Return ``repr(value)`` for an error message; a long value cut, a huge whole number described.

    Python refuses to write an int of more than 4300 digits, which would turn the
    intended error into a bare ValueError about string conversion; a str of a
    million characters would make a message of a million characters.

    >>> shown(-3), shown("x"), shown(10**5000)
    ('-3', "'x'", 'a whole number of 16610 bits')
    >>> shown("x" * 10**6)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (1000000 characters)"
    >>> shown([1, 10**5000])
    'a list holding a whole number too long to write'
    >>> class Broken:
    ...     def __repr__(self):
    ...         raise RuntimeError("no")
    ...
    >>> shown(Broken())
    'a Broken whose repr() raises RuntimeError'
    """
    if type(value) is int:
        if value.bit_length() > SHOWN_BITS:
            return f"a whole number of {value.bit_length()} bits"
        return repr(value)  # written whole: a number cut would be another number
    if isinstance(value, str) and len(value) > SHOWN_CHARS:
        return f"{value[: SHOWN_CHARS - 3]!r}... ({len(value)} characters)"
    try:
        text = repr(value)
    except ValueError:  # a whole number too long for Python to write, inside a list or such
        return f"a {type(value).__name__} holding a whole number too long to write"
    except Exception as error:  # a value of a caller's own: its repr() is its bug
        return f"a {type(value).__name__} whose repr() raises {type(error).__name__}"
    if len(text) > 2 * SHOWN_CHARS:
        return text[: 2 * SHOWN_CHARS - 3] + "..."
    return text


class MexicanTrainError(Exception):
    """Base class of every error this library raises on purpose.

    >>> from mexican_train import new_game
    >>> try:
    ...     new_game(15)
    ... except MexicanTrainError as error:
    ...     type(error).__name__, isinstance(error, ValueError)
    ...
    ('DealError', True)

    Every error pickles, with its attributes, and its class goes by the public name
    users import it by (``mexican_train.DealError`` in a traceback, not the module
    that defines it).

    >>> import pickle
    >>> from mexican_train import Draw, IllegalMoveError
    >>> error = pickle.loads(pickle.dumps(IllegalMoveError(Draw(), "P7: play instead")))
    >>> error.move, error.reason
    (Draw(), 'P7: play instead')
    """

    __module__ = "mexican_train"  # where users import it: tracebacks and pickles name it so

    def __reduce__(self) -> tuple[object, ...]:
        # Exception's own reduce calls the class with self.args, the message alone, which
        # an error whose __init__ takes its data (IllegalMoveError(move, reason)) refuses:
        # make the instance without __init__ and restore its message and attributes.
        return (type(self).__new__, (type(self), *self.args), self.__dict__)


class DealError(MexicanTrainError, ValueError):
    """A set, a hand size or a player count that no deal can satisfy (S1), or a bad `Deal`.

    >>> from mexican_train import new_game
    >>> new_game(15)
    Traceback (most recent call last):
    ...
    mexican_train.DealError: Table A covers 2-14 players, not 15
    """

    __module__ = "mexican_train"


class RulesError(MexicanTrainError, ValueError):
    """A `Rules` value that is contradictory, or a pluggable rule that broke its protocol.

    >>> import attrs
    >>> from mexican_train import STANDARD
    >>> attrs.evolve(STANDARD, max_pip=6, rounds=9)
    Traceback (most recent call last):
    ...
    mexican_train.RulesError: Rules.rounds=9, but a double-6 set has only 7 engines (S2)
    """

    __module__ = "mexican_train"


class InvalidArgumentError(MexicanTrainError, ValueError):
    """An argument no call could accept; the message names it and the value refused.

    For example a seat the table does not have, a tile end above 30, ``games=0``.

    A value of the wrong kind altogether (a str where a `GameState` belongs) raises
    TypeError instead.

    >>> from mexican_train import new_game, view
    >>> view(new_game(2, seed=1), 5)
    Traceback (most recent call last):
    ...
    mexican_train.InvalidArgumentError: a seat is 0-1, not 5
    """

    __module__ = "mexican_train"


class InvalidStateError(MexicanTrainError, ValueError):
    """Parts of a position that no game could reach, given to `build_state`.

    The state is not built.  A JSON document or a notation string with the same
    fault raises `SchemaError` or `NotationError` instead, which locate it in the text.

    Attributes:
        field: the offending part, written as a path such as ``"trains[2].tiles[3]"``.
        reason: what is wrong with it, and why, naming the rule where there is one.

    >>> from mexican_train import HUB, Train, Tile, build_state
    >>> try:
    ...     build_state(rules=HUB, players=2, seed=1, round_number=1, hands=[["12-12"], []],
    ...                 boneyard=[], trains=[Train((), 12)] * 3, current_player=0)
    ... except InvalidStateError as error:
    ...     error.field, error.reason
    ...
    ('hands[0][0]', '12-12 appears twice (also at engine)')
    """

    __module__ = "mexican_train"

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class IllegalMoveError(MexicanTrainError, ValueError):
    """A move that the rules do not allow in this state.

    Attributes:
        move: the refused move, as given (`apply` refuses what is not a move this way too).
        reason: why it was refused, naming the rule (for example ``"D2: ..."``).

    >>> from mexican_train import Pass, apply, new_game
    >>> try:
    ...     apply(new_game(2, seed=1), Pass())
    ... except IllegalMoveError as error:
    ...     error.move, error.reason
    ...
    (Pass(), 'P7/P5a: a player who has a legal play must make one')
    """

    __module__ = "mexican_train"

    def __init__(self, move: object, reason: str) -> None:
        super().__init__(f"illegal move {shown(move)}: {reason}")
        self.move = move
        self.reason = reason


def close_names(name: str, known: Sequence[str]) -> str:
    """Return " (did you mean 'x'?)" for the names in *known* close to *name*, or "".

    *name* is written as the catalogue writes names (case, spaces and underscores do not
    matter): the library's errors and the command line's say it alike.
    """
    if len(name) > 100:  # no name is that long: a typo of none
        return ""
    import difflib  # only for an unknown name

    key = "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())
    close = difflib.get_close_matches(key, known, n=3)
    return f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""


class UnknownVariantError(MexicanTrainError, LookupError):
    """A variant name that is neither built in nor registered by an installed package.

    Attributes:
        name: the name asked for.
        known: every valid name: the built-in ones in catalogue order, then those
            installed packages register, sorted.
        reason: what is wrong with the name's form (an empty part of a ``+``
            combination), or "" when it is simply no variant's name.

    >>> from mexican_train import get_variant
    >>> try:
    ...     get_variant("chickenfoot")
    ... except UnknownVariantError as error:
    ...     error.name, error.known[:2], isinstance(error, LookupError)
    ...
    ('chickenfoot', ('standard', 'hub'), True)
    """

    __module__ = "mexican_train"

    def __init__(self, name: str, known: tuple[str, ...], reason: str = "") -> None:
        # *reason* replaces "no variant named ..." where the name's form is what is wrong.
        why = reason or f"no variant named {shown(name)}{close_names(name, known)}"
        super().__init__(f"{why}; the variants are: {', '.join(known)}")
        self.name = name
        self.known = known
        self.reason = reason
