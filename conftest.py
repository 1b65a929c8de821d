"""Collection settings for the doctests of src/ and docs/ (tests/conftest.py has the rest).

open_spiel publishes wheels for Python 3.11 and later only, so on 3.10 the openspiel
extra is not installed and the examples that need it cannot run; tests/test_openspiel.py
skips itself there with the same reason.

The doctests of a page (README.md, docs/) run in an empty folder of their own, as a
reader's session would: a file a page writes, such as the review how-to's ``game.json``,
lands there and not in the checkout.
"""

import sys
from collections.abc import Iterator

import pytest

collect_ignore = []
if sys.version_info < (3, 11):
    collect_ignore += [
        "src/mexican_train/openspiel.py",
        "src/mexican_train/_adapters/openspiel.py",
        "docs/howto/openspiel.rst",
    ]


@pytest.fixture(autouse=True)
def _pages_run_in_a_folder_of_their_own(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    page = request.node.path
    if page.suffix not in {".md", ".rst"}:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path_factory.mktemp(page.stem))
        yield
