"""The information-state observation: what a seat has seen this round.

The tables of `vector_env` follow it move by move; `ObservationCodec` rebuilds
it from a view and the round's events as the seat saw them.  The two must be
equal at every step, so the tables' block is a function of what the seat may
know (S5), as the codec's is by construction; the codec ignores what redaction
hides, and the plain blocks are the plain codec's.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from mexican_train import (
    HUB,
    STANDARD,
    VARIANTS,
    GreedyPlayer,
    InvalidArgumentError,
    Move,
    PlayerView,
    Rules,
    Tile,
    legal_moves,
    new_game,
    view,
)
from mexican_train.events import Event, Passed, TilePlayed, apply_with_events, redact_events
from mexican_train.rl import (
    ActionCodec,
    ObservationCodec,
    SingleSeatEnv,
    raw_env,
    tile_index,
    vector_env,
)

TABLES = [
    pytest.param(HUB, 2, id="HUB-2"),
    pytest.param(STANDARD, 3, id="STANDARD-3"),
    pytest.param(VARIANTS["mexican-after-all-trains"], 4, id="after-all-trains-4"),
    pytest.param(VARIANTS["ascending"], 2, id="ascending-2"),
    pytest.param(VARIANTS["reverse-doubles"], 3, id="reverse-doubles-3"),
    pytest.param(VARIANTS["strict-double-order"], 4, id="strict-double-order-4"),
    pytest.param(VARIANTS["open-hands"], 2, id="open-hands-2"),
]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_s5_the_tables_information_state_is_the_codecs_from_view_and_redacted_history(
    rules: Rules, players: int
) -> None:
    """S5: in self-play, each step's observation is the codec's of (view, redacted events).

    The test replays every table move itself, with `apply_with_events`, to keep
    the round's events; the plain blocks equal the plain codec's encoding.
    """
    envs = vector_env(1, players=players, rules=rules, self_play=True, information_state=True)
    codec = ObservationCodec(rules, players, information_state=True)
    plain = ObservationCodec(rules, players)
    actions = ActionCodec(rules, players)
    observation, infos = envs.reset(seed=5)
    state = envs.games[0]
    events: list[Event] = []
    rng = np.random.default_rng(5)
    lacks_seen = played_seen = 0
    for _ in range(600):
        seat = int(infos["seat"][0])
        mine = view(state, seat)
        want = codec.encode(mine, history=redact_events(events, seat))
        assert np.array_equal(observation["observation"][0], want)
        assert np.array_equal(want[: plain.shape[0]], plain.encode(mine))
        block = want[codec.layout["information"]].reshape(players - 1, -1)
        lacks_seen += int(block[:, : actions.max_pip + 1].sum() > 0)
        played_seen += int(block[:, actions.max_pip + 1 :].sum() > 0)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"][0])))
        observation, _, done, _, infos = envs.step(np.array([action]))
        state, more = apply_with_events(state, actions.decode(action, seat))
        events += more
        if state.is_round_over and not state.is_over:
            state, more = apply_with_events(state, legal_moves(state)[0])  # NextRound
            events = list(more)
        if done[0]:
            state, events = envs.games[0], []
        assert state == envs.games[0]
    assert played_seen > 0
    if not rules.open_hands and rules.must_play:
        assert lacks_seen > 0  # the passes told something


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_s5_the_pettingzoo_information_state_is_the_codecs_from_view_and_redacted_history(
    rules: Rules, players: int
) -> None:
    """S5: every agent's observation is the codec's of (its view, its redacted events).

    The test replays every move itself with `apply_with_events`, the environment's
    dealing of each new round included, to keep the round's events.
    """
    game = raw_env(players=players, rules=rules, information_state=True)
    codec = ObservationCodec(rules, players, information_state=True)
    game.reset(seed=6)
    state = game.game
    events: list[Event] = []
    rng = np.random.default_rng(6)
    for step, agent in enumerate(game.agent_iter(max_iter=500)):
        for other, seat in game._seat.items():
            want = codec.encode(view(state, seat), history=redact_events(events, seat))
            assert np.array_equal(game.observe(other)["observation"], want), step
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        game.step(action)
        state, more = apply_with_events(state, game.actions.decode(action, game._seat[agent]))
        events += more
        if state.is_round_over and not state.is_over:
            state, more = apply_with_events(state, legal_moves(state)[0])  # NextRound
            events = list(more)
        assert state == game.game


class _Told:
    """A greedy opponent that keeps every event it is told (for the single seat's test)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def choose(self, mine: PlayerView, moves: tuple[Move, ...]) -> Move:
        return GreedyPlayer().choose(mine, moves)

    def observe(self, events: Iterable[Event]) -> None:
        self.events.extend(events)


@pytest.mark.parametrize(("rules", "players"), TABLES[:3])
def test_s5_the_single_seats_information_state_is_the_codecs_from_view_and_history(
    rules: Rules, players: int
) -> None:
    """S5: each observation is the codec's of (the seat's view, the events of the game).

    The environment tells an opponent that observes every event as its seat saw it,
    and redaction hides nothing the encoding reads (test above): the events the first
    opponent was told are the history.
    """
    opponents = [_Told() for _ in range(players - 1)]
    game = SingleSeatEnv(players=players, rules=rules, opponents=opponents, information_state=True)
    codec = ObservationCodec(rules, players, information_state=True)
    observation, _ = game.reset(seed=7)
    rng = np.random.default_rng(7)
    done, steps = False, 0
    while True:
        told = game._seated[1]
        assert isinstance(told, _Told)
        want = codec.encode(view(game.game, 0), history=redact_events(told.events, 0))
        assert np.array_equal(observation, want), steps
        if done:
            break
        action = int(rng.choice(np.flatnonzero(game.action_masks())))
        observation, _, done, _, _ = game.step(action)
        steps += 1
    assert steps > 50


def test_s5_what_redaction_hides_and_earlier_rounds_change_nothing() -> None:
    """S5: the drawn tiles of others (hidden from the seat) do not enter the encoding.

    The events of the whole game are given: those of earlier rounds are skipped.
    """
    codec = ObservationCodec(HUB, 2, information_state=True)
    state = new_game(2, HUB, seed=3)
    events: list[Event] = []
    rng = np.random.default_rng(3)
    for _ in range(250):  # into the second round
        moves = legal_moves(state)
        state, more = apply_with_events(state, moves[int(rng.integers(len(moves)))])
        events += more
        for seat in range(2):
            mine = view(state, seat)
            redacted = codec.encode(mine, history=redact_events(events, seat))
            assert np.array_equal(codec.encode(mine, history=events), redacted)


def test_a_pass_tells_the_numbers_the_seat_lacks_until_it_draws() -> None:
    """P7: a seat that passes lacks every number it could have played; a draw forgets it."""
    codec = ObservationCodec(HUB, 2, information_state=True)
    state = new_game(2, HUB, seed=11)
    events: list[Event] = []
    pips = codec.max_pip + 1
    rng = np.random.default_rng(11)
    checked = 0
    while not state.is_over and checked < 5:
        mover = state.current_player
        moves = legal_moves(state)
        state, more = apply_with_events(state, moves[int(rng.integers(len(moves)))])
        events += more
        if mover == 1 and any(type(event) is Passed for event in more):
            if state.current_player != 0:
                continue
            block = codec.encode(view(state, 0), history=redact_events(events, 0))
            lacked = block[codec.layout["information"]][:pips]
            hand = state.hand(1)
            for pip in np.flatnonzero(lacked):
                assert not any(pip in (tile.high, tile.low) for tile in hand)
            checked += int(lacked.sum() > 0)
    assert checked


def test_played_tiles_are_the_others_plays_this_round() -> None:
    codec = ObservationCodec(STANDARD, 2, information_state=True)
    state = new_game(2, STANDARD, seed=1)
    mine = view(state, 0)
    history = [TilePlayed(1, Tile(9, 9), 1, 9)]  # not a real game: the codec trusts it
    row = codec.encode(mine, history=history)[codec.layout["information"]]
    assert np.flatnonzero(row[10:]).tolist() == [tile_index(Tile(9, 9))]


def test_bad_histories_are_refused() -> None:
    state = new_game(2, HUB, seed=1)
    mine = view(state, 0)
    informed, plain = ObservationCodec(HUB, 2, information_state=True), ObservationCodec(HUB, 2)
    with pytest.raises(InvalidArgumentError, match="history="):
        informed.encode(mine)
    with pytest.raises(InvalidArgumentError, match="information_state=True"):
        plain.encode(mine, history=[])
    with pytest.raises(TypeError, match="events"):
        informed.encode(mine, history=["TilePlayed"])  # type: ignore[list-item]
    with pytest.raises(InvalidArgumentError, match="one history per view"):
        informed.encode_batch([mine, mine], histories=[[]])
    with pytest.raises(InvalidArgumentError, match="seat"):
        informed.encode(mine, history=[Passed(5)])
    with pytest.raises(TypeError, match="True or False"):
        ObservationCodec(HUB, 2, information_state=1)  # type: ignore[arg-type]


def test_the_layout_adds_one_block_at_the_end() -> None:
    plain, informed = ObservationCodec(HUB, 4), ObservationCodec(HUB, 4, information_state=True)
    assert informed.layout["information"] == slice(plain.shape[0], plain.shape[0] + 3 * (13 + 91))
    assert informed.shape == (plain.shape[0] + 3 * (13 + 91),)
    assert {k: v for k, v in informed.layout.items() if k != "information"} == plain.layout
    assert informed.space.shape == informed.shape
