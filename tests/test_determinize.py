"""`determinize`: a complete state consistent with one seat's view.

The view is kept exactly, every tile is somewhere once, the hidden tiles are dealt
uniformly, and the result depends on the view and the random generator alone.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from unittest import mock

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    EnginePlacement,
    GameState,
    InvalidArgumentError,
    Pass,
    PlayerView,
    Rules,
    Tile,
    apply,
    determinize,
    full_set,
    legal_moves,
    new_game,
    spectator_view,
    view,
)
from mexican_train._bots import determinize as _determinize
from mexican_train.events import (
    Event,
    Passed,
    RoundStarted,
    TilePlayed,
    TurnStarted,
    apply_with_events,
    redact_events,
)
from mexican_train.variants import (
    CloseInOrder,
    FirstTurn,
    MexicanAfterAllTrains,
    MexicanAfterOwnTrain,
)
from strategies import (
    fitting_facts,
    hidden_shuffles,
    histories,
    positions,
    short_preset_tables,
    variant_tables,
)


@given(histories(max_moves=150), hidden_shuffles())
def test_s5_determinize_keeps_every_seats_view_at_every_step(
    states: list[GameState], rng: random.Random
) -> None:
    """Mid-round, between rounds and once over: ``view(determinize(v), v.seat) == v``."""
    for state in states:
        for seat in range(state.players):
            mine = view(state, seat)
            assert view(determinize(mine, rng), seat) == mine


@given(positions(variant_tables(max_pip=9, max_rounds=2), max_moves=150), hidden_shuffles())
def test_v10_determinize_keeps_the_view_under_every_variant(
    state: GameState, rng: random.Random
) -> None:
    """Open hands (V10), first turns (P4), last-tile calls and the rest of the catalogue."""
    seat = state.current_player if state.current_player is not None else 0
    mine = view(state, seat)
    assert view(determinize(mine, rng), seat) == mine


@given(positions(max_moves=150), hidden_shuffles())
def test_s1_determinize_holds_every_tile_of_the_set_once(
    state: GameState, rng: random.Random
) -> None:
    seat = state.current_player if state.current_player is not None else 1
    world = determinize(view(state, seat), rng)
    tiles = [world.engine, *world.boneyard]
    tiles += [tile for hand in world.hands for tile in hand]
    tiles += [tile for train in world.trains for tile in train.tiles]
    assert Counter(tiles) == Counter(full_set(state.max_pip))
    assert [len(hand) for hand in world.hands] == [len(hand) for hand in state.hands]


@given(positions(short_preset_tables(), max_moves=120), hidden_shuffles(), st.randoms())
def test_e4_every_determinized_state_plays_to_the_end_of_the_game(
    state: GameState, rng: random.Random, moves: random.Random
) -> None:
    seat = state.current_player if state.current_player is not None else 0
    world = determinize(view(state, seat), rng)
    while not world.is_over:
        world = apply(world, moves.choice(legal_moves(world)))
    assert world.winners


@given(positions(max_moves=150), st.integers(0, 2**32))
def test_s5_determinize_depends_on_the_view_and_the_generator_alone(
    state: GameState, seed: int
) -> None:
    """Two states a seat cannot tell apart give the same determinization: nothing leaks."""
    seat = state.current_player if state.current_player is not None else 0
    mine = view(state, seat)
    other = determinize(mine, random.Random(seed + 1))  # the same view, other hidden tiles
    assert determinize(view(other, seat), random.Random(seed)) == determinize(
        mine, random.Random(seed)
    )


def test_s6_determinize_gives_a_fresh_seed() -> None:
    state = new_game(4, HUB, seed=1)
    seeds = {determinize(view(state, 0), random.Random(k)).seed for k in range(20)}
    assert state.seed not in seeds
    assert len(seeds) == 20


def test_e4_determinize_between_rounds_keeps_the_scores_and_deals_afresh() -> None:
    state = new_game(4, STANDARD, seed=3)
    while not state.is_round_over:
        state = apply(state, legal_moves(state)[0])
    world = determinize(view(state, 2), random.Random(5))
    assert world.round_scores == state.round_scores
    after = apply(world, legal_moves(world)[0])
    assert after.round_number == 2
    assert after.hands != apply(state, legal_moves(state)[0]).hands


# Wilson-Hilferty: the chi-square quantile for *dof* degrees of freedom at z standard
# normal deviates, accurate to well under 1% for dof > 30.
def _chi_square_critical(dof: int, z: float) -> float:
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def test_s5_unseen_tiles_are_spread_uniformly_chi_square() -> None:
    """Each unseen tile lands in each hidden hand and the boneyard in proportion to its size.

    A contingency table of 75 unseen tiles by 4 places over 2,000 fixed-seed samples;
    the test refuses uniformity at alpha = 1e-4 (z = 3.719).
    """
    state = new_game(4, HUB, seed=8)
    mine = view(state, 0)
    rng = random.Random(20261201)
    unseen = [t for t in full_set(12) if t not in mine.hand and t is not state.engine]
    places = {1: 15, 2: 15, 3: 15, "boneyard": 30}
    counts = {(tile, place): 0 for tile in unseen for place in places}
    samples = 2000
    for _ in range(samples):
        world = determinize(mine, rng)
        for seat in (1, 2, 3):
            for tile in world.hands[seat]:
                counts[tile, seat] += 1
        for tile in world.boneyard:
            counts[tile, "boneyard"] += 1
    statistic = sum(
        (counts[tile, place] - samples * size / len(unseen)) ** 2 / (samples * size / len(unseen))
        for tile in unseen
        for place, size in places.items()
    )
    dof = (len(unseen) - 1) * (len(places) - 1)
    assert statistic < _chi_square_critical(dof, 3.719)


def test_s5_the_boneyards_order_is_uniform_chi_square() -> None:
    """The tile on top of the boneyard is any unseen tile with equal chance (alpha = 1e-4)."""
    state = new_game(4, HUB, seed=8)
    mine = view(state, 0)
    rng = random.Random(7)
    samples = 3800
    tops = Counter(determinize(mine, rng).boneyard[0] for _ in range(samples))
    unseen = [t for t in full_set(12) if t not in mine.hand and t is not state.engine]
    expected = samples / len(unseen)
    statistic = sum((tops[tile] - expected) ** 2 / expected for tile in unseen)
    assert statistic < _chi_square_critical(len(unseen) - 1, 3.719)


def test_s5_determinize_refuses_a_spectator_view() -> None:
    with pytest.raises(InvalidArgumentError, match="spectator"):
        determinize(spectator_view(new_game(4, HUB, seed=1)), random.Random(0))


def test_determinize_refuses_a_state_and_a_seed_of_the_wrong_kind() -> None:
    state = new_game(4, HUB, seed=1)
    with pytest.raises(TypeError, match="PlayerView"):
        determinize(state, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"random\.Random"):
        determinize(view(state, 0), 7)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules", "players"), [(HUB, 12), (HUB, 4), (STANDARD, 13)])
def test_e3_between_rounds_the_hidden_hands_score_the_round_even_without_the_local_search(
    rules: Rules, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """E3: between rounds each hidden hand must score what the round's scores say.  With
    many hands of few tiles the randomized local search can stall (seen: HUB, 12 players);
    the exhaustive search behind it still finds hands that fit."""
    monkeypatch.setattr(_determinize, "_FIT_ATTEMPTS", 0)  # only the exhaustive search
    for seed in range(3):
        state, moves = new_game(players, rules, seed=seed), random.Random(seed)
        while not state.is_round_over:
            state = apply(state, moves.choice(legal_moves(state)))
        mine = view(state, 1)
        world = determinize(mine, random.Random(seed))
        assert view(world, 1) == mine
        assert world.round_scores == state.round_scores


def test_a_view_built_by_hand_with_junk_for_tiles_is_refused_with_a_typed_error() -> None:
    """determinize reads the tiles seen as a mask: a view with junk for tiles is never
    built to reach it."""
    mine = view(new_game(4, HUB, seed=1), 0)
    with pytest.raises(TypeError, match="hand\\[0\\] is a Tile, not '"):
        mine.replace(hand=tuple(str(tile) for tile in mine.hand))  # type: ignore[misc]
    with pytest.raises(TypeError, match="hand\\[0\\] is a Tile, not 5"):
        mine.replace(hand=(5, *mine.hand[1:]))  # type: ignore[arg-type]


# -- inference: determinize(view, rng, history=...) ---------------------------------


def _round_with_events(
    rules: Rules, players: int, seed: int, moves: int
) -> list[tuple[GameState, tuple[Event, ...]]]:
    """Each state of a random round, with the events of the round up to it."""
    return _played_on(new_game(players, rules, seed=seed), (), random.Random(seed), moves)


def _played_on(
    state: GameState, events: tuple[Event, ...], rng: random.Random, moves: int
) -> list[tuple[GameState, tuple[Event, ...]]]:
    """*state* and each state after it in random play to the round's end (*moves* at most),
    with *events* and those of each move since."""
    out = [(state, events)]
    for _ in range(moves):
        if state.current_player is None:
            break
        state, new = apply_with_events(state, rng.choice(legal_moves(state)))
        events += new
        out.append((state, events))
    return out


def _forbidden(mine: PlayerView, history: tuple[Event, ...]) -> dict[int, set[Tile]]:
    shown = [(mine.engine,), mine.hand, *(train.tiles for train in mine.trains)]
    unseen = tuple(_determinize._unseen(mine.max_pip, shown))
    facts = _determinize._facts(mine, history, unseen)
    return {
        seat: {tile for p, tile in enumerate(unseen) if mask >> p & 1}
        for seat, mask in facts.items()
    }


# Between rounds, thirteen hidden hands must score the round's points (E3): one of
# nine tiles among hands of one and two, which a search over tiles rather than their
# values could not fill within its bound.
_MANY_SMALL_HANDS = attrs.evolve(
    STANDARD,
    engine_placement=EnginePlacement.HOLDER,
    first_turn=FirstTurn(chain=False, may_draw=False),
    mexican_train=MexicanAfterAllTrains(),
    open_doubles=CloseInOrder(),
    max_pip=7,
    hand_size=2,
    must_play=False,
    double_blank_score=30,
    rounds=1,
    ascending=True,
    draw_until_playable=True,
)


@settings(max_examples=25, deadline=None)
@given(variant_tables(max_pip=9, max_rounds=1), st.integers(0, 2**32), hidden_shuffles())
@example(table=(_MANY_SMALL_HANDS, 13), seed=44, rng=random.Random(76567))
def test_s5_p7_determinize_with_history_keeps_the_view_and_the_facts(
    table: tuple[Rules, int], seed: int, rng: random.Random
) -> None:
    """The view is kept; no seat holds a tile it could have played when it passed.

    The real hands always fit the facts (they are facts), and so does every sample.
    """
    rules, players = table
    for state, events in _round_with_events(rules, players, seed, 200)[1:]:
        for seat in range(players):
            mine = view(state, seat)
            history = redact_events(events, seat)
            forbidden = _forbidden(mine, history)
            for other, tiles in forbidden.items():
                assert not tiles & set(state.hand(other))
            world = determinize(mine, rng, history=history)
            assert view(world, seat) == mine
            for other, tiles in forbidden.items():
                assert not tiles & set(world.hand(other))


@settings(max_examples=10, deadline=None)
@given(variant_tables(max_pip=9, max_rounds=2), st.integers(0, 2**32), st.integers(0, 2**32))
def test_worlds_are_the_states_determinize_gives_one_call_after_another(
    table: tuple[Rules, int], seed: int, draw: int
) -> None:
    """`worlds` is a faster `determinize`: the same states, the generator advanced alike
    (but where the fitting deals are too many to count, and the chain continues)."""
    rules, players = table
    for state, events in _round_with_events(rules, players, seed, 200)[::7]:
        seat = state.current_player if state.current_player is not None else 0
        mine = view(state, seat)
        for history in (None, redact_events(events, seat)):
            calls = random.Random(draw)
            expected = [determinize(mine, calls, history) for _ in range(4)]
            sampled = random.Random(draw)
            with mock.patch.object(
                _determinize, "_chain_deal", wraps=_determinize._chain_deal
            ) as chain:
                got = list(itertools.islice(_determinize.worlds(mine, sampled, history), 4))
            if chain.called:
                # Too many deals to count: the later worlds continue the chain.
                assert got[0] == expected[0]
                continue
            assert got == expected
            assert sampled.random() == calls.random()


def test_p7_a_pass_tells_something_in_an_ordinary_round() -> None:
    """The facts are not vacuous: random play passes, and the passes rule tiles out."""
    told = 0
    for state, events in _round_with_events(HUB, 4, 5, 300):
        for seat in range(4):
            told += sum(
                map(len, _forbidden(view(state, seat), redact_events(events, seat)).values())
            )
    assert told > 0


def test_determinize_with_no_pass_in_the_history_is_the_sampler_without_one() -> None:
    state, events = _round_with_events(HUB, 4, 3, 3)[-1]
    mine = view(state, 0)
    history = redact_events(events, 0)
    assert not _forbidden(mine, history)
    assert determinize(mine, random.Random(4), history=history) == determinize(
        mine, random.Random(4)
    )
    assert determinize(mine, random.Random(4), history=None) == determinize(mine, random.Random(4))


def test_determinize_refuses_a_history_of_the_wrong_kind_or_another_game() -> None:
    mine = view(_round_with_events(HUB, 4, 3, 12)[-1][0], 0)
    with pytest.raises(TypeError, match="events"):
        determinize(mine, random.Random(1), history=[Pass()])  # type: ignore[list-item]
    # Seat 1 passed, then a tile the table does not show was played.
    made_up = (Passed(1), TilePlayed(2, Tile(5, 5), 2, 5), TurnStarted(3))
    with pytest.raises(InvalidArgumentError, match="history") as refused:
        determinize(view(new_game(4, HUB, seed=3), 0), random.Random(1), history=made_up)
    assert "is not the last tile of seat 2's train" in str(refused.value)
    # The Mexican train is named as players call it, not by its id.
    on_mexican = (Passed(1), TilePlayed(2, Tile(5, 5), MEXICAN, 5), TurnStarted(3))
    with pytest.raises(InvalidArgumentError, match="5-5 is not the last tile of the Mexican train"):
        determinize(view(new_game(4, HUB, seed=3), 0), random.Random(1), history=on_mexican)


def _fitting_deals(
    facts: dict[int, int], unseen: list[Tile], sizes: dict[int, int]
) -> list[tuple[tuple[Tile, ...], ...]]:
    seats = sorted(facts)
    deals = []

    def go(k: int, left: list[int], taken: tuple[tuple[Tile, ...], ...]) -> None:
        if k == len(seats):
            deals.append(taken)
            return
        for combo in itertools.combinations(left, sizes[seats[k]]):
            if not any(facts[seats[k]] >> p & 1 for p in combo):
                rest = [p for p in left if p not in combo]
                go(k + 1, rest, (*taken, tuple(unseen[p] for p in combo)))

    go(0, list(range(len(unseen))), ())
    return deals


@pytest.mark.parametrize("tries", [16, 0])
def test_s5_the_deals_that_fit_are_drawn_uniformly_chi_square(
    tries: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every deal that fits the facts comes up as often (alpha = 1e-4), both ways.

    Eight unseen tiles, two seats of two tiles that passed, with overlapping tiles
    they cannot hold: the deals that fit are enumerated, and 6,000 samples counted,
    by rejection (16 tries) and by the exact sampler alone (0 tries).
    """
    monkeypatch.setattr(_determinize, "_REJECTION_TRIES", tries)
    unseen = sorted(full_set(3))[:8]
    facts = {1: 0b00001111, 3: 0b00111100}
    sizes = {1: 2, 3: 2}
    deals = _fitting_deals(facts, unseen, sizes)
    assert 5 < len(deals) < 40
    rng = random.Random(20261203)
    samples = 6000
    counts: Counter[tuple[tuple[Tile, ...], ...]] = Counter()
    for _ in range(samples):
        hands = _determinize._deal_fitting(facts, unseen, sizes, rng)
        counts[tuple(tuple(sorted(hands[s])) for s in sorted(facts))] += 1
    keyed = {tuple(tuple(sorted(hand)) for hand in deal) for deal in deals}
    assert set(counts) <= keyed
    expected = samples / len(keyed)
    statistic = sum((counts[deal] - expected) ** 2 / expected for deal in keyed)
    dof = len(keyed) - 1
    # Wilson-Hilferty is rough below 30 degrees of freedom; 3.719 plus a margin.
    assert statistic < _chi_square_critical(dof, 4.2)


def test_s5_the_exact_sampler_counts_the_deals_that_fit_once_for_every_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every sample of one decision deals the same classes of tiles: their count, which
    takes long with many seats that passed, is made for the first sample only."""
    monkeypatch.setattr(_determinize, "_REJECTION_TRIES", 0)
    unseen = sorted(full_set(3))[:8]
    facts = {1: 0b00001111, 3: 0b00111100}
    _determinize._fitting_splits.cache_clear()
    rng = random.Random(1)
    for _ in range(50):
        _determinize._deal_fitting(facts, unseen, {1: 2, 3: 2}, rng)
    counted = _determinize._fitting_splits.cache_info()
    assert (counted.misses, counted.hits) == (1, 49)


def test_s5_no_deal_fits_facts_that_leave_a_seat_too_few_tiles() -> None:
    unseen = sorted(full_set(3))[:4]
    with pytest.raises(InvalidArgumentError, match="history"):
        _determinize._deal_fitting({1: 0b0111}, unseen, {1: 2}, random.Random(1))


# -- the chain: deals too many to count ------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(fitting_facts(), st.integers(0, 2**32))
def test_s5_p7_the_chains_deals_always_fit_the_facts(
    case: tuple[dict[int, int], list[Tile], dict[int, int]], seed: int
) -> None:
    """With the exact sampler's budget at nothing, every deal comes from the chain: each
    seat gets its size in tiles, no tile twice, and none its facts rule out."""
    facts, unseen, sizes = case
    rng = random.Random(seed)
    chain: list[list[int]] = []
    for _ in range(5):
        hands = _determinize._deal_fitting(facts, unseen, sizes, rng, chain, budget=0)
        dealt = [tile for tiles in hands.values() for tile in tiles]
        assert len(dealt) == len(set(dealt))
        assert set(dealt) <= set(unseen)
        for seat, tiles in hands.items():
            assert len(tiles) == sizes[seat]
            assert not any(facts[seat] >> unseen.index(tile) & 1 for tile in tiles)


@pytest.mark.parametrize("seed", range(3))
def test_s5_p7_determinize_keeps_the_view_and_the_facts_when_the_chain_deals(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight players at random, every deal by the chain: the view and the facts are kept,
    by `determinize` and by the worlds that continue the chain."""
    monkeypatch.setattr(_determinize, "_REJECTION_TRIES", 0)
    monkeypatch.setattr(_determinize, "_EXACT_SPLITS", 0)
    rng = random.Random(seed)
    told = 0
    for state, events in _round_with_events(STANDARD, 8, seed, 300)[::6]:
        seat = state.current_player if state.current_player is not None else 0
        mine = view(state, seat)
        history = redact_events(events, seat)
        forbidden = _forbidden(mine, history)
        told += bool(forbidden)
        sampled = [determinize(mine, rng, history)]
        sampled += itertools.islice(_determinize.worlds(mine, rng, history), 3)
        for world in sampled:
            assert view(world, seat) == mine
            for other, tiles in forbidden.items():
                assert not tiles & set(world.hand(other))
    assert told


def test_s5_the_chain_deals_close_to_uniformly() -> None:
    """The chain's deals are spread among the fitting deals close to uniformly: which seat
    holds each tile, over 3,000 deals, is within 0.05 (total variation, per tile held)
    of the exact spread, computed from every fitting deal -- for fresh chains, as
    `determinize` runs them, and for one chain continued, as `worlds` does."""
    unseen = sorted(full_set(4))[:12]
    facts = {1: 0b000000001111, 2: 0b000011110000, 3: 0b001100110011}
    sizes = {1: 3, 2: 3, 3: 2}
    deals = _fitting_deals(facts, unseen, sizes)
    exact: Counter[tuple[int, Tile]] = Counter()
    for deal in deals:
        for seat, hand in zip(sorted(facts), deal, strict=True):
            exact.update((seat, tile) for tile in hand)
    held = sum(sizes.values())
    for continued in (False, True):
        rng = random.Random(20261205)
        samples = 3000
        chain: list[list[int]] = []
        counts: Counter[tuple[int, Tile]] = Counter()
        for _ in range(samples):
            hands = _determinize._deal_fitting(
                facts, unseen, sizes, rng, chain if continued else [], budget=0
            )
            counts.update((seat, tile) for seat, tiles in hands.items() for tile in tiles)
        distance = sum(
            abs(counts[key] / samples - exact[key] / len(deals)) for key in exact.keys() | counts
        ) / (2 * held)
        assert distance < 0.05


def test_s5_the_chain_gives_the_same_worlds_for_the_same_generator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_determinize, "_EXACT_SPLITS", 0)
    monkeypatch.setattr(_determinize, "_REJECTION_TRIES", 0)
    mine, history = next(
        (view(state, 0), redact_events(events, 0))
        for state, events in _round_with_events(STANDARD, 8, 3, 300)
        if state.current_player is not None
        and len(_forbidden(view(state, 0), redact_events(events, 0))) > 1
    )
    assert determinize(mine, random.Random(9), history) == determinize(
        mine, random.Random(9), history
    )
    first = list(itertools.islice(_determinize.worlds(mine, random.Random(9), history), 5))
    again = list(itertools.islice(_determinize.worlds(mine, random.Random(9), history), 5))
    assert first == again


def test_s5_the_chain_finds_no_deal_where_none_fits() -> None:
    unseen = sorted(full_set(3))[:4]
    with pytest.raises(InvalidArgumentError, match="history"):
        _determinize._deal_fitting({1: 0b0111}, unseen, {1: 2}, random.Random(1), [], budget=0)


def test_s5_the_exact_sampler_is_given_up_once_a_decision_over_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Over the budget, the count is given up once, and the chain deals every sample."""
    monkeypatch.setattr(_determinize, "_REJECTION_TRIES", 0)
    unseen = sorted(full_set(3))[:8]
    facts = {1: 0b00001111, 3: 0b00111100}
    _determinize._fitting_splits.cache_clear()
    rng = random.Random(1)
    chain: list[list[int]] = []
    with mock.patch.object(_determinize, "_chain_deal", wraps=_determinize._chain_deal) as dealt:
        for _ in range(20):
            _determinize._deal_fitting(facts, unseen, {1: 2, 3: 2}, rng, chain, budget=3)
    counted = _determinize._fitting_splits.cache_info()
    assert (counted.misses, counted.hits, dealt.call_count) == (1, 19, 20)


_OWN_TRAIN_FIRST = attrs.evolve(HUB, mexican_train=MexicanAfterOwnTrain())


@pytest.mark.parametrize("rules", [STANDARD, _OWN_TRAIN_FIRST], ids=["STANDARD", "own-first"])
@pytest.mark.parametrize("seed", range(6))
def test_p4_p7_the_facts_of_first_turn_passes_fit_the_real_hands(rules: Rules, seed: int) -> None:
    """The facts are undone to the table as it was at the pass, first turn and all.

    STANDARD's first turn (P4): a seat plays only on its own train, may chain tiles
    and then pass, and passes without drawing when it cannot start its train; such a
    pass tells only what the first turn allowed, and a pass after playing tells
    nothing.  Under V2's Mexican train after one's own train, what a pass tells
    depends on whether the seat had played on its own train then.  The real hands are
    facts, so they always fit what is inferred."""
    told = 0
    for state, events in _round_with_events(rules, 4, seed, 60):
        for seat in range(4):
            forbidden = _forbidden(view(state, seat), redact_events(events, seat))
            for other, tiles in forbidden.items():
                assert not tiles & set(state.hand(other)), (other, tiles & set(state.hand(other)))
            told += sum(map(len, forbidden.values()))
    assert told > 0


def _second_round_with_events(
    rules: Rules, players: int, seed: int, moves: int
) -> list[tuple[GameState, tuple[Event, ...]]]:
    """Each state of a random second round, with the events since its `RoundStarted`."""
    first = _round_with_events(rules, players, seed, 10_000)[-1][0]
    state, started = apply_with_events(first, legal_moves(first)[0])  # NextRound
    assert type(started[0]) is RoundStarted
    return _played_on(state, started[1:], random.Random(seed), moves)


@pytest.mark.parametrize(
    "rules", [STANDARD, HUB, _OWN_TRAIN_FIRST], ids=["STANDARD", "HUB", "own-first"]
)
@pytest.mark.parametrize("round_begun", [False, True], ids=["first-round", "second-round"])
@pytest.mark.parametrize("seed", range(4))
def test_p4_d3_v2_the_table_at_a_pass_is_undone_exactly(
    rules: Rules, round_begun: bool, seed: int
) -> None:
    """What a pass is judged against is the table the seat passed at, undone from a later
    view: the trains, their markers and whether their owners had played on them (V2), the
    open doubles in the order they were left (D3), and whether the seat's first turn (P4)
    was behind it.  A game's history begins without a `RoundStarted`, a later round's
    with one, and the first player's first turn is counted either way."""
    rounds = _second_round_with_events if round_begun else _round_with_events
    steps = rounds(rules, 4, seed, 150)
    last, events = steps[-1]
    checked = 0
    for seat in range(4):
        later = view(last, seat)
        history = list(redact_events(events, seat))
        for (before, seen), (_, upto) in itertools.pairwise(steps):
            for index in range(len(seen), len(upto)):
                event = upto[index]
                if type(event) is not Passed or event.seat == seat:
                    continue
                then = _determinize.table_then(later, history, index, event.seat, round_begun)
                real = view(before, event.seat)
                assert then.trains == real.trains, (seat, index)
                assert then.open_doubles == real.open_doubles, (seat, index)
                assert then.had_first_turn[event.seat] == real.had_first_turn[event.seat]
                checked += 1
    assert checked > 0
