"""The package in floors (docs/master.md, "How it is built"): no module
imports one on a floor above its own, and no two modules import each
other, by any path, counting the imports inside functions."""
import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: where each folder of the package is, as docs/master.md draws it
SOURCES = {folder: name for name, folder in
           tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"].items()}
#: the floors of docs/master.md's picture, lowest first
FLOORS = [{"errors", "fmi_families"}, {"blocks"}, {"bridge"}, {"fmus", "files"}, {"runtime"},
          {"ssp", "monolithic", "hosts", "scenarios", "hoist", "example_sets", "vessel_start", "hydro"},
          {"studies", "accuracy", "bench", "views", "reports"}, {"cli"}]


def _modules() -> dict[str, Path]:
    found = {}
    for folder, package in SOURCES.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if folder == "cosim" and parts[0] in SOURCES:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


def _imported(name: str, path: Path, modules: dict) -> set[str]:
    """The package's modules ``name`` imports, anywhere in it (not under
    ``if TYPE_CHECKING``)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    targets = set()

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                targets.update(a.name for a in child.names if a.name.startswith("crane_cosim"))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")
                    up = up[:len(up) - (child.level - 1)]
                    base = ".".join(up + ([child.module] if child.module else []))
                if base.startswith("crane_cosim"):
                    targets.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in child.names)
            visit(child)
    visit(ast.parse(path.read_text()))
    return {t for t in targets if t in modules and t != name}


@pytest.fixture(scope="module")
def graph():
    modules = _modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def _floor(module: str) -> int:
    top = module.split(".")[1] if "." in module else ""
    floors = [k for k, names in enumerate(FLOORS) if top in names]
    assert floors, f"{module} is on no floor of docs/master.md's picture"
    return floors[0]


def test_no_module_imports_one_on_a_floor_above_its_own(graph):
    up = [f"{m} -> {t}" for m, ts in graph.items() for t in ts if _floor(t) > _floor(m)]
    assert not up, up


def test_no_two_modules_import_each_other_by_any_path(graph):
    index, low, stack, on, circles, counter = {}, {}, [], set(), [], [0]

    def strong(v):  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in graph:
        if v not in index:
            strong(v)
    assert not circles, circles
