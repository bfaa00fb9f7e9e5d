"""The command line's options as one :class:`~crane_cosim.runtime.config.RunConfig`,
parsed once: ``--set`` values stay text for the plan to read as their
variables' types say (``runtime/types.py``), ``--replace`` paths are taken
from the working folder."""
from __future__ import annotations

from pathlib import Path

from ..errors import CraneCosimError
from ..runtime import recording
from ..runtime.config import SPIN, RunConfig
from ..views.live import parse_address
from .parser import QUIET, VERBOSE

__all__ = ["run_config", "pairs"]


def pairs(items, option: str, form: str, empty: bool = False) -> list[tuple[str, str]]:
    """``(left, right)`` of each ``left=right`` item of ``option`` (``right``
    as typed; ``empty``: it may be empty)."""
    out = []
    for item in items or ():
        left, eq, right = item.partition("=")
        if not eq or not left.strip() or not (empty or right.strip()):
            raise CraneCosimError(f"{option} {item!r} is not of the form {form}")
        out.append((left.strip(), right))
    return out


def _component_steps(items) -> dict:
    steps = {}
    for name, text in pairs(items, "--component-step", "component=seconds"):
        try:
            steps[name] = float(text)
        except ValueError:
            raise CraneCosimError(f"--component-step {name}={text!r}: {text!r} is not a number of seconds") from None
    return steps


def view_address(text):
    """``--view [HOST:]PORT`` as ``(host, port)``, or None."""
    if text is None:
        return None
    return parse_address(text)


def run_config(args, monolithic: bool = False) -> RunConfig:
    """The :class:`RunConfig` of ``run``, ``check``, ``export`` or ``sweep``'s
    arguments, checked (:meth:`RunConfig.check`)."""
    get = lambda name, default=None: getattr(args, name, default)  # noqa: E731 (not every command has each)
    real_time = get("real_time")
    if real_time is None:
        for name in ("spin", "rt_priority"):
            if get(name) is not None:
                raise CraneCosimError(f"--{name.replace('_', '-')} paces a run and needs --real-time")
    if monolithic:
        if real_time is not None:
            raise CraneCosimError("--real-time paces the communication points of a co-simulation; a monolithic "
                                  "run has none (leave out --monolithic)")
        if get("view") is not None:
            raise CraneCosimError("--view shows a co-simulation as it goes; a monolithic run is one computation "
                                  "(leave out --monolithic, or animate its results afterwards)")
        if get("input") is not None:
            raise CraneCosimError("--input drives an FMU's inputs at a co-simulation's communication points; a "
                                  "monolithic run has none (leave out --monolithic)")
        if get("scenario") is not None:
            raise CraneCosimError("--scenario changes values between a co-simulation's communication points; a "
                                  "monolithic run has none (leave out --monolithic)")
        if get("estimate") or get("tolerance") is not None or get("accuracy") is not None:
            raise CraneCosimError("--estimate, --tolerance and --accuracy concern the coupling of a co-simulation; "
                                  "a monolithic run has none (leave out --monolithic)")
    values = {}
    for target, value in pairs(get("set"), "--set", "component.variable=value", empty=True):
        values[target] = value
    replacements = {name: str(Path(path.strip()).resolve())
                    for name, path in pairs(get("replace"), "--replace", "component=path/to/model.fmu")}
    config = RunConfig(start_time=get("start_time"), stop_time=get("stop_time"), step=get("step"),
                       algorithm=get("algorithm"), coupling=get("coupling"), extrapolation=get("extrapolation"),
                       iterations=get("iterations"),
                       component_steps=_component_steps(get("component_step")), values=values,
                       replacements=replacements, record=get("record"), record_every=get("record_every"),
                       size_limit=None if get("force") else recording.SIZE_LIMIT, real_time=real_time,
                       spin=SPIN if get("spin") is None else get("spin"), rt_priority=get("rt_priority"),
                       estimate=bool(get("estimate")), tolerance=get("tolerance"), accuracy=get("accuracy"),
                       replace_run=bool(get("force")), processes=bool(get("processes")),
                       call_timeout=get("call_timeout"), timeout=get("timeout"),
                       relative_tolerance=get("relative_tolerance"),
                       scenario=None if get("scenario") is None else str(Path(get("scenario")).resolve()),
                       input_file=None if get("input") is None else str(Path(get("input")).resolve()),
                       fmi_logging=bool(get("fmi_logging")) or get("log_level") in VERBOSE,
                       progress=get("log_level") not in QUIET)
    config.check()
    view_address(get("view"))  # one sentence for a bad address before anything runs
    return config
