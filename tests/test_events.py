"""Events: a front end that only follows events keeps the same table as the engine."""

from __future__ import annotations

import random
import typing
from collections import Counter

import attrs
import pytest
from hypothesis import given

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    Deal,
    Draw,
    GameState,
    Move,
    Play,
    Rules,
    Tile,
    apply,
    apply_with_events,
    full_set,
    legal_moves,
    new_game,
)
from mexican_train.events import (
    DoubleClosed,
    DoubleOpened,
    Event,
    GameOver,
    LastTileCalled,
    MarkerPlaced,
    MarkerRemoved,
    OneTileLeft,
    Passed,
    RoundEnded,
    RoundStarted,
    TileDrawn,
    TilePlayed,
    TurnStarted,
    derive_events,
    redact_events,
)
from mexican_train.serialize import event_from_json, to_json
from strategies import recorded_games, variant_tables


@attrs.define
class FrontEnd:
    """What a front end keeps of the table, updated from events alone."""

    players: int
    trains: dict[int, list[Tile]]
    open_ends: dict[int, int]
    marked: set[int]
    open_doubles: list[int]
    hand_sizes: list[int]
    boneyard_size: int
    current: int | None
    round_number: int
    scores: tuple[int, ...]
    over: bool = False

    @classmethod
    def watching(cls, state: GameState) -> FrontEnd:
        ids = [*range(state.players), MEXICAN]
        return cls(
            state.players,
            {i: list(state.train(i).tiles) for i in ids},
            {i: state.train(i).open_end for i in ids},
            {i for i in ids if state.train(i).marked},
            list(state.open_doubles),
            [len(hand) for hand in state.hands],
            state.boneyard_size,
            state.current_player,
            state.round_number,
            state.scores,
            state.is_over,
        )

    def follow(self, event: Event) -> None:
        if isinstance(event, RoundStarted):
            ids = [*range(self.players), MEXICAN]
            self.trains = {i: [] for i in ids}
            self.open_ends = dict.fromkeys(ids, event.engine.high)
            self.marked, self.open_doubles = set(), []
            self.hand_sizes = list(event.hand_sizes)
            self.boneyard_size = event.boneyard_size
            self.round_number, self.current = event.round_number, None
        elif isinstance(event, TurnStarted):
            self.current = event.seat
        elif isinstance(event, TilePlayed):
            assert event.tile.shows(self.open_ends[event.train])
            self.trains[event.train].append(event.tile)
            self.open_ends[event.train] = event.open_end
            self.hand_sizes[event.seat] -= 1
        elif isinstance(event, TileDrawn):
            self.hand_sizes[event.seat] += 1
            self.boneyard_size -= 1
        elif isinstance(event, MarkerPlaced):
            assert event.train not in self.marked
            self.marked.add(event.train)
        elif isinstance(event, MarkerRemoved):
            self.marked.remove(event.train)
        elif isinstance(event, DoubleOpened):
            assert self.trains[event.train][-1] == event.tile
            self.open_doubles.append(event.train)
        elif isinstance(event, DoubleClosed):
            assert self.trains[event.train][-2] == event.tile
            self.open_doubles.remove(event.train)
        elif isinstance(event, RoundEnded):
            self.current, self.open_doubles = None, []
            assert event.round_number == self.round_number
            self.scores = event.scores
        elif isinstance(event, GameOver):
            self.over = True
        elif isinstance(event, OneTileLeft):
            assert self.hand_sizes[event.seat] == 1  # E3a: told once the hand is down to one
        else:
            assert isinstance(event, (Passed, LastTileCalled))

    def assert_matches(self, state: GameState) -> None:
        assert self == FrontEnd.watching(state)


def follow_game(start: GameState, moves: list[Move], seat: int | None = None) -> Counter[str]:
    """Play *moves*, following only the events (redacted for *seat*); return event counts."""
    seen: Counter[str] = Counter()
    table = FrontEnd.watching(start)
    state = start
    for move in moves:
        after, events = apply_with_events(state, move)
        assert after == apply(state, move)
        if seat is not None:
            events = redact_events(events, seat)
        for event in events:
            table.follow(event)
            seen[type(event).__name__] += 1
        table.assert_matches(after)
        state = after
    return seen


@given(recorded_games())
def test_events_tell_a_front_end_everything_it_shows_presets(
    game: tuple[GameState, list[Move]],
) -> None:
    """Trains, markers, open doubles, hand sizes, boneyard, turn and scores follow (P1-E5)."""
    follow_game(*game)


@given(recorded_games(tables=variant_tables(), max_moves=200))
def test_events_tell_a_front_end_everything_under_variants(
    game: tuple[GameState, list[Move]],
) -> None:
    follow_game(*game)


@given(recorded_games(max_moves=150))
def test_redacted_events_are_enough_for_every_seat(game: tuple[GameState, list[Move]]) -> None:
    """S5: with other seats' drawn tiles hidden, a seat still follows the table."""
    start, moves = game
    follow_game(start, moves, seat=0)


def test_every_kind_of_event_occurs_in_real_games() -> None:
    """The properties above are not vacuous: random games produce every kind of event."""
    seen: Counter[str] = Counter()
    last_tile = attrs.evolve(STANDARD, max_pip=6, last_tile_penalty=2, rounds=2)
    for seed, rules in enumerate([HUB, STANDARD, last_tile, last_tile, last_tile]):
        state = new_game(4 if rules.max_pip is None else 3, rules, seed=seed)
        rng = random.Random(seed)
        moves: list[Move] = []
        while not state.is_over and len(moves) < 3000:
            moves.append(rng.choice(legal_moves(state)))
            state = apply(state, moves[-1])
        seen += follow_game(new_game(state.players, rules, seed=seed), moves)
    assert set(seen) == {cls.__name__ for cls in typing.get_args(Event)}


def test_a_turn_in_the_middle_gives_just_the_tile() -> None:
    """D1: a double played mid-turn: only its TilePlayed, the turn goes on."""
    state = new_game(2, HUB, seed=3)
    for _ in range(400):
        seat = state.current_player
        doubles = [m for m in legal_moves(state) if getattr(m, "tile", Tile(1, 0)).is_double]
        if seat is not None and doubles:
            after, events = apply_with_events(state, doubles[0])
            if after.current_player == seat:
                assert events == (
                    TilePlayed(seat, doubles[0].tile, doubles[0].train, doubles[0].tile.high),  # type: ignore[union-attr]
                )
                return
        state = apply(state, legal_moves(state)[-1])
    pytest.fail("no double played in 400 moves")


def test_a_draw_reports_the_tile_and_redaction_hides_it_from_others() -> None:
    state = new_game(2, HUB, seed=3)
    while Draw() not in legal_moves(state):
        state = apply(state, legal_moves(state)[0])
    seat = state.current_player
    assert seat is not None
    _, events = apply_with_events(state, Draw())
    drawn = TileDrawn(seat, state.boneyard[0])
    assert events[0] == drawn
    assert redact_events(events, seat)[0] == drawn
    assert redact_events(events, 1 - seat)[0] == TileDrawn(seat, None)
    assert redact_events(events, None)[0] == TileDrawn(seat, None)

    class Index:  # a whole number as numpy's integers are one: by __index__
        def __index__(self) -> int:
            return seat  # type: ignore[return-value]  # an int, asserted above

    assert redact_events(events, Index()) == redact_events(events, seat)  # type: ignore[arg-type]
    for wrong in (str(seat), float(seat), bool(seat)):
        with pytest.raises(TypeError, match="seat is a whole number or None"):
            redact_events(events, wrong)  # type: ignore[arg-type]


def test_derive_events_matches_apply_with_events() -> None:
    state = new_game(3, STANDARD, seed=4)
    for _ in range(50):
        move = legal_moves(state)[0]
        after, events = apply_with_events(state, move)
        assert derive_events(state, move, after) == events
        state = after


def test_events_are_frozen_values() -> None:
    event = TurnStarted(1)
    assert event == TurnStarted(1)
    assert hash(event) == hash(TurnStarted(1))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        event.seat = 2  # type: ignore[misc]


# -- E3a: the automatic last-tile announcement ------------------------------------------


def one_tile_events(rules: Rules, players: int, seed: int) -> list[tuple[int, int, bool]]:
    """Play a random game; for each move by a seat, its hand size before and after, and
    whether the events say `OneTileLeft` for it."""
    state = new_game(players, rules, seed=seed)
    rng = random.Random(seed)
    seen = []
    while not state.is_over:
        move = rng.choice(legal_moves(state))
        seat = state.current_player
        after, events = apply_with_events(state, move)
        if seat is not None:
            told = [event for event in events if isinstance(event, OneTileLeft)]
            assert told in ([], [OneTileLeft(seat)])
            seen.append((len(state.hand(seat)), len(after.hand(seat)), bool(told)))
        state = after
    return seen


@pytest.mark.parametrize("rules", [HUB, STANDARD], ids=["HUB", "STANDARD"])
def test_e3a_one_tile_left_is_told_exactly_when_a_hand_goes_down_to_one(rules: Rules) -> None:
    """E3a: the event comes exactly when a move leaves its player with one tile, never else."""
    small = attrs.evolve(rules, max_pip=6, hand_size=5)
    seen = [step for seed in range(6) for step in one_tile_events(small, 3, seed)]
    assert any(told for _, _, told in seen)
    assert all(told == (after == 1 and before != 1) for before, after, told in seen)


def test_e3a_never_under_the_last_tile_call() -> None:
    """E3a: under ``last-tile-call`` the player announces with CallLastTile (LastTileCalled)."""
    small = attrs.evolve(STANDARD, max_pip=6, hand_size=5, last_tile_penalty=2)
    seen = [step for seed in range(6) for step in one_tile_events(small, 3, seed)]
    assert any(after == 1 for _, after, _ in seen)
    assert not any(told for _, _, told in seen)


def test_e3a_hub_seat_down_to_one_tile_is_announced_and_public() -> None:
    """E3a, S5: seat 0 plays its second-last tile; everyone is told, with nothing to hide."""
    rules = attrs.evolve(HUB, max_pip=6, hand_size=2)
    hands = [[Tile(6, 5), Tile(1, 0)], [Tile(3, 2), Tile(4, 4)]]
    dealt = {tile for hand in hands for tile in hand} | {Tile(6, 6)}
    rest = [tile for tile in full_set(6) if tile not in dealt]
    state = new_game(2, rules, seed=0, deal=Deal(hands, rest))
    after, events = apply_with_events(state, Play(Tile(6, 5), MEXICAN))
    assert events == (TilePlayed(0, Tile(6, 5), MEXICAN, 5), OneTileLeft(0), TurnStarted(1))
    assert redact_events(events, 1) == redact_events(events, None) == events
    document = to_json(OneTileLeft(0))
    assert document["type"] == "one-tile-left"
    assert event_from_json(document) == OneTileLeft(0)
    # Seat 1: nothing fits, so it draws: its hand grows, and nobody is told of one tile.
    assert legal_moves(after) == (Draw(),)
    _, events = apply_with_events(after, Draw())
    assert not any(isinstance(event, OneTileLeft) for event in events)


@pytest.mark.parametrize("which", ["before", "after"])
def test_derive_events_of_a_non_state_raises_type_error(which: str) -> None:
    state = new_game(2, HUB, seed=3)
    move = legal_moves(state)[0]
    before, after = (3, apply(state, move)) if which == "before" else (state, 3)
    with pytest.raises(TypeError, match=r"derive_events\(\) needs two GameStates, not int"):
        derive_events(before, move, after)  # type: ignore[arg-type]
