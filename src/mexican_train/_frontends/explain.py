"""The rules of a `Rules` value in prose a player understands, for ``mexican-train rules``.

The sentences follow the documentation's pages "The rules as implemented"
(docs/explanation/rules/), rule by rule, with each rule's id; the
ones a variant changes are chosen by the value's fields.  Only the public API.
"""

from __future__ import annotations

import textwrap

from .._catalogue import variants as catalogue
from .._core.errors import MexicanTrainError
from .._core.rules import (
    CloseInOrder,
    EnginePlacement,
    MexicanFromFirstTurn,
    MexicanFromSecondTurn,
    Rules,
)

__all__ = ["explain_rules"]


def _deal(rules: Rules) -> str:
    rows = []
    for players in rules.deal_table.player_counts:
        try:
            max_pip, hand = rules.deal_table.lookup(players, rules.max_pip, rules.hand_size)
        except MexicanTrainError:
            continue
        rows.append((players, max_pip, hand))
    if not rows:
        return "The deal table names no set and hand size for these rules (S1)."
    parts: list[tuple[str, int, int]] = []
    for players, max_pip, hand in rows:
        if parts and parts[-1][1:] == (max_pip, hand):
            parts[-1] = (parts[-1][0].split("-")[0] + f"-{players}", max_pip, hand)
        else:
            parts.append((str(players), max_pip, hand))
    listed = "; ".join(f"{p} players: double-{n} set, {h} tiles each" for p, n, h in parts)
    return f"The deal ({rules.deal_table.name}, S1): {listed}.{_other_sets(rules)}"


def _other_sets(rules: Rules) -> str:
    """The table's rows for a set it deals only when that set is chosen (S1), in words."""
    if rules.max_pip is not None:  # the rules choose the set: no other row applies
        return ""
    table = rules.deal_table
    others: dict[int, list[tuple[int, int]]] = {}  # set -> [(players, hand)]
    for (players, max_pip), hand in sorted(table.hand_sizes.items()):
        if table.default_sets.get(players) != max_pip:
            others.setdefault(max_pip, []).append((players, hand))
    said = []
    for max_pip, rows in sorted(others.items()):
        runs: list[tuple[int, int, int]] = []  # (first players, last players, hand)
        for players, hand in rows:
            if runs and runs[-1][1] == players - 1 and runs[-1][2] == hand:
                runs[-1] = (runs[-1][0], players, hand)
            else:
                runs.append((players, players, hand))
        counts = ", ".join(
            f"{low if low == high else f'{low}-{high}'} players: {hand} tiles each"
            for low, high, hand in runs
        )
        said.append(f"a double-{max_pip} set, when chosen, to {counts}")
    return f" It also deals {'; and '.join(said)}." if said else ""


def _mexican(rules: Rules) -> str:
    rule = rules.mexican_train
    texts = {
        MexicanFromSecondTurn: "The Mexican train opens to each player from their second "
        "turn of the round (V2).",
        MexicanFromFirstTurn: "The Mexican train is open to everybody from the first turn (V2).",
        catalogue.NoMexicanTrain: 'There is no Mexican train: this is plain "Train Dominoes" (V2).',
        catalogue.MexicanAfterOwnTrain: "The Mexican train opens to a player once they have played a "
        "tile on their own train (V2); tiles others laid on it while it was marked do not count.",
        catalogue.MexicanAfterAllTrains: "The Mexican train opens once every player has played a tile "
        "on their own train (V2); tiles others laid on a marked train do not count.",
    }
    return texts.get(type(rule), f"When the Mexican train is open is decided by {rule!r} (V2).")


def _doubles(rules: Rules) -> str:
    rule = rules.open_doubles
    order = "most recent first" if getattr(rule, "reverse", False) else "in the order played"
    if isinstance(rule, catalogue.NeverBind):
        return (
            "A double left at the end of a train binds nobody: anyone may cover it "
            "where they may play anyway (V3)."
        )
    if isinstance(rule, catalogue.CloseAnyOrder):
        text = "While doubles are open, the player to move must cover one of them, any one (V3)."
    elif isinstance(rule, catalogue.StrictCloseInOrder):
        text = (
            "After a double you may lay more doubles; the first other tile goes on the "
            f"turn's first double and nowhere else.  Open doubles are closed {order} (D3)."
        )
    elif isinstance(rule, catalogue.CoverOwnDouble):
        text = (
            "Whoever lays a double must cover it themselves with the next tile; if they "
            f"cannot, even after drawing, it stays open and binds everybody, closed {order} (D1-D3)."
        )
    elif isinstance(rule, CloseInOrder):
        text = (
            "A double left at the end of a train when its player's turn ends is open: the "
            "next players must cover it before playing anywhere else, on any train, and "
            f"several open doubles are closed one at a time, {order} (D2, D3)."
        )
    else:
        return f"Open doubles follow {rule!r} (D2, D3, V3)."
    if getattr(rule, "release_dead", True):
        text += (
            "  A double nothing can cover any more (every other tile of its number is on "
            "the table) binds nobody (D4)."
        )
    else:
        text += "  Even a double nothing can cover still binds (V4)."
    return text


def _sections(rules: Rules) -> list[tuple[str, list[str]]]:
    holder = rules.engine_placement is EnginePlacement.HOLDER
    top = rules.highest_engine
    highest = "the set's highest double" if top is None else f"{top}-{top}, whatever the set,"
    setup = [
        _deal(rules),
        "Each round has its own engine: "
        + (
            "0-0 in round 1, then one higher each round (S2, V9)."
            if rules.ascending
            else f"{highest} in round 1, then one lower each round (S2)."
        )
        + (f"  The game lasts {rules.rounds} rounds (V9)." if rules.rounds else "")
        + (f"  A set without the {top}-{top} cannot be played." if top is not None else ""),
        "The player holding the round's engine places it in the middle and plays first; if "
        "nobody holds it, players draw in turn until someone does, keeping what they draw (S3)."
        if holder
        else "The round's engine is set aside before the deal; the first player moves one "
        "seat clockwise each round (S4).",
        "Hands are open: everybody sees every hand (V10)."
        if rules.open_hands
        else "Your hand is private; everybody sees how many tiles each player holds (S5).",
    ]
    turn = [
        "Play goes clockwise (P1).  Every tile placed must match the open end of its train (P2)."
    ]
    if rules.first_turn is not None:
        chain = (
            "as many tiles in a row as fit, stopping when you like after the first"
            if rules.first_turn.chain
            else "a single tile"
        )
        draw = (
            "A player who cannot start their train draws one tile and plays it if it fits."
            if rules.first_turn.may_draw
            else "Nobody draws on this turn; a player who cannot start gets a marker."
        )
        turn.append(
            f"In your first turn of each round you play only on your own train: {chain} (P4).  "
            f"{draw}  A player who plays their last tile in a first turn ends the round once every "
            "player has had theirs (P4).  Doubles played in your first turn bind nobody: D1 and "
            "D2 apply from your second turn, and a double that ends a first-turn train is never "
            "open (P4)."
        )
    turn += [
        # "Then" after the first turn (P4), which rules without one (V1) do not tell.
        f"{'Then, each' if rules.first_turn is not None else 'Each'} turn, play one tile on "
        "your own train, on the Mexican train when it is open to you, or on another "
        "player's train that carries a marker (P3, P5).",
        _mexican(rules),
        ("A player with no legal play draws until a tile fits or the boneyard is empty"
         if rules.draw_until_playable
         else "A player with no legal play draws one tile and plays it if it fits")
        + "; one who still cannot play passes, and a marker goes on their train (P5).",
        "A marker opens that train to everyone until its owner plays a tile anywhere (P6)."
        if rules.marker_lifts_anywhere
        else "A marker opens that train to everyone until its owner plays on it again (P6).",
        "You must play when you can (P7)."
        if rules.must_play
        else "You may draw instead of playing, once per turn, and then pass (V6).",
    ]  # fmt: skip
    if rules.last_tile_penalty:
        turn.append(
            f"Call 'last tile' while holding two tiles; whoever ends a turn with one tile "
            f"after playing without calling draws {rules.last_tile_penalty} (the house rule "
            "last-tile-call, in place of E3a's announcement)."
        )
    else:
        turn.append("When a player is down to one tile, the table announces it for them (E3a).")
    draws = (
        "until a tile fits or the boneyard is empty"
        if rules.draw_until_playable
        else "one tile and plays it if it fits"
    )
    doubles = [
        "Whoever plays a double plays again at once, on it or anywhere they may play; one "
        f"who cannot follow it draws {draws}; one who still cannot passes with a marker (D1).",
        _doubles(rules),
        "A player whose last tile is a double has gone out (D5).",
    ]
    blank = rules.double_blank_score
    end = [
        "The round ends when a player plays their last tile (E1), or when the boneyard is "
        "empty and a whole cycle of turns changes nothing on the table (E2).",
        f"Everybody else scores the pips left in their hand, the double-blank counting "
        f"{blank} (E3).  Then the next round starts with the next engine (E4).",
        "The lowest total after the last round wins; ties go to the player with more "
        "rounds at 0, then the lowest single round score other than 0; players still level "
        "share the win (E5)."
        if rules.tie_break
        else "The lowest total after the last round wins; players level share the win.",
    ]
    return [("Setup", setup), ("A turn", turn), ("Doubles", doubles), ("Scoring", end)]


def explain_rules(rules: Rules, width: int = 80) -> str:
    """Return the rules of *rules* in prose, section by section, with rule ids.

    >>> from mexican_train import HUB
    >>> print(explain_rules(HUB).splitlines()[0])
    Setup
    >>> "set aside before the deal" in explain_rules(HUB)
    True
    """
    out: list[str] = []
    for title, sentences in _sections(rules):
        out += [title, "-" * len(title)]
        for sentence in sentences:
            out.append(textwrap.fill(sentence, width, initial_indent="- ", subsequent_indent="  "))
        out.append("")
    return "\n".join(out).rstrip()
