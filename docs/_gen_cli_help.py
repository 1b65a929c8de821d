"""Write each command's ``--help`` into docs/reference/cli.rst.

Run ``python docs/_gen_cli_help.py`` after changing an option or a command's docstring,
and commit the result; ``tests/test_cli.py`` fails while the page is out of date.  Each
``$ mexican-train ... --help`` block of the page is replaced with the program's own help,
at the page's 88 columns; everything else on the page is written by hand.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from click.testing import CliRunner

from mexican_train._frontends.cli import cli

PAGE = Path(__file__).resolve().parent / "reference" / "cli.rst"

#: The commands whose help the page quotes ("" is the group's own).
COMMANDS = ("", "demo", "play", "simulate", "rules", "serve", "analyze")

#: The width of the help on the page.
WIDTH = 88


def help_block(command: str) -> str:
    """Return the page's block for *command*: the command line, then its help, indented."""
    args = [command] if command else []
    result = CliRunner().invoke(
        cli, [*args, "--help"], prog_name="mexican-train", terminal_width=WIDTH
    )
    shown = " ".join(["$ mexican-train", *args, "--help"])
    return f"   {shown}\n" + textwrap.indent(result.stdout, "   ")


def render(page: str) -> str:
    """Return *page* with every command's help block replaced with the current help."""
    lines = page.splitlines(keepends=True)
    for command in COMMANDS:
        block = help_block(command).splitlines(keepends=True)
        if block[0] not in lines:
            raise LookupError(f"{PAGE} has no code block starting {block[0].strip()!r}")
        start = lines.index(block[0])
        end = start + 1  # the block goes on while lines are blank or indented
        while end < len(lines) and (not lines[end].strip() or lines[end].startswith("   ")):
            end += 1
        while not lines[end - 1].strip():
            end -= 1
        lines[start:end] = block
    return "".join(lines)


def main(argv: list[str]) -> int:
    """Write the page; with ``--check``, only report whether it is up to date."""
    current = PAGE.read_text(encoding="utf-8")
    text = render(current)
    if "--check" in argv:
        if current != text:
            print(f"{PAGE} is out of date: run python docs/_gen_cli_help.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
