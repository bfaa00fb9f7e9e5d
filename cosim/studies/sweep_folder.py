"""What a sweep folder holds, and whether a sweep may write in it.

A folder never holds two sweeps.  ``sweep.json`` records what the sweep in
the folder runs: its system (a hash of the system file, or of the ``.ssp``
archive, and of every FMU that is not the project's own), its options (the
:class:`~crane_cosim.runtime.config.RunConfig` but for what changes no
result: progress, size limit) and the project's version (crane-cosim's
release and the source hash of its FMUs, ``fmus/build.py``).  Each case's
folder holds its ``config.json``, whose ``values`` are the case's.  A sweep
run again into the folder skips a case that completed only when it is the
same case (the same ``sweep.json``, the same values), runs the cases not yet
run or failed, and refuses the folder, in one sentence, when it holds a
sweep of another system, options or version, a case of the same name with
other values, or a case the sweep does not have; ``force`` clears the
folder's cases instead (:func:`clear`), and leaves other files alone.  A
folder holding a single run's results (``results.arrows`` ...) is never a
sweep's.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from importlib import metadata
from pathlib import Path

from ..errors import CraneCosimError
from ..fmus.build import BLOCKS, fmu_is_current, source_hash

__all__ = ["SWEEP", "SUMMARY", "CASES", "FMUS", "RESULTS", "identity", "earlier_rows", "clear", "make_folder",
           "write_identity"]

SWEEP = "sweep.json"
SUMMARY = "summary.csv"
CASES = "cases"
#: the project's FMUs built for a worker's Python (``studies/case_fmus.py``)
FMUS = "fmus"
RESULTS = "results.parquet"
#: what a single run writes (``files/results.py``): a folder holding one holds a run, not a sweep
_RUN_FILES = ("results.arrows", "results.csv", "summary.json", "coupling_error.csv", "timing.csv", "plots")
#: options that change no result of a case
_NOT_IDENTITY = ("progress", "size_limit", "replace_run", "timeout", "fmi_logging")
#: the command line's names of the options whose field names differ
_OPTIONS = {"values": "--set values", "component_steps": "--component-step", "replacements": "--replace",
            "input_file": "--input", "scenario_sha256": "--scenario", "input_file_sha256": "--input"}
_ADVICE = "give another folder, or --force to clear its cases and run anew"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def identity(opened, config) -> dict:
    """What the sweep of ``opened`` (``ssp.open_system``'s) with
    ``config`` (its options, without the cases' values) runs, as
    ``sweep.json`` records it; the project's FMUs must be built
    (``prepare_fmus``) first."""
    system = {"name": opened.system.name, "sha256": _sha256(opened.archive or opened.ssd)}
    if opened.archive is None:  # an archive's hash covers its FMUs
        applied = config.applied_to(opened.system)
        fmus = {}
        for comp in applied.components:
            path = applied.source_path(comp)
            if not (path.stem in BLOCKS and fmu_is_current(path, BLOCKS[path.stem])):
                fmus[comp.name] = _sha256(path) if path.is_file() else None
        system["fmus"] = fmus
    if opened.osp:  # its connections come from other files too: the OSP model descriptions' groups
        joined = "\n".join(f"{c}|{c.transformation}" for c in opened.system.connections)
        system["connections_sha256"] = hashlib.sha256(joined.encode()).hexdigest()
    options = json.loads(config.to_json())
    for name in _NOT_IDENTITY:
        options.pop(name, None)
    for name in ("scenario", "input_file"):  # a file the cases read: its contents, not its name alone
        if options.get(name):
            options[f"{name}_sha256"] = _sha256(Path(options[name])) if Path(options[name]).is_file() else None
    try:
        release = metadata.version("crane-cosim")
    except metadata.PackageNotFoundError:
        release = None
    return {"system": system, "options": options, "version": {"crane-cosim": release, "fmus": source_hash()}}


def _difference(there: dict, here: dict) -> str | None:
    """What the sweep recorded ``there`` runs that this one (``here``) does
    not, in words; None: the same."""
    if there.get("system") != here["system"]:
        old_name, name = (there.get("system") or {}).get("name"), here["system"]["name"]
        if old_name != name:
            return f"another system ({old_name} there, {name} here)"
        return f"system {name} as it was before its file or one of its FMUs changed"
    if there.get("version") != here["version"]:
        old, new = there.get("version") or {}, here["version"]
        what = "crane-cosim" if old.get("crane-cosim") != new["crane-cosim"] else "fmus"
        label = "crane-cosim's version" if what == "crane-cosim" else "the source hash of the project's FMUs"
        return f"another version of the project ({label} {old.get(what)} there, {new[what]} here)"
    old, new = there.get("options") or {}, here["options"]
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            option = _OPTIONS.get(key, "--" + key.replace("_", "-"))
            if key.endswith("_sha256"):
                return f"other options (the contents of the {option} file changed)"
            return f"other options ({option} {_shown(old.get(key))} there, {_shown(new.get(key))} here)"
    return None


def _shown(value) -> str:
    return "not given" if value is None or value == {} else json.dumps(value) if isinstance(value, dict) else str(value)


def _read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def earlier_rows(out, ident: dict, cases, config, force: bool, label: str = "the sweep folder") -> dict:
    """The summary rows of the cases of ``cases`` (``[(name, values)]``)
    that completed in an earlier run of the same sweep (``ident``,
    :func:`identity`; each case's values added to ``config``'s) into
    ``out``, to skip.  Raises :class:`CraneCosimError` when ``out`` holds
    anything else of a sweep or a run's results, unless ``force`` (then
    none is skipped: :func:`clear` makes way).  Writes nothing."""
    out = Path(out)
    if not out.is_dir():
        return {}
    single = [name for name in _RUN_FILES if (out / name).exists()]
    if single:
        raise CraneCosimError(f"{label} {out} holds the results of a run ({', '.join(single)}), not of a sweep; "
                              f"give another folder")
    if not any((out / name).exists() for name in (SWEEP, SUMMARY, CASES)) or force:
        return {}
    there = _read_json(out / SWEEP)
    if not isinstance(there, dict):
        raise CraneCosimError(f"{label} {out} holds a sweep that did not record its system, options and version "
                              f"(an earlier crane-cosim's); {_ADVICE}")
    different = _difference(there, ident)
    if different:
        raise CraneCosimError(f"{label} {out} holds a sweep of {different}; {_ADVICE}")
    wanted = {name: {**config.values, **values} for name, values in cases}
    rows = {}
    folders = sorted((out / CASES).iterdir()) if (out / CASES).is_dir() else []
    for folder in folders:
        name = folder.name
        if name.endswith(".part"):  # a case stopped in the middle: run again from the start
            continue
        if name not in wanted:
            raise CraneCosimError(f"{label} {out} holds case {name}, which this sweep does not have; {_ADVICE}")
        given = _read_json(folder / "config.json")
        values = given.get("values") if isinstance(given, dict) else None
        if values is None:  # no record of what ran: run again
            continue
        here = json.loads(json.dumps(wanted[name]))
        if values != here:
            key = next(k for k in sorted(set(values) | set(here)) if values.get(k) != here.get(k))
            raise CraneCosimError(f"{label} {out} holds case {name} with other values ({key} = "
                                  f"{values.get(key, 'not set')} there, {here.get(key, 'not set')} here); {_ADVICE}")
        row = _read_json(folder / "case.json")
        if isinstance(row, dict) and row.get("status") == "completed" and (folder / RESULTS).is_file():
            rows[name] = row
    return rows


def clear(out, label: str = "the sweep folder") -> None:
    """Remove an earlier sweep's cases, summary and record from ``out``
    (``--force``), leaving every other file, and the FMUs built for the
    workers' Pythons, where they are."""
    out = Path(out)
    for name in (CASES, SUMMARY, SWEEP, "summary.part"):
        target = out / name
        try:
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            elif target.exists() or target.is_symlink():
                target.unlink()
        except OSError as exc:
            raise CraneCosimError(f"the earlier sweep's {target} in {label} {out} cannot be removed: "
                                  f"{exc.strerror or exc}") from None


def make_folder(out, label: str = "the sweep folder") -> None:
    """Create ``out``, or raise :class:`CraneCosimError` saying why it cannot be."""
    try:
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CraneCosimError(f"{label} {out} cannot be created: {exc.strerror or exc}") from None


def write_identity(out, ident: dict, label: str = "the sweep folder") -> None:
    """Create ``out``'s ``cases`` folder and record the sweep's
    :func:`identity` in ``sweep.json``."""
    out = Path(out)
    try:
        (out / CASES).mkdir(parents=True, exist_ok=True)
        tmp = out / (SWEEP + ".part")
        tmp.write_text(json.dumps(ident, indent=1, sort_keys=True) + "\n")
        tmp.replace(out / SWEEP)
    except OSError as exc:
        raise CraneCosimError(f"{label} {out} cannot be written: {exc.strerror or exc}") from None
