"""Loading compiled kernels (blocks/jit.py): a copy whose path depends only
on the source, so that numba's cache outlives an FMU's temporary folder."""
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks import jit


def test_the_kernel_copy_lives_where_its_content_says(monkeypatch, tmp_path):
    """The compile cache is kept next to the copy; its path must not depend
    on where the package was imported from (an FMU's temporary folder), only
    on the source, so that every run and FMU finds the compiled code."""
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path))
    text = jit._SOURCES["knuckle_boom_kernels"]
    first = jit._stable_copy("knuckle_boom_kernels", text, "abc")
    again = jit._stable_copy("knuckle_boom_kernels", text, "abc")
    assert first == again == tmp_path / "kernels-abc" / "knuckle_boom_kernels.py"
    assert first.read_bytes() == text
    assert jit._stable_copy("knuckle_boom_kernels", text + b"\n", "abd").parent.name == "kernels-abd"


def test_an_unwritable_cache_folder_falls_back_to_a_temporary_copy(monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(blocked))
    text = jit._SOURCES["knuckle_boom_kernels"]
    path = jit._stable_copy("knuckle_boom_kernels", text, "abc")
    assert blocked not in path.parents and path.read_bytes() == text


def test_one_compiled_module_per_source():
    assert jit.load_kernels("knuckle_boom_kernels") is jit.load_kernels("knuckle_boom_kernels")


# -- telling the user about compilation (kernels_compiled, compile_events) ----------------------------

_TINY = b"""import numpy as np


def _double(x):
    return 2.0 * x


def twice_sum(a):
    return _double(np.sum(a))
"""


@pytest.fixture
def tiny_kernels(monkeypatch, tmp_path):
    """A kernel module that numba compiles in a fraction of a second, in an
    empty cache folder: the machinery of the crane's kernels, fast."""
    monkeypatch.setitem(jit._SOURCES, "tiny_kernels", _TINY)
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path / "cache"))
    yield "tiny_kernels"
    for name in [n for n in jit.sys.modules if n.startswith("crane_cosim_tiny_kernels_")]:
        del jit.sys.modules[name]


def test_kernel_functions_are_those_numba_compiles(tiny_kernels):
    assert jit.kernel_functions(tiny_kernels) == ["_double", "twice_sum"]
    module = jit.load_kernels("knuckle_boom_kernels")
    compiled = sorted(n for n, v in vars(module).items() if hasattr(v, "py_func"))
    assert sorted(jit.kernel_functions("knuckle_boom_kernels")) == compiled


def test_compiling_reports_each_function_and_fills_the_cache(tiny_kernels):
    import numpy as np
    assert not jit.kernels_compiled(tiny_kernels)  # an empty cache folder
    events = []
    module = jit.load_kernels(tiny_kernels)
    with jit.compile_events(tiny_kernels, lambda kind, fn: events.append((kind, fn))):
        assert module.twice_sum(np.ones(3)) == 6.0
    # numba compiles the callee while compiling its caller: nested events
    assert events == [("start", "twice_sum"), ("start", "_double"), ("end", "_double"), ("end", "twice_sum")]
    assert jit.kernels_compiled(tiny_kernels)


def test_a_function_left_uncompiled_is_not_compiled(tiny_kernels):
    """Only _double compiled (called on its own): the module is not."""
    jit.load_kernels(tiny_kernels)._double(1.0)
    assert not jit.kernels_compiled(tiny_kernels)


def test_the_crane_kernels_are_compiled_once_the_crane_ran():
    from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
    KnuckleBoomCrane()  # compiles into the user's cache, or loads from it
    assert jit.kernels_compiled("knuckle_boom_kernels")


def test_without_numba_nothing_is_to_compile(monkeypatch, tmp_path):
    monkeypatch.setenv("CRANE_COSIM_NUMBA", "0")
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path))
    assert jit.kernels_compiled("knuckle_boom_kernels")


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
    joined = jit._joined(text, _HELPERS)
    lines = joined.splitlines()
    assert lines[:6] == ["import math", "# kernel_helpers: joined at the end", "", "", "def f(x):",
                         "    return _quad(x)"]
    assert "def _twice(x):" in joined and "def _quad(x):" in joined and "_unused" not in joined
    namespace = {}
    exec(compile(joined, "<joined>", "exec"), namespace)
    assert namespace["f"](1.5) == 6.0
    assert jit._joined("def f(x):\n    return x\n", _HELPERS) == "def f(x):\n    return x\n"  # nothing to join
    with pytest.raises(ImportError, match="kernel_helpers has no kernel _cube"):
        jit._joined("from .kernel_helpers import _cube\n", _HELPERS)


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
    joined = jit._joined(text, _HELPERS, {"laws_kernels": _LAWS})
    lines = joined.splitlines()
    assert lines[:3] == ["import math", "# laws_kernels: joined at the end", "# kernel_helpers: joined at the end"]
    assert joined.count("def _twice(x):") == 1 and "NONE, DAHL = 0, 1" in joined and "def outputs" not in joined
    namespace = {}
    exec(compile(joined, "<joined>", "exec"), namespace)
    assert namespace["f"](1.5) == 3.0 + 6.0
    with pytest.raises(ImportError, match="level joined from laws_kernels is defined otherwise already"):
        jit._joined(text + "\n\ndef level(model, z):\n    return z\n", _HELPERS, {"laws_kernels": _LAWS})


def test_the_kernel_modules_hold_the_shared_helpers_they_use():
    """The vessel's kernels compile with the helpers they share with the
    spring-supported base; a kernel module imports nothing else."""
    import ast
    assert {"_cross", "_lu_solve"} <= set(jit.kernel_functions("vessel_kernels"))
    for name, text in jit._SOURCES.items():
        imports = [n for n in ast.parse(text).body if isinstance(n, (ast.Import, ast.ImportFrom))]
        assert {a.name for n in imports for a in n.names} <= {"math", "numpy"}, name


def test_a_spurious_ast_depth_error_is_parsed_again(monkeypatch):
    """CPython 3.11's spurious "AST constructor recursion depth mismatch"
    (another thread converting a tree at the same time) is a parse made
    again, which gives the tree; any other SystemError, and one that does
    not go away, is raised."""
    import ast
    real, calls = ast.parse, []

    def flaky(failures, message):
        def parse(source, *args, **kwargs):
            calls.append(source)
            if len(calls) <= failures:
                raise SystemError(message)
            return real(source, *args, **kwargs)
        return parse
    monkeypatch.setattr(ast, "parse", flaky(2, "AST constructor recursion depth mismatch (before=195, after=67)"))
    assert isinstance(jit.parsed("x = 1").body[0], ast.Assign) and len(calls) == 3
    calls.clear()
    monkeypatch.setattr(ast, "parse", flaky(1, "something else"))
    with pytest.raises(SystemError, match="something else"):
        jit.parsed("x = 1")
    calls.clear()
    monkeypatch.setattr(ast, "parse", flaky(99, "AST constructor recursion depth mismatch (before=1, after=2)"))
    with pytest.raises(SystemError, match="recursion depth mismatch"):
        jit.parsed("x = 1")
    assert len(calls) == 5
