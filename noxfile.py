"""The project's checks as nox sessions, shared by the CI workflow and the local gate.

``.github/workflows/ci.yml`` runs one session per job on every push and pull request;
``bash .ci/run`` runs them on one machine, with the rest of the local gate around them.
CONTRIBUTING.md ("Running the checks") describes the matrix.

    nox -s tests-3.12      the README's test command on one Python (3.10-3.13)
    nox -s lint            ruff check, ruff format --check
    nox -s types           mypy (strict) and lint-imports (the layers)
    nox -s docs            the docs from a fresh environment with the docs extra alone
    nox -s wheel           the sdist and the pure wheel, checked; the suite against the wheel
    nox -s compiled        the compiled (mypyc) wheel, checked; the suite against it
    nox -s oldest          the library and its command line on the lowest dependencies
    nox -s browser         the web table in a real browser (needs /usr/bin/chromium)

Arguments after ``--`` go to pytest (tests, wheel, compiled, oldest, browser).
"""

from __future__ import annotations

import re
import shutil
import sys
import zipfile
from pathlib import Path

import nox

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

nox.options.sessions = ["tests", "lint", "types", "docs"]

ROOT = Path(__file__).resolve().parent
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
LINTED = ["src", "tests", "docs", "benchmarks", "tests_browser", "noxfile.py"]
#: What the tests read besides themselves, copied beside them when they run against an
#: installed wheel from outside the source tree (the tests that keep pages up to date).
TEST_FILES = [
    "tests",
    "examples",
    "benchmarks",
    "docs",
    "README.md",
    "CONTRIBUTING.md",
    "pyproject.toml",
    ".readthedocs.yaml",
    ".github",
    "noxfile.py",
]
#: The modules mypyc compiles, as pyproject.toml lists them
#: ([tool.hatch.build.targets.wheel.hooks.custom]): the compiled wheel holds one extension
#: module for each.
COMPILED_SOURCES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"][
    "targets"
]["wheel"]["hooks"]["custom"]["include"]
COMPILED_MODULES = re.compile(
    "({})\\.[^/]*\\.(so|pyd)".format(
        "|".join(
            re.escape(source.removeprefix("src/").removesuffix(".py"))
            for source in COMPILED_SOURCES
        )
    )
)


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """Run the README's test command, on one Python.

    The suite, the doctests of src/, README.md and docs/, and the examples, against an
    editable install with the test and dask extras.
    """
    session.install("-e", ".[test,dask]")
    session.run("python", "-m", "pytest", "-n", "auto", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Run ruff's checks and its format check."""
    session.install("ruff>=0.5")
    session.run("ruff", "check", *LINTED)
    session.run("ruff", "format", "--check", *LINTED)


@nox.session
def types(session: nox.Session) -> None:
    """Type-check strictly (src, tests, benchmarks, tests_browser) and check the layers."""
    session.install("-e", ".[test,dask]")
    session.run("python", "-m", "mypy")
    session.run("lint-imports")  # pyproject.toml, [tool.importlinter]


@nox.session
def docs(session: nox.Session) -> None:
    """Build the docs as Read the Docs does, from the docs extra alone.

    A fresh environment, ``pip install '.[docs]'`` (not editable, nothing else), warnings
    as errors and every reference resolved.
    """
    session.install(".[docs]")
    out = Path(session.create_tmp()) / "html"
    shutil.rmtree(out, ignore_errors=True)
    session.run(
        "python", "-m", "sphinx", "-W", "-n", "--keep-going", "-q", "-b", "html", "docs", str(out)
    )
    # A constant whose comment autodoc missed shows its type's docstring as its own.
    builtin = tuple(f"<dd><p>{text}" for text in ("int([x]) -&gt; integer", "str(object=",
                    "Built-in immutable sequence.", "Convert a string or number to a floating"))  # fmt: skip
    shown = [str(page.relative_to(out)) for page in sorted(out.rglob("*.html"))
             if any(text in page.read_text(encoding="utf-8") for text in builtin)]  # fmt: skip
    if shown:
        session.error(f"a built-in type's docstring documents a constant in {shown}")
    session.log(f"the docs: {out}")


@nox.session
def wheel(session: nox.Session) -> None:
    """Build and check the sdist and the pure wheel, and test the installed wheel.

    Both go to dist/, the wheel built from the sdist; the suite runs against the
    installed wheel from outside the source tree.
    """
    found = _build(session, "dist")
    session.run("python", "-m", "twine", "check", "--strict", *map(str, found))
    wheel = _the_wheel(found)
    shipped, _ = _package_files(wheel)
    missing, extra = sorted(_source_files() - shipped), sorted(shipped - _source_files())
    if missing or extra or "mexican_train/py.typed" not in shipped:
        session.error(f"{wheel.name}: missing {missing}, unexpected {extra}")
    session.log(f"{wheel.name}: {len(shipped)} package files, py.typed included")
    _test_installed(session, wheel, compiled=False)


@nox.session
def compiled(session: nox.Session) -> None:
    """Build and check the compiled wheel (mypyc), and test it installed.

    MEXICAN_TRAIN_COMPILE=1, the wheel built from the sdist into dist-compiled/; the suite
    (the behaviour digest among it) runs against it installed, and the benchmarks' quick
    mode on it, OpenSpiel's ISMCTS against SearchPlayer among them (Python 3.11 and later,
    where the test extra brings the openspiel extra).
    """
    found = _build(session, "dist-compiled", env={"MEXICAN_TRAIN_COMPILE": "1"})
    wheel = _the_wheel(found)
    shipped, helpers = _package_files(wheel)
    built = {name for name in shipped if COMPILED_MODULES.fullmatch(name)}
    missing = sorted(_source_files() - shipped)
    extra = sorted(shipped - _source_files() - built)
    if (
        missing
        or extra
        or len(built) != len(COMPILED_SOURCES)
        or len(helpers) != 1
        or "none-any" in wheel.name
    ):
        session.error(
            f"{wheel.name}: missing {missing}, unexpected {extra}, "
            f"compiled {sorted(built)}, mypyc helpers {sorted(helpers)}"
        )
    session.log(f"{wheel.name}: {len(shipped)} package files, compiled {sorted(built)}")
    _test_installed(session, wheel, compiled=True)
    session.run("python", str(ROOT / "benchmarks" / "run.py"), "--quick")
    newer = session.run(
        "python", "-c", "import sys; print(sys.version_info >= (3, 11))", silent=True
    )
    if str(newer).strip() == "True":  # the openspiel extra installs on Python 3.11 and later
        session.run("python", str(ROOT / "benchmarks" / "openspiel_ismcts.py"), "--quick")


#: What the session "oldest" runs: the tests of the command line (click) and of the
#: documents (attrs, cattrs), less those that compare the help with the docs' quotes of
#: it, which are click 8.5's (the test extra asks for it).
OLDEST_TESTS = [
    "tests/test_cli.py",
    "tests/test_cli_play.py",
    "tests/test_json.py",
    "tests/test_records.py",
    "tests/test_reprs.py",
    "tests/test_packaging.py",
    "-k",
    "not cli_reference_shows_the_current_help and not help_generator_rewrites",
]


@nox.session
def oldest(session: nox.Session) -> None:
    """Test on the lowest versions that ``dependencies`` allow (``>=X`` taken as ``==X``).

    The package with the web and RL extras, the runtime dependencies held at their lower
    bounds by a constraints file, and the test tools; the tests that use them most.
    """
    requirements = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    lowest = [re.sub(r"\s*>=\s*", "==", requirement) for requirement in requirements]
    if not all(re.fullmatch(r"[\w.-]+==[\w.]+", pin) for pin in lowest):
        session.error(f"each runtime dependency is name>=version: {requirements}")
    constraints = Path(session.create_tmp()) / "lowest.txt"
    constraints.write_text("\n".join(lowest) + "\n")
    session.install("-c", str(constraints), ".[web,rl,openspiel]")
    session.install("-c", str(constraints), "pytest>=8", "pytest-xdist>=3.5",
                    "pytest-timeout>=2.3", "hypothesis>=6.100", "pexpect>=4.8",
                    "jsonschema>=4.18", "tomli>=2; python_version < '3.11'")  # fmt: skip
    session.run("python", "-m", "pip", "list")
    session.run("python", "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "2",
                *OLDEST_TESTS, *session.posargs)  # fmt: skip


@nox.session
def browser(session: nox.Session) -> None:
    """Play whole games on the web table by clicking, and measure its tiles, in a real browser.

    Playwright drives the system's chromium, /usr/bin/chromium: never a browser download.
    """
    if not Path("/usr/bin/chromium").exists():
        session.error("the browser tests need /usr/bin/chromium (Debian: apt-get install chromium)")
    session.install("-e", ".[browser,web]", "pytest>=8", "pytest-timeout>=2.3")
    session.run(
        "python", "-m", "pytest", "-p", "no:cacheprovider", "-q", "tests_browser", *session.posargs
    )


def _build(session: nox.Session, outdir: str, env: dict[str, str] | None = None) -> list[Path]:
    # The sdist, then the wheel built from the sdist (the source tree stays clean).
    session.install("build", "twine")
    shutil.rmtree(ROOT / outdir, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", outdir, ".", env=env)
    return sorted((ROOT / outdir).iterdir())


def _the_wheel(found: list[Path]) -> Path:
    (wheel,) = [path for path in found if path.suffix == ".whl"]
    return wheel


def _package_files(wheel: Path) -> tuple[set[str], set[str]]:
    # The wheel's files of the package, and mypyc's shared libraries at its top level.
    names = set(zipfile.ZipFile(wheel).namelist())
    helpers = {n for n in names if re.fullmatch(r"[0-9a-f]+__mypyc\.[^/]*\.(so|pyd)", n)}
    return {n for n in names if n.startswith("mexican_train/")}, helpers


def _source_files() -> set[str]:
    package = ROOT / "src" / "mexican_train"
    return {
        path.relative_to(ROOT / "src").as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".so", ".pyd"}
    }


def _test_installed(session: nox.Session, wheel: Path, *, compiled: bool) -> None:
    # The suite against the installed wheel, from a scratch directory holding a copy of the
    # tests and what they read but not the package, so a file missing from it is caught.
    session.install(f"{wheel}[test,dask]")
    scratch = Path(session.create_tmp()) / "suite"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    for name in TEST_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, scratch / name, ignore=shutil.ignore_patterns("_build"))
        else:
            shutil.copy2(source, scratch / name)
    session.chdir(scratch)
    check = (
        "import mexican_train, pathlib, sys; "
        f"assert pathlib.Path(sys.prefix).resolve() in pathlib.Path(mexican_train.__file__)"
        ".resolve().parents, mexican_train.__file__; "
        f"assert mexican_train.COMPILED is {compiled}, 'the wrong build was imported'; "
        "print('testing', mexican_train.__version__, 'at', mexican_train.__file__)"
    )
    session.run("python", "-c", check)
    # The thorough Hypothesis profile runs with the editable install; the default one is
    # enough for a wheel.
    session.run(
        "python",
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-q",
        "-n",
        "auto",
        "tests",
        *session.posargs,
        env={"HYPOTHESIS_PROFILE": "dev"},
    )
    session.chdir(ROOT)
