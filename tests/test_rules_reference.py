"""A second, independent reading of the turn and round rules, checked against the engine.

The scenario files pin each rule on a hand-made deal; the properties check that
`legal_moves` and `apply` agree with each other.  Neither catches a rule that the
engine reads wrongly everywhere alike.  Here `Reference` reads RULES.md once more,
plainly and slowly: it keeps its own account of a round (the open ends, the markers,
the open doubles in the order played, who has had a first turn, whether a draw is
due, whether the table changed) from the moves alone, and at every step of seeded
random games the engine must offer the moves it allows (P2-P7, D1-D4, V2, V3, V4), show
the table it expects (P1, P2, P6, D2, D3), end the round when it says (E1, E2, P4, D5)
and score it as it does (E3), the totals carried over (E4).  The deal, the draws and
the next round's set-up come from the engine: the rules of setting up are pinned in
test_rules_setup.py.

It reads both presets, the Mexican train from the second turn after an ordinary first
turn, and every house rule of the catalogue that changes a turn: its open-double and
Mexican-train pieces and its switches (as `describe_variant` tells them), alone and
combined, the last-tile call and its penalty included.  The conformance tests compare
the rest, and a user's own rules.
"""

from __future__ import annotations

import random

import attrs
import pytest

from mexican_train import (
    HUB,
    MEXICAN,
    STANDARD,
    CallLastTile,
    CloseInOrder,
    Draw,
    GameState,
    MexicanFromFirstTurn,
    MexicanFromSecondTurn,
    Move,
    NextRound,
    Pass,
    Play,
    Rules,
    Tile,
    apply,
    legal_moves,
    new_game,
)
from mexican_train.variants import (
    CloseAnyOrder,
    CoverOwnDouble,
    MexicanAfterAllTrains,
    MexicanAfterOwnTrain,
    NeverBind,
    NoMexicanTrain,
    StrictCloseInOrder,
    combine,
)

RULE_SETS = {
    "standard": STANDARD,
    "hub": HUB,
    "standard-reverse": attrs.evolve(STANDARD, open_doubles=CloseInOrder(reverse=True)),
    "hub-dead-doubles-bind": attrs.evolve(HUB, open_doubles=CloseInOrder(release_dead=False)),
    # V2 with an ordinary first turn: the Mexican train opens once the seat's first turn is over.
    "hub-mexican-second-turn": attrs.evolve(HUB, mexican_train=MexicanFromSecondTurn()),
    # The house rules that change a turn, as the catalogue describes them.
    **{
        name: combine(*name.split("+"))
        for name in (
            "marker-lifts-anywhere",
            "voluntary-draw",
            "hub+voluntary-draw",
            "voluntary-draw+draw-until-playable",
            "draw-until-playable",
            "hub+draw-until-playable",
            "single-tile-first-turn",
            "first-turn-draw",
            "first-turn-draw+draw-until-playable",
            "any-double",
            "hub+any-double",
            "doubles-never-bind",
            "hub+doubles-never-bind",
            "cover-own-double",
            "hub+cover-own-double",
            "strict-double-order",
            "hub+strict-double-order",
            "hub+reverse-doubles+strict-double-order",
            "hub+dead-doubles-bind+any-double",
            "train-dominoes",
            "mexican-after-own-train",
            "hub+mexican-after-all-trains",
            "last-tile-call",
            "hub+last-tile-call",
        )
    },
}


def _score(hand: tuple[Tile, ...], rules: Rules) -> int:
    # E3: the pips left in hand, the double-blank counting the rules' figure.
    return sum(rules.double_blank_score if t == Tile(0, 0) else t.high + t.low for t in hand)


class Reference:
    """One round as RULES.md tells it, followed move by move."""

    def __init__(self, state: GameState) -> None:
        self.rules = state.rules
        self.players = state.players
        self.max_pip = state.max_pip
        self.seat = state.first_player
        trains = [*range(self.players), MEXICAN]
        # P2: every train starts empty at the engine.
        self.ends = dict.fromkeys(trains, state.engine.high)
        self.table = {state.engine}
        self.marked: set[int] = set()
        self.had_first_turn: set[int] = set()
        self.owner_played: set[int] = set()
        self.open_doubles: list[int] = []  # D3: in the order played
        self.turn_doubles: list[int] = []
        self.turn_tiles = 0
        self.may_draw = True
        self.called = False
        self.changed = False
        self.unchanged: list[bool] = []  # per finished turn (E2)

    def on_first_turn(self) -> bool:
        return self.rules.first_turn is not None and self.seat not in self.had_first_turn

    def is_dead(self, train: int) -> bool:
        # D4: every tile of the double's suit is on the table.
        pip = self.ends[train]
        return all(Tile(max(pip, n), min(pip, n)) in self.table for n in range(self.max_pip + 1))

    def live(self, doubles: list[int]) -> list[int]:
        # D4/V4: a dead double is skipped, unless the rule keeps it binding; in the order
        # the doubles close (D3, or the reverse, V3).
        rule = self.rules.open_doubles
        release = getattr(rule, "release_dead", True)
        ordered = list(reversed(doubles)) if getattr(rule, "reverse", False) else doubles
        return [d for d in ordered if not (release and self.is_dead(d))]

    def bound_to(self) -> set[int]:
        """The trains a double left open by an earlier turn binds the player to (D2, V3)."""
        rule = self.rules.open_doubles
        live = self.live(self.open_doubles)
        if isinstance(rule, NeverBind) or not live:
            return set()  # doubles-never-bind: covered only where one may play anyway
        if isinstance(rule, CloseAnyOrder):
            return set(live)  # any-double: any one of them
        return {live[0]}  # D3: the first in order

    def trains_for(self, tile: Tile, usable: set[int]) -> set[int]:
        """Where *tile* may go this turn, outside a first turn (D1-D3, V3)."""
        bound = self.bound_to()
        if bound:
            return bound  # D2: only on the binding double, wherever it is
        rule = self.rules.open_doubles
        this_turn = self.live(self.turn_doubles)
        if isinstance(rule, (NeverBind, CloseAnyOrder)) or not this_turn:
            return usable  # the follow-up may go on any of this turn's doubles
        first = this_turn[0]
        if isinstance(rule, CoverOwnDouble):
            return {first}  # the next tile covers the player's own double
        if isinstance(rule, StrictCloseInOrder) and not tile.is_double:
            return {first}  # doubles in a row, then the next tile on the first
        # D3: onto this turn's doubles only in order.
        return usable - (set(self.turn_doubles) - {first})

    def mexican_open(self) -> bool:
        # V2: when the Mexican train is open to the player.
        rule = self.rules.mexican_train
        if isinstance(rule, NoMexicanTrain):
            return False
        if isinstance(rule, MexicanAfterOwnTrain):
            return self.seat in self.owner_played
        if isinstance(rule, MexicanAfterAllTrains):
            return len(self.owner_played) == self.players
        if isinstance(rule, MexicanFromSecondTurn):
            return self.seat in self.had_first_turn
        assert isinstance(rule, MexicanFromFirstTurn)
        return True

    def moves(self, hand: tuple[Tile, ...], boneyard: int) -> set[Move]:
        """The moves RULES.md allows the player to move, holding *hand*."""
        moves = self.turn_moves(hand, boneyard)
        if self.rules.last_tile_penalty and len(hand) == 2 and not self.called:
            moves.add(CallLastTile())  # last-tile-call: called while holding two tiles
        return moves

    def turn_moves(self, hand: tuple[Tile, ...], boneyard: int) -> set[Move]:
        rules = self.rules
        if self.on_first_turn():
            # P4: the own train only; Pass stops the chain after a tile, and is the whole
            # turn of a player who cannot start (P7: one who can, must; V6: or may pass).
            # It never draws, unless the rules let a player who cannot start draw first.
            end = self.ends[self.seat]
            plays: set[Move] = {Play(t, self.seat) for t in hand if t.shows(end)}  # P2
            if self.turn_tiles:
                return plays | {Pass()}
            assert rules.first_turn is not None
            if plays and rules.must_play:
                return plays
            if not plays and rules.first_turn.may_draw and self.can_draw(boneyard, plays):
                return {Draw()}
            return plays | {Pass()}
        # P3: the own train, the marked trains, the Mexican train once open (V2).
        usable = {self.seat, *self.marked, *({MEXICAN} if self.mexican_open() else set())}
        plays = set()
        for tile in hand:
            for train in self.trains_for(tile, usable):
                if tile.shows(self.ends[train]):
                    plays.add(Play(tile, train))  # P2
        if plays and rules.must_play:
            return plays  # P7: a player who can play must
        # V6: a player who could play may draw instead, or pass once nothing is left to draw.
        if self.can_draw(boneyard, plays):
            return plays | {Draw()}  # P5, D1, D2: one draw per turn, and one per double played
        return plays | {Pass()}  # P5a: can neither play nor draw

    def can_draw(self, boneyard: int, plays: set[Move]) -> bool:
        # P5, D1, D2: one draw, or (draw-until-playable) as many as it takes to play.
        until = self.rules.draw_until_playable and not plays
        return bool(boneyard) and (self.may_draw or until)

    def play(self, move: Play, hand_after: tuple[Tile, ...]) -> bool:
        """Follow *move*; return whether the turn goes on."""
        tile, train = move.tile, move.train
        end = self.ends[train]
        self.ends[train] = tile.low if tile.high == end else tile.high  # P2
        self.table.add(tile)
        if train == self.seat:
            self.owner_played.add(self.seat)  # V2: the owner's tile, not another's
        if train == self.seat or self.rules.marker_lifts_anywhere:
            self.marked.discard(self.seat)  # P6: the owner's tile lifts the marker
        for pending in (self.open_doubles, self.turn_doubles):
            if train in pending:
                pending.remove(train)  # D2: a tile on the double closes it
        self.turn_tiles += 1
        self.changed = True
        if self.on_first_turn():
            # P4: the chain goes on while a tile of the hand fits the own train (V1: or
            # the turn is a single tile).
            assert self.rules.first_turn is not None
            chain = self.rules.first_turn.chain
            return chain and any(t.shows(self.ends[train]) for t in hand_after)
        if not hand_after:
            return False  # E1, D5: out
        if tile.is_double:
            self.turn_doubles.append(train)  # D1: follow it; it brings a draw of its own
            self.may_draw = True
            return True
        return False

    def pass_turn(self) -> None:
        stops_a_chain = self.on_first_turn() and self.turn_tiles
        if not stops_a_chain and self.seat not in self.marked:
            self.marked.add(self.seat)  # P5, P4, D1, D2: a marker on the own train
            self.changed = True

    def penalty(self, held: int, boneyard: int) -> int:
        """The tiles drawn at the end of a turn that leaves *held* tiles in hand."""
        # last-tile-call: a turn that played a tile and ends with one, uncalled, draws.
        if self.turn_tiles and held == 1 and not self.called:
            return min(self.rules.last_tile_penalty, boneyard)
        return 0

    def end_turn(self, hands: list[tuple[Tile, ...]], boneyard: int) -> bool:
        """Finish the turn; return whether the round ends (E1, E2, P4)."""
        if not self.on_first_turn():
            self.open_doubles += self.turn_doubles  # D2: left open when the turn ends
        self.had_first_turn.add(self.seat)
        self.unchanged.append(not self.changed)
        out = any(not hand for hand in hands)
        if self.rules.first_turn is not None and len(self.had_first_turn) < self.players:
            out = False  # P4: a player out in a first turn waits for everybody's
        blocked = not boneyard and len(self.unchanged) >= self.players
        blocked = blocked and all(self.unchanged[-self.players :])  # E2
        self.seat = (self.seat + 1) % self.players  # P1
        self.turn_doubles, self.turn_tiles, self.may_draw, self.changed = [], 0, True, False
        self.called = False
        return out or blocked


def _games(rules: Rules, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    games = []
    for max_pip, players, hand_size in ((3, 2, 3), (4, 3, 3), (6, 2, 5), (6, 4, 4)):
        small = attrs.evolve(rules, max_pip=max_pip, hand_size=hand_size)
        games.append(new_game(players, small, seed=rng.randrange(1 << 30)))
    return games


def _check_table(state: GameState, ref: Reference) -> None:
    # P1, P2, P6, D2, D3: the engine shows the table the reference expects.
    assert state.current_player == ref.seat
    assert {train: state.train(train).open_end for train in ref.ends} == ref.ends
    assert {s for s in range(state.players) if state.train(s).marked} == ref.marked
    assert state.open_doubles == tuple(ref.open_doubles)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_engine_plays_as_the_reference_reads_the_rules(name: str, seed: int) -> None:
    """P1-P7, D1-D5, E1-E4, V2-V4: at every step of whole games, the engine offers the moves
    the reference allows, shows the table it expects, ends each round when it says, and
    scores it as it does."""
    rng = random.Random(seed)
    for state in _games(RULE_SETS[name], seed):
        while not state.is_over:
            if state.is_round_over:
                assert legal_moves(state) == (NextRound(),)
                state = apply(state, NextRound())
            ref = Reference(state)
            while not state.is_round_over:
                _check_table(state, ref)
                hand = state.hand(ref.seat)
                moves = legal_moves(state)
                assert set(moves) == ref.moves(hand, state.boneyard_size), state
                doubles = [m for m in moves if isinstance(m, Play) and m.tile.is_double]
                # Doubles often, so that doubles pile up and are left open.
                move = rng.choice(doubles) if doubles and rng.random() < 0.7 else rng.choice(moves)
                seat = ref.seat
                before, state = state, apply(state, move)
                # The hand once a tile is played or the turn passed, before a penalty draw.
                held = tuple(
                    t for t in before.hand(seat) if not (isinstance(move, Play) and t == move.tile)
                )
                goes_on = True
                if isinstance(move, Play):
                    goes_on = ref.play(move, held)
                elif isinstance(move, Draw):
                    ref.may_draw = False
                elif isinstance(move, CallLastTile):
                    ref.called = True
                else:
                    ref.pass_turn()
                    goes_on = False
                if goes_on:
                    assert state.current_player == seat
                    continue
                drawn = ref.penalty(len(held), before.boneyard_size)
                hands = [state.hand(s) for s in range(state.players)]
                assert state.is_round_over == ref.end_turn(hands, state.boneyard_size)
                if not state.is_round_over:
                    assert len(state.hand(seat)) == len(held) + drawn
            hands = [state.hand(s) for s in range(state.players)]
            assert state.round_scores[-1] == tuple(_score(hand, ref.rules) for hand in hands)
            assert state.scores == tuple(map(sum, zip(*state.round_scores, strict=True)))  # E4
