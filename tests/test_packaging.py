"""The installed package holds every sub-package of the source: the list in
``pyproject.toml`` names each folder with an ``__init__.py`` (a folder left
out installs nothing of it, and only a fresh install would show it), and
its package data every file that is not Python (the C binary's sources)."""
import fnmatch
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the installed name of each top folder, as ``[tool.setuptools.package-dir]`` maps them
TOP = {folder: name for name, folder in
       tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"].items()}


def test_every_package_is_installed():
    text = (ROOT / "pyproject.toml").read_text()
    listed = set(re.findall(r'"(crane_cosim[a-z_.]*)"', text[text.index("packages = ["):text.index("]", text.index(
        "packages = ["))]))
    found = set()
    for folder, name in TOP.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            if "__pycache__" not in init.parts:
                rel = init.parent.relative_to(ROOT / folder).parts
                found.add(".".join((name, *rel)))
    # and the folders of data alone (the C binary's sources), each a package of its own data
    found |= set(tomllib.loads(text)["tool"]["setuptools"].get("package-data", {}))
    assert found == listed, (found - listed, listed - found)


def _folder(package: str) -> Path:
    """The source folder of ``package`` (an installed name)."""
    top = max((name for name in TOP.values() if package == name or package.startswith(name + ".")), key=len)
    folder = next(f for f, name in TOP.items() if name == top)
    return ROOT / folder / Path(*package[len(top):].split(".")[1:])


def test_every_data_file_is_installed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    data = config.get("package-data", {})
    missing = []
    for folder in TOP:
        for path in (ROOT / folder).rglob("*"):
            if not path.is_file() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
                continue
            # a package's patterns are of paths in its own folder
            if not any(path.is_relative_to(_folder(package))
                       and fnmatch.fnmatch(path.relative_to(_folder(package)).as_posix(), pattern)
                       for package, patterns in data.items() for pattern in patterns):
                missing.append(path.relative_to(ROOT).as_posix())
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"


def test_the_test_extra_keeps_a_plain_installs_pandas():
    """The test environment resolves the pandas a plain install gets: no
    distribution of the test extra is the hydro extra's Capytaine, which
    requires pandas < 3 (the hydro tests run it beside the environment,
    tests/hydro/conftest.py)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    hydro = {re.split(r"[<>=!~;\[ ]", r)[0].lower() for r in extras["hydro"]}
    test = {re.split(r"[<>=!~;\[ ]", r)[0].lower() for r in extras["test"]}
    assert hydro == {"capytaine"} and not hydro & test
