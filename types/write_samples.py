"""Write samples/documents.ts: real documents of the library, typed with the generated .d.ts.

``tsc --strict`` (``npm run check``) then proves that what the library writes fits the
TypeScript types a front end would use: a state, views, moves, a game record and events.
Run from anywhere with the package installed: ``python types/write_samples.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

from mexican_train import HUB, STANDARD, legal_moves, new_game, record, spectator_view, view
from mexican_train.events import apply_with_events
from mexican_train.serialize import to_json
from mexican_train.variants import combine

HERE = Path(__file__).resolve().parent
SCHEMA = HERE.parent / "src" / "mexican_train" / "schema"


def documents() -> list[object]:
    """Return documents of every type the schema describes."""
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
    (d_ts,) = SCHEMA.glob("*.d.ts")
    module = "../../src/mexican_train/schema/" + d_ts.name.removesuffix(".d.ts")
    lines = [
        "// Written by types/write_samples.py: documents the library wrote, typed.",
        f'import type {{ MexicanTrainDocument }} from "{module}";',
        "",
        "export const documents: MexicanTrainDocument[] = [",
    ]
    lines += [f"  {json.dumps(document)}," for document in documents()]
    lines.append("];")
    out = HERE / "samples" / "documents.ts"
    out.parent.mkdir(exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out}: {len(lines) - 5} documents")


if __name__ == "__main__":
    main()
