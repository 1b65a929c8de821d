"""States, views and trains are values: equal exactly when every public field is equal.

`GameState.__eq__`, `PlayerView.__eq__` and `Train.__eq__` compare their storage field
by field, written out for speed.  A field one of them forgot would make two different
positions one: a replay check, a cache or a search's table of positions would then
take one for the other.  So each position of random games is changed in one field at
a time (with ``replace``, which checks only the shape) and must then differ from the
original, while a copy rebuilt from its fields must equal it, with the same hash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
from hypothesis import given

from mexican_train import (
    MEXICAN,
    GameState,
    PlayerView,
    Tile,
    Train,
    spectator_view,
    view,
)
from strategies import histories, variant_tables


def _toggled(flags: tuple[bool, ...], index: int = 0) -> tuple[bool, ...]:
    return tuple(not flag if i == index else flag for i, flag in enumerate(flags))


def _train_changed(trains: tuple[Train, ...], **changes: Any) -> tuple[Train, ...]:
    """*trains* with seat 0's train changed in the named fields (tiles, open end, ...)."""
    train = trains[0]
    fields = {
        "tiles": train.tiles,
        "open_end": train.open_end,
        "marked": train.marked,
        "owner_played": train.owner_played,
        **changes,
    }
    return (Train(**fields), *trains[1:])


def _reversed_or_none(tiles: tuple[Any, ...]) -> tuple[Any, ...] | None:
    backwards = tuple(reversed(tiles))
    return None if backwards == tiles else backwards


def _next_seat(seat: int | None, players: int) -> int | None:
    return None if seat is None else (seat + 1) % players


def _other_double(engine: Tile, max_pip: int) -> Tile:
    pip = (engine.high + 1) % (max_pip + 1)
    return Tile(pip, pip)


def _hands_reversed(hands: tuple[tuple[Tile, ...], ...]) -> tuple[Any, ...] | None:
    """*hands* with the first hand of two tiles or more in reverse order; None if none."""
    for seat, hand in enumerate(hands):
        if len(hand) > 1:
            return (*hands[:seat], tuple(reversed(hand)), *hands[seat + 1 :])
    return None


def _swapped_hands(hands: tuple[Any, ...]) -> tuple[Any, ...] | None:
    swapped = (hands[1], hands[0], *hands[2:])
    return None if swapped == hands else swapped


#: One change of each field of `GameState`, from the state: a different value, or None
#: when the state has none to give (an empty boneyard cannot be reordered).
STATE_CHANGES: dict[str, Callable[[GameState], Any]] = {
    "rules": lambda s: attrs.evolve(s.rules, must_play=not s.rules.must_play),
    "round_number": lambda s: s.round_number + 1,
    "engine": lambda s: _other_double(s.engine, s.max_pip),
    "seed": lambda s: s.seed ^ 1,
    "first_player": lambda s: (s.first_player + 1) % s.players,
    "hands": lambda s: _swapped_hands(s.hands),
    "boneyard": lambda s: _reversed_or_none(s.boneyard),
    "current_player": lambda s: _next_seat(s.current_player, s.players),
    "had_first_turn": lambda s: _toggled(s.had_first_turn),
    "turn_tiles": lambda s: s.turn_tiles + 1,
    "has_drawn": lambda s: not s.has_drawn,
    "turn_doubles": lambda s: () if s.turn_doubles else (MEXICAN,),
    "open_doubles": lambda s: () if s.open_doubles else (MEXICAN,),
    "idle_turns": lambda s: s.idle_turns + 1,
    "scores": lambda s: (s.scores[0] + 1, *s.scores[1:]),
    "round_scores": lambda s: (*s.round_scores, (0,) * s.players),
    "is_over": lambda s: not s.is_over,
    "last_tile_called": lambda s: not s.last_tile_called,
}

#: Changes of one field of one train (seat 0's), each a `GameState.trains` value.
TRAIN_CHANGES: dict[str, Callable[[GameState], tuple[Train, ...]]] = {
    "marked": lambda s: _train_changed(s.trains, marked=not s.trains[0].marked),
    "owner_played": lambda s: _train_changed(s.trains, owner_played=not s.trains[0].owner_played),
    "open_end": lambda s: _train_changed(
        s.trains, open_end=(s.trains[0].open_end + 1) % (s.max_pip + 1)
    ),
}

#: One change of each field of `PlayerView` that a seat's position may vary in.
VIEW_CHANGES: dict[str, Callable[[PlayerView], Any]] = {
    "rules": lambda v: attrs.evolve(v.rules, must_play=not v.rules.must_play),
    "round_number": lambda v: v.round_number + 1,
    "engine": lambda v: _other_double(v.engine, v.max_pip),
    "seat": lambda v: _next_seat(v.seat, v.players),
    "first_player": lambda v: (v.first_player + 1) % v.players,
    "hand": lambda v: v.hand[1:] if v.hand else None,
    "hand_sizes": lambda v: (v.hand_sizes[0] + 1, *v.hand_sizes[1:]),
    "boneyard_size": lambda v: v.boneyard_size + 1,
    "trains": lambda v: _train_changed(v.trains, marked=not v.trains[0].marked),
    "current_player": lambda v: _next_seat(v.current_player, v.players),
    "had_first_turn": lambda v: _toggled(v.had_first_turn),
    "turn_tiles": lambda v: v.turn_tiles + 1,
    "has_drawn": lambda v: not v.has_drawn,
    "turn_doubles": lambda v: () if v.turn_doubles else (MEXICAN,),
    "open_doubles": lambda v: () if v.open_doubles else (MEXICAN,),
    "idle_turns": lambda v: v.idle_turns + 1,
    "scores": lambda v: (v.scores[0] + 1, *v.scores[1:]),
    "round_scores": lambda v: (*v.round_scores, (0,) * v.players),
    "is_over": lambda v: not v.is_over,
    "open_hands": lambda v: None if v.open_hands is None else _hands_reversed(v.open_hands),
    "last_tile_called": lambda v: not v.last_tile_called,
}

#: The fields the table fixes (S1, V8), which ``replace`` cannot change alone: every
#: other field is changed above.
FIXED_BY_THE_TABLE = {"players", "max_pip", "hand_size"}


def _assert_differs_in(original: Any, changed: Any, name: str, fields: tuple[str, ...]) -> None:
    """*changed* differs from *original* in field *name* alone, and they are unequal."""
    differing = [f for f in fields if getattr(changed, f) != getattr(original, f)]
    assert differing == [name], (name, differing)
    assert changed != original, f"a change of {name} alone leaves the value equal"
    assert original != changed, f"a change of {name} alone leaves the value equal"


def _state_variants(state: GameState) -> list[tuple[str, GameState]]:
    variants = []
    for name, change in STATE_CHANGES.items():
        value = change(state)
        if value is not None:
            variants.append((name, state.replace(**{name: value})))
    for change in TRAIN_CHANGES.values():
        variants.append(("trains", state.replace(trains=change(state))))
    return variants


def test_every_field_is_changed_but_those_the_table_fixes() -> None:
    """A field added to GameState or PlayerView is changed here too, or these tests
    would not see an equality that forgets it."""
    assert set(GameState.FIELDS) == {*STATE_CHANGES, "trains", *FIXED_BY_THE_TABLE}
    assert set(PlayerView.FIELDS) == {*VIEW_CHANGES, *FIXED_BY_THE_TABLE}


@given(histories())
def test_a_state_equals_its_copy_and_differs_from_it_changed_in_any_one_field(
    states: list[GameState],
) -> None:
    """GameState equality is its public fields: no field is left out, the boneyard's
    order and the seed (which deals the later rounds) included."""
    for state in states:
        copy = state.replace()
        assert copy == state
        assert hash(copy) == hash(state)
        for name, changed in _state_variants(state):
            _assert_differs_in(state, changed, name, GameState.FIELDS)


@given(histories(tables=variant_tables(), max_moves=150))
def test_a_train_equals_its_copy_and_differs_from_it_changed_in_any_one_field(
    states: list[GameState],
) -> None:
    """Train equality is its tiles, open end, marker and owner's play (P2, P6, V2)."""
    fields = ("tiles", "open_end", "marked", "owner_played")
    for state in states:
        for train in state.trains:
            copy = Train(train.tiles, train.open_end, train.marked, train.owner_played)
            assert copy == train
            assert hash(copy) == hash(train)
            for name, value in (
                ("tiles", train.tiles[:-1] if train.tiles else None),
                ("open_end", (train.open_end + 1) % (state.max_pip + 1)),
                ("marked", not train.marked),
                ("owner_played", not train.owner_played),
            ):
                if value is not None:
                    values: dict[str, Any] = {f: getattr(train, f) for f in fields}
                    values[name] = value
                    _assert_differs_in(train, Train(**values), name, fields)


@given(histories(tables=variant_tables(), max_moves=150))
def test_a_view_equals_its_copy_and_differs_from_it_changed_in_any_one_field(
    states: list[GameState],
) -> None:
    """PlayerView equality is its public fields, for a seat's view and a spectator's."""
    for state in states:
        for seen in (view(state, state.players - 1), spectator_view(state)):
            copy = seen.replace()
            assert copy == seen
            assert hash(copy) == hash(seen)
            for name, change in VIEW_CHANGES.items():
                value = change(seen)
                if value is not None:
                    _assert_differs_in(seen, seen.replace(**{name: value}), name, PlayerView.FIELDS)
