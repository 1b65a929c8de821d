"""JSON documents: states, views, moves, records and events, to and from plain dicts.

Documents mirror the Python values field for field (see ``docs/reference/json.rst``
and the JSON Schema in ``schema/``).  Writing uses cattrs' unstructuring; reading
uses cattrs' structuring with strict hooks (a bool is not a whole number, a string is
not a list), then the consistency checks of `_positions.check`.  Reading is for untrusted
input: anything wrong raises `SchemaError` naming the path of the bad field, and no
value is returned until the whole document has been checked.
"""

from __future__ import annotations

import enum
import json
import re
import typing
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from typing import Any, Final, NoReturn, TypeVar

import attrs
import cattrs
from cattrs.errors import (
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
)
from cattrs.gen import make_dict_structure_fn

from .._core.bounds import BOUNDS, MAX_DEPTH, MAX_TRAIN, first_out_of_bounds
from .._core.errors import SHOWN_CHARS, InvalidArgumentError, MexicanTrainError, shown
from .._core.moves import MEXICAN, Move, Play
from .._core.rules import Rules
from .._core.state import GameState, Train
from .._core.tables import DealTable
from .._core.tiles import Tile
from .._core.view import PlayerView
from .._positions.check import Path, Problem, check_state, check_view
from .._positions.fields import StateFields, TrainFields, ViewFields, fields_of
from .events import (
    DoubleClosed,
    DoubleOpened,
    Event,
    GameOver,
    MarkerPlaced,
    MarkerRemoved,
    RoundEnded,
    RoundStarted,
    TilePlayed,
)
from .names import field_named, kebab_name, public_names
from .record import GameRecord, ReplayError, replay

#: The schema every document names in its ``"schema"`` field.
SCHEMA_VERSION: Final = "mexican-train/2"

_TILE = re.compile(r"([0-9]{1,4})-([0-9]{1,4})")
_T = TypeVar("_T")


class SchemaError(MexicanTrainError, ValueError):
    """A JSON document that is not a valid document of this schema.

    Attributes:
        path: where the bad field is, as a JSONPath such as ``$.trains[2].tiles[3]``.
        reason: what is wrong with it, and why.

    >>> from mexican_train.serialize import SCHEMA_VERSION, move_from_json
    >>> try:
    ...     move_from_json({"schema": SCHEMA_VERSION, "type": "play", "tile": "12-5", "train": True})
    ... except SchemaError as error:
    ...     error.path
    ...
    '$.train'
    """

    __module__ = "mexican_train"

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class _Invalid(Exception):
    """Raised by our hooks inside cattrs; *subpath* goes below the field cattrs names."""

    def __init__(self, message: str, subpath: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.subpath = subpath


def _one_of(names: Iterable[str]) -> str:
    """Return ``"one of a, b"``, or just ``"a"`` when there is one: a list of one is no choice."""
    listed = list(names)
    return listed[0] if len(listed) == 1 else f"one of {', '.join(listed)}"


def _join(path: str, name: object) -> str:
    # A key is untrusted too: one too long to be any field's name is shown cut (`shown`).
    if isinstance(name, str) and name.isidentifier() and len(name) <= SHOWN_CHARS:
        return f"{path}.{name}"
    return f"{path}[{shown(name)}]"


def _problem_path(path: Path | tuple[object, ...]) -> str:
    """Return *path*, steps from the document's root (an int indexes an array), as JSONPath."""
    text = "$"
    for step in path:
        text = f"{text}[{step}]" if type(step) is int else _join(text, step)
    return text


# -- the converter ----------------------------------------------------------------------


def _strict(kind: type, what: str) -> Callable[[object, type], Any]:
    def structure(value: object, _: type) -> Any:
        # type() and not isinstance(): JSON's true is not the number 1.
        if type(value) is not kind:
            raise _Invalid(f"expected {what}, not {_shown(value)}")
        return value

    return structure


def _shown(value: object) -> str:
    if type(value) is int and value.bit_length() > _MAX_BITS:
        return shown(value)  # json.dumps refuses ints of more than 4300 digits
    text = json.dumps(value) if isinstance(value, (str, int, float, bool, type(None))) else None
    if text is None:
        names: dict[type, str] = {dict: "an object", list: "an array"}
        text = names.get(type(value), type(value).__name__)
    return text if len(text) <= 40 else text[:37] + "..."


def _structure_tile(value: object, _: type) -> Tile:
    if type(value) is not str or not _TILE.fullmatch(value):
        raise _Invalid(f'a tile is a string like "12-5", not {_shown(value)}')
    high, low = value.split("-")
    try:
        return Tile(int(high), int(low))
    except InvalidArgumentError as error:  # an end above MAX_PIP
        raise _Invalid(f"{value} is not a tile: {error}") from None


def _is_enum(kind: object) -> bool:
    return isinstance(kind, type) and issubclass(kind, enum.Enum)


def _structure_enum(value: object, kind: type[enum.Enum]) -> enum.Enum:
    # Compared member by member, not looked up: the value may be unhashable, or very long.
    for member in kind:
        if type(value) is type(member.value) and value == member.value:
            return member
    choices = _one_of(json.dumps(member.value) for member in kind)
    raise _Invalid(f"expected {choices} ({kind.__name__}), not {_shown(value)}")


def _is_protocol(kind: object) -> bool:
    return isinstance(kind, type) and bool(getattr(kind, "_is_protocol", False))


def _is_move(kind: object) -> bool:
    return kind == Move


def _is_tuple(kind: object) -> bool:
    args = typing.get_args(kind)
    return typing.get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(
        forbid_extra_keys=True,
        detailed_validation=True,
        unstruct_collection_overrides={tuple: list},
    )
    converter.register_structure_hook(int, _strict(int, "a whole number"))
    converter.register_structure_hook(bool, _strict(bool, "true or false"))
    # A field that may be left out (`TrainFields.owner_played`), never written null.
    converter.register_structure_hook(bool | None, _strict(bool, "true or false"))
    converter.register_structure_hook(str, _strict(str, "a string"))
    converter.register_structure_hook(Tile, _structure_tile)
    converter.register_structure_hook_func(_is_enum, _structure_enum)
    converter.register_unstructure_hook(Tile, str)

    def tuple_factory(kind: Any) -> Callable[[object, Any], Any]:
        item_kind = typing.get_args(kind)[0]
        item_hook = converter.get_structure_hook(item_kind)

        def structure(value: object, _: Any) -> Any:
            if type(value) not in (list, tuple):
                raise _Invalid(f"expected an array, not {_shown(value)}")
            items: list[object] = []
            # Stop at the first bad item, rather than check them all as cattrs' detailed
            # validation does: refusing a huge document costs no more than its first fault.
            for index, item in enumerate(typing.cast("list[object]", value)):
                try:
                    items.append(item_hook(item, item_kind))
                except _STRUCTURE_ERRORS as error:
                    where, reason = _locate(error, "")
                    raise _Invalid(reason, f"[{index}]{where}") from None
            return tuple(items)

        return structure

    def attrs_factory(kind: Any) -> Callable[[object, Any], Any]:
        base = make_dict_structure_fn(kind, converter)

        def structure(value: object, kind: Any) -> Any:
            if type(value) is not dict:
                raise _Invalid(f"expected an object, not {_shown(value)}")
            try:
                return base(value, kind)
            except ClassValidationError as error:
                # The value's own check as it is built (a bound), which cattrs reports at the
                # value: told at the field it names.
                with_notes, without = error.group_exceptions()
                name = None if with_notes else field_named(kind, str(without[0]))
                if name is None:
                    raise
                raise _Invalid(str(without[0]), _join("", name)) from None

        return structure

    converter.register_structure_hook_factory(_is_tuple, tuple_factory)
    converter.register_structure_hook_factory(attrs.has, attrs_factory)

    def structure_pluggable(value: object, protocol: Any) -> object:
        # V2, V3: pluggable rules are named by class, looked up among public names only.
        if type(value) is not dict:
            raise _Invalid(f'expected an object with a "type", not {_shown(value)}')
        name = value.get("type")
        classes = {
            key: cls
            for key, cls in public_names().items()
            if isinstance(cls, type) and attrs.has(cls) and issubclass(cls, protocol)
        }
        if type(name) is not str or name not in classes:
            known = _one_of(sorted(classes))
            article = "an" if protocol.__name__[0] in "AEIOU" else "a"
            raise _Invalid(f"{article} {protocol.__name__} is {known}, not {_shown(name)}", ".type")
        fields = {key: item for key, item in value.items() if key != "type"}
        return converter.structure(fields, classes[name])

    def unstructure_pluggable(value: object) -> dict[str, Any]:
        cls = type(value)
        if public_names().get(cls.__name__) is not cls or not attrs.has(cls):
            raise TypeError(
                f"{value!r} cannot be written: JSON names pluggable rules by their public "
                "class in mexican_train (or mexican_train.variants)"
            )
        return {"type": cls.__name__, **converter.unstructure(value, cls)}

    converter.register_structure_hook_func(_is_protocol, structure_pluggable)
    converter.register_unstructure_hook_func(_is_protocol, unstructure_pluggable)
    converter.register_structure_hook(DealTable, _structure_table(converter))
    converter.register_unstructure_hook(DealTable, _unstructure_table)
    converter.register_structure_hook_func(_is_move, lambda value, _: _structure_move(value))
    converter.register_unstructure_hook_func(_is_move, _unstructure_move)
    return converter


def _known_tables() -> dict[str, DealTable]:
    return {t.name: t for t in public_names().values() if isinstance(t, DealTable)}


def _unstructure_table(table: DealTable) -> object:
    known = _known_tables().get(table.name)
    if known == table:
        return table.name  # S1: the rulebooks' tables go by name
    return {
        "name": table.name,
        "hand_sizes": [[p, n, size] for (p, n), size in table.hand_sizes.items()],
        "default_sets": [[p, n] for p, n in table.default_sets.items()],
    }


@attrs.frozen
class _TableDocument:
    name: str
    hand_sizes: tuple[tuple[int, ...], ...]
    default_sets: tuple[tuple[int, ...], ...]


def _structure_table(converter: cattrs.Converter) -> Callable[[object, type], DealTable]:
    def structure(value: object, _: type) -> DealTable:
        if type(value) is str:
            known = _known_tables()
            if value not in known:
                raise _Invalid(f"a deal table is one of {', '.join(known)} or an object, "
                               f"not {_shown(value)}")  # fmt: skip
            return known[value]
        document = converter.structure(value, _TableDocument)
        sizes: dict[tuple[int, int], int] = {}
        players, pip, hand_size = BOUNDS["players"], BOUNDS["pip"], BOUNDS["hand_size"]
        for i, row in enumerate(document.hand_sizes):
            if (
                len(row) != 3
                or row[0] not in players
                or row[1] not in pip
                or row[2] not in hand_size
            ):
                raise _Invalid(f"a row is [players {players.low}-{players.high}, set "
                               f"{pip.low}-{pip.high}, hand size {hand_size.low}-{hand_size.high}]",
                               f".hand_sizes[{i}]")  # fmt: skip
            if (row[0], row[1]) in sizes:
                raise _Invalid("this player count and set are listed twice", f".hand_sizes[{i}]")
            sizes[row[0], row[1]] = row[2]
        sets: dict[int, int] = {}
        for i, row in enumerate(document.default_sets):
            if len(row) != 2 or row[0] not in players or row[1] not in pip or row[0] in sets:
                raise _Invalid(f"a row is [players {players.low}-{players.high}, set "
                               f"{pip.low}-{pip.high}], each player count once",
                               f".default_sets[{i}]")  # fmt: skip
            sets[row[0]] = row[1]
        # S1: the table covers a range of player counts, each with a set.
        if not sets or len(sets) != max(sets) - min(sets) + 1:
            raise _Invalid("default sets cover a range of player counts without gaps",
                           ".default_sets")  # fmt: skip
        return DealTable(document.name, sizes, sets)

    return structure


_MOVE_FIELDS: Final = {"type", "tile", "train"}


def _move_types() -> dict[str, type]:
    return {kebab_name(cls): cls for cls in typing.get_args(Move)}


def _unstructure_move(move: Move) -> dict[str, Any]:
    if isinstance(move, Play):
        return {"type": "play", "tile": str(move.tile), "train": move.train}
    if type(move) not in typing.get_args(Move):
        raise TypeError(f"not a move: {move!r}")
    return {"type": kebab_name(type(move))}


def _structure_move(value: object) -> Move:
    if type(value) is not dict:
        raise _Invalid(f'a move is an object with a "type", not {_shown(value)}')
    types = _move_types()
    kind = value.get("type")
    if type(kind) is not str or kind not in types:
        raise _Invalid(f"a move's type is {_one_of(types)}, not {_shown(kind)}", ".type")
    allowed = _MOVE_FIELDS if kind == "play" else {"type"}
    for key in value:
        if key not in allowed:
            raise _Invalid(f"a {kind} move has no field {shown(key)}", _join("", key))
    if kind != "play":
        return types[kind]()  # type: ignore[no-any-return]
    for key in ("tile", "train"):
        if key not in value:
            raise _Invalid("required field missing", f".{key}")
    try:
        tile = _structure_tile(value["tile"], Tile)
    except _Invalid as invalid:
        raise _Invalid(invalid.message, ".tile") from None
    train = value["train"]
    if type(train) is not int or not -1 <= train < MAX_TRAIN:
        raise _Invalid(f"a train is a seat >= 0 or -1 (Mexican), not {_shown(train)}", ".train")
    return Play(tile, train)


_CONVERTER = _make_converter()
# A state, a train and a view are read and written through the records of their public fields.
_CONVERTER.register_structure_hook(
    Train, lambda value, _: _CONVERTER.structure(value, TrainFields).build()
)
_CONVERTER.register_structure_hook(
    PlayerView, lambda value, _: _CONVERTER.structure(value, ViewFields).build()
)
_CONVERTER.register_unstructure_hook(
    PlayerView, lambda view: _CONVERTER.unstructure(ViewFields.of(view), ViewFields)
)
# The trains of a table: the last is the Mexican train, whose owner_played is False
# where a document leaves it out (`owner_played_default`).
_CONVERTER.register_structure_hook_func(
    lambda kind: kind == tuple[Train, ...],
    lambda value, _: _trains(_CONVERTER.structure(value, tuple[TrainFields, ...])),
)
_CONVERTER.register_unstructure_hook(
    Train,
    lambda train: _CONVERTER.unstructure(
        TrainFields(train.tiles, train.open_end, train.marked, train.owner_played), TrainFields
    ),
)


def _trains(fields: tuple[TrainFields, ...]) -> tuple[Train, ...]:
    last = len(fields) - 1
    trains = []
    for index, train in enumerate(fields):
        try:
            trains.append(train.build(is_mexican=index == last))
        except InvalidArgumentError as error:  # the open end, the one bound Train checks
            raise _Invalid(str(error), f"[{index}].open_end") from None
    return tuple(trains)


#: What structuring raises for bad input: our hooks, cattrs, and the values' own validators.
_STRUCTURE_ERRORS: Final = (
    _Invalid, cattrs.BaseValidationError, ForbiddenExtraKeysError, KeyError, TypeError, ValueError,
)  # fmt: skip


def _locate(error: BaseException, path: str) -> tuple[str, str]:
    """Return the path and message of the first leaf of a cattrs error tree."""
    if isinstance(error, (ClassValidationError, IterableValidationError)):
        with_notes, without = error.group_exceptions()
        if with_notes:
            inner, note = with_notes[0]
            if isinstance(error, ClassValidationError):
                return _locate(inner, _join(path, note.name))  # type: ignore[union-attr]
            return _locate(inner, f"{path}[{note.index!r}]")
        return _locate(without[0], path)
    if isinstance(error, ForbiddenExtraKeysError):
        name = min(map(str, error.extra_fields))
        return _join(path, name), "unknown field"
    if isinstance(error, KeyError):
        return path, "required field missing"
    if isinstance(error, _Invalid):
        return path + error.subpath, error.message
    return path, str(error) or type(error).__name__


def _structure(value: object, kind: type[_T], path: str = "$") -> _T:
    try:
        return _CONVERTER.structure(value, kind)
    except _STRUCTURE_ERRORS as error:
        where, reason = _locate(error, path)
        raise SchemaError(where, reason) from None


# -- documents --------------------------------------------------------------------------


def _body(document: object, kinds: Mapping[str, object]) -> tuple[str, dict[str, Any]]:
    """Check the header of *document*; return its type and the remaining fields."""
    if type(document) is not dict:
        raise SchemaError("$", f"a document is a JSON object, not {_shown(document)}")
    _check_shape(document)  # first: even the header may be hostile
    if "schema" not in document:
        raise SchemaError("$.schema", "required field missing")
    schema = document["schema"]
    if type(schema) is not str or schema != SCHEMA_VERSION:
        raise SchemaError("$.schema", f"this library reads {SCHEMA_VERSION!r} documents, "
                                      f"not {_shown(schema)}")  # fmt: skip
    kind = document.get("type")
    if type(kind) is not str or kind not in kinds:
        raise SchemaError("$.type", f"the type is {_one_of(kinds)}, not {_shown(kind)}")
    return kind, {key: value for key, value in document.items() if key not in ("schema", "type")}


#: No field needs a number this long (seeds have 64 bits); a longer one could not even be
#: shown in a message (Python refuses to write ints of more than 4300 digits).
_MAX_BITS: Final = BOUNDS["bits"].high


_Container = dict[Any, Any] | list[Any] | tuple[Any, ...]


def _check_shape(document: dict[str, Any]) -> None:
    """Refuse nesting deeper than MAX_DEPTH and absurdly long numbers, before reading fields.

    A loop, not recursion: the nesting is untrusted too.  Only objects and arrays are
    stacked, with their path; a scalar is looked at where it lies, so a large document
    costs little more than one visit per value.  A tuple is read as an array, so it is
    looked into as one; a key that is not a string (which JSON cannot hold, but a dict
    from elsewhere can) is refused here, before any message has to show it.
    """
    stack: list[tuple[tuple[object, ...], _Container]] = [((), document)]
    while stack:
        steps, container = stack.pop()
        if len(steps) >= MAX_DEPTH:
            raise SchemaError(
                _problem_path(steps),
                f"nested deeper than {MAX_DEPTH} levels; no document of this schema is",
            )
        items: Iterable[tuple[object, object]]
        items = container.items() if type(container) is dict else enumerate(container)
        for key, value in items:
            if type(container) is dict and type(key) is not str:
                raise SchemaError(
                    _problem_path(steps), f"an object's keys are strings, not {_shown(key)}"
                )
            if type(value) is dict or type(value) is list or type(value) is tuple:
                stack.append(((*steps, key), value))
            elif type(value) is int and value.bit_length() > _MAX_BITS:
                raise SchemaError(
                    _problem_path((*steps, key)),
                    f"a number of {value.bit_length()} bits; none needs more than 64",
                )


def _fail(problem: Problem) -> NoReturn:
    raise SchemaError(_problem_path(problem.path), problem.message) from None


def _read_state(fields: dict[str, Any]) -> GameState:
    read = _structure(fields, StateFields)
    try:
        check_state(read)  # the hands as written: a fault is told at the document's index
    except Problem as problem:
        _fail(problem)
    return read.build()  # a hand is a set (GameState.hands: sorted)


def _read_view(fields: dict[str, Any]) -> PlayerView:
    read = _structure(fields, ViewFields)
    try:
        # The hands as written: a fault is told at the document's index.
        check_view(read.build(as_written=True))
    except Problem as problem:
        _fail(problem)
    return read.build()


def _read_record(fields: dict[str, Any]) -> GameRecord:
    game = _structure(fields, GameRecord)
    try:  # the players alone: a set or hand size of the rules that does not fit is the rules'
        game.rules.deal_table.lookup(game.players)
    except MexicanTrainError as error:
        raise SchemaError("$.players", str(error)) from None
    try:
        replay(game)
    except ReplayError as error:
        if error.move_number == 0:
            raise SchemaError(_start_path(game, error.reason), error.reason) from None
        why = f"move {error.move_number} is illegal: {error.reason}"
        raise SchemaError(f"$.moves[{error.move_number - 1}]", why) from None
    return game


def _start_path(game: GameRecord, reason: str) -> str:
    """Return where a record whose first state cannot be dealt goes wrong: its rules, or its deal.

    The players fit the deal table: the rest of the rules do not, at the field *reason*
    names (``Rules.rounds=31, but ...``), or the deal does.
    """
    if game.deal is not None:
        try:
            attrs.evolve(game, deal=None).start()
        except MexicanTrainError:
            pass
        else:
            return "$.deal"
    name = field_named(Rules, reason)
    return "$.rules" if name is None else f"$.rules.{name}"


def _event_types() -> dict[str, type]:
    return {kebab_name(cls): cls for cls in typing.get_args(Event)}


def _read_event(kind: str, fields: dict[str, Any]) -> Event:
    event: Event = _structure(fields, _event_types()[kind])
    found = first_out_of_bounds(event)
    if found is not None:
        path, bound, number = found
        raise SchemaError(_problem_path(path), bound.refusal(number))
    problem = _event_problem(event)
    if problem is not None:
        raise SchemaError(*problem)
    return event


def _event_problem(event: Event) -> tuple[str, str] | None:
    """Return the path and reason of what no move can make *event* say, or None."""
    if isinstance(event, TilePlayed) and event.open_end not in (event.tile.high, event.tile.low):
        return "$.open_end", (f"P2: a tile played leaves {event.tile.high} or {event.tile.low} "
                              f"open, not {event.open_end}")  # fmt: skip
    if isinstance(event, (DoubleOpened, DoubleClosed)) and not event.tile.is_double:
        return "$.tile", f"D2: only a double is left open, not {event.tile}"
    if isinstance(event, (MarkerPlaced, MarkerRemoved)) and event.train == MEXICAN:
        return "$.train", "P6: the Mexican train carries no marker"
    if isinstance(event, RoundStarted):
        if not event.engine.is_double:
            return "$.engine", f"S2: an engine is a double, not {event.engine}"
        if event.first_player >= len(event.hand_sizes):
            return "$.first_player", (f"seat {event.first_player} is not one of the "
                                      f"{len(event.hand_sizes)} seats dealt")  # fmt: skip
    if isinstance(event, RoundEnded) and len(event.round_scores) != len(event.scores):
        return "$.round_scores", (f"{len(event.round_scores)} round scores for "
                                  f"{len(event.scores)} totals")  # fmt: skip
    if isinstance(event, GameOver):
        return _winners_problem(event.scores, event.winners)
    return None


def _winners_problem(scores: tuple[int, ...], winners: tuple[int, ...]) -> tuple[str, str] | None:
    if not winners:
        return "$.winners", "E5: a game over has a winner"
    lowest = min(scores, default=0)  # once: the winners may be as many as the seats
    for index, seat in enumerate(winners):
        path = f"$.winners[{index}]"
        if index and seat <= winners[index - 1]:
            return path, "winners are seats in increasing order, each once"
        if seat >= len(scores):
            return path, f"seat {seat} is not one of the {len(scores)} seats"
        if scores[seat] != lowest:
            return path, (f"E5: seat {seat}'s total of {scores[seat]} is not the lowest, "
                          f"{lowest}")  # fmt: skip
    return None


def _readers() -> dict[str, Callable[[str, dict[str, Any]], Any]]:
    readers: dict[str, Callable[[str, dict[str, Any]], Any]] = {
        "state": lambda _, fields: _read_state(fields),
        "view": lambda _, fields: _read_view(fields),
        "record": lambda _, fields: _read_record(fields),
    }
    for kind in _move_types():
        readers[kind] = _read_move
    for kind in _event_types():
        readers[kind] = _read_event
    return readers


def _read_move(kind: str, fields: dict[str, Any]) -> Move:
    try:
        return _structure_move({"type": kind, **fields})
    except _Invalid as invalid:
        raise SchemaError("$" + invalid.subpath, invalid.message) from None


def to_json(value: GameState | PlayerView | Move | GameRecord | Event) -> dict[str, Any]:
    """Return *value* as a JSON-compatible dict: a document of schema ``mexican-train/2``.

    Every document has ``"schema"`` and ``"type"`` (``"state"``, ``"view"``,
    ``"record"``, a move's type such as ``"play"``, or an event's such as
    ``"tile-played"``); the other fields mirror the value's attributes.

    Args:
        value: a state, a view, a move, a record or an event.

    Returns:
        A dict of str, int, bool, None, lists and dicts, ready for ``json.dumps``.

    Raises:
        TypeError: if *value* is none of those, or its rules use a pluggable piece
            that is not a public class of this package.

    >>> from mexican_train import MEXICAN, Play, Tile
    >>> to_json(Play(Tile(12, 5), MEXICAN))
    {'schema': 'mexican-train/2', 'type': 'play', 'tile': '12-5', 'train': -1}
    """
    header = {"schema": SCHEMA_VERSION}
    if isinstance(value, GameState):
        fields = _CONVERTER.unstructure(fields_of(value), StateFields)
        return {**header, "type": "state", **fields}
    if isinstance(value, PlayerView):
        return {**header, "type": "view", **_CONVERTER.unstructure(value, PlayerView)}
    if isinstance(value, GameRecord):
        return {**header, "type": "record", **_CONVERTER.unstructure(value, GameRecord)}
    if isinstance(value, typing.get_args(Move)):
        return {**header, **_unstructure_move(value)}
    if isinstance(value, typing.get_args(Event)):
        kind = kebab_name(type(value))
        return {**header, "type": kind, **_CONVERTER.unstructure(value, type(value))}
    raise TypeError(f"to_json() needs a state, view, move, record or event, not {value!r}")


def from_json(document: object) -> GameState | PlayerView | Move | GameRecord | Event:
    """Return the value a document holds, whatever its type, once fully checked.

    Args:
        document: a JSON-compatible value, typically from ``json.loads`` (untrusted).

    Returns:
        A `GameState`, `PlayerView`, move, `GameRecord` or event, by ``"type"``.

    Raises:
        SchemaError: if anything in *document* is wrong; ``error.path`` says where.

    >>> from mexican_train import HUB, new_game
    >>> state = new_game(4, HUB, seed=1)
    >>> from_json(to_json(state)) == state
    True
    """
    readers = _readers()
    kind, fields = _body(document, readers)
    return readers[kind](kind, fields)  # type: ignore[no-any-return]


def state_from_json(document: object) -> GameState:
    """Return the state a ``"state"`` document holds, once fully checked.

    Every field is checked: types (a bool is not a number), ranges, every tile of
    the set exactly once, trains that are chains from the engine (P2), counts that
    agree with the rules (S1), scores that add up (E3).

    Args:
        document: a JSON-compatible value (untrusted).

    Returns:
        The state.

    Raises:
        SchemaError: if anything is wrong; ``error.path`` says where.

    >>> from mexican_train import new_game
    >>> document = to_json(new_game(2, seed=3))
    >>> document["trains"][0]["tiles"] = ["9-9"]
    >>> state_from_json(document)
    Traceback (most recent call last):
    ...
    mexican_train.SchemaError: $.trains[0].tiles[0]: 9-9 appears twice (also at engine)
    """
    _, fields = _body(document, {"state": None})
    return _read_state(fields)


def view_from_json(document: object) -> PlayerView:
    """Return the view a ``"view"`` document holds, once fully checked.

    Args:
        document: a JSON-compatible value (untrusted).

    Returns:
        The view.

    Raises:
        SchemaError: if anything is wrong; ``error.path`` says where.

    >>> from mexican_train import HUB, new_game, view
    >>> mine = view(new_game(4, HUB, seed=1), 2)
    >>> view_from_json(to_json(mine)) == mine
    True
    """
    _, fields = _body(document, {"view": None})
    return _read_view(fields)


def move_from_json(document: object) -> Move:
    """Return the move a move document holds (``"play"``, ``"draw"``, ...).

    Args:
        document: a JSON-compatible value (untrusted).

    Returns:
        The move.

    Raises:
        SchemaError: if anything is wrong; ``error.path`` says where.

    >>> move_from_json({"schema": "mexican-train/2", "type": "draw"})
    Draw()
    """
    kind, fields = _body(document, _move_types())
    return _read_move(kind, fields)


def record_from_json(document: object) -> GameRecord:
    """Return the record a ``"record"`` document holds, once fully checked.

    Besides the fields, the record is replayed: a move the rules refuse is
    reported at its path, ``$.moves[i]``.

    Args:
        document: a JSON-compatible value (untrusted).

    Returns:
        The record.

    Raises:
        SchemaError: if anything is wrong; ``error.path`` says where.

    >>> from mexican_train import HUB, Pass
    >>> from mexican_train import GameRecord
    >>> record_from_json(to_json(GameRecord(2, HUB, seed=5, moves=(Pass(),))))
    Traceback (most recent call last):
    ...
    mexican_train.SchemaError: $.moves[0]: move 1 is illegal: P7/P5a: a player who has a legal play must make one
    """
    _, fields = _body(document, {"record": None})
    return _read_record(fields)


def event_from_json(document: object) -> Event:
    """Return the event an event document holds (``"tile-played"``, ...).

    Args:
        document: a JSON-compatible value (untrusted).

    Returns:
        The event.

    Raises:
        SchemaError: if anything is wrong; ``error.path`` says where.

    >>> event_from_json({"schema": "mexican-train/2", "type": "turn-started", "seat": 2})
    TurnStarted(seat=2)
    """
    kind, fields = _body(document, _event_types())
    return _read_event(kind, fields)


def json_schema() -> dict[str, Any]:
    """Return the JSON Schema of documents (``schema/mexican-train-2.schema.json``).

    Returns:
        The schema, as a dict (JSON Schema draft 2020-12).

    >>> json_schema()["$id"]
    'https://mexican-train.readthedocs.io/schema/mexican-train-2.schema.json'
    """
    text = resources.files("mexican_train") / "schema" / "mexican-train-2.schema.json"
    return json.loads(text.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


# -- the values of the layers above ---------------------------------------------------


def write_value(value: object, kind: type) -> Any:
    """Return *value*, an attrs value of *kind*, as documents write their fields.

    For a layer above that saves values of its own as JSON (a simulation's result): its
    `Rules` are written as a state document's are, pluggable rules named by class.

    Raises:
        TypeError: if *value* holds a pluggable rule that is not a public class of
            ``mexican_train`` (or ``mexican_train.variants``): JSON could not name it.

    >>> from mexican_train._core.rules import HUB, Rules
    >>> write_value(HUB, Rules)["first_turn"] is None
    True
    """
    return _CONVERTER.unstructure(value, kind)


def read_value(value: object, kind: type[_T], path: str = "$") -> _T:
    """Return *value*, a JSON value (untrusted), read as *kind* as documents read their fields.

    Strictly: a bool is not a whole number, a field unknown to *kind* is refused, and
    pluggable rules are looked up among public names only.

    Raises:
        SchemaError: if anything is wrong; ``error.path`` says where, from *path*.

    >>> from mexican_train._core.rules import HUB, Rules
    >>> read_value(write_value(HUB, Rules), Rules) == HUB
    True
    """
    return _structure(value, kind, path)
