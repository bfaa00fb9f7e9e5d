"""Compiling the C++ programs of the DCP tests against the vendored DCPLib.

DCPLib (``dcplib/``, the Modelica Association's reference implementation of
DCP 1.0, header-only) is compiled into each program: ``test_master`` (a
master driving slaves in NRT lock-step, or letting them run in SRT, from a
configuration file), and ``pd_slave`` (the PD controller with zero set-points as a slave).  Each
is a single translation unit; the system's headers of standalone Asio
(Debian ``libasio-dev``) are needed.

The flags are DCPLib's own build's where they matter: ``-DDEBUG`` (DCPLib's
CMake files define it; ``test_master`` learns from its debug log when its
socket is open), C++17, and ``-ffp-contract=off`` so that ``pd_slave``'s
law gives the bits of the Python reference's.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["HERE", "PROGRAMS", "built", "compiler", "missing_headers"]

HERE = Path(__file__).resolve().parent
DCPLIB = HERE / "dcplib"

#: name -> (source, DCPLib's include folders, libraries)
PROGRAMS = {
    "test_master": (HERE / "test_master.cpp", ("core", "ethernet", "master"), ()),
    "pd_slave": (HERE / "pd_slave.cpp", ("core", "ethernet", "slave"), ()),
}

#: headers of the system the programs need beside DCPLib's: Asio's
_SYSTEM_HEADERS = {"asio.hpp": "libasio-dev"}


def compiler() -> str | None:
    """The path of g++, or None where there is none."""
    return shutil.which("g++")


def missing_headers(gxx: str) -> list[str]:
    """The Debian packages of :data:`_SYSTEM_HEADERS` whose header ``gxx`` does not find."""
    missing = []
    for header, package in _SYSTEM_HEADERS.items():
        probe = subprocess.run([gxx, "-x", "c++", "-std=c++17", "-fsyntax-only", "-"], input=f"#include <{header}>\n",
                               capture_output=True, text=True)
        if probe.returncode != 0:
            missing.append(package)
    return missing


def built(name: str, out_dir: Path) -> Path:
    """The program ``name`` of :data:`PROGRAMS` compiled into ``out_dir``; a compilation that
    fails raises :class:`RuntimeError` with the end of the compiler's messages."""
    source, includes, libraries = PROGRAMS[name]
    gxx = compiler()
    if gxx is None:
        raise RuntimeError("no g++ on this machine")
    exe = Path(out_dir) / name
    command = [gxx, "-std=c++17", "-O2", "-ffp-contract=off", "-DDEBUG", "-Wall",
               # DCPLib's headers as the system's: their warnings are not this project's
               *(f"-isystem{DCPLIB / 'include' / folder}" for folder in includes),
               str(source), "-o", str(exe), "-pthread", *(f"-l{library}" for library in libraries)]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"compiling {name} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return exe
