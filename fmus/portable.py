"""Portable FMUs: ours made to run where no Python is installed, or beside another
Python (``build-fmus --portable``; ``docs/fmus.md``).

A portable FMU is the lean FMU (``fmus/build.py``) with four things more:

* its Linux binary is the out-of-process proxy (``native/fmi2_proxy.c``), which
  runs each instance in a process of its own and forwards every FMI call to it;
  the lean FMU's binary and pythonfmu's lie in
  ``binaries/linux64/crane_cosim/`` with the program of that process
  (``native/fmi2_child.c``), so that every call, status and message is the lean
  FMU's;
* ``resources/crane_cosim_runtime/<hash>.tar.gz``, the Python it runs
  (``fmus/portable_runtime.py``), unpacked once per machine into the user's
  cache folder;
* ``resources/crane_cosim_kernels/<hash>.tar.gz``, the block's numba kernels
  compiled for a generic x86-64 processor, so that the first run on a machine
  compiles nothing;
* its documentation page, parameter sets and a reference experiment with its
  expected outputs (``fmus/ls_ref.py``), the outputs computed by the lean FMU's
  binary and code with those kernels.

Where the Windows cross compiler is installed, the FMU's Windows binary runs
out of process the same way: the proxy cross-compiled from the same sources in
``binaries/win64``, the lean FMU's Windows binary (pythonfmu's) beside the
process's program in ``binaries/win64/crane_cosim/``, and the Windows runtime
(``fmus/portable_windows.py``) in
``resources/crane_cosim_runtime_win64/<hash>.tar.gz``; elsewhere the lean FMU's
Windows binary is left in.  :func:`run_out_of_process` makes any unzipped FMU's
Linux binary run out of process the same way, without a runtime
(``crane-cosim run --processes``).
"""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from ..blocks import jit
from ..blocks.registry import BLOCKS
from ..errors import CraneCosimError
from . import native
from .build import FMU_SOURCE_FILE, build_block_fmu, write_reproducible_zip
from .ls_ref import ParameterSet, ls_ref_files
from .elf_versions import glibc_floor, newest
from .portable_runtime import kernels_archive, runtime_archive, runtime_glibc
from .portable_windows import windows_runtime_archive

__all__ = ["build_portable_fmu", "run_out_of_process", "host_python_lines", "portable_record",
           "RUNTIME_FOLDER", "KERNELS_FOLDER", "WINDOWS_RUNTIME_FOLDER", "windows_wanted"]

#: folders of ``resources/`` holding the runtime's and the kernels' archive
RUNTIME_FOLDER = "crane_cosim_runtime"
KERNELS_FOLDER = "crane_cosim_kernels"
#: the folder of ``resources/`` holding the Windows runtime's archive (the
#: Windows proxy looks there; the kernels are compiled on the target)
WINDOWS_RUNTIME_FOLDER = "crane_cosim_runtime_win64"
#: the script that measures what an FMU imports (run by its path: it imports the standard library only)
PROBE = Path(__file__).resolve().parent / "portable_probe.py"
_PROBE_TIMEOUT = 900  # seconds: a cold numba cache compiles for a minute or two


def portable_record(runtime: str, kernels: str | None, glibc: str | None = None,
                    windows: str | None = None) -> str:
    """The line a portable FMU adds to ``resources/crane_cosim_source.txt``
    (``glibc``: the oldest GNU C library it runs on; ``windows``: the
    Windows runtime, or why there is none)."""
    return (f"portable: out of process, runtime {runtime}, kernels {kernels or 'none'}, "
            f"glibc {glibc or 'any'}, win64 {windows or 'none'}\n")


#: the file beside an FMU's binary run out of process that names the
#: host's Python (its shared library, PYTHONHOME, PYTHONPATH), for a binary
#: that expects a Python in its process (pythonfmu's)
HOST_PYTHON_FILE = "host_python.txt"


def host_python_lines() -> str:
    """:data:`HOST_PYTHON_FILE`'s lines for the running interpreter: what
    a binary that expects the host's Python in its process (pythonfmu's,
    which links no libpython) finds there in process, and finds so out of
    process."""
    libpython = native.build_python().libpython
    return "\n".join([libpython, sys.base_prefix, os.pathsep.join(p for p in sys.path if p)]) + "\n"


def run_out_of_process(folder: Path, model_identifier: str, host_python: str | None = None) -> None:
    """Make the unzipped FMU in ``folder`` run each instance in a process of
    its own: its Linux binaries moved to ``binaries/linux64/crane_cosim/``
    beside the program that runs them, the proxy in the binary's place,
    with ``host_python`` (:func:`host_python_lines`) where given, which
    the process loads for a binary that cannot be loaded without a Python.
    An FMU that runs out of process already (a portable FMU) is left as it
    is; raises :class:`CraneCosimError` for an FMU with no Linux binary."""
    linux = Path(folder) / "binaries" / "linux64"
    inner = linux / native.INNER_FOLDER
    if (inner / native.PROCESS_PROGRAM).is_file():
        return
    _proxy_in_place(linux, f"{model_identifier}.so", "Linux",
                    lambda: (native.proxy_binary(), native.process_program()), native.PROCESS_PROGRAM)
    (inner / native.PROCESS_PROGRAM).chmod(0o755)
    if host_python:
        (inner / HOST_PYTHON_FILE).write_text(host_python)


def run_out_of_process_on_windows(folder: Path, model_identifier: str) -> None:
    """Make the unzipped FMU in ``folder`` run each instance of its Windows
    binary in a process of its own: the binary moved to
    ``binaries/win64/crane_cosim/`` beside the program that runs it, the
    Windows proxy in its place."""
    _proxy_in_place(Path(folder) / "binaries" / "win64", f"{model_identifier}.dll", "Windows",
                    native.windows_out_of_process, native.WINDOWS_PROCESS_PROGRAM)


def _proxy_in_place(platform: Path, binary: str, system: str, built, program_name: str) -> None:
    """The files of the FMU's ``platform`` folder moved into its
    ``crane_cosim/`` folder with the process's program, the proxy in the
    place of its ``binary``; ``built()`` gives the proxy and the program."""
    if not (platform / binary).is_file():
        raise CraneCosimError(f"the FMU {Path(binary).stem} has no {system} binary (binaries/{platform.name}/"
                              f"{binary}) to run out of process")
    proxy, program = built()
    inner = platform / native.INNER_FOLDER
    inner.mkdir()
    for path in platform.iterdir():
        if path.is_file():
            path.rename(inner / path.name)
    (platform / binary).write_bytes(proxy)
    (inner / program_name).write_bytes(program)


_warned_windows = False


def windows_wanted(windows: bool | None, stream=None) -> bool:
    """Whether the portable FMUs get a Windows binary: ``windows`` if given
    (True where it cannot be built raises :class:`CraneCosimError`), else
    where the cross compiler is installed, with one warning on ``stream``
    saying why not."""
    global _warned_windows
    reason = native.windows_unavailable_reason()
    if windows is None:
        if reason is not None and not _warned_windows and stream is not None:
            _warned_windows = True
            print(f"crane-cosim: warning: the portable FMUs get no Windows binary: {reason}", file=stream,
                  flush=True)
        return reason is None
    if windows and reason is not None:
        raise CraneCosimError(f"the portable FMUs' Windows binary cannot be built here: {reason}")
    return windows


def generic_kernels() -> Path:
    """The cache of kernels compiled for a generic x86-64 processor, which
    portable FMUs carry: ``<cache>/portable/generic`` (``blocks/jit.py``'s
    cache folder), kept from one build to the next."""
    return jit.cache_dir() / "portable" / "generic"


#: the most rows the reference experiment's result holds (after initialization, then every k-th step)
REFERENCE_ROWS = 500


def reference_request(model: str, fmu: Path) -> tuple[dict, int]:
    """What the probe's reference run of the lean FMU ``fmu`` sets (value
    reference: value, the block's ``reference_experiment``) and how many
    steps apart it records the outputs."""
    block = BLOCKS[model]
    with zipfile.ZipFile(fmu) as z:
        md = ET.fromstring(z.read("modelDescription.xml"))
    real = {v.get("name"): v.get("valueReference") for v in md.find("ModelVariables") if v.find("Real") is not None}
    unknown = [k for k in block.reference_experiment if k not in real]
    if unknown:
        raise CraneCosimError(f"{model}'s reference experiment sets {', '.join(unknown)}, which is no Real "
                              f"variable of its FMU")
    steps = round(block.default_stop_time / block.default_step)
    every = max(1, math.ceil(steps / REFERENCE_ROWS))
    return {real[k]: float(v) for k, v in block.reference_experiment.items()}, every


def _probe(model: str, fmu: Path, out: Path, stream, reference: tuple[Path, dict, int] | None = None) -> dict:
    """What the FMU imports when it runs (``imported``: module files) and
    the folders of :func:`generic_kernels` its kernels come from
    (``kernels``), measured in a process of its own
    (``fmus/portable_probe.py``), which compiles them if they are not
    there yet; and, given ``reference`` (the CSV to write, the values to
    set, the steps between rows), the reference experiment run with them."""
    env = {**os.environ, "NUMBA_CPU_NAME": "generic", "CRANE_COSIM_CACHE_DIR": str(generic_kernels())}
    env.pop("NUMBA_CPU_FEATURES", None)
    env.pop("CRANE_COSIM_NUMBA", None)
    if stream is not None:
        print(f"measuring what {model} imports and compiling its kernels for any x86-64 processor ...",
              file=stream, flush=True)
    try:
        extra = []
        if reference is not None:
            asked = out.with_suffix(".asked.json")
            asked.write_text(json.dumps({"values": reference[1], "every": reference[2]}))
            extra = [str(reference[0]), str(asked)]
        proc = subprocess.run([sys.executable, str(PROBE), str(fmu), str(out), *extra],
                              capture_output=True, text=True, env=env, timeout=_PROBE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise CraneCosimError(f"running {fmu} to see what it imports took over {_PROBE_TIMEOUT} s") from None
    if proc.returncode != 0:
        raise CraneCosimError(f"running {fmu} to see what it imports failed (exit status {proc.returncode}): "
                              f"{proc.stderr.strip()[-2000:]}")
    return json.loads(out.read_text())


def build_portable_fmu(model: str, out_dir: Path, stream=None, lean: Path | None = None,
                       sets: tuple[ParameterSet, ...] = (), windows: bool | None = None) -> Path:
    """Build ``<out_dir>/<model>.fmu``, the portable FMU of the block
    ``model`` (see above), from its lean FMU ``lean`` if given (current,
    ``fmus/build.py``), else one built here, with the parameter sets
    ``sets`` (the examples' values) beside its reference experiment
    (``fmus/ls_ref.py``), and a Windows binary as :func:`windows_wanted`
    says; returns its path."""
    if model not in BLOCKS:
        raise CraneCosimError(f"no block named {model!r}; known: {', '.join(BLOCKS)}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="crane_cosim_portable_") as tmp:
        tmp = Path(tmp)
        lean = lean or build_block_fmu(BLOCKS[model], tmp / "lean")
        values, every = reference_request(model, lean)
        probed = _probe(model, lean, tmp / "probed.json", stream, (tmp / "reference.csv", values, every))
        runtime = runtime_archive(probed["imported"], stream)
        kernels = kernels_archive(generic_kernels(), probed["kernels"], tmp)
        unpacked = tmp / "unpacked"
        with zipfile.ZipFile(lean) as z:
            z.extractall(unpacked)
        windows_runtime = None
        if windows_wanted(windows, stream):
            run_out_of_process_on_windows(unpacked, model)
            windows_runtime = windows_runtime_archive(probed["imported"], stream)
        else:  # the lean FMU's Windows binary runs the block in the host's Python: not portable
            shutil.rmtree(unpacked / "binaries" / "win64", ignore_errors=True)
        run_out_of_process(unpacked, model)
        glibc = newest(runtime_glibc(runtime), glibc_floor(
            p.read_bytes() for p in (unpacked / "binaries" / "linux64").rglob("*") if p.is_file()))
        files = {p.relative_to(unpacked).as_posix(): p.read_bytes() for p in sorted(unpacked.rglob("*"))
                 if p.is_file()}
        files[f"resources/{RUNTIME_FOLDER}/{runtime.name}"] = runtime
        if kernels is not None:
            files[f"resources/{KERNELS_FOLDER}/{kernels.name}"] = kernels
        if windows_runtime is not None:
            files[f"resources/{WINDOWS_RUNTIME_FOLDER}/{windows_runtime.name}"] = windows_runtime
        files.update(ls_ref_files(BLOCKS[model], (tmp / "reference.csv").read_bytes(), every, list(sets), glibc))
        record = f"resources/{FMU_SOURCE_FILE}"
        files[record] = files[record] + portable_record(runtime.name, kernels.name if kernels else None, glibc,
                                                        windows_runtime.name if windows_runtime else None).encode()
        dest = out_dir / f"{model}.fmu"
        part = dest.with_suffix(".fmu.part")
        write_reproducible_zip(part, files)
        part.replace(dest)
    return dest
