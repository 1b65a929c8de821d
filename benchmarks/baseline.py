"""The baseline: a deliberately plain, mutable, simplified random round of Mexican Train.

It uses no library code.  It is here to be measured in the same run as the
library, so that the ratio *library ÷ baseline* says how fast the engine is on
this machine whatever the machine's speed and load.

What it plays, and what it leaves out (so it is faster than any faithful engine):

* a double-12 set, the 12-12 engine set aside, 15 tiles to each of 4 players;
* each turn, the player to move lists the (tile, train) pairs that fit their own
  train, the Mexican train or a marked train, and picks one at random; if there
  is none, they draw one tile and try again; if there is still none, they mark
  their own train (P3, P5, P6);
* the round ends when a hand is empty or the boneyard is empty and a full cycle
  of turns passes without a tile (E1, E2).

Left out: doubles (no follow-up, no open doubles, D1-D4), first turns (P4),
checking of moves, immutability, history, and scoring.  Hands and trains are
plain lists, changed in place.
"""

from __future__ import annotations

import random


def play_round(seed: int, players: int = 4, max_pip: int = 12, hand_size: int = 15) -> int:
    """Play one random round; return the number of moves made (plays, draws and marks)."""
    rng = random.Random(seed)
    tiles = [(a, b) for a in range(max_pip + 1) for b in range(a + 1) if not a == b == max_pip]
    rng.shuffle(tiles)
    hands = [tiles[seat * hand_size : (seat + 1) * hand_size] for seat in range(players)]
    boneyard = tiles[players * hand_size :]
    mexican = players
    ends = [max_pip] * (players + 1)  # the open end of each train; the last is the Mexican
    marked = [False] * (players + 1)
    marked[mexican] = True  # the Mexican train is open to everybody
    seat = 0
    idle = 0
    moves = 0
    while True:
        hand = hands[seat]
        options = _options(hand, seat, ends, marked)
        if not options and boneyard:
            hand.append(boneyard.pop())
            moves += 1
            options = _options(hand, seat, ends, marked)
        moves += 1
        if options:
            tile, train = rng.choice(options)
            hand.remove(tile)
            ends[train] = tile[1] if tile[0] == ends[train] else tile[0]
            if train == seat:
                marked[seat] = False
            if not hand:
                return moves
            idle = 0
        else:
            marked[seat] = True
            idle += 1
            if not boneyard and idle >= players:
                return moves
        seat = (seat + 1) % players


def _options(
    hand: list[tuple[int, int]], seat: int, ends: list[int], marked: list[bool]
) -> list[tuple[tuple[int, int], int]]:
    options = []
    for train, end in enumerate(ends):
        if train == seat or marked[train]:
            for tile in hand:
                if tile[0] == end or tile[1] == end:
                    options.append((tile, train))
    return options
