"""Collection settings for the doctests of src/ and docs/ (tests/conftest.py has the rest).

open_spiel publishes wheels for Python 3.11 and later only, so on 3.10 the openspiel
extra is not installed and the examples that need it cannot run; tests/test_openspiel.py
skips itself there with the same reason.
"""

import sys

collect_ignore = []
if sys.version_info < (3, 11):
    collect_ignore += [
        "src/mexican_train/openspiel.py",
        "src/mexican_train/_adapters/openspiel.py",
        "docs/howto/openspiel.rst",
    ]
