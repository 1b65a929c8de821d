"""The web table in a real browser: Playwright drives Debian's chromium (``nox -s browser``)."""
