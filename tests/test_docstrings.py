"""Module docstrings say what the module is for and link the document that
explains the theory (docs/*.md) rather than retell it: at most
:data:`LONGEST` lines, but where a reader of the code needs more beside it,
for a reason named here."""
import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"].values()
LONGEST = 30
#: the modules of blocks/ that are not physics: the machinery that loads,
#: compiles and steps the blocks, held to :data:`LONGEST`
BLOCK_MACHINERY = {"block", "jit", "stepping", "compiled_block", "compile_lock", "compile_word", "cache_folder",
                   "registry", "warm_up", "kernel_helpers", "kernel_texts", "pass_on", "units", "__init__"}
#: modules whose docstring may be longer, and why
LONGER = {
    "cosim/runtime/types.py": "the FMI and SSP rules for types, connections and values set before a run, "
                              "cited by section, beside the code that applies them",
    "cosim/runtime/compiled/step.py": "the compiled step's argument layout, which the code indexes by number",
    "cosim/hosts/ecos.py": "what ecos does unlike the standard, which the code works around",
    "cosim/hydro/compute.py": "the hull file's format and the assumptions Capytaine's computation leaves open",
    "fmus/adapter.py": "what each FMI call does to the block, and pythonfmu's failures the adapter works around",
}


def _long_docstrings() -> dict[str, int]:
    found = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            doc = ast.get_docstring(ast.parse(path.read_text()), clean=False)
            if doc and len(doc.splitlines()) > LONGEST:
                found[path.relative_to(ROOT).as_posix()] = len(doc.splitlines())
    return found


def _physics(name: str) -> bool:
    """A block's model (or its kernels), whose docstring holds the papers'
    equations that its code follows, numbered."""
    path = Path(name)
    return path.parts[0] == "blocks" and path.stem not in BLOCK_MACHINERY


def test_no_module_docstring_is_longer_than_its_reason_allows():
    over = {name: n for name, n in _long_docstrings().items() if name not in LONGER and not _physics(name)}
    assert not over, f"module docstrings over {LONGEST} lines, with no reason in LONGER: {over}"


def test_every_reason_is_still_needed():
    assert set(LONGER) <= set(_long_docstrings()), set(LONGER) - set(_long_docstrings())
