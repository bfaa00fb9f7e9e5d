"""A picture of a system (``crane-cosim draw``), as OSP's system-structure
viewer and OMEdit draw one: each component a box (its name, its model and
FMU), each pair of components that exchange values an arrow labelled with
the connections it carries.  Written in Graphviz's DOT language and laid
out by Graphviz's ``dot`` (the Debian package ``graphviz``) as SVG, PDF
or PNG; the DOT text alone needs no Graphviz."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from ..errors import CraneCosimError
from ..runtime.model import describe

__all__ = ["FORMATS", "dot_text", "draw_system"]

#: what ``draw`` writes, by the suffix of the file
FORMATS = {".svg": "svg", ".pdf": "pdf", ".png": "png", ".dot": None}
#: connections named on one arrow before the rest are counted
SHOWN = 4


def _quoted(text: str) -> str:
    """``text`` as a DOT string (its quotes and backslashes escaped; lines
    joined by DOT's centred line break)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dot_text(system) -> str:
    """The DOT description of ``system``: a node per component, an edge per
    ordered pair of components that a connection joins."""
    lines = [f"digraph {_quoted(system.name)} {{", "  rankdir=LR;",
             '  node [shape=box, style="rounded,filled", fillcolor="#eef3f8", fontname="Helvetica"];',
             '  edge [fontname="Helvetica", fontsize=9, color="#4a6a8a"];']
    for comp in system.components:
        model = describe(system.source_path(comp)).model_name
        fmu = Path(comp.source).name
        label = comp.name + "\n" + (fmu if Path(fmu).stem == model else f"{model} ({fmu})")
        lines.append(f"  {_quoted(comp.name)} [label={_quoted(label)}];")
    pairs: dict[tuple[str, str], list[str]] = {}
    for c in system.connections:
        pairs.setdefault((c.start_element, c.end_element), []).append(f"{c.start_connector} → {c.end_connector}")
    for (start, end), names in pairs.items():
        shown = names[:SHOWN] + ([f"+{len(names) - SHOWN} more"] if len(names) > SHOWN else [])
        label = "\n".join(shown)
        lines.append(f"  {_quoted(start)} -> {_quoted(end)} [label={_quoted(label)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def draw_system(system, path) -> Path:
    """Write the picture of ``system`` to ``path``, the format its suffix
    names (:data:`FORMATS`); :class:`CraneCosimError` in one sentence where
    it cannot be."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise CraneCosimError(f"--out {path}: draw writes {', '.join(FORMATS)} files, not "
                              f"{suffix or 'a file without a suffix'}")
    if not path.resolve().parent.is_dir():
        raise CraneCosimError(f"--out {path} cannot be written: {path.parent} is not a folder")
    text = dot_text(system)
    if FORMATS[suffix] is None:
        path.write_text(text)
        return path
    dot = shutil.which("dot")
    if dot is None:
        raise CraneCosimError(f"drawing {path.name} needs Graphviz's dot program, which is not installed (Debian "
                              f"and Ubuntu: apt install graphviz; or write --out {path.stem}.dot and lay it out "
                              f"elsewhere)")
    done = subprocess.run([dot, f"-T{FORMATS[suffix]}", "-o", str(path)], input=text.encode(),
                          capture_output=True)
    if done.returncode != 0:
        raise CraneCosimError(f"Graphviz's dot could not draw {path}: {done.stderr.decode().strip()}")
    return path
