"""The text notation: one short token per move, one line per position (like chess's FEN).

The grammar is documented in ``docs/reference/notation.rst`` and in
`mexican_train.notation`; this module implements it.  Reading is strict and
points at the offending part of the text; a position is checked for consistency
(`_positions.check`) before a `GameState` is built from it.
"""

from __future__ import annotations

import enum
import re
import typing
from typing import Any, Final, NoReturn

import attrs

from .._catalogue.variants import VARIANTS, combination_name
from .._core.bounds import BOUNDS, MAX_DEPTH, MAX_TRAIN
from .._core.errors import MexicanTrainError, shown
from .._core.moves import MEXICAN, Draw, Move, NextRound, Pass, Play
from .._core.rules import FirstTurn, MexicanTrainRule, OpenDoubleRule, Rules
from .._core.state import GameState, Train, owner_played_default
from .._core.tables import DealTable
from .._core.tiles import Tile
from .._positions.check import Path, Problem, check_state
from .._positions.fields import StateFields
from .names import field_named, get_rules, kebab_name, public_names

__all__ = ["NotationError", "format_move", "format_state", "parse_move", "parse_state"]


class NotationError(MexicanTrainError, ValueError):
    """A move or position written in a form the notation does not read.

    Attributes:
        text: the whole text that was read.
        column: where the offending part starts in *text*, counting from 1.
        part: the offending part of *text*.
        field: the field it is in (``"trains"``, ``"turn"``, ...; ``"move"`` for a move).
        reason: what is wrong with it, and why.

    >>> try:
    ...     parse_move("12-5@X")
    ... except NotationError as error:
    ...     error.column, error.part
    ...
    (6, 'X')
    """

    __module__ = "mexican_train"

    def __init__(self, text: str, column: int, part: str, field: str, reason: str) -> None:
        shown = part if len(part) <= 40 else part[:37] + "..."
        super().__init__(f"{field}: {reason} (at column {column}: {shown!r})")
        self.text = text
        self.column = column
        self.part = part
        self.field = field
        self.reason = reason


@attrs.frozen
class _Part:
    """A piece of the text being read, with where it starts."""

    text: str
    start: int

    def split(self, separator: str) -> list[_Part]:
        parts = []
        start = self.start
        for piece in self.text.split(separator):
            parts.append(_Part(piece, start))
            start += len(piece) + len(separator)
        return parts


def _fail(source: str, part: _Part, field: str, reason: str) -> NoReturn:
    raise NotationError(source, part.start + 1, part.text, field, reason)


# -- moves ----------------------------------------------------------------------

# Moves without arguments are written as a word; a move class added later gets its
# name in kebab case (CallLastTile -> "call-last-tile").
_WORDS: dict[type, str] = {Draw: "draw", Pass: "pass", NextRound: "next"}
_NUMBER = re.compile(r"[0-9]{1,9}")
_TILE = re.compile(r"([0-9]{1,4})-([0-9]{1,4})")
_DIGITS = re.compile(r"[0-9]+")
_LONG_TILE = re.compile(r"[0-9]+-[0-9]+")
#: Why a tile's end of more than 4 digits, or a train of more than 9, is refused: the bound.
_TILE_TOO_LONG = f"{BOUNDS['pip'].what} is a whole number {BOUNDS['pip'].words()}, at most 4 digits"
_TRAIN_TOO_LONG = (
    f"a train is a seat number from 0 to {MAX_TRAIN - 1}, at most 9 digits, "
    "or M for the Mexican train"
)


def _word_of(cls: type) -> str:
    return _WORDS.get(cls) or kebab_name(cls)


def _move_words() -> dict[str, Move]:
    words: dict[str, Move] = {}
    for cls in typing.get_args(Move):
        if cls is not Play:
            words[_word_of(cls)] = cls()
    return words


def _train_text(train_id: int) -> str:
    return "M" if train_id == MEXICAN else str(train_id)


def format_move(move: Move) -> str:
    """Return the notation of *move*: ``12-5@3``, ``12-5@M``, ``draw``, ``pass`` or ``next``.

    A play is its tile (higher end first), ``@`` and the train: the owner's seat,
    or ``M`` for the Mexican train.

    Args:
        move: any move.

    Returns:
        One token without spaces, which `parse_move` reads back as *move*.

    Raises:
        TypeError: if *move* is not a move.

    >>> from mexican_train import MEXICAN, Draw, Play, Tile
    >>> format_move(Play(Tile(5, 12), 3)), format_move(Play(Tile(6, 6), MEXICAN))
    ('12-5@3', '6-6@M')
    >>> format_move(Draw())
    'draw'
    """
    if isinstance(move, Play):
        return f"{move.tile}@{_train_text(move.train)}"
    cls = type(move)
    if cls in typing.get_args(Move):
        return _word_of(cls)
    raise TypeError(f"format_move() needs a move, not {move!r}")


def parse_move(text: str) -> Move:
    """Return the move written *text*, as `format_move` writes it.

    Either end of a tile may come first; ``m`` stands for ``M`` and words may be
    in any case.  Spaces around the token are ignored.

    Args:
        text: one move, such as ``"12-5@3"``, ``"5-12@M"`` or ``"draw"``.

    Returns:
        The move.

    Raises:
        NotationError: if *text* is not a move; it points at the offending part.
        TypeError: if *text* is not a str.

    >>> parse_move("5-12@M")
    Play(Tile(12, 5), MEXICAN)
    >>> parse_move(" pass ")
    Pass()
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_move() needs a str, not {type(text).__name__}")
    body = text.strip()
    part = _Part(body, len(text) - len(text.lstrip()))
    return _parse_move(text, part, "move")


def _parse_move(source: str, part: _Part, field: str) -> Move:
    if "@" in part.text:
        tile_part, *train_parts = part.split("@")
        if len(train_parts) != 1:
            _fail(source, train_parts[1], field, "a play has one '@', like '12-5@3'")
        tile = _parse_tile(source, tile_part, field)
        return Play(tile, _parse_train(source, train_parts[0], field))
    words = _move_words()
    move = words.get(part.text.lower())
    if move is None:
        known = ", ".join(words)
        _fail(
            source, part, field, f"a move is a play like '12-5@3' or '12-5@M', or one of: {known}"
        )
    return move


def _parse_train(source: str, part: _Part, field: str) -> int:
    """Return the train id written *part*: a seat, or ``M`` (or ``m``) for the Mexican train."""
    if part.text in ("M", "m"):
        return MEXICAN
    if _NUMBER.fullmatch(part.text):
        return int(part.text)
    if _DIGITS.fullmatch(part.text):  # too long for a seat: refused for its bound
        _fail(source, part, field, _TRAIN_TOO_LONG)
    _fail(source, part, field, "a train is a seat number, or M for the Mexican train")


def _parse_tile(source: str, part: _Part, field: str) -> Tile:
    match = _TILE.fullmatch(part.text)
    if match is None:
        if _LONG_TILE.fullmatch(part.text):  # an end of 5 digits or more: never int() it
            _fail(source, part, field, _TILE_TOO_LONG)
        _fail(source, part, field, "a tile is two numbers joined by '-', like '12-5'")
    try:
        return Tile(int(match[1]), int(match[2]))
    except ValueError as error:  # an end above MAX_PIP
        _fail(source, part, field, str(error))


# -- rules ----------------------------------------------------------------------


def _format_rules(rules: Rules) -> str:
    """Return the rules as a variant name, with the fields that differ from it."""
    for name, base in VARIANTS.items():
        if base == rules:
            return name
    combined = combination_name(rules, VARIANTS)  # "hub+shared-ties"
    if combined is not None:
        return combined
    best: tuple[str, list[str]] | None = None
    for name, base in VARIANTS.items():
        changes = []
        for field in attrs.fields(Rules):
            value = getattr(rules, field.name)
            if value != getattr(base, field.name):
                text = _format_value(value)
                if text is None:
                    break
                changes.append(f"{field.name}={text}")
        else:
            if best is None or len(changes) < len(best[1]):
                best = (name, changes)
    if best is None:
        return "custom"
    return f"{best[0]}({','.join(best[1])})"


def _format_value(value: object) -> str | None:
    """Return *value* in the rules notation, or None if it has no public name."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if type(value) is int:
        return str(value)
    names = public_names()
    cls = type(value)
    if isinstance(value, enum.Enum):
        if names.get(cls.__name__) is cls:
            return f"{cls.__name__}.{value.name}"
        return None
    for name, known in names.items():
        if known is value and attrs.has(cls):
            return name  # a public constant, such as TABLE_A
    if attrs.has(cls) and names.get(cls.__name__) is cls:
        arguments = []
        for field in attrs.fields(cls):
            if not field.init:
                continue
            item = getattr(value, field.name)
            default = field.default
            if not isinstance(default, attrs.Factory) and item == default:  # type: ignore[arg-type]
                continue  # only what differs from the class's default is written
            text = _format_value(item)
            if text is None:
                return None
            arguments.append(f"{field.alias or field.name}={text}")
        return f"{cls.__name__}({','.join(arguments)})"
    return None


#: The rule pieces a field of `Rules` holds, built or named in the notation, as the JSON
#: readers read them; any other field holds a number, true, false, none or an enum member.
_PIECES: Final[dict[str, type]] = {
    "deal_table": DealTable,
    "first_turn": FirstTurn,
    "mexican_train": MexicanTrainRule,
    "open_doubles": OpenDoubleRule,
}


class _RulesReader:
    """A recursive-descent reader for the rules field: ``name(field=value,...)``."""

    def __init__(self, source: str, part: _Part) -> None:
        self.source = source
        self.part = part
        self.text = part.text
        self.pos = 0
        self.depth = 0  # brackets open: bounded, so that no text can exhaust the stack

    def fail(self, start: int, end: int, reason: str) -> NoReturn:
        # Past the end, the part is empty and the column points just after the field.
        piece = _Part(self.text[start:end] or self.text[start : start + 1], self.part.start + start)
        _fail(self.source, piece, "rules", reason)

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def expect(self, char: str) -> None:
        if self.peek() != char:
            found = self.peek() or "the end"
            self.fail(self.pos, self.pos + 1, f"expected {char!r} here, found {found!r}")
        self.pos += 1

    def word(self, pattern: str, what: str) -> tuple[str, int]:
        match = re.compile(pattern).match(self.text, self.pos)
        if match is None or not match[0]:
            self.fail(self.pos, self.pos + 1, f"expected {what}")
        start, self.pos = self.pos, match.end()
        return match[0], start

    def rules(self, given: Rules | None) -> Rules:
        name, start = self.word(r"[A-Za-z0-9_.+-]+", "a variant name")
        if name == "custom":
            if given is None:
                self.fail(start, self.pos, "custom rules have no name: pass them as rules=")
            if self.pos != len(self.text):
                self.fail(self.pos, len(self.text), "custom rules take no changes")
            return given
        if self.peek() not in ("", "("):
            found = self.peek()
            self.fail(self.pos, self.pos + 1,
                      f"expected '(' or the end of the rules after the variant name, found "
                      f"{found!r}")  # fmt: skip
        base = get_rules(name)
        if isinstance(base, str):
            known = ", ".join(VARIANTS)
            self.fail(start, self.pos, f"{base} (known: {known}, custom)")
        changes: dict[str, Any] = {}
        spans: dict[str, tuple[int, int]] = {}
        if self.peek() == "(":
            changes, spans = self.arguments({f.name for f in attrs.fields(Rules)}, "Rules")
        if self.pos != len(self.text):
            self.fail(self.pos, len(self.text), "unexpected text after the rules")
        try:
            built = attrs.evolve(base, **changes)
        except (TypeError, ValueError) as error:
            where = self.value_named(Rules, error, spans, (start, len(self.text)))
            self.fail(*where, f"these rules are not valid: {error}")
        if given is not None and given != built:
            self.fail(0, len(self.text), "these rules differ from the rules= given")
        return built

    def arguments(
        self, allowed: set[str], owner: str
    ) -> tuple[dict[str, Any], dict[str, tuple[int, int]]]:
        """Read ``(field=value,...)``: return the values, and where each value is written."""
        if self.depth == MAX_DEPTH:
            self.fail(self.pos, self.pos + 1, f"brackets nested deeper than {MAX_DEPTH} levels")
        self.depth += 1
        self.expect("(")
        found: dict[str, Any] = {}
        spans: dict[str, tuple[int, int]] = {}
        while self.peek() != ")":
            key, start = self.word(r"[A-Za-z_][A-Za-z0-9_]*", "a field name")
            if key not in allowed:
                self.fail(start, self.pos, f"{owner} has no field {shown(key)}")
            if key in found:
                self.fail(start, self.pos, f"{key!r} is given twice")
            self.expect("=")
            value_start = self.pos
            found[key] = self.value(key, _PIECES.get(key) if owner == "Rules" else None)
            spans[key] = (value_start, self.pos)
            if self.peek() != ")":
                if self.peek() != ",":
                    found_text = repr(self.peek()) if self.peek() else "the end"
                    self.fail(self.pos, self.pos + 1, f"expected ',' or ')', found {found_text}")
                self.pos += 1
        self.pos += 1
        self.depth -= 1
        return found, spans

    @staticmethod
    def value_named(
        cls: type, error: Exception, spans: dict[str, tuple[int, int]], whole: tuple[int, int]
    ) -> tuple[int, int]:
        """Return where the value *error* names is written (`field_named`), else *whole*."""
        return spans.get(field_named(cls, str(error)) or "", whole)

    def value(self, key: str, piece: type | None) -> object:
        token, start = self.word(
            r"-?[0-9]+|[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?", "a value"
        )
        if token[0] in "-0123456789":
            if len(token.lstrip("-")) > 18:  # no field needs more; never int() a longer one
                self.fail(start, self.pos, "a whole number of at most 18 digits")
            return int(token)
        keywords: dict[str, object] = {"none": None, "true": True, "false": False}
        if token in keywords:
            return keywords[token]
        names = public_names()
        head, _, member = token.partition(".")
        known = names.get(head)
        if member:
            if (
                isinstance(known, type)
                and issubclass(known, enum.Enum)
                and member in known.__members__
            ):
                return known[member]
            self.fail(start, self.pos, f"{shown(token)} is not a public enum member")
        if known is not None and attrs.has(known if isinstance(known, type) else type(known)):
            self.check_piece(token, start, known, key, piece)
        if isinstance(known, type) and attrs.has(known):
            if self.peek() != "(":
                self.fail(self.pos, self.pos + 1, f"write {token}() to build a {token}")
            allowed = {f.alias or f.name for f in attrs.fields(known) if f.init}
            arguments, spans = self.arguments(allowed, token)
            try:
                return known(**arguments)
            except (TypeError, ValueError) as error:
                where = self.value_named(known, error, spans, (start, self.pos))
                self.fail(*where, f"not a valid {token}: {error}")
        if known is not None and not isinstance(known, type) and attrs.has(type(known)):
            return known
        if token.lower() in keywords:  # Python's True, False and None
            self.fail(start, self.pos, f"write {token.lower()}, in lower case, not {token}")
        self.fail(start, self.pos, f"{shown(token)} is not a public value of mexican_train")

    def check_piece(
        self, token: str, start: int, known: object, key: str, piece: type | None
    ) -> None:
        """Refuse *known*, a public class or constant, unless it is a *piece* for *key*."""
        kind = known if isinstance(known, type) else type(known)
        if piece is not None and issubclass(kind, piece):
            return
        if piece is None:
            self.fail(start, self.pos,
                      f"{key} is a number, true, false, none or an enum member, not {token}")  # fmt: skip
        choices = sorted(
            name
            for name, value in public_names().items()
            if (isinstance(value, type) and attrs.has(value) and issubclass(value, piece))
            or (not isinstance(value, type) and isinstance(value, piece))
        )
        article = "an" if piece.__name__[0] in "AEIOU" else "a"
        self.fail(start, self.pos,
                  f"{key} is {article} {piece.__name__}: one of {', '.join(choices)}; "
                  f"not {token}")  # fmt: skip


# -- positions --------------------------------------------------------------------

#: The fields of a position, in order.
FIELDS = ("rules", "setup", "seed", "round", "hands", "boneyard", "trains", "turn", "scores")

# Where each GameState attribute is written, for pointing at it in errors.
_FIELD_OF = {
    "rules": "rules",
    "players": "setup",
    "max_pip": "setup",
    "hand_size": "setup",
    "seed": "seed",
    "round_number": "round",
    "engine": "round",
    "first_player": "round",
    "hands": "hands",
    "boneyard": "boneyard",
    "trains": "trains",
    "current_player": "turn",
    "had_first_turn": "turn",
    "turn_tiles": "turn",
    "has_drawn": "turn",
    "turn_doubles": "turn",
    "open_doubles": "turn",
    "idle_turns": "turn",
    "is_over": "turn",
    "last_tile_called": "turn",
    "scores": "scores",
    "round_scores": "scores",
}
_EMPTY = "-"


def _tiles_text(tiles: tuple[Tile, ...]) -> str:
    return ",".join(map(str, tiles)) or _EMPTY


def _train_tiles_text(train: Train, pip: int, personal: bool) -> str:
    # Tiles are written as they lie: the end joined to the train first (P2).
    pieces = []
    end = pip
    for tile in train.tiles:
        after = tile.other_end(end)
        pieces.append(f"{end}-{after}")
        end = after
    # P6: "*" for a marker; V2: "!" after a started personal train its owner has not
    # played on (without it, a started one is its owner's, as every unmarked one must be
    # unless a tile anywhere lifts the marker: Rules.marker_lifts_anywhere).
    others = "!" if personal and train.tiles and not train.owner_played else ""
    return (",".join(pieces) or _EMPTY) + ("*" if train.marked else "") + others


def _ids_text(train_ids: tuple[int, ...]) -> str:
    return ",".join(map(_train_text, train_ids)) or _EMPTY


def format_state(state: GameState) -> str:
    """Return the one-line notation of *state*: everything needed to continue the game.

    Nine fields, separated by spaces (see the notation reference)::

        rules setup seed round hands boneyard trains turn scores

    Rules are written as a registered variant's name, with the fields that differ
    in brackets (``standard(max_pip=6)``); rules built from pieces that have no
    public name are written ``custom`` and must be passed to `parse_state`.

    Args:
        state: any state.

    Returns:
        One line that `parse_state` reads back as a state equal to *state*.

    Raises:
        TypeError: if *state* is not a `GameState`.

    >>> import attrs
    >>> from mexican_train import STANDARD, new_game
    >>> state = new_game(2, attrs.evolve(STANDARD, max_pip=3, hand_size=3), seed=1)
    >>> format_state(state)
    'standard(max_pip=3,hand_size=3) 2/3/3 1 1/3-3/1 0-0,3-1,3-2/2-1,2-2 1-0,2-0,1-1,3-0 -/-/- 1/00/0/0/-/-/0/0 0,0'
    >>> parse_state(format_state(state)) == state
    True
    """
    if not isinstance(state, GameState):
        raise TypeError(f"format_state() needs a GameState, not {type(state).__name__}")
    s = state
    pip = s.engine.high
    turn = [
        _EMPTY if s.current_player is None else str(s.current_player),
        "".join("1" if flag else "0" for flag in s.had_first_turn),
        str(s.turn_tiles),
        "1" if s.has_drawn else "0",
        _ids_text(s.turn_doubles),
        _ids_text(s.open_doubles),
        str(s.idle_turns),
        "1" if s.last_tile_called else "0",
    ]
    scores = [",".join(map(str, s.scores)), *(",".join(map(str, row)) for row in s.round_scores)]
    fields = [
        _format_rules(s.rules),
        f"{s.players}/{s.max_pip}/{s.hand_size}",
        str(s.seed),
        f"{s.round_number}/{s.engine}/{s.first_player}",
        "/".join(_tiles_text(hand) for hand in s.hands),
        _tiles_text(s.boneyard),
        "/".join(
            _train_tiles_text(train, pip, index < s.players) for index, train in enumerate(s.trains)
        ),
        "/".join(turn),
        "/".join(scores),
    ]
    return " ".join(fields)


class _PositionReader:
    """Reads the nine fields of a position, remembering where each value was written."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.spans: dict[Path, _Part] = {}

    def fail(self, part: _Part, field: str, reason: str) -> NoReturn:
        _fail(self.source, part, field, reason)

    def items(self, part: _Part, field: str, count: int | None, what: str) -> list[_Part]:
        items = part.split("/")
        if count is not None and len(items) != count:
            self.fail(part, field, f"expected {what}, separated by '/'; found {len(items)} parts")
        return items

    def number(self, part: _Part, field: str, what: str, path: Path) -> int:
        if not _NUMBER.fullmatch(part.text):
            self.fail(part, field, f"{what} is a whole number from 0, of at most 9 digits")
        self.spans[path] = part
        return int(part.text)

    def tiles(self, part: _Part, field: str, path: Path) -> list[Tile]:
        self.spans[path] = part
        if part.text == _EMPTY:
            return []
        tiles = []
        for i, piece in enumerate(part.split(",")):
            tiles.append(_parse_tile(self.source, piece, field))
            self.spans[path + (i,)] = piece
        return tiles

    def train_ids(self, part: _Part, field: str, path: Path) -> tuple[int, ...]:
        self.spans[path] = part
        if part.text == _EMPTY:
            return ()
        ids = []
        for i, piece in enumerate(part.split(",")):
            ids.append(_parse_train(self.source, piece, field))  # as parse_move reads a train
            self.spans[path + (i,)] = piece
        return tuple(ids)

    def read(self, rules: Rules | None) -> StateFields:
        source = self.source
        fields = [_Part(m[0], m.start()) for m in re.finditer(r"\S+", source)]
        unclosed = bool(fields) and fields[0].text.count("(") > fields[0].text.count(")")
        if unclosed and len(fields) != len(FIELDS):
            # A space inside the rules' brackets: say so, rather than count the fields.
            self.fail(fields[0], "rules",
                      "the brackets are not closed before a space: the rules field holds "
                      "no spaces, like 'hub(max_pip=6,hand_size=7)'")  # fmt: skip
        if len(fields) < len(FIELDS):
            missing = ", ".join(FIELDS[len(fields) :])
            self.fail(_Part("", len(source)), FIELDS[len(fields)],
                      f"a position has {len(FIELDS)} fields; missing: {missing}")  # fmt: skip
        if len(fields) > len(FIELDS):
            self.fail(fields[len(FIELDS)], "position", f"a position has {len(FIELDS)} fields only")
        part = dict(zip(FIELDS, fields, strict=True))
        for name, piece in part.items():
            self.spans[(name,)] = piece

        the_rules = _RulesReader(source, part["rules"]).rules(rules)

        setup = self.items(part["setup"], "setup", 3, "players/set/hand size")
        players = self.number(setup[0], "setup", "the number of players", ("players",))
        max_pip = self.number(setup[1], "setup", "the set (its highest double)", ("max_pip",))
        hand_size = self.number(setup[2], "setup", "the hand size", ("hand_size",))

        seed_part = part["seed"]
        if not re.fullmatch(r"-?[0-9]{1,20}", seed_part.text):
            self.fail(seed_part, "seed", "the seed is a whole number of at most 20 digits")
        seed = int(seed_part.text)

        round_items = self.items(part["round"], "round", 3, "round/engine/first player")
        round_number = self.number(round_items[0], "round", "the round", ("round_number",))
        engine = _parse_tile(source, round_items[1], "round")
        self.spans[("engine",)] = round_items[1]
        first = self.number(round_items[2], "round", "the first player", ("first_player",))

        hands_parts = self.items(part["hands"], "hands", None, "")
        hands = []
        for seat, piece in enumerate(hands_parts):
            # Checked as written, so that a fault is told at its place in the text; a hand
            # is a set, which the state keeps sorted.
            hands.append(tuple(self.tiles(piece, "hands", ("hands", seat))))
        boneyard = tuple(self.tiles(part["boneyard"], "boneyard", ("boneyard",)))

        trains = []
        pieces = part["trains"].split("/")
        for index, piece in enumerate(pieces):
            is_mexican = index == len(pieces) - 1
            others = piece.text.endswith("!")  # V2: not begun by its owner
            tiles_part = _Part(piece.text[:-1], piece.start) if others else piece
            marked = tiles_part.text.endswith("*")
            if marked:
                tiles_part = _Part(tiles_part.text[:-1], piece.start)
            self.spans[("trains", index)] = piece
            self.spans[("trains", index, "marked")] = piece
            self.spans[("trains", index, "open_end")] = piece
            self.spans[("trains", index, "owner_played")] = piece
            tiles = self.tiles(tiles_part, "trains", ("trains", index, "tiles"))
            if others and (is_mexican or not tiles):
                self.fail(piece, "trains", "'!' follows a started personal train only (V2)")
            end = engine.high
            for tile in tiles:  # the open end; check_state reports a broken chain
                end = tile.other_end(end) if tile.shows(end) else end
            owner = owner_played_default(tuple(tiles), is_mexican) and not others
            trains.append(Train(tuple(tiles), end, marked, owner))

        turn = self.items(
            part["turn"], "turn", 8,
            "current player/first turns/tiles/drawn/turn doubles/open doubles/idle turns/called",
        )  # fmt: skip
        current: int | None = None
        if turn[0].text != _EMPTY:
            current = self.number(turn[0], "turn", "the current player (or -)", ("current_player",))
        self.spans[("current_player",)] = self.spans[("is_over",)] = turn[0]
        if not re.fullmatch(r"[01]*", turn[1].text):
            self.fail(turn[1], "turn", "first turns are one 0 or 1 per seat, like '1100'")
        self.spans[("had_first_turn",)] = turn[1]
        for seat, char in enumerate(turn[1].text):
            self.spans[("had_first_turn", seat)] = _Part(char, turn[1].start + seat)
        flags = tuple(char == "1" for char in turn[1].text)
        turn_tiles = self.number(turn[2], "turn", "the tiles played this turn", ("turn_tiles",))
        if turn[3].text not in ("0", "1"):
            self.fail(turn[3], "turn", "'drawn' is 1 after a draw, else 0")
        self.spans[("has_drawn",)] = turn[3]
        turn_doubles = self.train_ids(turn[4], "turn", ("turn_doubles",))
        open_doubles = self.train_ids(turn[5], "turn", ("open_doubles",))
        idle = self.number(turn[6], "turn", "the turns that changed nothing", ("idle_turns",))
        if turn[7].text not in ("0", "1"):
            self.fail(turn[7], "turn", "'called' is 1 once the last tile is called, else 0")
        self.spans[("last_tile_called",)] = turn[7]

        rows = []
        for number, piece in enumerate(part["scores"].split("/")):
            path: Path = ("scores",) if number == 0 else ("round_scores", number - 1)
            self.spans[path] = piece
            row = []
            for seat, cell in enumerate(piece.split(",")):
                if not re.fullmatch(r"-?[0-9]{1,18}", cell.text):
                    self.fail(cell, "scores", "a score is a whole number")
                self.spans[path + (seat,)] = cell
                row.append(int(cell.text))
            rows.append(tuple(row))
        self.spans[("round_scores",)] = part["scores"]

        rounds = the_rules.round_count(max_pip)
        return StateFields(
            the_rules, players, max_pip, hand_size, seed, round_number, engine, first,
            tuple(hands), boneyard, tuple(trains), current, flags, turn_tiles,
            turn[3].text == "1", turn_doubles, open_doubles, idle, rows[0], tuple(rows[1:]),
            current is None and round_number == rounds, turn[7].text == "1",
        )  # fmt: skip

    def locate(self, path: Path) -> tuple[_Part, str]:
        for end in range(len(path), 0, -1):
            part = self.spans.get(path[:end])
            if part is not None:
                return part, _FIELD_OF.get(str(path[0]), "position")
        return _Part(self.source, 0), "position"


def parse_state(text: str, *, rules: Rules | None = None) -> GameState:
    """Return the state written *text*, as `format_state` writes it, once checked.

    The position is checked before a state is built: every tile of the set is in
    exactly one place, every train is a chain from the engine (P2), the counts
    agree with the rules (S1), the scores add up (E3), and the turn is one the
    rules can reach.  No inconsistent `GameState` is ever returned.

    Args:
        text: one position.
        rules: the rules, for a position whose rules field is ``custom``.

    Returns:
        The state.

    Raises:
        NotationError: if *text* is malformed or inconsistent; it names the
            field and points at the offending part.
        TypeError: if *text* is not a str, or *rules* not a `Rules` value.

    >>> state = parse_state(
    ...     "hub(max_pip=3,hand_size=3) 2/3/3 5 1/3-3/0 0-0,2-2/2-1,3-0,3-2 2-0,1-0,1-1 "
    ...     "3-1/-/- 1/10/0/0/-/-/0/0 0,0"
    ... )
    >>> state.current_player, state.train(0).tiles, state.hand(1)
    (1, (Tile(3, 1),), (Tile(2, 1), Tile(3, 0), Tile(3, 2)))
    >>> parse_state(
    ...     "hub(max_pip=3,hand_size=3) 2/3/3 5 1/3-3/0 0-0,2-2/2-1,3-0,3-2 2-0,1-0,1-1 "
    ...     "3-1,1-0/-/- 1/10/0/0/-/-/0/0 0,0"
    ... )
    Traceback (most recent call last):
    ...
    mexican_train.NotationError: trains: 1-0 appears twice (also at boneyard[1]) (at column 80: '1-0')
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_state() needs a str, not {type(text).__name__}")
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, not {rules!r}")
    reader = _PositionReader(text)
    fields = reader.read(rules)
    try:
        check_state(fields)
    except Problem as problem:
        part, field = reader.locate(problem.path)
        reader.fail(part, field, problem.message)
    return fields.build()
