"""``python -m mexican_train``: the same command line as ``mexican-train``."""

from ._frontends.cli import main

if __name__ == "__main__":
    main()
