"""The installed package is complete: version, typing marker and every public name.

`.ci/run` runs the whole suite against the installed wheel, so these tests catch a file
left out of the package, or metadata that disagrees with the code.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.resources
import pkgutil
import re
import subprocess
import sys

import pytest

import mexican_train

#: open_spiel installs on Python 3.11 and later only: mexican_train.openspiel needs it.
_UNAVAILABLE = {"openspiel"} if sys.version_info < (3, 11) else set()

PUBLIC_MODULES = ["mexican_train"] + [
    f"mexican_train.{info.name}"
    for info in pkgutil.iter_modules(mexican_train.__path__)
    if not info.name.startswith("_") and info.name not in _UNAVAILABLE
]


def test_version_is_single_sourced() -> None:
    """The distribution's version is the package's ``__version__``."""
    assert importlib.metadata.version("mexican-train") == mexican_train.__version__


def test_package_is_marked_as_typed() -> None:
    """``py.typed`` ships with the package (PEP 561), so type checkers read its hints."""
    assert importlib.resources.files("mexican_train").joinpath("py.typed").is_file()


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_name_is_importable(module_name: str) -> None:
    """Every name in a public module's ``__all__`` exists, and none is listed twice."""
    module = importlib.import_module(module_name)
    names = list(module.__all__)
    missing = [name for name in names if not hasattr(module, name)]
    assert not missing, f"{module_name}.__all__ names missing attributes: {missing}"
    assert len(set(names)) == len(names), f"{module_name}.__all__ repeats a name"


@pytest.mark.parametrize(
    ("module_name", "dependency", "extra"),
    [
        ("mexican_train.rl", "gymnasium", "mexican-train[rl]"),
        ("mexican_train.rl", "pettingzoo", "mexican-train[rl]"),
        ("mexican_train.openspiel", "pyspiel", "mexican-train[openspiel]"),
    ],
)
def test_a_missing_extra_is_named_when_its_module_is_imported(
    module_name: str, dependency: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Importing an optional module without its extra says which extra to install."""
    monkeypatch.setitem(sys.modules, dependency, None)  # None: "import fails"
    for name in [module_name, "mexican_train._adapters.openspiel", "mexican_train._adapters.envs"]:
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(ImportError, match=re.escape(f"pip install '{extra}'")):
        importlib.import_module(module_name)


@pytest.mark.skipif("openspiel" in _UNAVAILABLE, reason="open_spiel needs Python 3.11")
def test_the_openspiel_extra_alone_plays_the_openspiel_game() -> None:
    """``mexican_train.openspiel`` needs what its extra installs (open_spiel and numpy),
    not the rl extra's gymnasium and pettingzoo: a game is played and observed without them."""
    script = (
        "import random, sys\n"
        "for name in ('gymnasium', 'pettingzoo'):\n"
        "    sys.modules[name] = None  # None: 'import fails'\n"
        "import pyspiel\n"
        "import mexican_train.openspiel\n"
        "game = pyspiel.load_game('python_mexican_train', {'players': 2, 'rounds': 1})\n"
        "state, rng = game.new_initial_state(), random.Random(1)\n"
        "while not state.is_terminal():\n"
        "    if state.is_chance_node():\n"
        "        state.apply_action(rng.choice(state.chance_outcomes())[0])\n"
        "    else:\n"
        "        seat = state.current_player()\n"
        "        state.observation_tensor(seat), state.information_state_tensor(seat)\n"
        "        state.apply_action(rng.choice(state.legal_actions()))\n"
        "print(round(sum(state.returns()), 6))\n"
    )
    done = _fresh_python(code=script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0.0"


def test_typescript_types_ship_beside_each_json_schema() -> None:
    """The generated ``.d.ts`` is in the package beside each schema: the library's
    documents', for the schema's current version, and the web protocol's, whose view and
    moves are the library's types."""
    from mexican_train.serialize import SCHEMA_VERSION

    folder = importlib.resources.files("mexican_train").joinpath("schema")
    schemas = sorted(p.name for p in folder.iterdir() if p.name.endswith(".schema.json"))
    library = SCHEMA_VERSION.replace("/", "-")
    assert schemas == [f"{library}.schema.json", "mexican-train-web-1.schema.json"]
    roots = {library: "MexicanTrainDocument", "mexican-train-web-1": "MexicanTrainWebDocument"}
    for name in schemas:
        stem = name.removesuffix(".schema.json")
        types = folder.joinpath(stem + ".d.ts")
        assert types.is_file(), f"{types} is missing: run 'npm run generate' in types/"
        text = types.read_text(encoding="utf-8")
        assert f'schema: "{SCHEMA_VERSION}"' in text
        assert f"export type {roots[stem]} =" in text
    web = folder.joinpath("mexican-train-web-1.d.ts").read_text(encoding="utf-8")
    assert f'import("./{library}").View' in web
    assert "export interface SeatDocument {" in web


def test_read_the_docs_builds_the_sphinx_site_with_the_docs_extra() -> None:
    """The Documentation URL of the metadata is served by Read the Docs."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    config = (root / ".readthedocs.yaml").read_text(encoding="utf-8")
    assert "version: 2" in config
    assert "configuration: docs/conf.py" in config
    assert (root / "docs" / "conf.py").is_file()
    assert "- docs" in config
    metadata = importlib.metadata.metadata("mexican-train")
    assert "docs" in (metadata.get_all("Provides-Extra") or [])
    urls = metadata.get_all("Project-URL") or []
    assert any(
        url.startswith("Documentation, https://mexican-train.readthedocs.io") for url in urls
    )


def test_the_docs_extra_brings_what_autodoc_imports() -> None:
    """The docs build from the docs extra alone: it brings the adapters' and the web extras in."""
    from pathlib import Path

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    root = Path(__file__).resolve().parent.parent
    extras = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert "mexican-train[rl,openspiel,web]" in extras["docs"]
    assert {"sphinx", "furo", "myst-parser"} <= {
        re.split(r"[<>=;\[ ]", requirement)[0] for requirement in extras["docs"]
    }


def test_every_bot_is_importable_from_the_top_level() -> None:
    """Every bot of ``mexican_train.players`` is also ``mexican_train.<its name>``."""
    import mexican_train.players as players

    bots = [
        name
        for name in players.__all__
        if isinstance(getattr(players, name), type) and hasattr(getattr(players, name), "choose")
    ]
    assert {"RandomPlayer", "GreedyPlayer", "PlannerPlayer", "SearchPlayer"} <= set(bots)
    for name in bots:
        assert name in mexican_train.__all__
        assert getattr(mexican_train, name) is getattr(players, name)


def test_the_request_layer_runs_without_the_web_extra_and_the_table_names_it() -> None:
    """mexican_train.web's request layer is the standard library's server: it imports
    without the web extra, as examples/http_table.py needs; the web table, which needs
    the extra, says which to install when it is asked for."""
    script = (
        "import sys\n"
        "for name in ('h11', 'starlette', 'uvicorn', 'websockets'):\n"
        "    sys.modules[name] = None  # None: 'import fails'\n"
        "from mexican_train.web import JSONRequestHandler, JSONServer, RequestError\n"
        "try:\n"
        "    from mexican_train.web import WebTable\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "pip install 'mexican-train[web]'" in done.stdout, done.stdout


#: Where the README's pictures and links point: PyPI shows the README as the project's
#: description, away from the repository, where a relative path leads nowhere.
_REPOSITORY = "https://github.com/mexican-train/mexican-train"
_RAW = "https://raw.githubusercontent.com/mexican-train/mexican-train/main/"


def test_the_readme_links_by_absolute_urls_to_files_of_the_repository() -> None:
    """Every picture and link of the README (PyPI's long description) is an absolute URL,
    and each one into the repository names a file of the tree; the Source URL of the
    metadata is that repository."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme) + re.findall(r'src="([^"]+)"', readme)
    assert targets, "the README has no link or picture"
    relative = [target for target in targets if not re.match(r"https?://", target)]
    assert not relative, f"relative in the README, broken on PyPI: {relative}"
    for target in targets:
        for prefix in (_RAW, f"{_REPOSITORY}/blob/main/"):
            if target.startswith(prefix):
                path = target.removeprefix(prefix)
                assert (root / path).is_file(), f"the README names {target}: no {path}"
    assert f"Source, {_REPOSITORY}" in (
        importlib.metadata.metadata("mexican-train").get_all("Project-URL") or []
    )


def _fresh_python(*args: str, code: str) -> subprocess.CompletedProcess[str]:
    # A new interpreter: a module already imported by this process, or a warning already
    # shown in it, would hide what an import does.
    return subprocess.run(
        [sys.executable, *args, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_module_imports_with_warnings_as_errors(module_name: str) -> None:
    """``python -W error -c "import <module>"`` raises nothing: no deprecation of the
    package's own or of what it imports, as a user's CI with warnings as errors sees it."""
    done = _fresh_python("-W", "error", code=f"import {module_name}")
    assert done.returncode == 0, done.stderr


#: What ``import mexican_train`` must not bring in: the front ends' and the adapters'
#: dependencies (the command line, the web table, numpy), each imported by the module
#: that needs it, and importlib.metadata, which only a variant registered by an installed
#: package needs (a fifth of the import time).
_HEAVY = ["click", "numpy", "starlette", "uvicorn", "h11", "websockets", "gymnasium",
          "pettingzoo", "pyspiel", "dask", "distributed", "sqlite3", "asyncio",
          "importlib.metadata"]  # fmt: skip


def test_the_core_import_brings_in_no_front_end_or_adapter_dependency() -> None:
    """``import mexican_train`` imports attrs and cattrs, never click, numpy, Starlette
    and the like: a program that only plays the rules pays for none of them."""
    code = (
        "import sys, mexican_train\n"
        f"print(sorted(name for name in {_HEAVY!r} if name in sys.modules))\n"
    )
    done = _fresh_python(code=code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"import mexican_train imported {done.stdout}"


def test_each_compiled_release_wheel_is_built_where_the_test_extra_installs() -> None:
    """cibuildwheel tests each compiled wheel with the test extra, whose open_spiel (Python
    3.11+) publishes wheels for glibc 2.28 Linux, arm64 macOS and 64-bit Windows only:
    elsewhere pip would build open_spiel from source, and the release would fail there.
    So the Linux wheels are built in the manylinux_2_28 image (cibuildwheel 2's default,
    manylinux2014, has glibc 2.17), musl Linux is not built, and the macOS wheels are
    arm64 ones, built on an arm64 runner (Intel macOS and musl Linux get the pure wheel)."""
    from pathlib import Path

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "cibuildwheel"
    ]
    assert config["test-extras"] == ["test"]
    assert config["manylinux-x86_64-image"] == "manylinux_2_28"
    assert config["manylinux-aarch64-image"] == "manylinux_2_28"
    assert "*-musllinux_*" in config["skip"].split()
    assert config["macos"]["archs"] == ["arm64"]
    workflow = (root / ".github" / "workflows" / "wheels.yml").read_text(encoding="utf-8")
    (runners,) = re.findall(r"^\s*os: \[(.*)\]$", workflow, flags=re.MULTILINE)
    macs = [runner.strip() for runner in runners.split(",") if "macos" in runner]
    # macos-13, the last Intel image but one, is retired; macos-*-intel are x86_64.
    assert macs, "no macOS runner builds the macOS wheels"
    assert all(re.fullmatch(r"macos-(1[4-9]|[2-9][0-9]|latest)", runner) for runner in macs), macs


def test_the_python_classifiers_are_the_versions_ci_tests_and_releases() -> None:
    """The metadata's ``Programming Language :: Python :: 3.X`` classifiers, the CI
    matrix, the nox sessions and the compiled release wheels name the same Pythons, the
    oldest of which is ``Requires-Python``'s bound: PyPI says what is tested."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    metadata = importlib.metadata.metadata("mexican-train")
    classified = sorted(
        (
            classifier.rsplit(" :: ", 1)[1]
            for classifier in metadata.get_all("Classifier") or []
            if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", classifier)
        ),
        key=lambda version: int(version.split(".")[1]),
    )
    assert classified, "no Python version among the classifiers"
    assert metadata["Requires-Python"] == f">={classified[0]}"
    ci = (root / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    (matrix,) = re.findall(r"^\s*python: \[(.*)\]$", ci, flags=re.MULTILINE)
    assert re.findall(r'"(3\.\d+)"', matrix) == classified, "ci.yml's tests matrix"
    nox = (root / "noxfile.py").read_text(encoding="utf-8")
    (pythons,) = re.findall(r"^PYTHONS = \[(.*)\]$", nox, flags=re.MULTILINE)
    assert re.findall(r'"(3\.\d+)"', pythons) == classified, "noxfile.py's PYTHONS"
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    build = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "cibuildwheel"
    ]["build"]
    assert build.split() == [f"cp{version.replace('.', '')}-*" for version in classified]
