"""Write samples/*.ts: real documents of the library and of its web table, typed.

``tsc --strict`` (``npm run check``) then proves that what the library writes fits the
TypeScript types a front end would use: a state, views, moves, a game record and events
(``samples/documents.ts``, typed with ``mexican-train-2.d.ts``), and what a web table
(``mexican-train serve``) answers and reads (``samples/web.ts``, typed with
``mexican-train-web-1.d.ts``), as ``tests/web_documents.py`` gathers it for
``tests/test_web_schema.py``.  Run from anywhere with the package and its web extra
installed: ``python types/write_samples.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mexican_train import HUB, STANDARD, legal_moves, new_game, record, spectator_view, view
from mexican_train.events import apply_with_events
from mexican_train.serialize import to_json
from mexican_train.variants import combine

HERE = Path(__file__).resolve().parent
SCHEMA = HERE.parent / "src" / "mexican_train" / "schema"


def documents() -> list[object]:
    """Return documents of every type the library's schema describes."""
    found: list[object] = []
    for rules in (STANDARD, HUB, combine("hub", "strict-double-order", "last-tile-call")):
        start = state = new_game(3, rules, seed=7)
        played = []
        for _ in range(40):
            move = legal_moves(state)[-1]
            state, events = apply_with_events(state, move)
            found += [to_json(event) for event in events]
            found.append(to_json(move))
            played.append(move)
        found += [to_json(state), to_json(spectator_view(state))]
        found.append(to_json(record(start, played)))
        if state.current_player is not None:
            found.append(to_json(view(state, state.current_player)))
    return found


def main() -> None:
    (library,) = SCHEMA.glob("mexican-train-[0-9]*.d.ts")
    (web,) = SCHEMA.glob("mexican-train-web-*.d.ts")
    lines = [
        "// Written by types/write_samples.py: documents the library wrote, typed.",
        f'import type {{ MexicanTrainDocument }} from "{_module(library)}";',
        "",
        "export const documents: MexicanTrainDocument[] = [",
    ]
    lines += [f"  {json.dumps(document)}," for document in documents()]
    lines.append("];")
    _write("documents.ts", lines, len(lines) - 5)
    sys.path.insert(0, str(HERE.parent / "tests"))
    from web_documents import web_documents  # the same documents tests/test_web_schema.py checks

    answers = web_documents()
    lines = [
        "// Written by types/write_samples.py: what a web table answered and read, typed.",
        f'import type {{ {", ".join(answers)} }} from "{_module(web)}";',
    ]
    for name, each in answers.items():
        plural = name if name.endswith("s") else name + "s"
        lines += ["", f"export const {plural[0].lower()}{plural[1:]}: {name}[] = ["]
        lines += [f"  {json.dumps(document)}," for document in each]
        lines.append("];")
    _write("web.ts", lines, sum(map(len, answers.values())))


def _module(d_ts: Path) -> str:
    return "../../src/mexican_train/schema/" + d_ts.name.removesuffix(".d.ts")


def _write(name: str, lines: list[str], count: int) -> None:
    out = HERE / "samples" / name
    out.parent.mkdir(exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out}: {count} documents")


if __name__ == "__main__":
    main()
