"""For tests that start the package's programs as child processes and press Ctrl-C,
or run code in another process under another hash seed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

#: For a test that needs a terminal or sends SIGINT: neither exists on Windows (no pty
#: for pexpect, no preexec_fn, and a child there cannot be sent SIGINT), where the
#: release workflow also runs the suite.
posix_only = pytest.mark.skipif(
    sys.platform == "win32", reason="needs POSIX terminals and signals (Ctrl-C as SIGINT)"
)


def as_a_terminal_would() -> None:
    """Give the child the SIGINT a terminal's program has, whatever its parent had.

    Pass it as ``preexec_fn``.  A CI runner may start the suite as a background job
    (SIGINT ignored) or with signals blocked; both are inherited through exec and
    would make Ctrl-C do nothing, so a test that sends SIGINT would wait in vain.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def printed_under_hash_seed(code: str, seed: str) -> str:
    """Return what ``python -c code`` prints with ``PYTHONHASHSEED`` set to *seed*.

    The child has the parent's environment besides (PYTHONPATH included), so it
    imports the code under test, not whatever package is installed.
    """
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONHASHSEED": seed},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
