"""The behaviour digest: every position of fixed playouts, as the repository keeps it.

`tests/golden/make_digest.py` plays fixed games of every catalogue variant for 2-14
players and hashes every position's public fields, its legal moves, views and
refusal reasons.  A change of the engine's layout or build must leave every digest
as it is; a deliberate rule change regenerates them in its own commit
(``python tests/golden/make_digest.py --write small`` and ``--write large``).
"""

from __future__ import annotations

import json

from golden.make_digest import FILES, Chooser, configurations, differences
from mexican_train.variants import VARIANTS


def test_the_small_digest_is_unchanged() -> None:
    """Same states, legal moves, views and refusals as when the digest was written (all rules)."""
    assert differences("small") == []


def test_the_digests_cover_every_variant_and_player_count() -> None:
    """Both kept files name a digest for every configuration the generator plays."""
    names = {name for name, *_ in configurations("small")}
    assert {name.split("/")[0] for name in names} == set(VARIANTS)
    for path in FILES.values():
        assert set(json.loads(path.read_text())["digests"]) == names


def test_the_chooser_is_fixed() -> None:
    """The move chooser is a fixed integer sequence (no random, no hash()), S6 for the digest."""
    chooser = Chooser(7)
    assert [chooser.below(1000) for _ in range(5)] == FIRST_CHOICES


FIRST_CHOICES = [909, 427, 553, 983, 54]
