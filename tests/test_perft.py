"""Golden move-tree counts (perft) from fixed positions of both presets.

`tests/golden/perft.json` holds, for each position, the number of move sequences
of length 1, 2, ... N from it.  Any change to what `legal_moves` offers anywhere in
those trees changes a count: a guard against silent rule drift.  Regenerate the file
with ``python tests/golden/make_perft.py`` only for a deliberate rule change, and say
which in the commit.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from golden.make_perft import GOLDEN, perft, position

ENTRIES: list[dict[str, Any]] = json.loads(GOLDEN.read_text())


def test_the_golden_file_covers_both_presets() -> None:
    """Positions of STANDARD and HUB, mid-round ones among them."""
    assert {entry["rules"] for entry in ENTRIES} == {"STANDARD", "HUB"}
    assert any("open-double" in entry["name"] for entry in ENTRIES)
    assert any("first-turn-chain" in entry["name"] for entry in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["name"] for entry in ENTRIES])
def test_perft(entry: dict[str, Any]) -> None:
    """The number of move sequences to each depth is the golden one (all rule ids)."""
    state = position(entry)
    found = [perft(state, depth) for depth in range(1, len(entry["perft"]) + 1)]
    assert found == entry["perft"]
