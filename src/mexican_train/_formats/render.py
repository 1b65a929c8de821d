"""Render a game state or a player's view as plain text or as an SVG picture of the table.

Both renderings are built from one *scene*: the public table (a `PlayerView`)
plus the hands the reader may see.  A view shows its own hand only (S5), or
every hand with open hands (V10); a `GameState` without a seat is the whole
truth and shows every hand (never the boneyard's order).  Everything here goes
through the public API of the core.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from html import escape
from typing import Any, Final

import attrs

from .._core.engine import (
    closing_order,
    dead_doubles,
    doubles_to_cover,
    legal_moves,
    mexican_open,
)
from .._core.errors import InvalidArgumentError
from .._core.moves import MEXICAN, CallLastTile, Draw, Move, NextRound, Pass, Play
from .._core.state import GameState, Train, check_seat
from .._core.tiles import Tile
from .._core.view import PlayerView, spectator_view, view

__all__ = ["render_svg", "render_text"]


# -- the scene: what is drawn, whatever the medium ---------------------------------------------


@attrs.frozen
class _Row:
    """One train, with its tiles oriented as they lie: (tile, near end, far end)."""

    train: int
    label: str
    tiles: tuple[tuple[Tile, int, int], ...]
    open_end: int
    marked: bool
    # Started, but its owner has not played on it this round, where the rules played
    # open the Mexican train by that (V2).
    others_only: bool
    open_double: str  # its flag ("open double #2", "dead double (D4)"), "" if it has none
    dead_double: bool  # an open double that binds nobody: nothing can cover it (D4)
    new_double: bool  # a double played this turn, still to be followed (D1)
    hand_size: int | None
    score: int | None
    to_play: bool
    is_viewer: bool
    open_to: str  # the Mexican train's: whom it is open to now (V2); "" for a personal train


@attrs.frozen
class _Hand:
    seat: int
    label: str
    tiles: tuple[Tile, ...]
    playable: frozenset[Tile]
    to_play: bool  # the player to move, whose legal plays are known (and in playable)


@attrs.frozen
class _Scene:
    table: PlayerView
    labels: tuple[str, ...]
    rows: tuple[_Row, ...]
    hands: tuple[_Hand, ...]
    title: str
    status: str
    viewer: int | None
    omniscient: bool


def _scene(
    subject: GameState | PlayerView, seat: int | None, names: Sequence[str] | None
) -> _Scene:
    omniscient = False
    hand_tiles: dict[int, tuple[Tile, ...]] = {}
    if isinstance(subject, GameState):
        if seat is None:
            # The whole truth: every hand is shown (the boneyard's order never is).
            table = spectator_view(subject)
            hand_tiles = dict(enumerate(subject.hands))
            omniscient = True
        else:
            table = view(subject, seat)
        moves = legal_moves(subject)
    elif isinstance(subject, PlayerView):
        if seat is not None:
            check_seat(seat, subject.players)  # as view() checks it: True is no seat
        if seat is not None and seat != subject.seat:
            raise InvalidArgumentError(
                f"seat={seat!r} does not match the view, which is seat {subject.seat!r}'s; "
                "a view can only be rendered for its own seat"
            )
        table = subject
        moves = legal_moves(subject)
    else:
        raise TypeError(
            f"cannot render {type(subject).__name__}: expected a GameState or PlayerView"
        )
    players = table.players
    labels = _labels(names, players)
    if not omniscient:
        if table.open_hands is not None:
            hand_tiles = dict(enumerate(table.open_hands))  # V10: open hands show everything
        elif table.seat is not None:
            hand_tiles = {table.seat: table.hand}  # S5: the viewer's own hand, nothing else

    current = table.current_player
    playable = frozenset(m.tile for m in moves if isinstance(m, Play))
    # A view offers no moves on another seat's turn (V10 shows that seat's hand all the
    # same): what the player to move can play is known from a state, or their own view.
    known = isinstance(subject, GameState) or subject.seat == current
    hands = tuple(
        _Hand(
            s, labels[s], tiles, playable if s == current else frozenset(), s == current and known
        )
        for s, tiles in sorted(hand_tiles.items())
    )
    flags = _double_flags(table)
    owners = _owners_count(table)
    open_to = _open_to(table, labels)
    rows = tuple(
        _row(table, train_id, labels, flags, owners, open_to)
        for train_id in (*range(players), MEXICAN)
    )
    title = f"Round {table.round_number} of {table.rounds}, engine {table.engine}"
    return _Scene(table, labels, rows, hands, title, _status(table, labels), table.seat, omniscient)


def _labels(names: Sequence[str] | None, players: int) -> tuple[str, ...]:
    if names is None:
        return tuple(f"Seat {s}" for s in range(players))
    if not isinstance(names, Sequence):
        raise TypeError(f"names is a list of {players} strings, one per seat, not {names!r}")
    if isinstance(names, str) or len(names) != players:
        raise InvalidArgumentError(
            f"names must be a sequence of {players} strings, one per seat, not {names!r}"
        )
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"a player's name is a str, not {name!r}")
    # A name is drawn on one line: a line break or another control character in it
    # (a tab, U+2028) is drawn as a space, where it would break the text's rows.
    return tuple(_ONE_LINE.sub(" ", name) for name in names)


_ONE_LINE: Final = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _double_flags(table: PlayerView) -> dict[int, str]:
    """Return the flag of each train that ends in an open double, as its rule has it.

    The doubles the rule binds one at a time are numbered in that order (D3, V3),
    those it binds together or never are not (`closing_order`).  A dead double it
    skips is flagged dead (D4); one it still binds is an open double like any other (V4).
    """
    dead = dead_doubles(table)
    order, bound = closing_order(table)
    flags = {}
    for train in table.open_doubles:
        if train in order and len(order) > 1:
            flags[train] = f"open double #{order.index(train) + 1}"
        elif train in dead and train not in bound:
            flags[train] = "dead double (D4)"
        else:
            flags[train] = "open double"
    return flags


class _OwnersPlayed:
    """*table* as it would be had every owner played on their own train (`Train.owner_played`)."""

    def __init__(self, table: PlayerView) -> None:
        self._table = table

    @property
    def players(self) -> int:
        return self._table.players

    @property
    def round_number(self) -> int:
        return self._table.round_number

    def train(self, train_id: int) -> Train:
        train = self._table.train(train_id)
        if train_id == MEXICAN or train.owner_played:
            return train
        return Train(train.tiles, train.open_end, marked=train.marked, owner_played=True)

    def has_had_first_turn(self, seat: int) -> bool:
        return self._table.has_had_first_turn(seat)

    def __getattr__(self, name: str) -> Any:  # a rule that reads more than `Table` offers
        return getattr(self._table, name)


def _owners_count(table: PlayerView) -> bool:
    """Return whether it matters to the rules played who has played on their own train (V2).

    The Mexican-train rule is asked for every seat, at the table as it is and as it
    would be had every owner played on their own train: it matters where an answer
    differs (the Mexican train opens after one's own train, or everyone's), not under
    a rule that opens by turn, from the start, or never.
    """
    rule = table.rules.mexican_train
    played = _OwnersPlayed(table)
    return any(rule.is_open(table, s) != rule.is_open(played, s) for s in range(table.players))


def _open_to(table: PlayerView, labels: tuple[str, ...]) -> str:
    """Return whom the Mexican train is open to now, as the Mexican-train rule says (V2):
    the viewer, or for the table as a whole every seat."""
    opens = mexican_open(table)
    if table.seat is not None:
        return "open to you" if opens[table.seat] else "not open to you"
    if all(opens):
        return "open to everyone"
    if not any(opens):
        return "open to nobody"
    return "open to " + ", ".join(
        label for label, is_open in zip(labels, opens, strict=True) if is_open
    )


def _row(
    table: PlayerView,
    train_id: int,
    labels: tuple[str, ...],
    flags: dict[int, str],
    owners_count: bool,
    open_to: str,
) -> _Row:
    train = table.trains[train_id]
    # P2: each tile joins at the previous open end; orient it so it reads from the engine.
    pip = table.engine.high
    laid = []
    for tile in train.tiles:
        if tile.shows(pip):
            near, far = pip, tile.other_end(pip)
        else:  # not a chain (a hand-built table): draw it as written rather than fail
            near, far = tile.high, tile.low
        laid.append((tile, near, far))
        pip = far
    flag = flags.get(train_id, "")
    personal = train_id != MEXICAN
    return _Row(
        train=train_id,
        label=labels[train_id] if personal else "Mexican train",
        tiles=tuple(laid),
        open_end=train.open_end,
        marked=train.marked,
        others_only=owners_count and personal and train.is_started and not train.owner_played,
        open_double=flag,
        dead_double=flag.startswith("dead"),
        new_double=train_id in table.turn_doubles,
        hand_size=table.hand_sizes[train_id] if personal else None,
        score=table.scores[train_id] if personal else None,
        to_play=personal and table.current_player == train_id,
        is_viewer=personal and table.seat == train_id,
        open_to="" if personal else open_to,
    )


def _tiles(count: int) -> str:
    return f"{count} tile" if count == 1 else f"{count} tiles"


def _status(table: PlayerView, labels: tuple[str, ...]) -> str:
    if table.is_over:
        won = " and ".join(labels[s] for s in table.winners)
        return f"game over, won by {won}"
    current = table.current_player
    if current is None:
        return f"round over; round {table.round_number + 1} comes next"
    notes = [f"{labels[current]} to play"]
    if table.rules.first_turn is not None and not table.had_first_turn[current]:
        notes.append("first turn (P4)")
    if table.turn_doubles:
        notes.append("must follow a double (D1)")
    elif doubles_to_cover(table):
        # Only a double that binds waits: not a dead one (D4), nor one the rule never binds (V3).
        notes.append("an open double waits (D2)")
    if table.has_drawn:
        notes.append("has drawn")
    return ", ".join(notes)


# -- plain text ----------------------------------------------------------------------------------


def render_text(
    subject: GameState | PlayerView,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    width: int | None = 79,
) -> str:
    """Return a plain-text picture of the table, for terminals and logs.

    One row per train (the owner, the tiles as they lie from the engine, ``>``
    and the open end, then flags), the Mexican train last, ending with whom it
    is open to now (V2, in the SVG's words), and rows for hand sizes, the
    boneyard, the scores and the hands the reader may see.  A row
    starting with ``*`` is the player to move.  A row longer than *width* goes
    on under its first tile (or entry), never cutting one.

    Args:
        subject: a `~mexican_train.GameState` or a `~mexican_train.PlayerView`.
        seat: render *subject*, a state, as seat *seat* sees it (``view(state, seat)``);
            without it a state shows every hand.  Given with a view, it must be the view's seat.
        names: one display name per seat, instead of ``Seat 0``, ``Seat 1``, ...; each is
            drawn on one line (a line break or another control character as a space).
        width: the most columns a line may take (79 fits a terminal of 80); None
            writes each row on one line, however long.

    Returns:
        Lines of ASCII text (names aside), ending without a newline.

    Raises:
        TypeError: if *subject* is neither a state nor a view, or *names* not a list of str.
        InvalidArgumentError: if *seat* is not a seat of the game, or not the
            view's seat, *names* does not name every seat once, or *width* is not
            a positive int or None.

    >>> import attrs
    >>> from mexican_train import HUB, Play, Tile, apply, new_game, view
    >>> state = new_game(2, attrs.evolve(HUB, max_pip=6, hand_size=4), seed=0)
    >>> state = apply(state, Play(Tile(6, 2), 0))
    >>> print(render_text(view(state, 1), names=["Ann", "Bob"]))
    Round 1 of 7, engine 6-6: Bob to play
    Trains:
      Ann            6-2 > 2
    * Bob (you)      (empty) > 6
      Mexican train  (empty) > 6 [open to you]
    Hand sizes: Ann: 3, Bob: 4
    Boneyard: 19 tiles
    Scores: Ann: 0, Bob: 0
    Your hand (Bob): 0-0 4-1 4-3 5-1
    """
    if width is not None and (isinstance(width, bool) or not isinstance(width, int) or width < 1):
        raise InvalidArgumentError(
            f"width is a number of columns, 1 or more, or None; not {width!r}"
        )
    return _text(_scene(subject, seat, names), width)


def _text(scene: _Scene, width: int | None) -> str:
    table = scene.table
    # A seat's label stays whole in the status line ("seat 2 (planner) to play"): its
    # spaces are held as NULs, which no label has (_labels draws them as spaces).
    status = scene.status
    for label in sorted(set(scene.labels), key=len, reverse=True):
        status = status.replace(label, label.replace(" ", "\0"))
    words = [word.replace("\0", " ") for word in status.split(" ")]
    lines = _fill(f"{scene.title}: ", words, width)
    lines.append("Trains:")
    heads = [row.label + (" (you)" if row.is_viewer else "") for row in scene.rows]
    label_width = max(map(_columns, heads))
    for row, head in zip(scene.rows, heads, strict=True):
        words = [f"{near}-{far}" for _, near, far in row.tiles] or ["(empty)"]
        words.append(f"> {row.open_end}")
        if row.marked:
            words.append("[marker]")
        if row.others_only:
            words.append("[owner yet to play]")  # V2: only others' tiles on it so far
        if row.open_double:
            words.append(f"[{row.open_double}]")
        if row.new_double:
            words.append("[double to follow]")
        if row.open_to:  # V2, in the SVG's words; a long list of seats wraps between them
            *seats, last = f"[{row.open_to}]".split(", ")
            words += [f"{seat}," for seat in seats] + [last]
        mark = "*" if row.to_play else " "
        padding = " " * (label_width - _columns(head))
        lines += _fill(f"{mark} {head}{padding}  ", words, width)

    def by_seat(head: str, numbers: Sequence[int]) -> list[str]:
        entries = [f"{scene.labels[s]}: {n}," for s, n in enumerate(numbers)]
        return _fill(head, [*entries[:-1], entries[-1].rstrip(",")], width)

    lines += by_seat("Hand sizes: ", table.hand_sizes)
    lines.append(f"Boneyard: {_tiles(table.boneyard_size)}")
    lines += by_seat("Scores: ", table.scores)
    if table.is_round_over and table.round_scores:
        lines += by_seat(f"Round {len(table.round_scores)} points: ", table.round_scores[-1])
    for hand in scene.hands:
        owner = "Your hand" if hand.seat == scene.viewer else "Hand"
        tiles = [str(t) for t in hand.tiles] or ["(empty)"]
        lines += _fill(f"{owner} ({hand.label}): ", tiles, width)
    return "\n".join(lines)


def _fill(head: str, words: Sequence[str], width: int | None) -> list[str]:
    """Return *head* and *words* in lines of at most *width* columns, a line going on under
    the first word (or 4 columns in, after a head of more than half the width).

    A word is never cut: a tile, an open end ("> 5"), a flag or a seat's figure
    ("Ann: 3,") stays whole, on a line of its own if it must.
    """
    if width is None:
        return [head + " ".join(words)]
    indent = " " * (_columns(head) if _columns(head) <= width // 2 else 4)
    lines: list[str] = []
    line, fresh = head, True  # fresh: no word on this line yet
    for word in words:
        if not fresh and _columns(line) + 1 + _columns(word) > width:
            lines.append(line)
            line, fresh = indent, True
        line += word if fresh else " " + word
        fresh = False
    lines.append(line)
    return lines


def _columns(text: str) -> int:
    """Return the columns *text* takes on a terminal: two for a wide letter (CJK, full-width
    forms), none for an accent combined with the letter before it."""
    wide = sum(unicodedata.east_asian_width(char) in ("W", "F") for char in text)
    return len(text) + wide - sum(unicodedata.combining(char) > 0 for char in text)


# -- SVG -----------------------------------------------------------------------------------------

_U: Final = 24  # the side of half a tile, in SVG units
_GAP: Final = 3  # between tiles in a train
_PAD: Final = 16
_ROW_H: Final = 2 * _U + 12  # a line of a train: room for a double laid across
_LINE_TILES: Final = 16  # a train wraps after this many tile widths
_HUB_R: Final = 46
_LABEL_W: Final = 184
_MARKER_W: Final = 74

_FELT: Final = "#1d5c3a"
_FELT_DARK: Final = "#154a2e"
_IVORY: Final = "#fffdf4"
_INK: Final = "#1b1b1b"
_TEXT: Final = "#f4f1e6"
_MUTED: Final = "#a9c7b4"
_GOLD: Final = "#ffc53d"
_MARKER: Final = "#e0312b"
_OPEN: Final = "#ff8a00"
_FONT: Final = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"

# One colour per number, as on coloured sets: matching ends are spotted at a glance.
# Chosen by farthest-point search in CIELAB: any two of 0-18 are at least 16 apart in
# CIEDE2000 (tests/test_render.py checks >= 8), and each has a contrast of at least 4:1
# on the ivory of a tile.  Larger sets repeat the colours from 19 on.
_SUIT: Final = (
    "#666666", "#0000ee", "#ee3300", "#ee0099", "#008800", "#0077ee", "#997700",
    "#882233", "#008888", "#664477", "#554411", "#005533", "#9955ff", "#004477",
    "#996655", "#887799", "#883300", "#667755", "#dd1144",
)  # fmt: skip
_LAST: Final = "#38d9ff"  # the last move's outline: no suit, marker or flag uses it

#: A number's text on a tile: its size and the width it is drawn to, as fractions of a
#: half-tile, by digits.  The width is fixed with textLength, so the text stays inside its
#: half whatever the font; at the default scale two digits are 14 px high and 18 px wide.
_NUMBER_SIZE: Final = {1: 0.62, 2: 0.58}
_NUMBER_WIDTH: Final = {1: 0.42, 2: 0.76}

# Pip positions on a 3x3 grid (column, row), for sets up to double-9.
_PIPS: Final = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)),
    8: ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)),
    9: tuple((c, r) for c in range(3) for r in range(3)),
}


def _suit(pip: int) -> str:
    return _SUIT[pip % len(_SUIT)]


# Characters XML 1.0 forbids even escaped (control characters, lone surrogates, U+FFFE/F).
_NOT_XML: Final = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _e(text: object) -> str:
    """Escape *text* for SVG content and attribute values alike (a name is any str)."""
    return escape(_NOT_XML.sub("\ufffd", str(text)), quote=True)


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


# DejaVu Sans's advance widths, the widest font of the list, for " " to "~" and the marks
# the picture draws (the arrow of the player to move, the status line's dots, the ellipsis
# of a name cut short), in hundredths of an em rounded up: regular, then bold.  A name in
# capitals or of "m"s is far wider than an average letter (bold "W" is 1.1 em, "e" 0.68 em).
_EM: Final = {
    weight: dict(zip([*map(chr, range(32, 127)), "\u25b6", "\u00b7", "\u2026"],
                     map(int, widths.split()), strict=True))
    for weight, widths in (
        ("normal", "32 41 46 84 64 96 78 28 40 40 50 84 32 37 32 34 64 64 64 64 64 64 64 64 64 "
         "64 34 34 84 84 84 54 100 69 69 70 78 64 58 78 76 30 30 66 56 87 75 79 61 79 70 64 62 "
         "74 69 99 69 62 69 40 34 40 84 50 50 62 64 55 64 62 36 64 64 28 28 58 28 98 64 62 64 "
         "64 42 53 40 64 60 82 60 60 53 64 34 64 84 77 32 100"),
        ("bold", "35 46 53 84 70 101 88 31 46 46 53 84 38 42 38 37 70 70 70 70 70 70 70 70 70 "
         "70 40 40 84 84 84 59 100 78 77 74 84 69 69 83 84 38 38 78 64 100 84 86 74 86 78 73 69 "
         "82 78 111 78 73 73 46 37 46 84 50 50 68 72 60 72 68 44 72 72 35 35 67 35 105 72 69 72 "
         "72 50 60 48 72 66 93 65 66 59 72 37 72 84 77 38 100"),
    )
}  # fmt: skip


def _char_em(char: str, weight: str) -> float:
    """Return the width of *char* in ems, on the wide side."""
    widths = _EM[weight]
    if char in widths:
        return widths[char] / 100
    if unicodedata.combining(char):
        return 0.0  # an accent drawn over the letter before it
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 1.0  # CJK and full-width forms: a square em
    base = unicodedata.normalize("NFD", char)[0]
    if base in widths:
        return widths[base] / 100  # an accented Latin letter: as wide as its letter
    return 1.25 if weight == "bold" else 1.1  # other scripts: their widest letters


def _text_width(text: str, size: float, weight: str = "normal") -> float:
    """Return the width *text* takes at *size* in DejaVu Sans, the widest font of the list,
    letter by letter, on the wide side."""
    return size * sum(_char_em(char, weight) for char in text)


def _fitted(text: str, room: float, size: float, weight: str = "normal") -> str:
    """Return *text*, cut short with an ellipsis if it is wider than *room* at *size*."""
    if _text_width(text, size, weight) <= room:
        return text
    room -= _text_width("\u2026", size, weight)
    used, kept = 0.0, 0
    for char in text:
        used += size * _char_em(char, weight)
        if used > room:
            break
        kept += 1
    return text[:kept] + "\u2026"


def _text_el(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 13,
    fill: str = _TEXT,
    weight: str = "normal",
    anchor: str = "start",
    style: str = "normal",
) -> str:
    attrs_ = f'x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill="{fill}"'
    if weight != "normal":
        attrs_ += f' font-weight="{weight}"'
    if anchor != "start":
        attrs_ += f' text-anchor="{anchor}"'
    if style != "normal":
        attrs_ += f' font-style="{style}"'
    return f"<text {attrs_}>{_e(text)}</text>"


def _half(x: float, y: float, u: float, pip: int, numbers: bool) -> list[str]:
    """Draw one end of a tile in the u-by-u square at (x, y)."""
    colour = _suit(pip)
    if numbers:
        digits = len(str(pip))
        size = u * _NUMBER_SIZE[digits]
        length = u * _NUMBER_WIDTH[digits]  # two digits must clear the divider
        return [
            f'<text class="number" x="{_n(x + u / 2)}" y="{_n(y + u / 2 + size * 0.36)}" '
            f'font-size="{_n(size)}" fill="{colour}" font-weight="bold" text-anchor="middle" '
            f'textLength="{_n(length)}" lengthAdjust="spacingAndGlyphs">{pip}</text>'
        ]
    r = u * 0.095
    return [
        f'<circle cx="{_n(x + u * (0.24 + 0.26 * c))}" cy="{_n(y + u * (0.24 + 0.26 * w))}" '
        f'r="{_n(r)}" fill="{colour}"/>'
        for c, w in _PIPS[pip]
    ]


def _tile(
    x: float,
    y: float,
    near: int,
    far: int,
    *,
    u: float,
    vertical: bool,
    numbers: bool,
    tile: Tile,
    outline: str = _INK,
    stroke: float = 1.2,
    role: str = "tile",
) -> list[str]:
    """Draw a domino with *near* at its left (or top) end."""
    w, h = (u, 2 * u) if vertical else (2 * u, u)
    out = [
        f'<g class="{role}" data-tile="{tile}">',
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(u * 0.16)}" '
        f'fill="{_IVORY}" stroke="{outline}" stroke-width="{_n(stroke)}"/>',
    ]
    if vertical:
        out.append(
            f'<line x1="{_n(x + u * 0.18)}" y1="{_n(y + u)}" x2="{_n(x + u * 0.82)}" '
            f'y2="{_n(y + u)}" stroke="{_INK}" stroke-width="1"/>'
        )
        out += _half(x, y, u, near, numbers) + _half(x, y + u, u, far, numbers)
    else:
        out.append(
            f'<line x1="{_n(x + u)}" y1="{_n(y + u * 0.18)}" x2="{_n(x + u)}" '
            f'y2="{_n(y + u * 0.82)}" stroke="{_INK}" stroke-width="1"/>'
        )
        out += _half(x, y, u, near, numbers) + _half(x + u, y, u, far, numbers)
    out.append(f"<title>{_e(tile)}</title></g>")
    return out


def _pill(
    x: float, cy: float, text: str, fill: str, ink: str = "#ffffff"
) -> tuple[list[str], float]:
    width = 12 + _text_width(text, 12, "bold")
    return [
        f'<rect x="{_n(x)}" y="{_n(cy - 10)}" width="{_n(width)}" height="20" rx="10" '
        f'fill="{fill}"/>',
        _text_el(x + width / 2, cy + 4.5, text, size=12, fill=ink, weight="bold", anchor="middle"),
    ], width


def _layout_train(row: _Row, x0: float) -> list[list[tuple[float, bool, tuple[Tile, int, int]]]]:
    """Split a train into lines of at most _LINE_TILES tile widths: (x, vertical, tile)."""
    lines: list[list[tuple[float, bool, tuple[Tile, int, int]]]] = [[]]
    x = x0
    limit = x0 + _LINE_TILES * (2 * _U + _GAP)
    for laid in row.tiles:
        vertical = laid[0].is_double  # doubles lie across the train, as at a real table
        width = (_U if vertical else 2 * _U) + _GAP
        if x + width > limit and lines[-1]:
            lines.append([])
            x = x0
        lines[-1].append((x, vertical, laid))
        x += width
    return lines


def render_svg(
    subject: GameState | PlayerView,
    *,
    seat: int | None = None,
    names: Sequence[str] | None = None,
    last_move: Move | None = None,
) -> str:
    """Return an SVG picture of the table: the engine as a hub, one row per train, and the hand.

    Each train is a row from the engine: its owner, hand size and score (the Mexican
    train: whom it is open to now, V2), a red marker when it carries one (P6), its
    tiles as they lie (doubles across, a long train wrapped onto several lines), its
    open end, a grey "owner yet to play" flag where only others have played on it and
    the Mexican train waits for the owner's tile (V2), and an orange flag on an open
    double (D2), numbered in the order they must be covered (D3), or a grey one on a
    dead double (D4).  The Mexican train is the last row.  Tiles show pips up to
    double-9 sets and numbers above, one colour per number.  The hands the reader may see are
    below, with the tiles the player to move can play raised, and a legend at the
    bottom.  Every tile drawn is a ``<g class="tile" data-tile="a-b">`` element, the
    picture is sized to hold everything drawn, and all text is escaped.

    Args:
        subject: a `~mexican_train.GameState` or a `~mexican_train.PlayerView`.
        seat: render *subject*, a state, as seat *seat* sees it (``view(state, seat)``);
            without it a state shows every hand.  Given with a view, it must be the view's seat.
        names: one display name per seat, instead of ``Seat 0``, ``Seat 1``, ...; each is
            drawn on one line (a line break or another control character as a space).
        last_move: the move that led to *subject*: a play's tile is outlined in light
            blue (``<g class="tile last-move">``); another move is named in the status line.

    Returns:
        A standalone SVG document (no XML declaration), UTF-8 text.

    Raises:
        TypeError: if *subject* is neither a state nor a view, *names* not a list of
            str, or *last_move* not a move.
        InvalidArgumentError: if *seat* is not a seat of the game, or not the
            view's seat, *names* does not name every seat once, or *last_move* is a
            play whose tile is not on its train.

    >>> from mexican_train import HUB, apply, legal_moves, new_game, view
    >>> state = new_game(4, HUB, seed=1)
    >>> svg = render_svg(view(state, 0), names=["Ann", "Bo", "Cy", "Di"])
    >>> svg.startswith("<svg"), svg.count('class="hand-tile"')
    (True, 15)
    >>> move = legal_moves(state)[0]
    >>> render_svg(apply(state, move), last_move=move).count('class="tile last-move"')
    1
    """
    scene = _scene(subject, seat, names)
    return _svg(scene, _last_tile(scene.table, last_move))


_MOVE_NAMES: Final = {Draw: "a draw", Pass: "a pass", NextRound: "the next round",
                      CallLastTile: "the last-tile call"}  # fmt: skip


def _last_tile(table: PlayerView, move: Move | None) -> tuple[int, Tile] | str | None:
    """Return the train and tile a play put down, or the words for another move."""
    if move is None:
        return None
    if not isinstance(move, Play):
        if type(move) not in _MOVE_NAMES:
            raise TypeError(f"last_move must be a move, not {move!r}")
        return _MOVE_NAMES[type(move)]
    if not MEXICAN <= move.train < table.players or move.tile not in table.trains[move.train].tiles:
        raise InvalidArgumentError(
            f"last_move={move!r} did not lead here: {move.tile} is not on train {move.train}"
        )
    return move.train, move.tile


def _svg(scene: _Scene, last: tuple[int, Tile] | str | None = None) -> str:
    table = scene.table
    numbers = table.max_pip > 9
    body: list[str] = []
    top = _PAD + 62
    hub_cx = _PAD + _HUB_R
    label_x = hub_cx + _HUB_R + 44
    marker_x = label_x + _LABEL_W + 8
    tiles_x = marker_x + _MARKER_W
    right: float = tiles_x + 360  # at least room for a few tiles and the flags

    # Trains (P2): one row each, wrapped into lines when long.
    y: float = top
    row_mids: list[float] = []
    for row in scene.rows:
        lines = _layout_train(row, tiles_x)
        mid = y + _ROW_H / 2
        row_mids.append(mid)
        body += _label(row, label_x, mid)
        if row.marked:
            pill, _ = _pill(marker_x, mid, "marker", _MARKER)
            body.append('<g class="marker">' + "".join(pill) + "</g>")
        body.append(f'<g class="train" data-train="{row.train}">')
        end_x: float = tiles_x
        for number, line in enumerate(lines):
            cy = y + number * _ROW_H + _ROW_H / 2
            for x, vertical, (tile, near, far) in line:
                at_end = row.tiles and tile is row.tiles[-1][0]
                flagged = at_end and ((row.open_double and not row.dead_double) or row.new_double)
                just_played = last == (row.train, tile)
                outline, stroke = _INK, 1.2
                if flagged:
                    outline, stroke = _OPEN, 4
                if just_played:
                    outline, stroke = _LAST, 4
                body += _tile(
                    x,
                    cy - (_U if vertical else _U / 2),
                    near,
                    far,
                    u=_U,
                    vertical=vertical,
                    numbers=numbers,
                    tile=tile,
                    outline=outline,
                    stroke=stroke,
                    role="tile last-move" if just_played else "tile",
                )
                end_x = x + (_U if vertical else 2 * _U) + _GAP
                # Every line counts, not the last only: a wrapped train's first lines are
                # its widest.
                right = max(right, end_x + _GAP)
        body.append("</g>")
        cy = y + (len(lines) - 1) * _ROW_H + _ROW_H / 2
        x = end_x + 6
        if not row.tiles:
            body.append(_text_el(x, cy + 4.5, "empty", size=13, fill=_MUTED, style="italic"))
            x += 48
        # The open end: the number the next tile must show (P2).
        colour = _suit(row.open_end)
        body.append(
            f'<g class="open-end"><circle cx="{_n(x + 14)}" cy="{_n(cy)}" r="14" fill="{_IVORY}" '
            f'stroke="{colour}" stroke-width="3"/>'
            + _text_el(
                x + 14,
                cy + 5,
                str(row.open_end),
                size=14,
                fill=colour,
                weight="bold",
                anchor="middle",
            )
            + "</g>"
        )
        x += 36
        if row.others_only:  # V2: only others' tiles on it, where the Mexican train asks
            pill, width = _pill(x, cy, "owner yet to play", _MUTED, _INK)
            body += pill
            x += width + 8
        if row.open_double:
            pill, width = _pill(x, cy, row.open_double, _MUTED if row.dead_double else _OPEN, _INK)
            body += pill
            x += width + 8
        if row.new_double:
            pill, width = _pill(x, cy, "double: follow it", _OPEN, _INK)
            body += pill
            x += width + 8
        right = max(right, x)
        y += len(lines) * _ROW_H

    # The engine as the hub every train leaves from.
    hub_cy = (row_mids[0] + row_mids[-1]) / 2
    spokes = [
        f'<path d="M {_n(hub_cx)} {_n(hub_cy)} C {_n(label_x - 30)} {_n(hub_cy)} '
        f'{_n(label_x - 30)} {_n(mid)} {_n(label_x)} {_n(mid)}" fill="none" stroke="{_MUTED}" '
        f'stroke-width="2.5" stroke-opacity="0.7"/>'
        for mid in row_mids
    ]
    hub = [
        f'<circle cx="{_n(hub_cx)}" cy="{_n(hub_cy)}" r="{_HUB_R}" fill="{_FELT_DARK}" '
        f'stroke="{_GOLD}" stroke-width="3"/>',
        *_tile(
            hub_cx - 15,
            hub_cy - 30,
            table.engine.high,
            table.engine.low,
            u=30,
            vertical=True,
            numbers=numbers,
            tile=table.engine,
            role="tile engine",
        ),
        _text_el(hub_cx, hub_cy + _HUB_R + 18, "engine", size=12, fill=_MUTED, anchor="middle"),
    ]
    body = spokes + hub + body

    # The hands the reader may see (S5, V10), with the playable tiles raised.
    y += 10
    if scene.hands:
        body.append(
            f'<line x1="{_PAD}" y1="{_n(y)}" x2="{_n(right)}" y2="{_n(y)}" stroke="{_MUTED}" '
            f'stroke-width="1"/>'
        )
        y += 8
    hands, y, right = _hands(scene, y, right, numbers)
    body += hands
    if not scene.hands and not scene.omniscient:
        body.append(
            _text_el(_PAD, y + 16, "Spectator: no hand is shown", fill=_MUTED, style="italic")
        )
        y += 26

    y, right = _legend(body, y, right)
    status = _svg_status(scene)
    if isinstance(last, str):
        status += f"  \u00b7  last move: {last}"
    # A long title or status line widens the table.
    width = (
        max(right, _PAD + _text_width(scene.title, 20, "bold"), _PAD + _text_width(status, 14))
        + _PAD
    )
    height = y + _PAD
    header = [
        _text_el(_PAD, _PAD + 20, scene.title, size=20, weight="bold"),
        _text_el(_PAD, _PAD + 44, status, size=14, fill=_GOLD),
    ]
    label = f"Mexican Train: {scene.title}, {scene.status}"
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="0 0 {_n(width)} {_n(height)}" role="img" aria-label="{_e(label)}" '
            f'font-family="{_FONT}">',
            f"<title>{_e(label)}</title>",
            f'<rect width="100%" height="100%" fill="{_FELT}" rx="12"/>',
            *header,
            *body,
            "</svg>",
        ]
    )


def _legend(body: list[str], y: float, right: float) -> tuple[float, float]:
    """Draw a one-line key to the marks at *y*; return the new bottom and right."""
    cy = y + 22
    x = float(_PAD)
    items: list[str] = []
    pill, width = _pill(x, cy, "marker", _MARKER)
    items += pill
    x += width + 6
    for text, mark_width in (
        ("anyone may play on this train (P6)", 0.0),
        ("open end: the next tile matches it (P2)", 28.0),
        ("last move", 42.0),
    ):
        if mark_width == 28.0:
            items.append(
                f'<circle cx="{_n(x + 11)}" cy="{_n(cy)}" r="11" fill="{_IVORY}" '
                f'stroke="{_MUTED}" stroke-width="3"/>'
            )
            items.append(_text_el(x + 11, cy + 4, "n", size=12, fill=_INK, anchor="middle"))
        elif mark_width == 42.0:
            items.append(
                f'<rect x="{_n(x)}" y="{_n(cy - 9)}" width="36" height="18" rx="3" '
                f'fill="{_IVORY}" stroke="{_LAST}" stroke-width="4"/>'
            )
        x += mark_width
        items.append(_text_el(x, cy + 4, text, size=12, fill=_MUTED))
        x += _text_width(text, 12) + 22
    body.append('<g class="legend">' + "".join(items) + "</g>")
    return cy + 14, max(right, x - 22)


_HAND_WRAP: Final = 20  # tiles per line of a hand


def _hands(scene: _Scene, y: float, right: float, numbers: bool) -> tuple[list[str], float, float]:
    """Lay out the hands as blocks, side by side while they fit; return the new bottom and right."""
    body: list[str] = []
    step = _U + 8
    x0, line_h = float(_PAD), 0.0
    limit = max(right, _PAD + _HAND_WRAP * step)
    for hand in scene.hands:
        mine = hand.seat == scene.viewer
        title = f"Your hand ({hand.label})" if mine else f"{hand.label}'s hand"
        title += f": {_tiles(len(hand.tiles))}"
        if hand.playable:
            title += ", playable tiles raised"
        elif hand.to_play and hand.tiles:
            title += ", none can be played"
        lines = max(1, -(-len(hand.tiles) // _HAND_WRAP))
        width = max(_text_width(title, 14, "bold"), min(len(hand.tiles), _HAND_WRAP) * step)
        height = 30 + lines * (2 * _U + 16)
        if x0 > _PAD and x0 + width > limit:
            x0, y, line_h = float(_PAD), y + line_h, 0.0
        body.append(_text_el(x0, y + 18, title, size=14, weight="bold"))
        for i, tile in enumerate(hand.tiles):
            x = x0 + (i % _HAND_WRAP) * step
            top = y + 30 + (i // _HAND_WRAP) * (2 * _U + 16)
            raised = tile in hand.playable
            body += _tile(
                x,
                top + (0 if raised else 8),
                tile.high,
                tile.low,
                u=_U,
                vertical=True,
                numbers=numbers,
                tile=tile,
                outline=_GOLD if raised else _INK,
                stroke=3 if raised else 1.2,
                role="hand-tile",
            )
        if not hand.tiles:
            body.append(_text_el(x0, y + 50, "(empty)", fill=_MUTED, style="italic"))
        right = max(right, x0 + width)
        x0 += width + 28
        line_h = max(line_h, height)
    return body, y + line_h, right


def _svg_status(scene: _Scene) -> str:
    table = scene.table
    status = scene.status
    if table.current_player is None:  # "round over", "game over": they start the line
        status = status[0].upper() + status[1:]
    parts = [status, f"boneyard: {_tiles(table.boneyard_size)}"]
    if table.is_round_over and table.round_scores:
        last = table.round_scores[-1]
        parts.append(
            "this round: " + ", ".join(f"{scene.labels[s]} {n}" for s, n in enumerate(last))
        )
    return "  \u00b7  ".join(parts)


def _label(row: _Row, x: float, mid: float) -> list[str]:
    personal = row.train != MEXICAN
    out = [
        f'<rect x="{_n(x)}" y="{_n(mid - 22)}" width="{_LABEL_W}" height="44" rx="8" '
        f'fill="{_FELT_DARK if personal else "#5a2d1a"}" '
        f'stroke="{_GOLD if row.to_play else _MUTED}" stroke-width="{3 if row.to_play else 1}"/>'
    ]
    prefix = "\u25b6 " if row.to_play else ""
    suffix = " (you)" if row.is_viewer else ""
    # What fits in the label box, 10 units in from each side, at this size.
    room = _LABEL_W - 20 - _text_width(prefix + suffix, 14, "bold")
    name = prefix + _fitted(row.label, room, 14, "bold") + suffix
    out.append(
        _text_el(
            x + 10, mid - 4, name, size=14, weight="bold", fill=_GOLD if row.to_play else _TEXT
        )
    )
    detail = (
        _fitted(row.open_to, _LABEL_W - 20, 12)
        if row.hand_size is None  # the Mexican train: nobody's hand
        else f"{_tiles(row.hand_size)} \u00b7 {row.score} pts"
    )
    out.append(_text_el(x + 10, mid + 14, detail, size=12, fill=_MUTED))
    return out
