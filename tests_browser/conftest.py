"""The browser every browser test shares: one chromium for a module's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests_browser.chromium import launched


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with launched() as browser:
        yield browser


@pytest.fixture
def browser(chromium: Browser) -> Iterator[Browser]:
    """The module's chromium; the pages a test opened are closed after it, so that none
    goes on reconnecting to a table that is gone while the next tests run."""
    yield chromium
    for context in chromium.contexts:
        context.close()
