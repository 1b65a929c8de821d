"""docs/reference/variants.rst is generated from the catalogue: it must be up to date."""

from __future__ import annotations

from pathlib import Path

from mexican_train.variants import VARIANTS, describe_rules
from repo_scripts import load_script

GENERATOR = Path(__file__).resolve().parent.parent / "docs" / "_gen_variants.py"


def test_the_variants_page_is_up_to_date() -> None:
    generator = load_script(GENERATOR)
    page = generator.PAGE.read_text(encoding="utf-8")
    assert page == generator.render(), "run: python docs/_gen_variants.py"
    # Every variant and every axis is on the page.
    for name in VARIANTS:
        assert f"``{name}``" in page
    for axis in describe_rules(VARIANTS["standard"]):
        assert axis in page
