"""The documentation's own Sphinx extension.

It does four small jobs, each so that the docs cannot silently drift from the code:

``:rule:`D2```
    A link to the rule's section on the "rules as implemented" pages (label ``rule-d2``).

``.. rule-links:: D2``
    A box listing the code that cites the rule (every function, method or class of
    ``src/mexican_train`` with a comment or docstring naming the rule id, each linked to
    its highlighted source) and the tests that pin it (every ``test_d2_...`` function in
    ``tests/``, with the first line of its docstring).  Both lists are found by scanning
    the source at build time.  A rule with no citing code or no test is a build warning.

Private names and external names
    Public classes live in private modules (``mexican_train._core.state.GameState``), so a
    signature refers to them by their private path; those references are resolved to the
    public name.  References to Python and attrs are resolved from a small explicit table of
    URLs (there is no network for intersphinx).  Anything else stays a nitpicky warning.

The public API is documented
    Every name in ``mexican_train.__all__`` and in each public submodule's ``__all__`` must
    be documented somewhere (an autodoc entry), or the build warns; and a class's
    ``:members:`` list is what its entry shows (no default ``members`` overrides it, and
    a listed member without a docstring is a warning).
"""

from __future__ import annotations

import ast
import importlib
import itertools
import pkgutil
import re
import sys
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

PACKAGE = "mexican_train"

#: Every rule id of the rules specification (the rule pages, docs/explanation/rules/).
RULE_IDS = (
    [f"S{i}" for i in range(1, 7)]
    + [f"P{i}" for i in range(1, 8)]
    + ["P5a"]
    + [f"D{i}" for i in range(1, 6)]
    + [f"E{i}" for i in range(1, 6)]
    + ["E3a"]
    + [f"V{i}" for i in range(1, 11)]
)
_VALID = frozenset(RULE_IDS)
# A docstring citing more rules than this is a catalogue, not an implementation.
_CATALOGUE = 5
# A rule id, or a range of them such as "D2-D4" / "S1-S4".
_CITATION = re.compile(r"\b([SPDEV])(\d{1,2}a?)(?:\s*[-\u2013]\s*\1?(\d{1,2}))?\b")

# -- external references, resolved without a network -----------------------------------

_PY = "https://docs.python.org/3/"
_BUILTIN_TYPES = ("int", "str", "bool", "float", "bytes", "object", "tuple", "list", "dict",
                  "set", "frozenset", "range", "type")  # fmt: skip
_BUILTIN_EXCEPTIONS = ("Exception", "ValueError", "TypeError", "LookupError", "KeyError",
                       "IndexError", "RuntimeError", "OSError", "TimeoutError",
                       "KeyboardInterrupt", "NotImplementedError")  # fmt: skip
EXTERNAL: dict[str, str] = {
    **{name: f"{_PY}library/functions.html#{name}" for name in _BUILTIN_TYPES},
    **{name: f"{_PY}library/exceptions.html#{name}" for name in _BUILTIN_EXCEPTIONS},
    "None": f"{_PY}library/constants.html#None",
    "True": f"{_PY}library/constants.html#True",
    "False": f"{_PY}library/constants.html#False",
    "Ellipsis": f"{_PY}library/constants.html#Ellipsis",
    "random": f"{_PY}library/random.html",
    "random.Random": f"{_PY}library/random.html#random.Random",
    "json": f"{_PY}library/json.html",
    "enum.Enum": f"{_PY}library/enum.html#enum.Enum",
    "typing.Any": f"{_PY}library/typing.html#typing.Any",
    "typing.Protocol": f"{_PY}library/typing.html#typing.Protocol",
    "typing.Union": f"{_PY}library/typing.html#typing.Union",
    "typing.Callable": f"{_PY}library/typing.html#typing.Callable",
    "typing.TypeAlias": f"{_PY}library/typing.html#typing.TypeAlias",
    "typing.Literal": f"{_PY}library/typing.html#typing.Literal",
    "typing.IO": f"{_PY}library/typing.html#typing.IO",
    "typing.TextIO": f"{_PY}library/typing.html#typing.TextIO",
    "collections.abc.Mapping": f"{_PY}library/collections.abc.html#collections.abc.Mapping",
    "collections.abc.Sequence": f"{_PY}library/collections.abc.html#collections.abc.Sequence",
    "collections.abc.Iterable": f"{_PY}library/collections.abc.html#collections.abc.Iterable",
    "collections.abc.Iterator": f"{_PY}library/collections.abc.html#collections.abc.Iterator",
    "collections.abc.Callable": f"{_PY}library/collections.abc.html#collections.abc.Callable",
    "collections.abc.Hashable": f"{_PY}library/collections.abc.html#collections.abc.Hashable",
    "collections.abc.Collection": f"{_PY}library/collections.abc.html#collections.abc.Collection",
    "types.MappingProxyType": f"{_PY}library/types.html#types.MappingProxyType",
    "concurrent.futures.Executor": (
        f"{_PY}library/concurrent.futures.html#concurrent.futures.Executor"
    ),
    "concurrent.futures.Future": f"{_PY}library/concurrent.futures.html#concurrent.futures.Future",
    "concurrent.futures.ProcessPoolExecutor": (
        f"{_PY}library/concurrent.futures.html#concurrent.futures.ProcessPoolExecutor"
    ),
    "concurrent.futures.ThreadPoolExecutor": (
        f"{_PY}library/concurrent.futures.html#concurrent.futures.ThreadPoolExecutor"
    ),
    "distributed.Client": "https://distributed.dask.org/en/stable/api.html#distributed.Client",
    "distributed.LocalCluster": (
        "https://distributed.dask.org/en/stable/api.html#distributed.LocalCluster"
    ),
    "pathlib.Path": f"{_PY}library/pathlib.html#pathlib.Path",
    "os.PathLike": f"{_PY}library/os.html#os.PathLike",
    "importlib.metadata": f"{_PY}library/importlib.metadata.html",
    "doctest": f"{_PY}library/doctest.html",
    "attrs.evolve": "https://www.attrs.org/en/stable/api.html#attrs.evolve",
    "hypothesis.settings": (
        "https://hypothesis.readthedocs.io/en/latest/reference/api.html#hypothesis.settings"
    ),
    "attrs.frozen": "https://www.attrs.org/en/stable/api.html#attrs.frozen",
    "attrs.Attribute": "https://www.attrs.org/en/stable/api.html#attrs.Attribute",
    # mexican_train.rl: numpy, Gymnasium and PettingZoo in the signatures.
    **{
        f"numpy.{name}": f"https://numpy.org/doc/stable/reference/arrays.scalars.html#numpy.{name}"
        for name in ("int8", "int64", "integer", "float32", "bool", "bool_")
    },
    "numpy.ndarray": "https://numpy.org/doc/stable/reference/generated/numpy.ndarray.html",
    "numpy.dtype": "https://numpy.org/doc/stable/reference/generated/numpy.dtype.html",
    # numpy.typing.NDArray: on Python 3.12 and later a type alias named by its private home.
    **dict.fromkeys(
        ("numpy.typing.NDArray", "numpy._typing._array_like.NDArray"),
        "https://numpy.org/doc/stable/reference/typing.html#numpy.typing.NDArray",
    ),
    "gymnasium.Env": "https://gymnasium.farama.org/api/env/",
    "gymnasium.spaces.Box": "https://gymnasium.farama.org/api/spaces/fundamental/#box",
    "gymnasium.spaces.box.Box": "https://gymnasium.farama.org/api/spaces/fundamental/#box",
    "gymnasium.spaces.space.Space": "https://gymnasium.farama.org/api/spaces/",
    "pettingzoo.utils.env.AECEnv": "https://pettingzoo.farama.org/api/aec/",
}
# The same names as they appear in evaluated annotations.
EXTERNAL.update(
    {
        "typing.Sequence": EXTERNAL["collections.abc.Sequence"],
        "typing.Mapping": EXTERNAL["collections.abc.Mapping"],
        "typing.Iterable": EXTERNAL["collections.abc.Iterable"],
        "typing.Iterator": EXTERNAL["collections.abc.Iterator"],
        "builtins.int": EXTERNAL["int"],
        "builtins.str": EXTERNAL["str"],
        "builtins.bool": EXTERNAL["bool"],
        "NoneType": EXTERNAL["None"],
        "attr.evolve": EXTERNAL["attrs.evolve"],
        "concurrent.futures._base.Executor": EXTERNAL["concurrent.futures.Executor"],
        "concurrent.futures._base.Future": EXTERNAL["concurrent.futures.Future"],
    }
)


# -- the public API: names and where they really live ------------------------------------


def public_modules() -> list[str]:
    """Return the package and its public submodules (those without a leading underscore)."""
    package = importlib.import_module(PACKAGE)
    names = [PACKAGE]
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_"):
            names.append(f"{PACKAGE}.{info.name}")
    return names


def public_names() -> dict[str, Any]:
    """Return ``{public dotted name: object}`` for every public module's ``__all__``."""
    found: dict[str, Any] = {}
    for modname in public_modules():
        try:
            module = importlib.import_module(modname)
        except Exception as exc:  # a submodule with an optional dependency missing
            logger.warning("cannot import public module %s: %s", modname, exc)
            continue
        for name in getattr(module, "__all__", ()):
            if name.startswith("__"):
                continue
            found[f"{modname}.{name}"] = getattr(module, name)
    return found


def _private_aliases() -> dict[str, str]:
    """Map ``mexican_train._folder.module.Name`` to its public path, preferring the top level."""
    aliases: dict[str, str] = {}
    for public, obj in sorted(public_names().items(), key=lambda kv: (kv[0].count("."), kv[0])):
        module = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", None)
        if isinstance(module, str) and isinstance(qualname, str):
            aliases.setdefault(f"{module}.{qualname}", public)
        # Type aliases (``Move``) are evaluated away; their name survives only as text.
        aliases.setdefault(f"{PACKAGE}._{public.rsplit('.', 1)[1]}", public)
    return aliases


def _public_twins() -> dict[str, list[str]]:
    """Map each public name to the other public names of the same object."""
    by_object: dict[int, list[str]] = {}
    names = public_names()
    for name, obj in names.items():
        if not isinstance(obj, (int, str, bool, float)):
            by_object.setdefault(id(obj), []).append(name)
    return {
        name: [twin for twin in by_object.get(id(obj), []) if twin != name]
        for name, obj in names.items()
    }


def _public_path(target: str, public: set[str]) -> str | None:
    """Return the public path of a private one, by the name left once the modules are dropped.

    >>> names = {"mexican_train.Train", "mexican_train.players.SearchPlayer"}
    >>> _public_path("mexican_train._core.state.Train", names)
    'mexican_train.Train'
    >>> _public_path("mexican_train._core.state.Train.tiles", names)
    'mexican_train.Train.tiles'
    >>> _public_path("mexican_train._bots.search.SearchPlayer", names)
    'mexican_train.players.SearchPlayer'
    >>> _public_path("mexican_train._core.state.TILES", names) is None
    True
    """
    parts = target.split(".")[1:]  # ["_core", "state", "Train", "tiles"]
    for start in range(len(parts)):
        tail = ".".join(parts[start:])
        # The top level first, then the one public submodule that has the name; an
        # attribute resolves through its class's public path.
        head, _, rest = tail.partition(".")
        owners = sorted(p for p in public if p.rsplit(".", 1)[-1] == head)
        if f"{PACKAGE}.{head}" in public:
            owners = [f"{PACKAGE}.{head}"]
        if len(owners) == 1:
            return f"{owners[0]}.{rest}" if rest else owners[0]
    return None


def resolve_missing(
    app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolve private paths to public names, and Python/attrs names to their docs."""
    if node.get("refdomain") != "py":
        return None
    target: str = node["reftarget"]
    aliases = app.env.mt_private_aliases  # type: ignore[attr-defined]
    public = aliases.get(target)
    if public is None and target.startswith(f"{PACKAGE}._"):
        public = _public_path(target, set(aliases.values()))
    if target.endswith("()"):  # `Draw()` in a docstring: the class or function itself
        target = target[:-2]
        public = aliases.get(target)
    if public is None and "." not in target:
        # A bare name in a docstring ("Raises: NotationError") that is public in exactly
        # one public submodule.
        matches = {p for p in aliases.values() if p.rsplit(".", 1)[-1] == target}
        if len(matches) == 1:
            public = matches.pop()
    twins = app.env.mt_public_twins  # type: ignore[attr-defined]
    candidates = [public] if public is not None else []
    # The same object under another public name: mexican_train.simulate is documented
    # as mexican_train.simulation.simulate, say.
    candidates += twins.get(public or target, [])
    domain = env.get_domain("py")
    for candidate in candidates:
        for reftype in (node["reftype"], "class", "data", "obj"):
            resolved = domain.resolve_xref(
                env, node["refdoc"], app.builder, reftype, candidate, node, contnode
            )
            if resolved is not None:
                return resolved
    url = EXTERNAL.get(target)
    if url is None and target.startswith("typing."):
        url = EXTERNAL.get(target.removeprefix("typing."))
    if url is not None:
        reference = nodes.reference("", "", internal=False, refuri=url, reftitle=target)
        reference += contnode
        return reference
    return None


def check_public_api_documented(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn about every public name that no page documents."""
    documented = env.get_domain("py").objects  # type: ignore[attr-defined]
    documented_ids = set()
    for fullname in documented:
        modname, _, attr = fullname.rpartition(".")
        try:
            documented_ids.add(id(getattr(importlib.import_module(modname), attr)))
        except Exception:  # a method or attribute: not a module-level public name
            continue
    for public, obj in public_names().items():
        if public in documented:
            continue
        if not isinstance(obj, (int, str, bool)) and id(obj) in documented_ids:
            continue  # the same object, documented under another public name
        logger.warning("public name %s is not documented in the API reference", public)


def _listed_members_shown(
    app: Sphinx, what: str, name: str, obj: Any, skip: bool, options: Any
) -> None:
    """Warn about a member a ``:members:`` list names that autodoc leaves out.

    autodoc drops a member without a docstring (or a ``#:`` comment) silently, list or not.
    """
    listed = getattr(options, "members", None)
    if skip and isinstance(listed, list) and name in listed:
        logger.warning("%s is in a :members: list but has no docstring to show", name)


# -- finding rule citations in the code and the tests ------------------------------------


def cited_rules(text: str) -> set[str]:
    """Return the rule ids cited in *text*, with ranges such as ``D2-D4`` expanded.

    >>> sorted(cited_rules("D2: binds (P5, D1); see S1-S3 and V10, not E501"))
    ['D1', 'D2', 'P5', 'S1', 'S2', 'S3', 'V10']
    """
    ids: set[str] = set()
    for match in _CITATION.finditer(text):
        letter, first, last = match.groups()
        if last is None:
            candidates = [letter + first]
        elif first.isdigit():
            candidates = [f"{letter}{i}" for i in range(int(first), int(last) + 1)]
        else:
            candidates = [letter + first]
        ids.update(c for c in candidates if c in _VALID)
    return ids


def _citation_lines(path: Path) -> Iterator[tuple[int, str, bool]]:
    """Yield ``(line, text, is_comment)`` for every comment and docstring line of a file."""
    source = path.read_text(encoding="utf-8")
    with path.open("rb") as stream:
        for token in tokenize.tokenize(stream.readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.string, True
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                value = body[0].value
                if isinstance(value.value, str):
                    for offset, line in enumerate(value.value.splitlines()):
                        yield value.lineno + offset, line, False


class CodeCitation:
    """A module-level object (or the module itself) whose code or docstring cites a rule."""

    def __init__(
        self, modname: str, tag: str | None, line: int, in_comment: bool, name: str | None = None
    ) -> None:
        self.name = name  # for a module-level citation: the name assigned there, if any
        self.modname = modname
        self.tag = tag  # a viewcode tag such as "_play" or "Tile.parse"; None: the module
        self.line = line
        self.in_comment = in_comment  # cited by a "# D2: ..." comment, not only a docstring
        self.catalogue = False  # a docstring citing many rules (see scan_code)

    @property
    def label(self) -> str:
        short = self.modname.removeprefix(f"{PACKAGE}.")
        if self.tag or self.name:
            return f"{short}.{self.tag or self.name}"
        return f"{short} (module)"


def _module_assignments(path: Path) -> list[tuple[int, int, str]]:
    """Return ``(first line, last line, name)`` of every module-level assignment."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) else [])  # fmt: skip
        for target in targets:
            if isinstance(target, ast.Name):
                found.append((node.lineno, node.end_lineno or node.lineno, target.id))
    return found


def _assignment_at(assigned: list[tuple[int, int, str]], line: int) -> str | None:
    for first, last, name in assigned:
        if first <= line <= last or line < first <= line + 3:
            return name
    return None


def scan_code(source_dir: Path) -> dict[str, list[CodeCitation]]:
    """Return ``{rule id: [citations]}`` for every module of the package."""
    found: dict[str, dict[tuple[str, str | None], CodeCitation]] = {}
    breadth: dict[tuple[str, str | None], set[str]] = {}
    for path in sorted(source_dir.rglob("*.py")):
        relative = path.relative_to(source_dir.parent).with_suffix("")
        modname = ".".join(relative.parts)
        if modname.endswith(".__init__"):
            modname = modname.removesuffix(".__init__")
        analyzer = ModuleAnalyzer.for_file(str(path), modname)
        tags = analyzer.find_tags()
        assigned = _module_assignments(path)
        for line, text, is_comment in _citation_lines(path):
            rules = cited_rules(text)
            if not rules:
                continue
            # The innermost tag whose lines hold the citation (viewcode tags are 1-based).
            enclosing = [
                (end - start, name)
                for name, (_kind, start, end) in tags.items()
                if start <= line <= end
            ]
            tag = min(enclosing)[1] if enclosing else None
            # A module-level "#:" comment documents the assignment it sits on or above.
            name = None if tag else _assignment_at(assigned, line)
            for rule in rules:
                key = (modname, tag or name)
                bucket = found.setdefault(rule, {})
                if key not in bucket:
                    start = tags[tag][1] if tag else 1
                    bucket[key] = CodeCitation(modname, tag, start, is_comment, name)
                elif is_comment:
                    bucket[key].in_comment = True
                if not is_comment:
                    breadth.setdefault(key, set()).add(rule)
    # A docstring that cites many rules is a catalogue (Rules, GameState), not an
    # implementation: it counts only where a comment also cites the rule.
    for bucket in found.values():
        for key, citation in bucket.items():
            citation.catalogue = len(breadth.get(key, ())) > _CATALOGUE
    return {rule: list(bucket.values()) for rule, bucket in found.items()}


def select_citations(
    citations: list[CodeCitation], modules: list[str], ignored: frozenset[str] = frozenset()
) -> list[CodeCitation]:
    """Return the citations in *modules* (short names), in order.

    A ``# D2: ...`` comment marks code that implements a rule, and so does a function's
    or class's docstring that cites it; a module docstring, or a catalogue docstring
    such as `Rules`'s, only describes (unless nothing else cites the rule).
    """
    wanted = {f"{PACKAGE}.{m}" if m else PACKAGE for m in modules}
    mine = [c for c in citations if c.modname in wanted and c.label not in ignored]
    chosen = [c for c in mine if c.in_comment or (c.tag and not c.catalogue)] or mine
    chosen = [c for c in chosen if c.tag or c.name] or chosen
    order = {m: i for i, m in enumerate(f"{PACKAGE}.{m}" for m in modules)}
    return sorted(chosen, key=lambda c: (order.get(c.modname, 99), c.line))


class TestCitation:
    """A test that pins a rule: its pytest node id and the first line of its docstring."""

    def __init__(self, nodeid: str, doc: str) -> None:
        self.nodeid = nodeid
        self.doc = doc


def scan_tests(tests_dir: Path) -> dict[str, list[TestCitation]]:
    """Return ``{rule id: [tests]}``: tests named ``test_<id>_...`` (any case)."""
    prefixes = {f"test_{rule.lower()}_": rule for rule in RULE_IDS}
    found: dict[str, list[TestCitation]] = {}
    for path in sorted(tests_dir.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, owner in _test_functions(tree):
            rule = next((r for p, r in prefixes.items() if node.name.startswith(p)), None)
            if rule is None:
                continue
            # The docstring's first paragraph, on one line.
            doc = " ".join((ast.get_docstring(node) or "").split("\n\n")[0].split())
            name = f"{owner}::{node.name}" if owner else node.name
            found.setdefault(rule, []).append(TestCitation(f"tests/{path.name}::{name}", doc))
    return found


def _test_functions(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef, str | None]]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node, None
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    yield item, node.name


# -- the :rule: role and the rule-links directive ----------------------------------------


def rule_role(
    name: str, rawtext: str, text: str, lineno: int, inliner: Any,
    options: dict[str, Any] | None = None, content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:  # fmt: skip
    """``:rule:`D2``` links to the rule's section; ``:rule:`open doubles <D2>``` too."""
    match = re.fullmatch(r"(?s)(.*?)\s*<(\w+)>", text)
    title, rule = (match.group(1), match.group(2)) if match else (text, text)
    if rule not in _VALID:
        message = inliner.reporter.error(f"unknown rule id {rule!r}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    xref = addnodes.pending_xref(
        rawtext, refdomain="std", reftype="ref", reftarget=f"rule-{rule.lower()}",
        refexplicit=True, refwarn=True,
    )  # fmt: skip
    xref += nodes.inline(title, title, classes=["rule-id"])
    return [xref], []


class code_link(nodes.Inline, nodes.TextElement):
    """A link to highlighted source, resolved once the builder knows the page URIs."""


class RuleLinks(SphinxDirective):
    """``.. rule-links:: D2``: the code that implements a rule and the tests that pin it."""

    required_arguments = 1
    optional_arguments = 0
    option_spec: ClassVar[dict[str, Any]] = {
        "no-tests": directives.flag,
        "no-code": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        rule = self.arguments[0]
        if rule not in _VALID:
            raise self.error(f"unknown rule id {rule!r}")
        env = self.env
        code = env.mt_code_citations.get(rule, [])  # type: ignore[attr-defined]
        tests = env.mt_test_citations.get(rule, [])  # type: ignore[attr-defined]
        env.note_dependency(str(Path(env.config.mt_tests_dir)))
        box = nodes.container(classes=["rule-links"])

        if "no-code" not in self.options:
            ignored = frozenset(env.config.mt_rule_ignore)
            implementing = select_citations(code, env.config.mt_rule_code_modules, ignored)
            if not implementing:
                logger.warning("rule %s: no code cites it", rule, location=self.get_location())
            box += self._code_line("Implemented in: ", implementing)
            variants = select_citations(code, env.config.mt_rule_variant_modules, ignored)
            if variants:
                box += self._code_line("Variants of it: ", variants)
            checking = select_citations(code, env.config.mt_rule_check_modules, ignored)
            if checking:
                box += self._code_line("Checked for any Rules by the conformance kit: ", checking)

        if "no-tests" not in self.options:
            para = nodes.paragraph()
            para += nodes.strong(text="Pinned by: ")
            box += para
            if not tests:
                logger.warning("rule %s: no test named test_%s_...", rule, rule.lower(),
                               location=self.get_location())  # fmt: skip
                para += nodes.Text("(no test yet)")
            items = nodes.bullet_list()
            for test in tests:
                item = nodes.list_item()
                line = nodes.paragraph()
                line += nodes.literal(test.nodeid, test.nodeid)
                if test.doc:
                    line += nodes.Text(" \u2014 ")
                    line += nodes.inline(test.doc, test.doc, classes=["rule-test-doc"])
                item += line
                items += item
            if tests:
                box += items
        return [box]

    def _code_line(self, title: str, citations: list[CodeCitation]) -> nodes.paragraph:
        para = nodes.paragraph()
        para += nodes.strong(text=title)
        for i, citation in enumerate(citations):
            if i:
                para += nodes.Text(", ")
            link = code_link("", "", modname=citation.modname, tag=citation.tag or "")
            link += nodes.literal(citation.label, citation.label)
            para += link
        return para


def _register_viewcode_tags(app: Sphinx, doctree: nodes.document) -> None:
    """Make viewcode anchor every object a rule box links to (it anchors only autodoc'd ones)."""
    env = app.env
    # viewcode's own record: {module: (code, tags, {tag: docname}, refname) or False}.
    modules: dict[str, Any] | None = getattr(env, "_viewcode_modules", None)
    if modules is None:
        modules = {}
        env._viewcode_modules = modules  # type: ignore[attr-defined]
    current = getattr(env, "current_document", None)
    docname = current.docname if current is not None else env.docname
    anchored: set[str] = set()
    for link in doctree.findall(code_link):
        modname, tag = link["modname"], link["tag"]
        entry = modules.get(modname)
        if not entry:
            analyzer = ModuleAnalyzer.for_module(modname)
            analyzer.find_tags()
            entry = (analyzer.code, analyzer.tags, {}, modname)
            modules[modname] = entry
        if tag:
            used: dict[str, str] = entry[2]
            used.setdefault(tag, docname)
            # viewcode's "[docs]" link comes back to "<refname>.<tag>" on that page.
            anchor = f"{entry[3]}.{tag}"
            if used[tag] == docname and anchor not in anchored:
                anchored.add(anchor)
                link["ids"].append(anchor)


def _hide_bool_overloads(app: Sphinx, doctree: nodes.document) -> None:
    """Drop the ``(x: bool) -> NoReturn`` overload from a signature list.

    It is there for type checkers alone: a bool is an int to them, and the overload
    makes ``new_game(True)`` an error they report.  On the page it would be the first
    signature the reader sees; the real ones follow it, and take its anchor.
    """

    def names(node: nodes.Element) -> set[str]:
        # The type names a node refers to (an unresolved reference holds its name twice).
        return {ref["reftarget"] for ref in node.findall(addnodes.pending_xref)}

    for desc in doctree.findall(addnodes.desc):
        signatures = [c for c in desc.children if isinstance(c, addnodes.desc_signature)]
        for signature, following in itertools.pairwise(signatures):
            returns = set().union(*map(names, signature.findall(addnodes.desc_returns)))
            parameters = [names(p) for p in signature.findall(addnodes.desc_parameter)]
            if returns in ({"typing.NoReturn"}, {"NoReturn"}) and {"bool"} in parameters:
                following["ids"] = signature["ids"] + following["ids"]
                following.extend(  # the "[source]" link, if viewcode added it already
                    anchor.deepcopy()
                    for anchor in signature.children
                    if type(anchor).__name__ == "viewcode_anchor"
                )
                desc.remove(signature)


def _defining_module(app: Sphinx, modname: str, attribute: str) -> str | None:
    """Return the private module that defines *attribute* of *modname*, for viewcode.

    The public errors go by their public module's name (``DealError.__module__`` is
    ``mexican_train``), where viewcode finds no source: the module whose code defines
    the class keeps their "[source]" link.  None for every other object.
    """
    if modname != PACKAGE and not modname.startswith(f"{PACKAGE}."):
        return None
    name = attribute.split(".", 1)[0]
    found = getattr(sys.modules.get(modname), name, None)
    if not isinstance(found, type) or found.__module__ != modname:
        return None
    for private, module in sorted(sys.modules.items()):
        if private.startswith(f"{PACKAGE}._") and vars(module).get(name) is found:
            analyzer = ModuleAnalyzer.for_module(private)
            if name in analyzer.find_tags():
                return private
    return None


def _constants_documented_where_defined(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """Give a public constant the ``#:`` comment written where it is defined.

    autodoc reads a constant's comment in the module it documents (``mexican_train.web``);
    a constant defined in a private module and imported there has none there, and
    autodoc would show its type's docstring instead (int's: "int([x]) -> integer").
    A constant documented nowhere is warned about.
    """
    if what != "data" or not name.startswith(f"{PACKAGE}."):
        return
    modname, _, attribute = name.rpartition(".")
    if ("", attribute) in ModuleAnalyzer.for_module(modname).find_attr_docs():
        return  # written in the public module itself: autodoc has it
    for private, module in sorted(sys.modules.items()):
        if not private.startswith(f"{PACKAGE}._") or vars(module).get(attribute) is not obj:
            continue
        comment = ModuleAnalyzer.for_module(private).find_attr_docs().get(("", attribute))
        if comment:
            lines[:] = list(comment)
            return
    lines.clear()
    logger.warning("%s: no #: comment documents it where it is defined", name)


def _resolve_code_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for link in list(doctree.findall(code_link)):
        children = link.children
        if app.builder.format != "html":
            link.replace_self(children)
            continue
        page = "_modules/" + link["modname"].replace(".", "/")
        uri = app.builder.get_relative_uri(docname, page)
        if link["tag"]:
            uri += "#" + link["tag"]
        reference = nodes.reference("", "", internal=True, refuri=uri,
                                    reftitle="the highlighted source")  # fmt: skip
        reference["ids"] = list(link["ids"])
        reference += children
        link.replace_self(reference)


# -- set-up --------------------------------------------------------------------------------


def _on_builder_inited(app: Sphinx) -> None:
    if "members" in app.config.autodoc_default_options:
        # Sphinx puts the default in place of a directive's own list (sphinx-doc/sphinx#9709):
        # every ``:members: a, b`` would show every member with a docstring.
        logger.warning(
            "autodoc_default_options sets 'members', which overrides every :members: list; "
            "give :members: to each autoclass instead"
        )
    env = app.env
    env.mt_private_aliases = _private_aliases()  # type: ignore[attr-defined]
    env.mt_public_twins = _public_twins()  # type: ignore[attr-defined]
    env.mt_code_citations = scan_code(Path(app.config.mt_source_dir))  # type: ignore[attr-defined]
    env.mt_test_citations = scan_tests(Path(app.config.mt_tests_dir))  # type: ignore[attr-defined]


def _always_reread_rule_pages(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    # The boxes depend on the source and the tests, which Sphinx does not track.
    return [doc for doc in env.found_docs if doc.startswith("explanation/rules")]


# -- the defaults of attrs classes ---------------------------------------------------


def _attrs_defaults_as_values(app: Sphinx, obj: Any, bound_method: bool) -> None:
    """Show the defaults of an attrs class's ``__init__`` as their values.

    ``autodoc_preserve_defaults`` shows a default as written in the source, and the source
    of an ``__init__`` that attrs generates writes each one as
    ``attr_dict['name'].default``.  Dropping the signature it set leaves autodoc the real
    one, whose defaults are the values (``max_pip=12``).
    """
    code = getattr(obj, "__code__", None)
    if code is not None and code.co_filename.startswith("<attrs generated"):
        vars(obj).pop("__signature__", None)


def _no_generated_source_in_signatures(
    app: Sphinx,
    what: str,
    name: str,
    obj: Any,
    options: Any,
    signature: str | None,
    return_annotation: str | None,
) -> None:
    """Warn about a signature that shows attrs' generated source instead of a value."""
    if signature and "attr_dict[" in signature:
        logger.warning("%s: a default shown as attrs' source: %s", name, signature)


_DEFAULT_NAME = re.compile(r"(=\s*)([A-Z][A-Z0-9_]+)\b")


def _private_defaults_as_values(
    app: Sphinx,
    what: str,
    name: str,
    obj: Any,
    options: Any,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str, str | None] | None:
    """Show a default named by a constant no page documents as its value.

    ``autodoc_preserve_defaults`` keeps ``timeout=LONG_POLL`` as written, a name the reader
    cannot look up; a public constant (``rules=STANDARD``) stays a name.
    """
    if not signature:
        return None
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    public = {dotted.rsplit(".", 1)[-1] for dotted in public_names()}

    def shown(match: re.Match[str]) -> str:
        constant = match.group(2)
        value = getattr(module, constant, None)
        if constant in public or type(value) not in (int, float, str):
            return match.group(0)
        return f"{match.group(1)}{value!r}"

    shown_signature = _DEFAULT_NAME.sub(shown, signature)
    return None if shown_signature == signature else (shown_signature, return_annotation)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("mt_source_dir", "", "env")
    app.add_config_value("mt_tests_dir", "", "env")
    # Modules (short names) whose rule citations count as the implementation, in the order
    # shown; and those that check any Rules against the rules (the conformance kit).
    app.add_config_value("mt_rule_code_modules", [], "env")
    app.add_config_value("mt_rule_variant_modules", [], "env")
    app.add_config_value("mt_rule_check_modules", [], "env")
    # Labels ("_catalogue.variants.rules_table") of code that cites rules only to describe them.
    app.add_config_value("mt_rule_ignore", [], "env")
    app.add_role("rule", rule_role)
    app.add_node(code_link)
    app.add_directive("rule-links", RuleLinks)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-get-outdated", _always_reread_rule_pages)
    app.connect("doctree-read", _hide_bool_overloads, priority=400)  # before viewcode's links
    app.connect("doctree-read", _register_viewcode_tags, priority=600)
    app.connect("viewcode-follow-imported", _defining_module)
    app.connect("doctree-resolved", _resolve_code_links)
    app.connect("missing-reference", resolve_missing)
    app.connect("env-check-consistency", check_public_api_documented)
    app.connect("autodoc-before-process-signature", _attrs_defaults_as_values)
    app.connect("autodoc-process-signature", _no_generated_source_in_signatures)
    app.connect("autodoc-process-signature", _private_defaults_as_values)
    app.connect("autodoc-process-docstring", _constants_documented_where_defined)
    app.connect("autodoc-skip-member", _listed_members_shown)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
