"""Rules as data: the variant axes (the V rules of the docs), and the two presets.

The open-double rule (V3, V4) and the Mexican-train rule (V2) are pluggable:
anything that satisfies `OpenDoubleRule` or `MexicanTrainRule` can be put in a
`Rules` value, and the engine will call it.  The presets `STANDARD` and `HUB`
are built from the same public pieces a user would use.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import attrs

from .bounds import BOUNDS
from .errors import RulesError, shown
from .tables import TABLE_A, TABLE_B, DealTable
from .tiles import set_size

if TYPE_CHECKING:
    from .state import Train


def instance_of(
    kind: type, optional: bool = False, whole: bool = False
) -> Callable[[Any, Any, Any], None]:
    # attrs' own instance_of puts a 4-tuple in its TypeError; this says it in one sentence.
    # *whole*: an int, and not a bool (which is an int to isinstance).
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        right = type(value) is int if whole else isinstance(value, kind)
        if not (right or (optional and value is None)):
            wanted = kind.__name__ + (" or None" if optional else "")
            raise TypeError(
                f"{type(instance).__name__}.{attribute.name} must be {wanted}, not {shown(value)}"
            )

    return check


__all__ = [
    "HUB",
    "STANDARD",
    "CloseInOrder",
    "Cover",
    "EnginePlacement",
    "FirstTurn",
    "MexicanFromFirstTurn",
    "MexicanFromSecondTurn",
    "MexicanTrainRule",
    "OpenDouble",
    "OpenDoubleRule",
    "Rules",
    "Table",
]


class Table(Protocol):
    """What every player can see on the table: the argument of the pluggable rules.

    Both `GameState` and a player's view satisfy it.  A `Train` tells its
    tiles, its marker (P6), and whether its owner has played on it this round
    (`Train.owner_played`: tiles other players laid on a marked train are
    not the owner's).

    >>> from mexican_train import new_game, view
    >>> state = new_game(2, seed=1)
    >>> state.train(0) == view(state, 1).train(0), view(state, 1).has_had_first_turn(0)
    (True, False)
    """

    @property
    def players(self) -> int:
        """The number of players."""

    @property
    def round_number(self) -> int:
        """The round being played, from 1 (E4)."""

    def train(self, train_id: int) -> Train:
        """Return the train with id *train_id* (a seat, or `MEXICAN`)."""

    def has_had_first_turn(self, seat: int) -> bool:
        """Return whether *seat* has finished its first turn of this round."""


@runtime_checkable
class MexicanTrainRule(Protocol):
    """Decide when a player may play on the Mexican train (V2).

    Its answer counts only outside open-double obligations: an open double that
    binds a player (D2) may be covered on the Mexican train whatever this says
    (the engine may still ask).
    Implementations must be immutable and hashable (an ``@attrs.frozen`` class),
    and answer from what `Table` offers alone: *table* is a `GameState` or a
    seat's `PlayerView` (bots and front ends ask with the view, which holds no
    other hand and no boneyard), and the answer must be the same for both.

    A rule may also say when it opens with a class attribute ``open_from_turn``:
    1 when ``is_open`` is always True, 2 when it is ``table.has_had_first_turn(seat)``.
    The engine then reads it once per round instead of calling ``is_open`` on every
    move (the built-in rules do; a subclass of theirs that changes ``is_open`` is
    asked every move unless it sets ``open_from_turn`` itself).  Without it,
    ``is_open`` is asked every time.

    >>> @attrs.frozen
    ... class AfterFirstTurn:
    ...     def is_open(self, table, seat):
    ...         return table.has_had_first_turn(seat)
    ...
    >>> isinstance(AfterFirstTurn(), MexicanTrainRule), isinstance(object(), MexicanTrainRule)
    (True, False)

    A rule may read who played where: ``table.train(seat).owner_played`` is
    whether *seat* has played a tile on their own train this round; and which round
    it is: ``table.round_number``, from 1.
    """

    def is_open(self, table: Table, seat: int) -> bool:
        """Return whether *seat* may play on the Mexican train now."""


class _KnownOpening:
    """Base of the built-in Mexican-train rules that say their ``open_from_turn``.

    The claim holds for the class's own ``is_open`` only: a subclass that defines
    ``is_open`` without its own ``open_from_turn`` gets None, so the engine asks it.
    """

    __slots__ = ()
    open_from_turn: ClassVar[int | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "is_open" in vars(cls) and "open_from_turn" not in vars(cls):
            cls.open_from_turn = None


@attrs.frozen
class MexicanFromFirstTurn(_KnownOpening):
    """The Mexican train is open to everybody from the first turn (V2, Rulebook B).

    >>> from mexican_train import new_game
    >>> MexicanFromFirstTurn().is_open(new_game(2, seed=1), 0)
    True
    """

    #: ``is_open`` is always True (see `MexicanTrainRule`).
    open_from_turn: ClassVar[int | None] = 1

    def is_open(self, table: Table, seat: int) -> bool:
        return True


@attrs.frozen
class MexicanFromSecondTurn(_KnownOpening):
    """The Mexican train opens on each player's second turn of a round (V2, Rulebook A).

    >>> from mexican_train import new_game
    >>> MexicanFromSecondTurn().is_open(new_game(2, seed=1), 0)
    False
    """

    #: ``is_open`` is ``table.has_had_first_turn(seat)`` (see `MexicanTrainRule`).
    open_from_turn: ClassVar[int | None] = 2

    def is_open(self, table: Table, seat: int) -> bool:
        return table.has_had_first_turn(seat)


@attrs.frozen
class OpenDouble:
    """An uncovered double at the end of a train, as shown to an `OpenDoubleRule`.

    Attributes:
        train: the id of the train it ends.
        pip: the number on both of its ends.
        closable: False when every other tile of its suit is on the table, so
            nothing can ever cover it (a dead double, D4).

    Raises:
        TypeError: if *train* or *pip* is not an int (a bool is not one), or
            *closable* not a bool.

    >>> OpenDouble(2, 5, closable=True)
    OpenDouble(train=2, pip=5, closable=True)
    """

    train: int = attrs.field(validator=instance_of(int, whole=True))
    pip: int = attrs.field(validator=instance_of(int, whole=True))
    closable: bool = attrs.field(validator=instance_of(bool))


def _int_tuple(values: Iterable[int]) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"Cover.trains is a tuple of train ids, not {shown(values)}")
    trains = tuple(values)
    for index, train in enumerate(trains):
        if type(train) is not int:
            raise TypeError(f"Cover.trains[{index}] is a train id (an int), not {shown(train)}")
    return trains


@attrs.frozen(repr=False)
class Cover:
    """Which doubles may be covered now, and whether that is all the player may do.

    Attributes:
        trains: ids of the trains whose double may be covered now.
        only: True when the player may play nowhere else (a binding obligation,
            D2).  A binding double may be covered on any train, even an
            opponent's unmarked one; a non-binding one only where the player may
            play anyway (P3).
        doubles_exempt: with *only*, a double may still be played wherever the
            player may play anyway: *only* holds the player's other tiles (D3's
            stronger reading: "play your doubles, then the next tile on the first").

    Raises:
        TypeError: if *trains* is not train ids (ints, not bools), or *only* or
            *doubles_exempt* not a bool.
        RulesError: if *only* is True and *trains* is empty: a binding cover names
            the doubles to cover (with none to cover, ``only=False``).

    >>> Cover((3,), only=True)
    Cover(trains=(3,), only=True)
    >>> Cover((3,), only=True, doubles_exempt=True)
    Cover(trains=(3,), only=True, doubles_exempt=True)
    """

    trains: tuple[int, ...] = attrs.field(converter=_int_tuple)
    only: bool = attrs.field(validator=instance_of(bool))
    doubles_exempt: bool = attrs.field(default=False, validator=instance_of(bool))

    def __attrs_post_init__(self) -> None:
        # D2: a binding cover allows only its own trains, so one naming none would leave
        # the player no tile to play, and front ends no double to cite.
        if self.only and not self.trains:
            raise RulesError(
                "Cover((), only=True) binds the player to cover a double but names none: "
                "name the trains whose double must be covered, or answer Cover((), only=False) "
                "when no double binds"
            )

    def __repr__(self) -> str:
        exempt = ", doubles_exempt=True" if self.doubles_exempt else ""
        return f"Cover(trains={self.trains!r}, only={self.only!r}{exempt})"


@runtime_checkable
class OpenDoubleRule(Protocol):
    """Decide which open doubles must, or may, be covered (D1-D4, V3, V4).

    The engine calls it with the doubles in the order they were played, and
    never with an empty tuple.  It checks what comes back: a `Cover` whose
    trains are all among the doubles it was given.  Implementations must be
    immutable and hashable (an ``@attrs.frozen`` class), and each answer a
    function of the rule and the doubles alone: the engine may keep an answer
    and reuse it for the same doubles instead of asking again.

    >>> isinstance(CloseInOrder(), OpenDoubleRule), isinstance(object(), OpenDoubleRule)
    (True, False)
    """

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        """Return what the doubles left open by earlier turns ask of the player to move (D2, D3)."""

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        """Return where the tile that follows a double may go, given this turn's doubles (D1, D3)."""


@attrs.frozen
class CloseInOrder:
    """Open doubles are closed one at a time, in the order played (D2, D3, V3).

    Attributes:
        reverse: close the most recent double first instead (Rulebook B's variation, V3).
        release_dead: skip a double that nothing can cover (D4, V4).

    >>> rule = CloseInOrder()
    >>> rule.obligation((OpenDouble(2, 5, True), OpenDouble(0, 9, True)))
    Cover(trains=(2,), only=True)
    >>> CloseInOrder(reverse=True).obligation((OpenDouble(2, 5, True), OpenDouble(0, 9, True)))
    Cover(trains=(0,), only=True)
    >>> rule.obligation((OpenDouble(2, 5, False), OpenDouble(0, 9, True)))
    Cover(trains=(0,), only=True)
    """

    reverse: bool = attrs.field(default=False, validator=instance_of(bool))
    release_dead: bool = attrs.field(default=True, validator=instance_of(bool))

    def _first(self, doubles: tuple[OpenDouble, ...]) -> tuple[int, ...]:
        ordered = reversed(doubles) if self.reverse else iter(doubles)
        for double in ordered:
            if double.closable or not self.release_dead:  # D4: a dead double is skipped
                return (double.train,)
        return ()

    def obligation(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        first = self._first(doubles)
        # D2: the first open double binds; with none live, play is free.
        return Cover(first, only=bool(first))

    def follow_up(self, doubles: tuple[OpenDouble, ...]) -> Cover:
        # D3: the follow-up tile goes anywhere, but onto this turn's doubles only in order.
        return Cover(self._first(doubles), only=False)


class EnginePlacement(enum.Enum):
    """How a round's engine reaches the table and who plays first (V5).

    >>> STANDARD.engine_placement, HUB.engine_placement
    (<EnginePlacement.HOLDER: 'holder'>, <EnginePlacement.SET_ASIDE: 'set-aside'>)
    """

    #: S3: the holder of the engine places it and plays first; if nobody holds
    #: it, players draw in turn until someone does (Rulebook A).
    HOLDER = "holder"
    #: S4: the engine is set aside before the deal; the first player rotates
    #: (Rulebook B).
    SET_ASIDE = "set-aside"


@attrs.frozen
class FirstTurn:
    """A special first turn in each round (V1); ``Rules.first_turn=None`` makes it ordinary.

    In the special first turn a player plays only on their own train, and
    doubles bind nobody (P4).

    Attributes:
        chain: the player may keep adding tiles to their own train (P4);
            False allows a single tile.
        may_draw: a player who cannot start their train draws one tile first
            (P4 says never).

    >>> STANDARD.first_turn, HUB.first_turn
    (FirstTurn(chain=True, may_draw=False), None)
    """

    chain: bool = attrs.field(default=True, validator=instance_of(bool))
    may_draw: bool = attrs.field(default=False, validator=instance_of(bool))


_Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


def _optional_int(name: str) -> _Validator:
    minimum, maximum = BOUNDS[name].low, BOUNDS[name].high

    def check(instance: object, attribute: attrs.Attribute[int | None], value: int | None) -> None:
        if value is None:
            return
        if type(value) is not int or value < minimum:
            raise RulesError(
                f"Rules.{attribute.name} must be None or a whole number >= {minimum}, "
                f"not {shown(value)}"
            )
        if maximum is not None and value > maximum:
            raise RulesError(
                f"Rules.{attribute.name} must be at most {maximum}, not {shown(value)}"
            )

    return check


def _count(name: str) -> _Validator:
    minimum, maximum = BOUNDS[name].low, BOUNDS[name].high

    def check(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        if type(value) is not int or value < minimum:
            raise RulesError(
                f"Rules.{attribute.name} must be a whole number >= {minimum}, not {shown(value)}"
            )
        if value > maximum:
            raise RulesError(
                f"Rules.{attribute.name} must be at most {maximum}, not {shown(value)}"
            )

    return check


def _check_protocol(protocol: type, *methods: str) -> _Validator:
    # *methods*: the protocol's methods, which isinstance finds but does not check are callable.
    def check(instance: object, attribute: attrs.Attribute[object], value: object) -> None:
        if isinstance(value, type):
            # The class has the protocol's methods too, and would fail only when asked.
            raise TypeError(
                f"Rules.{attribute.name} must be a {protocol.__name__} object, not the class "
                f"{value.__name__}: call it, {value.__name__}()"
            )
        if not isinstance(value, protocol):
            raise TypeError(
                f"Rules.{attribute.name} must implement {protocol.__name__}, not {value!r}"
            )
        for method in methods:
            found = getattr(value, method)
            if not callable(found):
                raise TypeError(
                    f"Rules.{attribute.name} must implement {protocol.__name__}: its {method} "
                    f"is {found!r}, not a method"
                )
        try:
            hash(value)
        except TypeError:
            raise TypeError(
                f"Rules.{attribute.name} must be hashable (immutable), not {value!r}"
            ) from None

    return check


def _check_int(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int:
        raise TypeError(f"Rules.{attribute.name} must be a whole number, not {shown(value)}")
    bound = BOUNDS[attribute.name]  # the bounds every format can write back
    if value not in bound:
        raise RulesError(
            f"Rules.{attribute.name} must be from {bound.low} to {bound.high}, not {shown(value)}"
        )


@attrs.frozen(repr=False)
class Rules:
    """Every rule point a game can vary on (the V rules), as one frozen value.

    Build variants from a preset with :func:`attrs.evolve`:

    >>> import attrs
    >>> double_six = attrs.evolve(STANDARD, max_pip=6)
    >>> double_six.max_pip, double_six.hand_size
    (6, None)

    Attributes:
        deal_table: the set and hand size by player count (S1, V8).
        engine_placement: how the engine is placed and who starts (S3/S4, V5).
        first_turn: the special first turn (P4), or None for an ordinary one (V1).
        mexican_train: when the Mexican train is open (V2).
        open_doubles: how open doubles bind and in which order they close (D2-D4, V3, V4).
        max_pip: the set (double-*max_pip*); None: the deal table picks it.
        hand_size: tiles dealt to each player; None: the deal table gives it.
        must_play: a player who can play must (P7); False allows a voluntary draw (V6).
        double_blank_score: what the double-blank counts in a hand at the end (E3, V7),
            from -1,000,000 to 1,000,000.
        rounds: how many rounds; None: one per engine (S2, V9).
        ascending: engines go up from 0-0 instead of down from N-N (V9).
        highest_engine: the highest engine, whatever the set: the rounds' engines go
            from {H, H} down to {0, 0} (or up, with *ascending*); None: the set's own
            highest double, N (S2).  A set without the {H, H} is refused.
        open_hands: every player sees every hand (S5, V10).
        draw_until_playable: a player with no legal play draws again and again
            until they can play or the boneyard is empty, instead of once (P5, D1, D2;
            and P4 when the first turn may draw, `FirstTurn.may_draw`).
        last_tile_penalty: a player must call their last tile (`CallLastTile`);
            one whose turn ends with a single tile in hand, after playing at least
            one tile that turn without calling, draws this many tiles (as many as
            the boneyard holds), at most 496.  0: no call.
        tie_break: break a tie on the lowest total as E5 says; False: every
            player on the lowest total shares the win.
        marker_lifts_anywhere: a marker goes as soon as its owner plays a tile on
            any train (Rulebook A's parenthesis read literally); False: only a tile
            on their own train lifts it (P6).

    Raises:
        RulesError: if a value is out of range, or two values contradict each
            other (a hand size, a number of rounds or a highest engine that the
            chosen set cannot give).
        TypeError: if a value has the wrong type: a protocol not implemented, a
            pluggable rule that is not hashable, or its class given for the rule
            (``MexicanFromFirstTurn`` for ``MexicanFromFirstTurn()``).
    """

    deal_table: DealTable = attrs.field(validator=instance_of(DealTable))
    engine_placement: EnginePlacement = attrs.field(validator=instance_of(EnginePlacement))
    first_turn: FirstTurn | None = attrs.field(validator=instance_of(FirstTurn, optional=True))
    mexican_train: MexicanTrainRule = attrs.field(
        validator=_check_protocol(MexicanTrainRule, "is_open")
    )
    open_doubles: OpenDoubleRule = attrs.field(
        validator=_check_protocol(OpenDoubleRule, "obligation", "follow_up")
    )
    # The bounds of every format (bounds.py): no hand holds more tiles than the largest
    # set has, nor a game more rounds than engines, and every number can be written back.
    max_pip: int | None = attrs.field(default=None, validator=_optional_int("rules.max_pip"))
    hand_size: int | None = attrs.field(default=None, validator=_optional_int("hand_size"))
    must_play: bool = attrs.field(default=True, validator=instance_of(bool))
    double_blank_score: int = attrs.field(default=50, validator=_check_int)
    rounds: int | None = attrs.field(default=None, validator=_optional_int("rounds"))
    ascending: bool = attrs.field(default=False, validator=instance_of(bool))
    open_hands: bool = attrs.field(default=False, validator=instance_of(bool))
    draw_until_playable: bool = attrs.field(default=False, validator=instance_of(bool))
    last_tile_penalty: int = attrs.field(default=0, validator=_count("last_tile_penalty"))
    tie_break: bool = attrs.field(default=True, validator=instance_of(bool))
    highest_engine: int | None = attrs.field(
        default=None, validator=_optional_int("highest_engine")
    )
    marker_lifts_anywhere: bool = attrs.field(default=False, validator=instance_of(bool))

    def __attrs_post_init__(self) -> None:
        # Contradictions visible without a player count; new_game checks the rest (S1, S2).
        top = self.highest_engine
        if top is not None and self.rounds is not None and self.rounds > top + 1:
            raise RulesError(
                f"Rules.rounds={self.rounds}, but engines from {top}-{top} to 0-0 "
                f"give only {top + 1} rounds (S2)"
            )
        if self.max_pip is None:
            return
        self.check_set(self.max_pip)
        available = set_size(self.max_pip) - (self.engine_placement is EnginePlacement.SET_ASIDE)
        if self.hand_size is not None and 2 * self.hand_size > available:
            raise RulesError(
                f"Rules.hand_size={self.hand_size} cannot be dealt: two hands of "
                f"{self.hand_size} need {2 * self.hand_size} tiles, but a double-{self.max_pip} "
                f"set has only {available} to deal (S1)"
            )

    def __repr__(self) -> str:
        """Return the rules as a short expression that builds them (`rules_repr`).

        >>> STANDARD, attrs.evolve(HUB, max_pip=9, rounds=3)
        (STANDARD, attrs.evolve(HUB, max_pip=9, rounds=3))
        """
        return rules_repr(self)

    def check_set(self, max_pip: int, whose: str = "") -> None:
        """Raise `RulesError` unless a double-*max_pip* set gives these rules' rounds (S2).

        *whose* says where the set comes from, for the message (``" (Table A's
        for 3 players)"``).

        >>> attrs.evolve(STANDARD, highest_engine=12).check_set(9)
        Traceback (most recent call last):
        ...
        mexican_train.RulesError: Rules.highest_engine=12 needs the 12-12, but a double-9 set has no 12-12 (S2)
        """
        top = self.highest_engine
        if top is not None and top > max_pip:
            raise RulesError(
                f"Rules.highest_engine={top} needs the {top}-{top}, but a double-{max_pip} "
                f"set{whose} has no {top}-{top} (S2)"
            )
        engines = self.top_engine(max_pip) + 1
        if self.rounds is not None and self.rounds > engines:
            raise RulesError(
                f"Rules.rounds={self.rounds}, but a double-{max_pip} set{whose} has only "
                f"{engines} engines (S2)"
            )

    def top_engine(self, max_pip: int) -> int:
        """Return the number of the highest engine played with a double-*max_pip* set (S2).

        >>> STANDARD.top_engine(15), attrs.evolve(STANDARD, highest_engine=12).top_engine(15)
        (15, 12)
        """
        return max_pip if self.highest_engine is None else self.highest_engine

    def round_count(self, max_pip: int) -> int:
        """Return the number of rounds of a game with a double-*max_pip* set (S2, V9).

        >>> STANDARD.round_count(9), attrs.evolve(STANDARD, highest_engine=12).round_count(18)
        (10, 13)
        """
        return self.rounds or self.top_engine(max_pip) + 1

    def engine_pip(self, max_pip: int, round_number: int) -> int:
        """Return the number of round *round_number*'s engine with a double-*max_pip* set.

        S2: one round per engine, from the highest down to {0, 0} (V9: or up, or
        fewer rounds).

        >>> STANDARD.engine_pip(12, 1), attrs.evolve(STANDARD, ascending=True).engine_pip(12, 1)
        (12, 0)
        """
        if self.ascending:
            return round_number - 1
        return self.top_engine(max_pip) - (round_number - 1)


#: Rulebook A exactly: Table A, the engine's holder starts (S3), a first turn
#: that builds your own train (P4), the Mexican train from your second turn (V2).
STANDARD = Rules(
    deal_table=TABLE_A,
    engine_placement=EnginePlacement.HOLDER,
    first_turn=FirstTurn(),
    mexican_train=MexicanFromSecondTurn(),
    open_doubles=CloseInOrder(),
)

#: Rulebook B exactly: Table B, the engine set aside and a rotating first player
#: (S4), an ordinary first turn, the Mexican train open from the start (V2).
HUB = Rules(
    deal_table=TABLE_B,
    engine_placement=EnginePlacement.SET_ASIDE,
    first_turn=None,
    mexican_train=MexicanFromFirstTurn(),
    open_doubles=CloseInOrder(),
)


def rules_repr(rules: Rules) -> str:
    """Return *rules* as a short expression that builds them, for a state's ``repr``.

    The presets by their names, a named variant (or combination) through
    ``get_variant``, other rules as the nearest preset with the fields that differ.

    >>> rules_repr(HUB), rules_repr(attrs.evolve(STANDARD, max_pip=6))
    ('HUB', 'attrs.evolve(STANDARD, max_pip=6)')
    """
    presets = (("STANDARD", STANDARD), ("HUB", HUB))
    for name, preset in presets:
        if rules == preset:
            return name
    # The names live in the catalogue, a layer above the core, imported when a repr asks.
    from .._catalogue.variants import variant_name

    variant = variant_name(rules)
    if variant is not None:
        return f"get_variant({variant!r})"

    def changes(preset: Rules) -> list[str]:
        return [
            f"{field.name}={getattr(rules, field.name)!r}"
            for field in attrs.fields(Rules)
            if getattr(rules, field.name) != getattr(preset, field.name)
        ]

    name, preset = min(presets, key=lambda item: len(changes(item[1])))
    return f"attrs.evolve({name}, {', '.join(changes(preset))})"
