"""Argument types the benchmark scripts share, so that argparse refuses a bad value.

A count of 0 or a negative number of seconds would run nothing and then fail in the
statistics (a mean of no data), or print an interval from -inf to +inf; given as an
argparse ``type``, these refuse it first, in the script's one usage line and exit
status 2.
"""

from __future__ import annotations

import argparse
import math


def positive_int(text: str) -> int:
    """Return *text* as a whole number of at least 1, or refuse it."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return value


def positive_float(text: str) -> float:
    """Return *text* as a finite number above 0, or refuse it."""
    return _finite(text, "a number above 0", zero=False)


def non_negative_float(text: str) -> float:
    """Return *text* as a finite number of at least 0, or refuse it."""
    return _finite(text, "a number of at least 0", zero=True)


def _finite(text: str, words: str, *, zero: bool) -> float:
    # *text* as a finite number above 0 (or 0 itself, with *zero*), else refused in *words*.
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (0 < value < math.inf or (zero and value == 0)):
        raise argparse.ArgumentTypeError(f"{words}, not {text!r}")
    return value
