"""Scenarios for the catalogue of named variants: each one's difference from STANDARD.

Every scenario deals explicit hands from a double-6 set, plays the same moves
under `STANDARD` and under the variant through `legal_moves` / `apply` only, and
shows where the two part.  Rule ids are those of the docs' rule pages (the V rules for variants).
"""

from __future__ import annotations

import attrs
import pytest

from mexican_train import (
    MEXICAN,
    STANDARD,
    CallLastTile,
    Cover,
    Deal,
    Draw,
    EnginePlacement,
    GameState,
    IllegalMoveError,
    Move,
    Pass,
    Play,
    Rules,
    RulesError,
    Tile,
    Train,
    apply,
    build_state,
    full_set,
    get_variant,
    legal_moves,
    new_game,
    view,
)
from mexican_train.notation import format_state, parse_state
from mexican_train.serialize import state_from_json, to_json
from mexican_train.variants import VARIANTS, combine

M = MEXICAN
PASS = Pass()
DRAW = Draw()
CALL = CallLastTile()


def start(rules: Rules | str, hands: list[str], boneyard: str = "") -> GameState:
    """Return a double-6 game dealing *hands*; the boneyard is *boneyard*, then the rest."""
    if isinstance(rules, str):
        rules = get_variant(rules)
    dealt = [hand.split() for hand in hands]
    rules = attrs.evolve(rules, max_pip=6, hand_size=len(dealt[0]))
    front = [Tile.parse(t) for t in boneyard.split()]
    used = {Tile.parse(t) for hand in dealt for t in hand} | set(front)
    set_aside = rules.engine_placement is EnginePlacement.SET_ASIDE  # S4: 6-6 is not dealt
    rest = [t for t in full_set(6) if t not in used and not (set_aside and t == Tile(6, 6))]
    return new_game(len(hands), rules, seed=1, deal=Deal(dealt, [*front, *rest]))


def on(tile: str, train: int) -> Play:
    return Play(Tile.parse(tile), train)


def run(state: GameState, *moves: Move) -> GameState:
    for move in moves:
        assert move in legal_moves(state), f"{move!r} not in {legal_moves(state)!r}"
        state = apply(state, move)
    return state


def both(name: str, hands: list[str], *moves: Move, boneyard: str = "") -> tuple[GameState, ...]:
    """Return the position after *moves* under STANDARD and under the variant *name*."""
    return tuple(run(start(rules, hands, boneyard), *moves) for rules in ("standard", name))


# -- open doubles (D2-D4, V3, V4) ---------------------------------------------------

# Seat 0 ends its third turn with two open doubles: 5-5 on its own train, then
# 3-3 on the Mexican train, and a drawn 1-1 that fits nowhere (D1, D2).
TWO_OPEN = ["6-6 6-5 5-5 6-3 3-3 1-0", "6-4 4-2 5-2 3-1 2-0 0-0"]
TWO_OPEN_MOVES = (
    on("6-5", 0), PASS, on("6-4", 1), PASS,  # first turns (P4)
    on("6-3", M), on("4-2", 1),
    on("5-5", 0), on("3-3", M), DRAW, PASS,
)  # fmt: skip


def test_v3_reverse_doubles_closes_the_most_recent_double_first() -> None:
    """V3 (Rulebook B's variation): two open doubles; reverse order binds the later one."""
    standard, reverse = both("reverse-doubles", TWO_OPEN, *TWO_OPEN_MOVES, boneyard="1-1")
    assert standard.open_doubles == reverse.open_doubles == (0, M)
    assert legal_moves(standard) == (on("5-2", 0),)
    assert legal_moves(reverse) == (on("3-1", M),)


def test_hub_reverse_is_hub_with_reverse_order() -> None:
    """V3: "hub-reverse" is Rulebook B with its own variation: the later double binds first."""
    hands = ["6-5 5-5 6-3 3-3 1-0", "6-4 4-2 5-2 3-1 2-0"]  # 6-6 is set aside (S4)
    moves = (
        on("6-5", 0), on("6-4", 1), on("6-3", M), on("4-2", 1),
        on("5-5", 0), on("3-3", M), DRAW, PASS,
    )  # fmt: skip
    hub, reverse = (run(start(name, hands, "1-1"), *moves) for name in ("hub", "hub-reverse"))
    assert hub.open_doubles == reverse.open_doubles == (0, M)
    assert legal_moves(hub) == (on("5-2", 0),)
    assert legal_moves(reverse) == (on("3-1", M),)
    assert get_variant("hub-reverse") == attrs.evolve(
        get_variant("hub"), open_doubles=get_variant("reverse-doubles").open_doubles
    )


def test_v3_any_double_lets_the_player_close_either_open_double() -> None:
    """V3 "any one per turn": either open double may be covered, but one must be."""
    standard, any_double = both("any-double", TWO_OPEN, *TWO_OPEN_MOVES, boneyard="1-1")
    assert legal_moves(standard) == (on("5-2", 0),)
    assert legal_moves(any_double) == (on("3-1", M), on("5-2", 0))


def test_v3_doubles_never_bind_leaves_play_free() -> None:
    """V3 "doubles never bind": the open doubles restrict nobody (no D2 obligation)."""
    standard, free = both("doubles-never-bind", TWO_OPEN, *TWO_OPEN_MOVES, boneyard="1-1")
    assert on("2-0", 1) not in legal_moves(standard)
    # Own train (end 2), seat 0's marked train (5-5) and the Mexican train (3-3).
    assert legal_moves(free) == (on("2-0", 1), on("3-1", M), on("5-2", 0), on("5-2", 1))


def test_v3_doubles_never_bind_still_asks_to_follow_a_double() -> None:
    """D1 holds under "doubles never bind": the player who lays a double plays again."""
    state = run(start("doubles-never-bind", TWO_OPEN), *TWO_OPEN_MOVES[:6], on("5-5", 0))
    assert state.current_player == 0
    assert legal_moves(state) == (on("3-3", M),)


# Seat 0 lays 5-5 on its own train in its third turn, holding 3-3, 3-0 and 5-1:
# the Mexican train ends in 3.
FOLLOW = ["6-6 6-5 5-5 6-3 3-3 3-0 5-1", "6-4 4-2 2-2 1-1 0-0 2-0 4-0"]
FOLLOW_MOVES = (
    on("6-5", 0), PASS, on("6-4", 1), PASS, on("6-3", M), on("4-2", 1), on("5-5", 0)
)  # fmt: skip


def test_d1_cover_own_double_makes_the_next_tile_go_on_the_double() -> None:
    """D1 "cover-own-double": the next tile goes on the double; STANDARD lets it go elsewhere."""
    standard, own = both("cover-own-double", FOLLOW, *FOLLOW_MOVES)
    assert legal_moves(standard) == (on("3-0", M), on("3-3", M), on("5-1", 0))
    assert legal_moves(own) == (on("5-1", 0),)


def test_d1_cover_own_double_draws_then_leaves_the_double_open() -> None:
    """Under "cover-own-double" a player who cannot cover draws once, then the double binds all."""
    hands = ["6-6 6-5 5-5 6-3 3-3 3-0 1-0", "6-4 4-2 2-2 1-1 0-0 2-0 5-4"]
    own = run(start("cover-own-double", hands, boneyard="2-1"), *FOLLOW_MOVES)
    assert legal_moves(own) == (DRAW,)
    own = run(own, DRAW, PASS)
    assert own.open_doubles == (0,)
    assert own.current_player == 1
    assert legal_moves(own) == (on("5-4", 0),)


def test_d3_strict_order_allows_doubles_then_the_first_double() -> None:
    """D3's stronger reading: after a double, more doubles anywhere, other tiles on the first."""
    standard, strict = both("strict-double-order", FOLLOW, *FOLLOW_MOVES)
    assert on("3-0", M) in legal_moves(standard)
    assert legal_moves(strict) == (on("3-3", M), on("5-1", 0))
    strict = run(strict, on("3-3", M))
    assert legal_moves(strict) == (on("5-1", 0),)
    strict = run(strict, on("5-1", 0))
    assert strict.open_doubles == (M,)  # D2: the second double is left open


def test_v3_reverse_strict_order_puts_the_next_tile_on_the_latest_double() -> None:
    """V3 with D3's stronger reading (strict-double-order + reverse-doubles): after two
    doubles, the first other tile goes on the most recent double, and nowhere else."""
    rules = combine("standard", "strict-double-order", "reverse-doubles")
    strict, reverse = (
        run(start(r, FOLLOW), *FOLLOW_MOVES, on("3-3", M)) for r in ("strict-double-order", rules)
    )
    assert legal_moves(strict) == (on("5-1", 0),)
    assert legal_moves(reverse) == (on("3-0", M),)
    reverse = run(reverse, on("3-0", M))
    assert reverse.open_doubles == (0,)  # D2: the first double is left open


def test_d3_strict_order_refuses_a_tile_elsewhere_and_says_why() -> None:
    """D3's stronger reading: a non-double off the first double is refused, naming the
    follow-up's rules (D1/D3) and the double it must go on."""
    strict = run(start("strict-double-order", FOLLOW), *FOLLOW_MOVES)
    with pytest.raises(IllegalMoveError) as info:
        apply(strict, on("3-0", M))
    assert info.value.reason.startswith(
        "D1/D3: the tile that follows this turn's doubles goes on the double on seat 0's train"
    )


# Seat 0 lays 5-5 after seat 1 has played every other tile of suit 5: a dead double (D4).
DEAD = ["6-6 6-5 5-5 3-3 2-2 1-1 0-0 3-2 2-1", "6-4 4-5 5-3 3-1 1-5 5-2 2-0 0-5 6-3"]
DEAD_MOVES = (
    on("6-5", 0), PASS,
    on("6-4", 1), on("5-4", 1), on("5-3", 1), on("3-1", 1), on("5-1", 1), on("5-2", 1),
    on("2-0", 1), on("5-0", 1),
    on("5-5", 0), DRAW, PASS,
)  # fmt: skip


def test_v4_dead_doubles_bind_when_release_is_off() -> None:
    """V4: a double nothing can cover binds under "dead-doubles-bind", not under STANDARD (D4)."""
    standard, dead = both("dead-doubles-bind", DEAD, *DEAD_MOVES, boneyard="4-3")
    assert standard.open_doubles == dead.open_doubles == (0,)
    assert legal_moves(standard) == (on("6-3", M),)
    assert legal_moves(dead) == (DRAW,)


def test_v4_any_double_releases_a_dead_double_unless_dead_doubles_bind() -> None:
    """D4/V4 under "any-double" (V3): a dead double binds nobody, so play is free; with
    "dead-doubles-bind" too, it binds and the player can only draw."""
    any_double, dead = (
        run(start(rules, DEAD, "4-3"), *DEAD_MOVES)
        for rules in (
            get_variant("any-double"),
            combine("standard", "any-double", "dead-doubles-bind"),
        )
    )
    assert any_double.open_doubles == dead.open_doubles == (0,)
    assert legal_moves(any_double) == (on("6-3", M),)
    assert legal_moves(dead) == (DRAW,)


# -- the Mexican train (V2) -----------------------------------------------------------

# Seat 1 holds no 6, so it cannot start its train on its first turn (P4).
UNSTARTED = ["6-6 6-5 6-3 5-4 0-0", "3-1 2-1 1-0 2-2 4-4"]


def test_v2_train_dominoes_has_no_mexican_train() -> None:
    """V2 disabled: nobody ever plays on the Mexican train ("Train Dominoes")."""
    standard, plain = both("train-dominoes", UNSTARTED, on("6-5", 0), PASS, PASS)
    assert on("6-3", M) in legal_moves(standard)
    assert legal_moves(plain) == (on("5-4", 0), on("6-3", 1))
    with pytest.raises(IllegalMoveError) as info:
        apply(plain, on("6-3", M))
    assert info.value.reason == "V2: the Mexican train is not open to seat 0"  # it never opens


def test_v2_mexican_after_own_train_waits_for_the_players_own_train() -> None:
    """V2: seat 1 has not started its train, so the Mexican train stays shut to it."""
    moves = (on("6-5", 0), PASS, PASS, on("6-3", M))
    standard, after_own = both("mexican-after-own-train", UNSTARTED, *moves)
    assert legal_moves(standard) == (on("3-1", M),)
    assert legal_moves(after_own) == (DRAW,)


def test_v2_mexican_after_all_trains_waits_for_every_train() -> None:
    """V2: seat 1's train is not started, so nobody may use the Mexican train yet."""
    standard, after_all = both("mexican-after-all-trains", UNSTARTED, on("6-5", 0), PASS, PASS)
    assert legal_moves(standard) == (on("5-4", 0), on("6-3", 1), on("6-3", M))
    assert legal_moves(after_all) == (on("5-4", 0), on("6-3", 1))


# -- the first turn (V1) --------------------------------------------------------------


def test_v1_single_tile_first_turn_ends_after_one_tile() -> None:
    """V1: STANDARD's first turn goes on while a tile fits (P4); the variant stops at one."""
    standard, single = both("single-tile-first-turn", UNSTARTED, on("6-5", 0))
    assert standard.current_player == 0
    assert legal_moves(standard) == (on("5-4", 0), PASS)
    assert single.current_player == 1


def test_v1_first_turn_draw_lets_a_player_who_cannot_start_draw() -> None:
    """V1: P4 says never draw on the first turn; "first-turn-draw" draws one tile."""
    standard, draw = both("first-turn-draw", UNSTARTED, on("6-5", 0), PASS, boneyard="6-2")
    assert legal_moves(standard) == (PASS,)
    assert legal_moves(draw) == (DRAW,)
    assert legal_moves(run(draw, DRAW)) == (on("6-2", 1),)


@pytest.mark.parametrize("house", [("first-turn-draw",), ("first-turn-draw", "voluntary-draw")])
def test_p4_first_turn_draw_refuses_a_draw_in_the_chain_citing_p4(house: tuple[str, ...]) -> None:
    """P4 ("first-turn-draw", V1; with V6 too): the first turn draws only before its first
    tile; once the chain has begun, a draw is refused for P4, the boneyard still full."""
    state = run(start(combine("standard", *house), UNSTARTED), on("6-5", 0))
    assert state.current_player == 0
    assert state.boneyard_size > 0
    assert DRAW not in legal_moves(state)
    with pytest.raises(IllegalMoveError) as info:
        apply(state, DRAW)
    assert info.value.reason.startswith("P4: "), info.value.reason


def test_p4_first_turn_draw_refuses_a_second_draw_citing_p4() -> None:
    """P4 ("first-turn-draw", V1): a player who cannot start their train draws one tile;
    when it does not fit either, a second draw is refused for the first turn's rule, P4."""
    draw = run(start("first-turn-draw", UNSTARTED, "3-0 6-2"), on("6-5", 0), PASS, DRAW)
    assert legal_moves(draw) == (PASS,)
    with pytest.raises(IllegalMoveError) as info:
        apply(draw, DRAW)
    assert info.value.reason == "P4: only one draw is allowed here, and it has been taken"


# -- drawing (P5, P7, V6) ---------------------------------------------------------------


def test_p5_draw_until_playable_draws_again_after_a_useless_tile() -> None:
    """P5: STANDARD draws once and passes; "draw-until-playable" draws until a tile fits."""
    moves = (on("6-5", 0), PASS, PASS, on("5-4", 0), DRAW)
    standard, until = both("draw-until-playable", UNSTARTED, *moves, boneyard="3-0 2-0 6-1")
    assert legal_moves(standard) == (PASS,)
    assert legal_moves(until) == (DRAW,)
    until = run(until, DRAW)
    assert legal_moves(until) == (DRAW,)
    until = run(until, DRAW)
    assert legal_moves(until) == (on("6-1", 1), on("6-1", M))


def test_d1_draw_until_playable_draws_until_the_double_can_be_followed() -> None:
    """D1 under "draw-until-playable": a player who cannot follow their double draws until
    a tile follows it (STANDARD: one draw, then a marker)."""
    hands = ["6-6 6-5 5-5 0-0 1-1", "3-1 2-1 4-1 4-2 4-3"]
    moves = (on("6-5", 0), PASS, PASS, on("5-5", 0), DRAW)
    standard, until = both("draw-until-playable", hands, *moves, boneyard="3-0 2-0 5-4")
    assert standard.current_player == until.current_player == 0
    assert legal_moves(standard) == (PASS,)
    assert legal_moves(until) == (DRAW,)
    until = run(until, DRAW)
    assert legal_moves(until) == (DRAW,)
    until = run(until, DRAW)
    assert legal_moves(until) == (on("5-4", 0),)


def test_v6_voluntary_draw_offers_a_draw_to_a_player_who_can_play() -> None:
    """V6: P7 makes a player with a play play; "voluntary-draw" may draw, then pass."""
    standard, voluntary = both("voluntary-draw", UNSTARTED, on("6-5", 0), PASS, PASS)
    assert DRAW not in legal_moves(standard)
    assert legal_moves(voluntary)[-1] == DRAW
    voluntary = run(voluntary, DRAW)
    assert legal_moves(voluntary)[-1] == PASS


# -- scoring and winning (E3, E5, V7) ---------------------------------------------------

# Seat 0 goes out on its first turn; seat 1 is left with the double-blank and 4-1.
GOES_OUT = ["6-6 6-5", "0-0 4-1"]


@pytest.mark.parametrize(
    ("name", "points"), [("standard", 55), ("double-blank-0", 5), ("double-blank-25", 30)]
)
def test_v7_the_double_blank_counts_what_the_variant_says(name: str, points: int) -> None:
    """V7 (E3): the double-blank left in a hand counts 50, 0 or 25."""
    state = run(start(name, GOES_OUT), on("6-5", 0), PASS)
    assert state.is_round_over
    assert state.round_scores == ((0, points),)


def test_e5_shared_ties_share_the_win() -> None:
    """E5: level totals go to the most rounds at 0 under STANDARD; "shared-ties" shares them."""
    results = []
    for name in ("standard", "shared-ties"):
        rules = attrs.evolve(get_variant(name), max_pip=6, rounds=2)
        state = new_game(2, rules, seed=3)
        while not state.is_over:
            state = apply(state, legal_moves(state)[0])
        # The same finished game, with seat 0 out in round 1 and both on 10 points.
        tied = state.replace(scores=(10, 10), round_scores=((0, 5), (10, 5)))
        results.append((tied.winners, view(tied, 1).winners))
    assert results == [((0,), (0,)), ((0, 1), (0, 1))]


# -- the last-tile call -----------------------------------------------------------------

# Seat 0 holds 6-5, 5-4 and 1-1 after placing the engine: its first-turn chain
# takes it down to one tile.
LAST = ["6-6 6-5 5-4 1-1", "3-1 2-1 1-0 2-2"]


def test_last_tile_call_is_never_offered_under_standard() -> None:
    """STANDARD has no last-tile call: CallLastTile() is refused and nothing is drawn."""
    state = run(start("standard", LAST), on("6-5", 0))
    assert CALL not in legal_moves(state)
    with pytest.raises(IllegalMoveError, match="last_tile_penalty is 0"):
        apply(state, CALL)
    after = run(state, on("5-4", 0))
    assert after.hand(0) == (Tile(1, 1),)


def test_last_tile_call_is_offered_last_to_a_player_holding_two_tiles() -> None:
    """The call is legal with exactly two tiles in hand, once a turn, after every other move."""
    state = start("last-tile-call", LAST)
    assert CALL not in legal_moves(state)  # three tiles
    state = run(state, on("6-5", 0))
    assert legal_moves(state) == (on("5-4", 0), PASS, CALL)
    assert legal_moves(view(state, 0)) == legal_moves(state)
    called = run(state, CALL)
    assert called.last_tile_called
    assert called.current_player == 0
    assert legal_moves(called) == (on("5-4", 0), PASS)
    with pytest.raises(IllegalMoveError, match="already called"):
        apply(called, CALL)


def test_last_tile_missed_call_draws_two() -> None:
    """A turn that ends with one tile, after a tile played without the call, draws two."""
    state = run(start("last-tile-call", LAST, boneyard="4-4 3-3"), on("6-5", 0), on("5-4", 0))
    assert state.current_player == 1
    assert state.hand(0) == (Tile(1, 1), Tile(3, 3), Tile(4, 4))
    assert state.boneyard_size == 28 - 8 - 2


def test_last_tile_called_in_time_draws_nothing() -> None:
    """Calling before the next-to-last tile keeps the player on one tile."""
    state = run(start("last-tile-call", LAST), on("6-5", 0), CALL, on("5-4", 0))
    assert state.current_player == 1
    assert state.hand(0) == (Tile(1, 1),)
    assert not state.last_tile_called  # the call is for one turn


def test_last_tile_no_penalty_when_the_turn_ends_on_two_tiles() -> None:
    """Stopping the chain on two tiles needs no call: the penalty is for going down to one."""
    state = run(start("last-tile-call", LAST), on("6-5", 0), PASS)
    assert state.hand(0) == (Tile(1, 1), Tile(5, 4))


# -- engines, rounds and hands (S2, S5, V9, V10) ------------------------------------


def test_v9_ascending_starts_from_the_double_blank() -> None:
    """V9 (S2): STANDARD's first engine is N-N; "ascending" starts from 0-0 and goes up."""
    standard = new_game(2, attrs.evolve(STANDARD, max_pip=6), seed=5)
    ascending = new_game(2, attrs.evolve(get_variant("ascending"), max_pip=6), seed=5)
    assert (standard.engine, ascending.engine) == (Tile(6, 6), Tile(0, 0))
    while ascending.round_number == 1:
        ascending = apply(ascending, legal_moves(ascending)[0])
    assert ascending.engine == Tile(1, 1)


def test_v9_short_game_ends_after_three_rounds() -> None:
    """V9: "short-game" plays three rounds, with the three highest engines, not N+1."""
    state = new_game(2, attrs.evolve(get_variant("short-game"), max_pip=6), seed=5)
    engines = [state.engine]
    while not state.is_over:
        state = apply(state, legal_moves(state)[0])
        if state.engine != engines[-1]:
            engines.append(state.engine)
    assert (state.rounds, len(state.round_scores)) == (3, 3)
    assert engines == [Tile(6, 6), Tile(5, 5), Tile(4, 4)]


def test_v10_open_hands_shows_every_hand_in_a_view() -> None:
    """V10 (S5): a view under "open-hands" shows every hand; STANDARD shows only one's own."""
    standard = start("standard", UNSTARTED)
    open_hands = start("open-hands", UNSTARTED)
    assert view(standard, 1).open_hands is None
    assert view(open_hands, 1).open_hands == open_hands.hands


# -- the catalogue as a whole ----------------------------------------------------------


def test_every_catalogue_entry_differs_from_standard_in_exactly_one_field() -> None:
    """V: each catalogue entry is STANDARD or HUB with one rule point changed."""
    for name, rules in VARIANTS.items():
        base = get_variant("hub") if name.startswith("hub") else STANDARD
        changed = [
            field.name
            for field in attrs.fields(Rules)
            if getattr(rules, field.name) != getattr(base, field.name)
        ]
        assert len(changed) == (0 if name in ("standard", "hub") else 1), (name, changed)


# -- bad pluggable rules: refused when the move is computed or applied --------------------


@attrs.frozen
class CoverTrainSeven:
    """Breaks the protocol: names a train that has no open double (there is no train 7)."""

    def obligation(self, doubles: tuple[object, ...]) -> Cover:
        return Cover((7,), only=True)

    def follow_up(self, doubles: tuple[object, ...]) -> Cover:
        return Cover((7,), only=False)


@attrs.frozen
class MaybeOpen:
    """Breaks the protocol: answers with something that is not a bool."""

    answer: object = None

    def is_open(self, table: object, seat: int) -> bool:
        return self.answer  # type: ignore[return-value]


def test_an_open_double_rule_naming_a_train_that_does_not_exist_is_refused() -> None:
    """D2: a Cover may only name trains that end in one of the doubles it was shown."""
    rules = attrs.evolve(STANDARD, open_doubles=CoverTrainSeven())
    state = run(start(rules, FOLLOW), *FOLLOW_MOVES[:6])
    played = apply(state, on("5-5", 0))  # the follow-up asks the rule (D1)
    with pytest.raises(
        RulesError,
        match=r"CoverTrainSeven\(\)\.follow_up\(\) was asked .* returned Cover\(trains=\(7,\)",
    ):
        legal_moves(played)
    with pytest.raises(RulesError):
        apply(played, on("5-1", 0))


@pytest.mark.parametrize("answer", [None, 1, "yes"])
def test_a_mexican_train_rule_that_does_not_answer_a_bool_is_refused(answer: object) -> None:
    """V2: is_open() must say True or False; anything else names the rule and the value."""
    rules = attrs.evolve(STANDARD, mexican_train=MaybeOpen(answer))
    state = run(start(rules, UNSTARTED), on("6-5", 0), PASS, PASS)  # first turns don't ask
    with pytest.raises(RulesError, match=rf"MaybeOpen\(answer={answer!r}\)\.is_open\(\) returned"):
        legal_moves(state)


# -- the rulebooks' literal readings (S2, P6) ---------------------------------------


THIRTEEN = get_variant("thirteen-rounds")


@pytest.mark.parametrize("max_pip", [12, 15, 18])
def test_s2_thirteen_rounds_starts_from_the_12_12_whatever_the_set(max_pip: int) -> None:
    """S2 (Rulebook A literally): round 1's engine is 12-12 and the game has 13 rounds,
    on a double-12 set as on a double-15 or -18 one (STANDARD: N-N and N+1 rounds)."""
    rules = attrs.evolve(THIRTEEN, max_pip=max_pip, hand_size=5)
    state = new_game(2, rules, seed=4)
    assert (state.engine, state.rounds) == (Tile(12, 12), 13)
    standard = new_game(2, attrs.evolve(STANDARD, max_pip=max_pip, hand_size=5), seed=4)
    assert (standard.engine, standard.rounds) == (Tile(max_pip, max_pip), max_pip + 1)


def test_s2_thirteen_rounds_deals_the_whole_set_and_its_holder_places_the_12_12() -> None:
    """S2, S3: on a double-15 set the higher doubles are ordinary tiles; the 12-12's holder
    places it and plays first."""
    hands = [["15-15", "14-14", "13-13", "12-0"], ["12-12", "12-5", "5-5", "9-2", "3-1"]]
    dealt = {Tile.parse(t) for hand in hands for t in hand}
    rest = [t for t in full_set(15) if t not in dealt]
    rules = attrs.evolve(THIRTEEN, max_pip=15, hand_size=4)
    hands[1].remove("3-1")  # S3: the holder's hand is the others' plus the engine
    state = new_game(2, rules, seed=1, deal=Deal(hands, rest + [Tile(3, 1)]))
    assert state.engine == Tile(12, 12)
    assert state.current_player == state.first_player == 1
    assert Tile(15, 15) in state.hand(0)
    assert legal_moves(state) == (on("12-5", 1),)  # P4: the 12-12 is the engine to match


def test_s2_thirteen_rounds_goes_down_to_the_double_blank() -> None:
    """S2: the engines go 12-12, 11-11, ... 0-0 and the game is over after the 13th round."""
    state = new_game(2, attrs.evolve(THIRTEEN, max_pip=15, hand_size=3), seed=2)
    engines = [state.engine]
    while not state.is_over:
        state = apply(state, legal_moves(state)[0])
        if state.engine != engines[-1]:
            engines.append(state.engine)
    assert engines == [Tile(n, n) for n in range(12, -1, -1)]
    assert len(state.round_scores) == 13


def test_s2_thirteen_rounds_refuses_a_set_without_the_12_12() -> None:
    """S2: Rulebook A names the 12-12 engine; a set that has none is refused, naming it:
    when the rules are built, when they are combined, and when Table A picks the set."""
    with pytest.raises(RulesError, match=r"a double-9 set has no 12-12 \(S2\)"):
        attrs.evolve(THIRTEEN, max_pip=9)
    with pytest.raises(RulesError, match=r"cannot be played: .*double-6 set has no 12-12"):
        combine(attrs.evolve(STANDARD, max_pip=6), "thirteen-rounds")
    with pytest.raises(RulesError, match=r"double-9 set \(Table A's for 3 players\) has no 12-12"):
        new_game(3, THIRTEEN, seed=1)
    assert new_game(4, THIRTEEN, seed=1).engine == Tile(12, 12)  # Table A: double-12
    assert new_game(2, combine("hub", "thirteen-rounds"), seed=1).engine == Tile(12, 12)


def test_s2_thirteen_rounds_combines_with_the_other_round_variants() -> None:
    """S2, V9: with short-game the three highest of its engines; with ascending 0-0 up to 12-12."""
    short = attrs.evolve(combine("standard", "thirteen-rounds", "short-game"), max_pip=15)
    state = new_game(2, attrs.evolve(short, hand_size=5), seed=1)
    assert (state.engine, state.rounds) == (Tile(12, 12), 3)
    up = attrs.evolve(combine("standard", "thirteen-rounds", "ascending"), max_pip=15, hand_size=5)
    assert (new_game(2, up, seed=1).engine, new_game(2, up, seed=1).rounds) == (Tile(0, 0), 13)
    with pytest.raises(RulesError, match="give only 13 rounds"):
        attrs.evolve(THIRTEEN, rounds=14)


LIFTS = get_variant("marker-lifts-anywhere")


def marked_table(rules: Rules, *, open_double: bool = False) -> GameState:
    """Seat 0 to move, its train marked and holding seat 1's 6-4; the Mexican train 6-3.

    With *open_double* seat 1's own train ends in the open double 2-2 (6-2, 2-2).
    """
    rules = attrs.evolve(rules, max_pip=6, hand_size=5)
    mine = Train((Tile(6, 4),), 4, marked=True, owner_played=False)
    theirs = Train((Tile(6, 2), Tile(2, 2)), 2, owner_played=True) if open_double else None
    trains = [mine, theirs or Train((), 6), Train((Tile(6, 3),), 3)]
    hands = [["3-1", "2-1", "5-5"], ["4-2", "4-1", "0-0"]]
    used = {Tile.parse(t) for hand in hands for t in hand}
    used |= {t for train in trains for t in train.tiles} | {Tile(6, 6)}
    return build_state(
        rules=rules, players=2, seed=0, round_number=1, hands=hands,
        boneyard=[t for t in full_set(6) if t not in used], trains=trains,
        current_player=0, first_player=0, had_first_turn=[True, True],
        open_doubles=[1] if open_double else [],
    )  # fmt: skip


def test_p6_marker_lifts_anywhere_a_tile_on_the_mexican_train_lifts_it() -> None:
    """P6 (Rulebook A's parenthesis literally): the owner's tile on the Mexican train lifts
    the marker, and seat 1's tile on it is then alone on an unmarked train; STANDARD keeps it."""
    lifted = run(marked_table(LIFTS), on("3-1", M))
    kept = run(marked_table(STANDARD), on("3-1", M))
    assert kept.train(0).marked
    assert not lifted.train(0).marked
    assert lifted.train(0) == Train((Tile(6, 4),), 4, marked=False, owner_played=False)
    # Seat 1 may no longer play on seat 0's train: P3, in legal_moves, the view and the reason.
    assert on("4-2", 0) in legal_moves(kept)
    assert on("4-2", 0) not in legal_moves(lifted)
    assert legal_moves(view(lifted, 1)) == legal_moves(lifted)
    assert not view(lifted, 1).train(0).marked
    with pytest.raises(IllegalMoveError) as refused:
        apply(lifted, on("4-2", 0))
    assert refused.value.reason.startswith("P3: seat 0's train belongs to another player")


def test_p6_marker_lifts_anywhere_covering_an_open_double_elsewhere_lifts_it() -> None:
    """P6 with D2: seat 0 must cover seat 1's open double, on seat 1's train; the tile
    that closes it lifts seat 0's marker under the variant, not under STANDARD."""
    for rules, marked in ((STANDARD, True), (LIFTS, False)):
        state = marked_table(rules, open_double=True)
        assert legal_moves(state) == (on("2-1", 1),)  # D2: the open double binds
        state = run(state, on("2-1", 1))
        assert state.train(0).marked is marked
        assert state.open_doubles == ()


def test_p6_marker_lifts_anywhere_leaves_the_first_turn_as_it_is() -> None:
    """P4, P6: a first turn plays only on the own train, so the variant changes nothing
    there; the marker of a first-turn pass goes with the owner's next tile anywhere."""
    hands = ["4-1 3-0 2-0 5-0", "6-6 6-5 6-4 2-1"]
    moves: list[Move] = [on("6-5", 1), PASS, on("6-4", M)]
    kept, lifted = (run(start(rules, hands), *moves) for rules in ("standard", LIFTS))
    assert kept.train(0).marked  # P4: the pass placed it
    assert lifted.train(0).marked
    assert legal_moves(kept) == legal_moves(lifted) == (on("4-1", M),)
    assert run(kept, on("4-1", M)).train(0).marked
    assert not run(lifted, on("4-1", M)).train(0).marked


def test_p6_marker_lifts_anywhere_round_trips_in_notation_and_json() -> None:
    """The new settings are written and read back: the notation by the variant's name, JSON
    field by field; and `repr` names the variant."""
    state = run(marked_table(LIFTS), on("3-1", M))
    assert parse_state(format_state(state)) == state
    assert state_from_json(to_json(state)) == state
    assert format_state(state).startswith("marker-lifts-anywhere(max_pip=6,hand_size=5) ")
    assert "get_variant('thirteen-rounds')" in repr(new_game(4, THIRTEEN, seed=1))
    both = attrs.evolve(STANDARD, highest_engine=11, marker_lifts_anywhere=True)
    state = new_game(5, both, seed=3)
    assert parse_state(format_state(state)) == state
    assert state_from_json(to_json(state)) == state
