"""The Modelica Association's Reference FMUs, built for the tests from their
sources (``tests/reference_fmus``, v0.0.41, BSD 2-clause: its LICENSE.txt)
with the system's C compiler, as their CMake project builds them (the
model's ``model.c`` with the FMI version's ``fmiXFunctions.c`` and
``cosimulation.c``, ``FMI_VERSION`` and ``DISABLE_PREFIX`` defined), for
one interface: their descriptions offer both, and the master runs an FMU's
co-simulation where it has one, so a Model Exchange build keeps that
interface alone.

    path = reference_fmu("BouncingBall", 2, "ModelExchange", out_dir)
"""
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import fmpy

__all__ = ["SOURCES", "MODELS", "reference_fmu"]

SOURCES = Path(__file__).parent / "reference_fmus"
MODELS = ("BouncingBall", "Dahlquist", "VanDerPol", "Stair")
_INTERFACES = ("ModelExchange", "CoSimulation")


def _only(description: str, interface: str) -> str:
    """``description`` with the other interface's element left out (a
    self-closed element, or one with children)."""
    other = next(i for i in _INTERFACES if i != interface)
    kept, n = re.subn(rf"\s*<{other}\b[^>]*/>", "", description)
    if n == 0:
        kept, n = re.subn(rf"\s*<{other}\b.*?</{other}>", "", description, flags=re.S)
    assert n == 1, f"no {other} element to leave out"
    return kept


def reference_fmu(model: str, version: int, interface: str, out) -> Path:
    """``<out>/<model>.fmu``: the Reference FMU ``model`` for FMI ``version``
    (2 or 3) offering ``interface`` alone (``ModelExchange`` or
    ``CoSimulation``), compiled for this machine."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    compiler = shutil.which("cc") or shutil.which("gcc")
    library = out / f"{model}{fmpy.sharedLibraryExtension}"
    sources = [SOURCES / model / "model.c", SOURCES / "src" / f"fmi{version}Functions.c",
               SOURCES / "src" / "cosimulation.c"]
    done = subprocess.run([compiler, "-shared", "-fPIC", "-O2", f"-DFMI_VERSION={version}", "-DDISABLE_PREFIX",
                           "-I", str(SOURCES / "include"), "-I", str(SOURCES / model), "-o", str(library),
                           *map(str, sources), "-lm"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the Reference FMU {model} did not compile: {done.stderr[-2000:]}")
    platform = fmpy.platform if version == 2 else fmpy.platform_tuple
    fmu = out / f"{model}.fmu"
    with zipfile.ZipFile(fmu, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("modelDescription.xml", _only((SOURCES / model / f"FMI{version}.xml").read_text(), interface))
        z.write(library, f"binaries/{platform}/{library.name}")
    library.unlink()
    return fmu
