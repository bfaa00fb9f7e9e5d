"""The kernel modules' texts as numba compiles them: each joined with the
shared helpers and the other kernel modules' functions it imports, a line
each (``blocks/jit.py`` says why and how they are compiled)."""
from __future__ import annotations

import ast
import functools
import re
from collections.abc import MutableMapping
from pathlib import Path

__all__ = ["HELPERS", "parsed", "joined", "KernelSources"]

#: the module of small kernels that several kernel modules share
HELPERS = "kernel_helpers"


@functools.lru_cache(maxsize=None)
def _definitions(text: str) -> dict:
    """The top-level functions and simple assignments (``NONE, DAHL = 0, 1``)
    of a module's text: name -> its node (kept per text: every kernel
    module that joins the helpers asks again)."""
    defs = {}
    for node in parsed(text).body:
        if isinstance(node, ast.FunctionDef):
            defs[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        defs[name.id] = node
    return defs


def parsed(text: str) -> ast.Module:
    """``ast.parse(text)``, made again where CPython 3.11 raises its
    spurious ``SystemError`` "AST constructor recursion depth mismatch":
    the depth it counts while it converts a tree is kept per interpreter,
    and another thread converting a tree at the same time upsets it (seen
    in a Dask worker importing this package).  The source is the same; a
    second parse gives the tree."""
    for attempt in range(5):
        try:
            return ast.parse(text)
        except SystemError as exc:
            if "recursion depth mismatch" not in str(exc) or attempt == 4:
                raise
    raise AssertionError("unreachable")


#: a line with its end (``\r\n``, ``\r`` or ``\n``), or the last line without one
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


@functools.lru_cache(maxsize=None)
def _lines(text: str) -> tuple[str, ...]:
    return tuple(_LINE.findall(text))


def _segment(text: str, node: ast.AST) -> str:
    """``ast.get_source_segment(text, node)``, with the text split into
    lines once per text (that function splits the whole text again at
    every call, the larger part of the time joining takes)."""
    lines = _lines(text)
    first = lines[node.lineno - 1].encode()
    if node.lineno == node.end_lineno:
        return first[node.col_offset:node.end_col_offset].decode()
    last = lines[node.end_lineno - 1].encode()
    return (first[node.col_offset:].decode() + "".join(lines[node.lineno:node.end_lineno - 1])
            + last[:node.end_col_offset].decode())


def joined(text: str, helpers: str, kernels: dict | None = None) -> str:
    """A kernel module's text with its imports of shared helpers
    (``from .kernel_helpers import a, b``) or of another kernel module's
    functions (``from .supported_base_kernels import _base``, ``kernels``:
    their texts by module name) replaced by a comment each, and the
    definitions of those names, and of the functions and constants they
    use, appended (so that the lines of the module keep their numbers): a
    module numba compiles alone, from one file.  A name joined from two
    places must be the same definition."""
    sources = {HELPERS: helpers, **(kernels or {})}
    tree = parsed(text)
    found = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module in sources and n.level == 1]
    if not found:
        return text
    own = _definitions(text)
    lines = text.splitlines(keepends=True)
    appended: dict[str, str] = {}  # the name's definition, as appended
    for node in found:
        source = sources[node.module]
        if node.module != HELPERS:  # a kernel module, with the helpers it joins itself
            source = joined(source, helpers)
        defs = _definitions(source)
        chosen, todo = set(), [a.name for a in node.names]
        while todo:
            name = todo.pop()
            if name in chosen:
                continue
            if name not in defs:
                raise ImportError(f"{node.module} has no kernel {name}")
            chosen.add(name)
            todo += [n.id for n in ast.walk(defs[name]) if isinstance(n, ast.Name) and n.id in defs]
        for name in sorted(chosen, key=lambda n: defs[n].lineno):
            segment = _segment(source, defs[name])
            if name in own or appended.get(name, segment) != segment:
                raise ImportError(f"{name} joined from {node.module} is defined otherwise already")
            appended[name] = segment
        span = node.end_lineno - node.lineno + 1
        lines[node.lineno - 1:node.end_lineno] = [f"# {node.module}: joined at the end\n"] + ["\n"] * (span - 1)
    tail = "".join(f"\n\n{segment}\n" for segment in dict.fromkeys(appended.values()))
    return "".join(lines).rstrip("\n") + "\n" + tail


class KernelSources(MutableMapping):
    """Kernel module name (``blocks/<name>.py``) -> its text joined
    (:func:`joined`), as UTF-8 bytes.

    The texts of the folder are read when this is made (the package may be
    imported from an FMU's temporary folder that is gone by the time a later
    instance asks for the kernels); each is joined at its first use, since
    a process uses one or two kernel modules, and joining them all would
    slow every process's start.  A text may be set in their
    place (a test's kernel module)."""

    def __init__(self, folder: Path):
        self._helpers = (folder / f"{HELPERS}.py").read_text(encoding="utf-8")
        self._texts = {path.stem: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*_kernels.py"))}
        self._joined: dict[str, bytes] = {}

    def __getitem__(self, name: str) -> bytes:
        if name not in self._joined:
            self._joined[name] = joined(self._texts[name], self._helpers, self._texts).encode()
        return self._joined[name]

    def __setitem__(self, name: str, text: bytes) -> None:
        self._joined[name] = text

    def __delitem__(self, name: str) -> None:
        if name in self._texts:
            raise KeyError(f"{name} is a kernel module of the package; set another text in its place instead")
        del self._joined[name]

    def __iter__(self):
        return iter(dict.fromkeys([*self._texts, *self._joined]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*self._texts, *self._joined]))
