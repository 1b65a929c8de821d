"""Players: the `Player` protocol and three ready bots.

A player sees only a `PlayerView` and the legal moves, never the `GameState`
(S5), so a bot cannot cheat by construction.  The bots here are frozen values:
equal bots make equal choices, they pickle, and a choice depends only on what
the bot is shown, which keeps simulations reproducible on any executor.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import attrs

from .._core.bounds import bounded
from .._core.errors import InvalidArgumentError
from .._core.moves import CALL_LAST_TILE, Move, Play
from .._core.state import GameState
from .._core.tiles import MAX_PIP, Tile, full_set, tile_index
from .._core.view import PlayerView
from .longest import longest_train
from .policy import ENDGAME, best_shed, near_out, planned_move

__all__ = ["GreedyPlayer", "PlannerPlayer", "Player", "RandomPlayer"]


@runtime_checkable
class Player(Protocol):
    """Anything that picks a move from what one seat may see.

    The simulation runner and the command line call `choose` on the player's
    turn with that seat's `PlayerView` and ``legal_moves(view)``, never empty.
    A player should return one of *moves*; anything else is an illegal move,
    which `simulate` records against the player (by its ``name`` attribute if it
    has one, else its class's name: `player_name`).

    For results that do not depend on how games are spread over processes,
    a player's choice should depend only on its arguments (the built-in bots'
    does); `simulate` seats a fresh copy of each player in every game anyway, one
    copy per seat, even for a player listed twice.  So a
    bot that plays at random draws from a generator seeded by its seed and what it
    is shown, as `RandomPlayer` does: a ``random.Random(seed)`` made in
    ``__init__`` would replay the same numbers in every game.

    A player may also have an ``observe(events)`` method, to keep the round's
    history (who drew, who passed): `simulate`, the command line, the web table
    and the Gymnasium environments' opponents call it after every move, with the
    events as its seat may see them (``redact_events``), as `SearchPlayer.observe`
    takes them: the first round's events begin with the game's first move (no
    ``RoundStarted``: the game has just begun), and each later round's with its
    ``RoundStarted``, told before the round's first choice.  An exception from
    ``choose`` or ``observe`` is the player's own: `simulate` lets it through,
    noted with the player, its seat, the game and the game's seed.

    >>> class FirstMove:
    ...     def choose(self, view, moves):
    ...         return moves[0]
    ...
    >>> isinstance(FirstMove(), Player)
    True
    """

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        """Return the move to make: one of *moves*."""


def _some(view: object, moves: object) -> None:
    """Refuse what a bot cannot choose from: a view that is not a `PlayerView`, or no moves.

    One isinstance check on each argument (choose() is called every turn of every
    simulated game); the moves themselves are not looked at one by one.
    """
    if not isinstance(view, PlayerView):
        hint = (
            ": a player sees only what its seat may see (S5); pass view(state, seat)"
            if isinstance(view, GameState)
            else ""
        )
        raise TypeError(f"choose() needs a PlayerView, not {type(view).__name__}{hint}")
    if type(moves) is not tuple and (
        not isinstance(moves, Sequence) or isinstance(moves, (str, bytes))
    ):
        raise TypeError(
            "choose() needs the legal moves as a tuple, such as legal_moves(view), "
            f"not {type(moves).__name__}"
        )
    if not moves:
        raise InvalidArgumentError("choose() needs the legal moves, at least one; moves is empty")


@attrs.frozen
class RandomPlayer:
    """Pick a legal move at random, the same way every time for the same seed.

    The choice is a hash of *seed* and the position as the seat sees it (its
    hand, the round, the seat, the boneyard's size, the tiles in hands and how
    far the turn has gone: what tells apart the positions a seat meets), so the
    player keeps no state: the same seed in the same position always makes the
    same choice, in any process, on any platform and on both builds (an integer
    hash, whatever ``PYTHONHASHSEED``).  Choices are spread evenly over the moves,
    and independently from position to position, game to game and seed to seed.

    Attributes:
        seed: a whole number of at most 64 bits, as a game's (S6); different seeds
            play differently.

    >>> from mexican_train import HUB, legal_moves, new_game, view
    >>> mine = view(new_game(4, HUB, seed=1), 0)
    >>> RandomPlayer(seed=7).choose(mine, legal_moves(mine)) in legal_moves(mine)
    True
    """

    seed: int = attrs.field(default=0, validator=bounded("seed"))

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        """Return one of *moves*, chosen by hashing the seed and the position.

        Raises:
            InvalidArgumentError: if *moves* is empty, or *view* is a spectator's.
            TypeError: if *view* is not a `PlayerView` or *moves* not a sequence (its items
                are taken for the legal moves, unchecked).
        """
        _some(view, moves)
        count = len(moves)
        if count < 2:
            return moves[0]
        seat = _seat(view, "RandomPlayer")
        # The facts that tell apart the positions a seat meets, folded with small
        # integer steps and mixed once: the same in every process and on every
        # platform (no hash() at all).  The hand, as a sum of a random weight per
        # tile, tells games apart; within a round the boneyard only shrinks, and
        # while it keeps its size the hands only shrink, so the boneyard and the
        # tiles in hands place the decision in its round.  The table's trains and
        # the scores would add nothing these do not tell.
        weights = _TILE_WEIGHTS
        x = 0
        for tile in view.hand:
            x += weights[tile_index(tile)]  # under 2**30 for a hand of up to 32 tiles
        x += (
            view.boneyard_size * 0x2545F49
            + sum(view.hand_sizes) * 0x1B87359
            + view.turn_tiles * 0x3C6EF37
            + view.has_drawn * 0x27D4EB2
            + view.round_number * 0x165667B
            + seat * 0x1F3A5C7
        ) << 30
        # splitmix64's finaliser on the position (folded to 64 bits) and the seed:
        # every bit of either reaches every bit of the result.
        x = (x ^ x >> 64 ^ self.seed * 0x9E3779B97F4A7C15) & _MASK
        x = (x ^ x >> 30) * 0xBF58476D1CE4E5B9 & _MASK
        x = (x ^ x >> 27) * 0x94D049BB133111EB & _MASK
        return moves[(x ^ x >> 31) % count]


_MASK = (1 << 64) - 1


def _tile_weights() -> tuple[int, ...]:
    # One fixed pseudo-random 25-bit weight per tile, by its index (splitmix64 of
    # the index), computed with integers only: the same on every platform.
    weights = []
    for index in range(len(full_set(MAX_PIP))):
        x = (index + 1) * 0x9E3779B97F4A7C15 & _MASK
        x = (x ^ x >> 30) * 0xBF58476D1CE4E5B9 & _MASK
        x = (x ^ x >> 27) * 0x94D049BB133111EB & _MASK
        weights.append((x ^ x >> 31) >> 39)
    return tuple(weights)


_TILE_WEIGHTS = _tile_weights()


def _seat(view: PlayerView, player: str) -> int:
    seat = view.seat
    if seat is None:
        raise InvalidArgumentError(f"{player} plays a seat: a spectator view has none")
    return seat


@attrs.frozen
class GreedyPlayer:
    """Shed the most pips first, and play a double only when it can be followed.

    Each turn it plays the legal tile with the most pips.  A double goes first
    when the hand holds a tile to follow it with (D1: two tiles shed in one
    turn), and last when it does not (an unfollowed double ends the turn with
    a marker); a tile on its own marked train counts a pip more, for lifting
    the marker (P6).  It calls "last tile" when the rules ask for it, draws
    only when it cannot play, and never stops a first-turn chain early (P4).

    >>> import attrs
    >>> from mexican_train import HUB, Deal, Tile, full_set, legal_moves, new_game, view
    >>> hands = [["6-1", "6-5", "5-5"], ["1-0", "2-1", "3-1"]]
    >>> dealt = {Tile.parse(t) for hand in hands for t in hand} | {Tile(6, 6)}
    >>> deal = Deal(hands, [t for t in full_set(6) if t not in dealt])
    >>> rules = attrs.evolve(HUB, max_pip=6, hand_size=3)
    >>> mine = view(new_game(2, rules, seed=0, deal=deal), 0)
    >>> legal_moves(mine)
    (Play(Tile(6, 1), 0), Play(Tile(6, 1), MEXICAN), Play(Tile(6, 5), 0), Play(Tile(6, 5), MEXICAN))
    >>> GreedyPlayer().choose(mine, legal_moves(mine))
    Play(Tile(6, 5), 0)
    """

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        """Return the legal play that sheds the most pips, else draw or pass.

        Raises:
            InvalidArgumentError: if *moves* is empty, or *view* is a spectator's.
            TypeError: if *view* is not a `PlayerView` or *moves* not a sequence (its items
                are taken for the legal moves, unchecked).
        """
        _some(view, moves)
        if len(moves) == 1:
            return moves[0]
        seat = _seat(view, "GreedyPlayer")
        if CALL_LAST_TILE in moves:
            return CALL_LAST_TILE
        plays = [m for m in moves if isinstance(m, Play)]
        if not plays:
            return moves[0]  # Draw comes before Pass in legal_moves: draw when allowed
        return best_shed(plays, plays, view.hand, view, seat)


@functools.lru_cache(maxsize=8192)
def _plan(hand: tuple[Tile, ...], open_end: int, max_nodes: int) -> tuple[Tile, ...]:
    return tuple(longest_train(hand, open_end, max_nodes=max_nodes))


@attrs.frozen
class PlannerPlayer:
    """Keep the longest train the hand can build for its own train; shed the rest elsewhere.

    The classic Mexican Train strategy.  Every decision it recomputes its plan,
    ``longest_train(hand, own open end)``, and then:

    * on a first turn that builds its own train (P4), plays the whole plan;
    * when bound to cover an open double (D2), sheds the most pips it can;
    * otherwise plays a tile that is not in the plan on the Mexican train or a
      marked train (the most pips first, doubles only when they can be
      followed), and only when no such tile fits, the plan's next tile on its
      own train;
    * once an opponent is down to *endgame* tiles or fewer, stops saving and
      sheds the most pips, as `GreedyPlayer` does.

    `SearchPlayer`'s playouts play every seat by the same rule, with a plan made
    on its first choice and again after each draw, and followed while its tiles last.

    Attributes:
        endgame: the opponent hand size at which it stops saving tiles, 0 to 496.
        max_nodes: the search budget for `longest_train`, 1 to 10**9.

    >>> from mexican_train import STANDARD, legal_moves, new_game, view
    >>> state = new_game(4, STANDARD, seed=7)
    >>> mine = view(state, state.current_player)
    >>> PlannerPlayer().choose(mine, legal_moves(mine))
    Play(Tile(12, 9), 3)
    """

    endgame: int = attrs.field(default=ENDGAME, validator=bounded("endgame"))
    max_nodes: int = attrs.field(default=20_000, validator=bounded("max_nodes"))

    def choose(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        """Return the next tile of the plan, a leftover tile, or draw or pass.

        Raises:
            InvalidArgumentError: if *moves* is empty, or *view* is a spectator's.
            TypeError: if *view* is not a `PlayerView` or *moves* not a sequence (its items
                are taken for the legal moves, unchecked).
        """
        _some(view, moves)
        if len(moves) == 1:
            return moves[0]
        seat = _seat(view, "PlannerPlayer")
        hand = view.hand
        plan = _plan(hand, view.trains[seat].open_end, self.max_nodes)
        first_turn = view.rules.first_turn is not None and not view.had_first_turn[seat]
        shed_now = (bool(view.open_doubles) and not view.turn_doubles) or near_out(
            view.hand_sizes, seat, self.endgame
        )
        return planned_move(moves, hand, view, seat, plan, 0, first_turn, shed_now)
