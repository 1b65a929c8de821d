"""Shared test configuration: Hypothesis profiles.

``dev`` (the default) keeps the suite fast on a laptop; ``ci`` is thorough.
Select one with ``HYPOTHESIS_PROFILE=ci``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=25, deadline=None)
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# A user's calls, right and wrong, for mypy only (tests/test_typing.py): never run.
collect_ignore = ["typecheck"]
