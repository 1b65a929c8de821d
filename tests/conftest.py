"""Shared test configuration: Hypothesis profiles.

``dev`` (the default) keeps the suite fast on a laptop; ``ci`` is thorough.
Select one with ``HYPOTHESIS_PROFILE=ci``.
"""

import os
from collections.abc import Iterator

import pytest
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


@pytest.fixture(autouse=True)
def _no_real_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep ``mexican-train serve``'s default database out of the user's data folder.

    Its default is under ``$XDG_DATA_HOME`` (``_frontends/store.py``, `default_path`):
    every test, and every process a test starts, sees a folder of its own there.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
        yield
