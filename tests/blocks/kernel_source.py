"""A kernel module (``blocks/*_kernels.py``) run as plain Python, as it is
or with one term changed, for the tests that hold a kernel to its numpy
reference: they show that a wrong term would be seen."""
import types

from crane_cosim.blocks import jit


def kernels_as_python(name: str, old: str | None = None, new: str | None = None) -> types.ModuleType:
    """The kernel module ``name`` uncompiled, with its one occurrence of the
    source text ``old`` replaced by ``new`` if given."""
    source = jit._SOURCES[name].decode()
    if old is not None:
        assert source.count(old) == 1, f"the term {old!r} is no longer in {name}"
        source = source.replace(old, new)
    module = types.ModuleType(f"python_{name}")
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module
