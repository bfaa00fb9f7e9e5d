"""What every call returns, whatever the host's logging (docs/fmus.md,
"What a call returns"): a table of misuse, each row a scenario of FMI 2.0
calls with the status each call must return, driven through every one of
the project's FMUs by a plain C host (``c_statuses.c``) and by fmpy's
FMU2Slave (``status_script.py``, in a process of its own), each with
``loggingOn`` false and true.  Both hosts and both settings must give the
table's statuses, every fmi2Error must come with a message through the
logger (logging off too), and both hosts must exit cleanly.  The portable
FMUs, which run each instance in a process of their own, give every call
the same status and the same messages as the in-process FMUs.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from fmpy import read_model_description

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.compiled_block import CompiledBlock
from c_hosts import compile_host, host_env
from limits import HUNG
from portable_tried import block_sets, each_block

HERE = Path(__file__).resolve().parent
OK, WARNING, DISCARD, ERROR = 0, 1, 2, 3
H = 1e-3
INIT = [("setup 0", OK), ("enter", OK), ("exit", OK)]
#: fmi2StatusKind
DO_STEP_STATUS, PENDING_STATUS, LAST_SUCCESSFUL_TIME, TERMINATED = range(4)

# skipped without a C compiler, failed without one in CI (conftest.py)
pytestmark = pytest.mark.usefixtures("c_compiler")


def _refused(block_cls, name, candidates):
    """The first of ``candidates`` the block refuses for its parameter ``name``."""
    for value in candidates:
        try:
            block_cls(**{name: value})
        except ParameterError:
            return value
    return None


def _bad_value(block_cls, tunable: bool):
    """(parameter, value) the block refuses, among its tunable or its fixed
    parameters, or None."""
    for p in block_cls.parameters:
        if p.tunable != tunable:
            continue
        candidates = ("no-such-choice",) if p.type == "String" else (-1.0, 0.0, -1e3, 1e9) if p.type == "Real" else ()
        value = _refused(block_cls, p.name, candidates)
        if value is not None:
            return p, value
    return None


def _set(vr, p, value) -> str:
    return f"sets {vr[p.name]} {value}" if p.type == "String" else f"setr {vr[p.name]} {value!r}"


def _overflow(block_cls):
    """What inputs of 1e300 do to the block in one step from its initial
    state: ("step", None) if the step fails or leaves a state that is not
    finite, ("output", name) for an output that is then not finite, or
    None (the block keeps everything finite)."""
    block = block_cls()
    u = np.full(len(block_cls.inputs), 1e300)
    try:
        with np.errstate(all="ignore"):
            x = block.advance(0.0, block.initial_state(), u, H)
            if not np.isfinite(x).all():
                return "step", None
            y = block.output(H, x, u)
    except Exception:
        return "step", None
    bad = np.flatnonzero(~np.isfinite(y))
    return ("output", block_cls.outputs[bad[0]].name) if bad.size else None


def table(model: str, md) -> dict:
    """The scenarios of ``model``'s FMU: name -> [(call, status), ...]."""
    block_cls = BLOCKS[model]
    vr = {v.name: v.valueReference for v in md.modelVariables}
    unknown = len(md.modelVariables) + 1000
    out = vr[block_cls.outputs[0].name]
    inp = vr[block_cls.inputs[0].name] if block_cls.inputs else None
    fixed = next((p for p in block_cls.parameters if p.type == "Real" and not p.tunable), None)
    rows = {
        "fmi2DoStep before initialization": [("step 0 0.001", ERROR), ("setup 0", ERROR), ("reset", OK), *INIT,
                                             ("step 0 0.001", OK)],
        "fmi2ExitInitializationMode before fmi2EnterInitializationMode": [("setup 0", OK), ("exit", ERROR)],
        "fmi2EnterInitializationMode twice": [("setup 0", OK), ("enter", OK), ("enter", ERROR)],
        "fmi2EnterInitializationMode without fmi2SetupExperiment": [("enter", ERROR)],
        "fmi2SetupExperiment in Initialization Mode": [("setup 0", OK), ("enter", OK), ("setup 0", ERROR)],
        "fmi2DoStep in Initialization Mode": [("setup 0", OK), ("enter", OK), ("step 0 0.001", ERROR)],
        "fmi2GetReal before initialization": [("setup 0", OK), (f"getr {out}", ERROR)],
        "fmi2DoStep after fmi2Terminate": [*INIT, ("step 0 0.001", OK), ("term", OK), ("step 0.001 0.001", ERROR),
                                           (f"getr {out}", OK)],
        "fmi2Terminate twice": [*INIT, ("term", OK), ("term", ERROR)],
        "fmi2Terminate before initialization": [("setup 0", OK), ("term", ERROR)],
        "fmi2CancelStep": [*INIT, ("cancel", ERROR)],
        "negative step": [*INIT, ("step 0 -0.001", ERROR), ("step 0 0.001", ERROR)],
        "zero step": [*INIT, ("step 0 0", ERROR)],
        "NaN step": [*INIT, ("step 0 nan", ERROR)],
        "infinite step": [*INIT, ("step 0 inf", ERROR)],
        "NaN communication point": [*INIT, ("step nan 0.001", ERROR)],
        "communication point not the FMU's time": [*INIT, ("step 1 0.001", ERROR)],
        "step past the stop time": [("setup 0 0.001", OK), ("enter", OK), ("exit", OK), ("step 0 0.001", OK),
                                    ("step 0.001 0.001", ERROR)],
        "unknown value reference, get": [*INIT, (f"getr {unknown}", ERROR), (f"geti {unknown}", ERROR),
                                         (f"getb {unknown}", ERROR), (f"gets {unknown}", ERROR),
                                         (f"getr {2**32 - 1}", ERROR), (f"getr {out}", OK), ("step 0 0.001", ERROR)],
        "unknown value reference, fmi2SetReal": [*INIT, (f"setr {unknown} 1", ERROR), ("step 0 0.001", ERROR)],
        "unknown value reference, fmi2SetInteger": [*INIT, (f"seti {unknown} 1", ERROR)],
        "unknown value reference, fmi2SetBoolean": [*INIT, (f"setb {unknown} 1", ERROR)],
        "unknown value reference, fmi2SetString": [*INIT, (f"sets {unknown} x", ERROR)],
        "value reference of another type": [*INIT, (f"geti {out}", ERROR)],
        "an output set": [*INIT, (f"setr {out} 1", ERROR)],
        "status inquiries": [*INIT, ("step 0 0.001", OK), (f"rstatus {LAST_SUCCESSFUL_TIME}", OK),
                             (f"bstatus {TERMINATED}", OK), (f"status {DO_STEP_STATUS}", DISCARD),
                             (f"istatus {DO_STEP_STATUS}", DISCARD), (f"sstatus {PENDING_STATUS}", DISCARD),
                             (f"rstatus {TERMINATED}", DISCARD), ("step 0.001 0.001", OK)],
        "status inquiry in Initialization Mode": [("setup 0", OK), ("enter", OK),
                                                  (f"rstatus {LAST_SUCCESSFUL_TIME}", ERROR)],
        "directional derivative": [*INIT, (f"dirder {out}", ERROR)],
        "output derivative": [*INIT, ("step 0 0.001", OK), (f"outder {out}", ERROR)],
        "unknown log category": [("debug on bogus", ERROR)],
        "log categories": [("debug on logAll", OK), ("debug off", OK), ("debug on logStatusError", OK)],
        "a state saved before the error restored": [*INIT, ("save", OK), (f"setr {unknown} 1", ERROR),
                                                    ("step 0 0.001", ERROR), ("restore", OK), ("step 0 0.001", OK),
                                                    ("freestate", OK)],
        "a serialized state": [*INIT, ("step 0 0.001", OK), ("save", OK), ("roundtrip", OK),
                               ("step 0.001 0.001", OK), ("freestate", OK)],
        "bytes that are no serialized state": [("garbage", ERROR)],
        "an instance for model exchange": [("instantiate_me", ERROR)],
        "a run": [*INIT, ("step 0 0.001", OK), ("step 0.001 0.001", OK), (f"getr {out}", OK), ("term", OK)],
    }
    if inp is not None:
        rows.update({
            "NaN input": [*INIT, (f"setr {inp} nan", ERROR)],
            "infinite input": [*INIT, (f"setr {inp} -inf", ERROR)],
            "NaN input before initialization": [("setup 0", OK), (f"setr {inp} nan", ERROR)],
            "input derivative of order 3": [*INIT, (f"ders {inp} 3 1", ERROR)],
            "NaN input derivative": [*INIT, (f"ders {inp} 1 nan", ERROR)],
        })
    if fixed is not None:
        rows["NaN parameter"] = [("setup 0", OK), (f"setr {vr[fixed.name]} nan", ERROR)]
        rows["fixed parameter after initialization"] = [*INIT, (f"setr {vr[fixed.name]} {fixed.start!r}", ERROR)]
    bad = _bad_value(block_cls, tunable=False) or _bad_value(block_cls, tunable=True)
    if bad is not None:
        # a host may still set parameters in initialization mode: a warning there, an error when it stays
        rows["invalid parameter at initialization"] = [("setup 0", OK), (_set(vr, *bad), OK), ("enter", WARNING),
                                                       (f"getr {out}", ERROR), ("exit", ERROR), (f"getr {out}", ERROR)]
    if bad is not None and bad[0].type == "Real":  # (a String start may hold spaces the scripts split on)
        rows["invalid parameter corrected in initialization mode"] = [
            ("setup 0", OK), (_set(vr, *bad), OK), ("enter", WARNING), (_set(vr, bad[0], bad[0].start), OK),
            (f"getr {out}", OK), ("exit", OK), (f"getr {out}", OK)]
    bad = _bad_value(block_cls, tunable=True)
    if bad is not None:
        rows["invalid tunable value after initialization"] = [*INIT, (_set(vr, *bad), ERROR)]
    overflow = _overflow(block_cls) if block_cls.inputs else None
    if overflow is not None:
        huge = [(f"setr {vr[v.name]} 1e300", OK) for v in block_cls.inputs]
        where, name = overflow
        rows["overflow: a state or an output not finite"] = [*INIT, *huge] + (
            [("step 0 0.001", ERROR)] if where == "step" else [("step 0 0.001", OK), (f"getr {vr[name]}", ERROR)])
    return {name: [("reset", OK), *calls] for name, calls in rows.items()}


# -- running the table ------------------------------------------------------

@pytest.fixture(scope="session")
def c_statuses(tmp_path_factory):
    return compile_host(tmp_path_factory, "c_statuses", "-ldl")


@pytest.fixture(scope="session")
def tables(fmu_dir, unzipped):
    """model -> (unzipped folder, modelDescription, table)."""
    out = {}
    for model in BLOCKS:
        folder = unzipped(fmu_dir / f"{model}.fmu")
        md = read_model_description(str(folder))
        out[model] = folder, md, table(model, md)
    return out


@pytest.fixture(scope="session")
def portable_folder(portable_fmu, unzipped):
    """``portable_folder(model)``: the block's portable FMU unzipped."""
    return lambda model: unzipped(portable_fmu(model))


def _scripts(rows):
    return [[call for call, _ in calls] for calls in rows.values()]


def _fmpy_statuses(folders: dict, tables) -> dict:
    """The table run by fmpy on the FMUs in ``folders`` (model -> unzipped
    FMU), each with logging off and on, in one Python process of its own:
    model -> {False: results, True: results}."""
    jobs = [[str(folder), _scripts(tables[model][2]), on] for model, folder in folders.items()
            for on in (False, True)]
    proc = subprocess.run([sys.executable, str(HERE / "status_script.py")], input=json.dumps(jobs),
                          capture_output=True, text=True, timeout=HUNG, env=host_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = iter(json.loads(proc.stdout))
    return {model: {False: next(results), True: next(results)} for model in folders}


@pytest.fixture(scope="session")
def fmpy_results(tables):
    """The table run by fmpy through every lean FMU (:func:`_fmpy_statuses`)."""
    return _fmpy_statuses({model: folder for model, (folder, _, _) in tables.items()}, tables)


def _run_c(c_statuses, folder, md, rows, logging_on, tmp_path):
    script = tmp_path / f"script_{int(logging_on)}.txt"
    script.write_text("\n".join(";".join(calls) for calls in _scripts(rows)) + "\n")
    proc = subprocess.run([str(c_statuses), str(folder), md.coSimulation.modelIdentifier, md.guid,
                           str(int(logging_on)), str(script)], capture_output=True, text=True, timeout=HUNG,
                          env=host_env())
    assert proc.returncode == 0, proc.stderr[-3000:]
    results, scenario, messages = [], [], []
    for line in proc.stdout.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "L":
            status, _, text = rest.partition(" ")
            messages.append((int(status), text))
        elif kind == "S":
            scenario.append((int(rest), messages))
            messages = []
        elif kind == "E":
            results.append(scenario)
            scenario = []
    return results


def _compare(model, rows, results, host, logging_on):
    wrong = []
    for (name, calls), got in zip(rows.items(), results, strict=True):
        statuses = [status for status, _ in got]
        expected = [status for _, status in calls]
        if statuses != expected:
            wrong.append(f"{name}: {statuses} instead of {expected}: "
                         f"{[m for _, ms in got for s, m in ms if s >= ERROR][:2]}")
            continue
        for (call, status), (_, messages) in zip(calls, got):
            errors = [m for s, m in messages if s >= ERROR]
            if status == ERROR and not errors:
                wrong.append(f"{name}: {call} returned fmi2Error and logged no message")
            if status == OK and errors:
                wrong.append(f"{name}: {call} returned fmi2OK and logged {errors[0]!r}")
            if status == DISCARD and not logging_on and messages:
                wrong.append(f"{name}: {call} logged {messages[0]!r} with logging off")
            if status == DISCARD and logging_on and not messages:
                wrong.append(f"{name}: {call} returned fmi2Discard and said nothing with logging on")
    assert not wrong, f"{model}, {host}, logging {'on' if logging_on else 'off'}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("model", list(BLOCKS))
def test_every_call_returns_the_tables_status_in_both_hosts_whatever_the_logging(
        model, tables, fmpy_results, c_statuses, tmp_path):
    folder, md, rows = tables[model]
    for logging_on in (False, True):
        _compare(model, rows, _run_c(c_statuses, folder, md, rows, logging_on, tmp_path), "C host", logging_on)
        _compare(model, rows, fmpy_results[model][logging_on], "fmpy", logging_on)


@pytest.mark.parametrize("model", each_block())
def test_a_portable_fmu_returns_what_the_fmu_in_process_returns(model, tables, portable_folder, fmpy_results,
                                                                c_statuses, tmp_path):
    """Every call of the table, through the portable FMU (each instance in
    a process of its own, with the Python it carries), returns the status
    and logs the messages, in order, that the FMU in the host's process
    returns and logs, in both hosts, logging off and on."""
    folder, md, rows = tables[model]
    portable = portable_folder(model)
    portable_fmpy = _fmpy_statuses({model: portable}, tables)[model]
    for logging_on in (False, True):
        assert _run_c(c_statuses, portable, md, rows, logging_on, tmp_path) == \
            _run_c(c_statuses, folder, md, rows, logging_on, tmp_path), (model, "C host", logging_on)
        assert portable_fmpy[logging_on] == fmpy_results[model][logging_on], (model, "fmpy", logging_on)


#: the blocks whose table runs through the Windows binaries: those without
#: numba kernels, which the lean FMU's Python would compile anew under Wine
#: (a minute each), and the vessel, whose kernels the portable FMU's tests
#: compile there anyway
WINDOWS_TABLE = [model for model, cls in BLOCKS.items() if not issubclass(cls, CompiledBlock)] + ["Vessel"]


#: the row pythonfmu's Windows binary crashes on (a read of address 8 in
#: python311.dll): in process it takes the host with it
CRASHES_ON_WINDOWS = "an instance for model exchange"


def _windows_results(windows, folders: dict, tables, crash: bool) -> list:
    """The table's rows but the crash (``crash`` False) or the crash alone,
    run by FMPy in the Windows Python on the FMUs in ``folders`` (model ->
    unzipped FMU), each with logging off and on."""
    jobs = [[windows.path_of(folder),
             _scripts({name: calls for name, calls in tables[model][2].items()
                       if (name == CRASHES_ON_WINDOWS) == crash}), on]
            for model, folder in folders.items() for on in (False, True)]
    proc = subprocess.run([*windows.command, windows.path_of(HERE / "status_script.py")], input=json.dumps(jobs),
                          capture_output=True, text=True, timeout=HUNG, env=windows.env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("models", block_sets(WINDOWS_TABLE))
def test_a_portable_fmus_windows_binary_returns_what_the_lean_one_returns(models, windows, tables, portable_folder):
    """Every call of the table, by FMPy in a Windows Python under Wine,
    through the portable FMU's Windows binary (each instance in a process
    of its own, with the Windows Python it carries) returns the status and
    logs the messages, in order, that the lean FMU's Windows binary
    (pythonfmu's, in the host's process) returns and logs, logging off and
    on; but where that binary crashes (a model exchange instance asked
    for), the portable FMU's process ends and the host gets no instance and
    a message saying how the process ended."""
    lean = _windows_results(windows, {model: tables[model][0] for model in models}, tables, False)
    folders = {model: portable_folder(model) for model in models}
    portable = _windows_results(windows, folders, tables, False)
    for k, (got, expected) in enumerate(zip(portable, lean, strict=True)):
        assert got == expected, (models[k // 2], "logging", bool(k % 2))
    crashed = _windows_results(windows, folders, tables, True)
    for k, [calls] in enumerate(crashed):
        status, messages = calls[-1]
        assert status == ERROR, (models[k // 2], calls)
        assert any("fmi2Instantiate: the FMU's process (pid " in m for _, m in messages), messages


def test_the_table_covers_the_rows_of_every_fmu(tables):
    """The rows that depend on what a block has are there where it has it:
    an invalid parameter value at initialization for every FMU, the rows of
    inputs for every FMU with inputs, and an overflow for the multibody
    FMUs at least."""
    for model, (_, _, rows) in tables.items():
        assert "invalid parameter at initialization" in rows, model
        assert ("NaN input" in rows) == bool(BLOCKS[model].inputs), model
    with_overflow = {m for m, (_, _, rows) in tables.items() if any(n.startswith("overflow") for n in rows)}
    assert {"Vessel", "Crane", "KnuckleBoomCrane"} <= with_overflow


def test_messages_name_what_is_refused(tables, fmpy_results):
    """A sample of the messages (fmpy, logging off): the call, the state and
    what to do; the variable and its value."""
    model = "Controller"
    rows = list(tables[model][2])
    results = fmpy_results[model][False]

    def message(row, call):
        return next(m for s, m in results[rows.index(row)][call][1] if s >= ERROR)

    assert message("fmi2DoStep after fmi2Terminate", 6) == (
        "Controller (fmpy): fmi2DoStep is not allowed in state terminated (FMI 2.0 section 4.2.4); the run was "
        "terminated (fmi2Terminate): fmi2Reset the instance to run again")
    assert message("NaN input", 4) == ("Controller (fmpy): fmi2SetReal: q_slew = nan refused: not a finite number "
                                       "(the value set before is kept)")
    assert "fmi2GetReal: value reference" in message("unknown value reference, get", 4)
    assert "the step size must be a positive finite number" in message("negative step", 4)
    assert message("negative step", 5).endswith("an earlier call returned fmi2Error: fmi2Reset the instance, or "
                                                "restore a state saved before with fmi2SetFMUstate")
