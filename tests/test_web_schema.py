"""The web protocol's JSON Schema (schema/mexican-train-web-1.schema.json) fits what the server says.

The documents are the server's own, answered over HTTP and the WebSocket, as
tests/web_documents.py gathers them (types/write_samples.py types the same ones with the
.d.ts): a seat's document at the start, mid-round, between rounds, once the game is over,
a spectator's, under a turn timer; the lobby's answers, a review, refusals, and the
requests the server took.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest
import referencing
from referencing.jsonschema import DRAFT202012

from mexican_train._frontends import app
from mexican_train.serialize import json_schema
from web_documents import web_documents

WEB = "mexican-train-web-1.schema.json"


def _web_schema() -> dict[str, Any]:
    text = (resources.files("mexican_train") / "schema" / WEB).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


REGISTRY: referencing.Registry[Any] = referencing.Registry().with_resources(
    (schema["$id"], DRAFT202012.create_resource(schema))
    for schema in (json_schema(), _web_schema())
)


def _validator(definition: str | None = None) -> jsonschema.Draft202012Validator:
    """The schema's validator, of the document or of one of its definitions (no network)."""
    reference = _web_schema()["$id"] + ("" if definition is None else f"#/$defs/{definition}")
    return jsonschema.Draft202012Validator({"$ref": reference}, registry=REGISTRY)


def _errors(document: object, definition: str | None = None) -> list[str]:
    found = sorted(_validator(definition).iter_errors(document), key=lambda e: list(e.path))
    return [f"{list(e.path)}: {e.message}" for e in found[:3]]


@pytest.fixture(scope="module")
def documents() -> dict[str, list[Any]]:
    """The server's documents by the name of their type (SeatDocument, Review, ...)."""
    return web_documents()


def _definition(name: str) -> str:
    return name[0].lower() + name[1:]


def test_the_web_schema_is_a_valid_json_schema_shipped_beside_the_librarys() -> None:
    schema = _web_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith("/" + WEB)
    assert schema["$id"].rsplit("/", 1)[0] == json_schema()["$id"].rsplit("/", 1)[0]


def test_every_document_the_server_said_fits_its_definition(
    documents: dict[str, list[Any]],
) -> None:
    for name, each in documents.items():
        assert each, f"no {name} gathered"
        for document in each:
            assert _errors(document, _definition(name)) == [], name
            assert _errors(document) == [], name  # and the schema as a whole


def test_the_seats_documents_cover_the_game(documents: dict[str, list[Any]]) -> None:
    """A seat's and a spectator's, at the start, mid-round, between rounds, game over, timed."""
    seats = documents["SeatDocument"]
    assert {document["seat"] for document in seats} == {0, -1}
    assert any(d["version"] == 0 and d["moves"] for d in seats)  # the start, the seat to move
    assert any(d["view"]["round_number"] == 1 and d["version"] > 0 and d["moves"] for d in seats)
    kinds = {move["kind"] for d in seats for move in d["moves"]}
    assert {"play", "draw", "pass", "next-round"} <= kinds
    assert any(d["view"]["current_player"] is None and not d["winners"] for d in seats)
    assert any(d["winners"] for d in seats)  # the game over
    assert any(d["seconds_left"] is not None for d in seats)  # under a turn timer
    sent = [request["move"] for request in documents["MoveRequest"]]
    assert {type(move) for move in sent} == {dict, str}  # by its json and by its notation


def test_the_refusals_written_before_the_application_fit_the_schema() -> None:
    """The bodies the server writes itself, for a connection too many or too slow, or a
    request h11 cannot read."""
    malformed = [app._malformed_body(app._MALFORMED)]
    malformed += [app._malformed_body(reason) for reason in app._H11_REFUSALS.values()]
    for body in (app._BUSY_BODY, app._LATE_BODY, *malformed):
        assert _errors(json.loads(body), "refusal") == []


def _renamings(document: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every field of *document*, nested ones included, but not inside ``view``
    and ``json``, the library's documents (checked by tests/test_json.py)."""
    if isinstance(document, list):
        return [p for n, item in enumerate(document[:2]) for p in _renamings(item, (*path, n))]
    if not isinstance(document, dict):
        return []
    found = [(*path, key) for key in document]
    for key, value in document.items():
        if key not in {"view", "json", "seats"}:
            found += _renamings(value, (*path, key))
    return found


def test_a_renamed_field_is_refused_anywhere_in_a_document(
    documents: dict[str, list[Any]],
) -> None:
    checked = 0
    for name, each in documents.items():
        document = max(each, key=lambda d: len(json.dumps(d)))
        for path in _renamings(document):
            renamed = copy.deepcopy(document)
            holder = renamed
            for step in path[:-1]:
                holder = holder[step]
            holder[path[-1] + "_x"] = holder.pop(path[-1])
            assert _errors(renamed, _definition(name)), f"{name}: {path} renamed"
            checked += 1
    assert checked > 40


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seat", -2),
        ("version", -1),
        ("seconds_left", "60"),
        ("connected", [1, 1]),
        ("winners", [-1]),
        ("moves", [{"kind": "play"}]),
    ],
)
def test_a_seats_document_with_a_wrong_value_is_refused(
    documents: dict[str, list[Any]], field: str, value: object
) -> None:
    document = dict(documents["SeatDocument"][0], **{field: value})
    assert _errors(document, "seatDocument")


def test_the_view_and_the_moves_are_checked_by_the_librarys_schema(
    documents: dict[str, list[Any]],
) -> None:
    document = next(d for d in documents["SeatDocument"] if d["moves"])
    wrong_view = copy.deepcopy(document)
    wrong_view["view"]["hand"] = ["not a tile"]
    assert _errors(wrong_view, "seatDocument")
    unnamed = copy.deepcopy(document)
    del unnamed["view"]["schema"]  # the library's documents name their schema
    assert _errors(unnamed, "seatDocument")
    a_state = copy.deepcopy(document)
    a_state["view"]["type"] = "state"  # a view, not another of the library's documents
    assert _errors(a_state, "seatDocument")
    wrong_move = copy.deepcopy(document)
    wrong_move["moves"][0]["json"] = {"schema": "mexican-train/2", "type": "fly"}
    assert _errors(wrong_move, "seatDocument")
