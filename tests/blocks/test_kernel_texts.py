"""The kernel modules' texts (blocks/kernel_texts.py): each joined with
the shared helpers and the other kernel modules' functions it imports, so
that numba compiles it from one file; joined at first use."""
import ast
from pathlib import Path

import pytest

from crane_cosim.blocks import jit
from crane_cosim.blocks import kernel_texts
from crane_cosim.blocks.kernel_texts import KernelSources, parsed

_HELPERS = '''import math


def _twice(x):
    return 2.0 * x


def _quad(x):
    return _twice(_twice(x))


def _unused(x):
    return math.sqrt(x)
'''


def test_shared_helpers_are_joined_to_a_kernel_module():
    """A kernel module's one-line import of shared helpers becomes a
    comment, and the helpers it names, and those they call, are appended:
    the module's own lines keep their numbers, nothing unused is added."""
    text = "import math\nfrom .kernel_helpers import _quad\n\n\ndef f(x):\n    return _quad(x)\n"
    joined = kernel_texts.joined(text, _HELPERS)
    lines = joined.splitlines()
    assert lines[:6] == ["import math", "# kernel_helpers: joined at the end", "", "", "def f(x):",
                         "    return _quad(x)"]
    assert "def _twice(x):" in joined and "def _quad(x):" in joined and "_unused" not in joined
    namespace = {}
    exec(compile(joined, "<joined>", "exec"), namespace)
    assert namespace["f"](1.5) == 6.0
    assert kernel_texts.joined("def f(x):\n    return x\n", _HELPERS) == "def f(x):\n    return x\n"  # nothing to join
    with pytest.raises(ImportError, match="kernel_helpers has no kernel _cube"):
        kernel_texts.joined("from .kernel_helpers import _cube\n", _HELPERS)


_LAWS = '''import math

from .kernel_helpers import _twice

NONE, DAHL = 0, 1


def level(model, z):
    return 0.0 if model == NONE else _twice(z)


def outputs(x):
    return level(DAHL, x)
'''


def test_functions_of_another_kernel_module_are_joined_with_what_they_use():
    """A kernel module may build on another's functions, a line per module:
    they are joined with the functions, constants and helpers they use (a
    helper reached twice, once); a name defined otherwise already is an
    error."""
    text = ("import math\nfrom .laws_kernels import level\nfrom .kernel_helpers import _quad\n\n\n"
            "def f(x):\n    return level(1, x) + _quad(x)\n")
    joined = kernel_texts.joined(text, _HELPERS, {"laws_kernels": _LAWS})
    lines = joined.splitlines()
    assert lines[:3] == ["import math", "# laws_kernels: joined at the end", "# kernel_helpers: joined at the end"]
    assert joined.count("def _twice(x):") == 1 and "NONE, DAHL = 0, 1" in joined and "def outputs" not in joined
    namespace = {}
    exec(compile(joined, "<joined>", "exec"), namespace)
    assert namespace["f"](1.5) == 3.0 + 6.0
    with pytest.raises(ImportError, match="level joined from laws_kernels is defined otherwise already"):
        kernel_texts.joined(text + "\n\ndef level(model, z):\n    return z\n", _HELPERS, {"laws_kernels": _LAWS})


def test_the_kernel_modules_hold_the_shared_helpers_they_use():
    """The vessel's kernels compile with the helpers they share with the
    spring-supported base; a kernel module imports nothing else."""
    assert {"_cross", "_lu_solve"} <= set(jit.kernel_functions("vessel_kernels"))
    for name, text in jit._SOURCES.items():
        imports = [n for n in ast.parse(text).body if isinstance(n, (ast.Import, ast.ImportFrom))]
        assert {a.name for n in imports for a in n.names} <= {"math", "numpy"}, name


def test_a_spurious_ast_depth_error_is_parsed_again(monkeypatch):
    """CPython 3.11's spurious "AST constructor recursion depth mismatch"
    (another thread converting a tree at the same time) is a parse made
    again, which gives the tree; any other SystemError, and one that does
    not go away, is raised."""
    real, calls = ast.parse, []

    def flaky(failures, message):
        def parse(source, *args, **kwargs):
            calls.append(source)
            if len(calls) <= failures:
                raise SystemError(message)
            return real(source, *args, **kwargs)
        return parse
    monkeypatch.setattr(ast, "parse", flaky(2, "AST constructor recursion depth mismatch (before=195, after=67)"))
    assert isinstance(parsed("x = 1").body[0], ast.Assign) and len(calls) == 3
    calls.clear()
    monkeypatch.setattr(ast, "parse", flaky(1, "something else"))
    with pytest.raises(SystemError, match="something else"):
        parsed("x = 1")
    calls.clear()
    monkeypatch.setattr(ast, "parse", flaky(99, "AST constructor recursion depth mismatch (before=1, after=2)"))
    with pytest.raises(SystemError, match="recursion depth mismatch"):
        parsed("x = 1")
    assert len(calls) == 5


def test_a_kernel_module_is_joined_at_its_first_use_as_the_whole_folder_would_be():
    """Made, the sources have read the folder and joined nothing; each text
    asked for is the one joined from the folder's texts, the same again
    when asked again; a text set in a kernel module's place is taken, and
    only a name the package does not have can be deleted."""
    folder = Path(jit.__file__).parent
    sources = KernelSources(folder)
    assert sources._joined == {} and set(sources) == {p.stem for p in folder.glob("*_kernels.py")}
    helpers = (folder / "kernel_helpers.py").read_text()
    texts = {p.stem: p.read_text() for p in folder.glob("*_kernels.py")}
    assert sources["vessel_kernels"] == kernel_texts.joined(texts["vessel_kernels"], helpers, texts).encode()
    assert list(sources._joined) == ["vessel_kernels"] and sources["vessel_kernels"] is sources["vessel_kernels"]
    sources["tiny_kernels"] = b"x = 1\n"
    assert sources["tiny_kernels"] == b"x = 1\n" and "tiny_kernels" in sources and len(sources) == len(texts) + 1
    del sources["tiny_kernels"]
    with pytest.raises(KeyError, match="vessel_kernels is a kernel module of the package"):
        del sources["vessel_kernels"]
    with pytest.raises(KeyError):
        sources["no_such_kernels"]
