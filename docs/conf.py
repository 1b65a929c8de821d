"""Sphinx configuration for the mexican-train documentation.

Build with ``python -m sphinx -W -n --keep-going -b html docs docs/_build/html``.
There is no network access at build time, so there is no intersphinx: the few
references to Python and attrs are resolved by ``docs/_ext/mt_docs.py`` from a
small, explicit table, and every other reference must resolve inside these docs.

The ``docs`` extra is all the build needs (``pip install '.[docs]'``, as Read the Docs
installs it, ``.readthedocs.yaml``): it brings the ``rl`` and ``openspiel`` extras in, so
autodoc imports the real numpy, Gymnasium, PettingZoo and OpenSpiel and documents the
adapters as they are.  Nothing is mocked (no ``autodoc_mock_imports``): a mocked base
class or annotation would document something other than what users install.  open_spiel
installs on Python 3.11 and later, so the docs build there (Read the Docs uses 3.12).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import mexican_train  # noqa: E402

project = "mexican-train"
author = "The mexican-train maintainers"
copyright = "2026, The mexican-train maintainers"
release = mexican_train.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "myst_parser",
    "mt_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []

# Every reference must resolve: a broken link is a build error with -W -n.
nitpicky = True
nitpick_ignore: list[tuple[str, str]] = []

default_role = "py:obj"
primary_domain = "py"
highlight_language = "python3"
pygments_style = "friendly"

# -- autodoc -------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
autodoc_class_signature = "mixed"
# No default "members": Sphinx puts a default ``members`` in place of a directive's own
# list (sphinx-doc/sphinx#9709), so every ``:members: a, b`` would document every member
# with a docstring, the standard library's inherited ones included.  Each autoclass says
# ``:members:`` (all), a list, or ``:no-members:``; docs/_ext/mt_docs.py checks it.
autodoc_default_options = {"member-order": "bysource"}
python_use_unqualified_type_names = True
add_module_names = False

napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = False  # "Attributes:" sections become linkable attribute entries
napoleon_use_rtype = False
napoleon_attr_annotations = True

viewcode_line_numbers = True

# -- MyST (the changelog is Markdown) -----------------------------------------
myst_heading_anchors = 2

# -- HTML ----------------------------------------------------------------------
html_theme = "furo"
html_title = f"mexican-train {release}"
html_static_path = ["_static"]
html_css_files = ["mt.css"]
html_theme_options = {
    "source_repository": "https://github.com/mexican-train/mexican-train/",
    "source_branch": "main",
    "source_directory": "docs/",
}

# -- the project's own extension (docs/_ext/mt_docs.py) ------------------------
# Where the rule-links directive looks for rule citations and rule tests.
mt_source_dir = str(Path(mexican_train.__file__).resolve().parent)
mt_tests_dir = str(HERE.parent / "tests")
# The modules whose rule citations are the implementation (the engine core), in the
# order the rule boxes list them; the modules holding variants of the rules; and the
# conformance kit that checks any Rules.
mt_rule_code_modules = ["_core.engine", "_core.rules", "_core.tables", "_core.state",
                        "_core.moves", "_core.tiles", "_core.shuffle", "_core.view"]  # fmt: skip
mt_rule_variant_modules = ["_catalogue.variants", "variants"]
mt_rule_check_modules = ["testing"]
# Code that cites rule ids only to describe them (tables of the variant axes).
mt_rule_ignore = ["_catalogue.variants.rules_table", "_catalogue.variants.describe_rules"]
