"""The FMUs: valid, complete modelDescription, full state save/restore,
side by side in one process, self-contained, and honest about failures."""
import gc
import json
import subprocess
import sys
import textwrap
import types
import xml.etree.ElementTree as ET
import zipfile
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest
from fmpy import extract, read_model_description
from fmpy.fmi2 import FMU2Slave
from fmpy.validation import validate_fmu

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.errors import CraneCosimError
from crane_cosim.fmus.build import source_hash
from crane_cosim.runtime.loading import open_instance
from limits import HUNG

MODELS = sorted(BLOCKS)


@pytest.mark.parametrize("model", MODELS)
def test_fmu_validates_with_zero_problems(fmu_dir, model):
    assert validate_fmu(str(fmu_dir / f"{model}.fmu")) == []


@pytest.mark.parametrize("model", MODELS)
def test_model_description_is_complete(fmu_dir, model):
    """Units, descriptions, causality, variability, start values and
    InitialUnknowns, all from the block declaration."""
    with zipfile.ZipFile(fmu_dir / f"{model}.fmu") as z:
        md = ET.fromstring(z.read("modelDescription.xml"))
    block = BLOCKS[model]
    units = {u.get("name") for u in md.find("UnitDefinitions")}
    variables = md.find("ModelVariables")
    declared = {v.name: v for v in block.parameters + block.inputs + block.outputs}
    assert {sv.get("name") for sv in variables} == set(declared)
    for sv in variables:
        d = declared[sv.get("name")]
        assert sv.get("description") == d.description
        assert sv.get("causality") in ("parameter", "input", "output")
        port = "continuous" if d.type == "Real" else "discrete"  # (FMI 2.0: only a Real is continuous)
        expected = ("tunable" if d.tunable else "fixed") if sv.get("causality") == "parameter" else port
        assert sv.get("variability") == expected, sv.get("name")
        typ = sv.find(d.type)
        assert typ is not None
        if d.type == "Real":
            # a Real declared without a unit (Signal's y) has no unit attribute
            assert typ.get("unit") == (d.unit or None) and d.unit in units | {""}
        if sv.get("causality") != "output":
            assert typ.get("start") is not None
    outputs = [u.get("index") for u in md.find("ModelStructure/Outputs")]
    initial = [u.get("index") for u in md.find("ModelStructure/InitialUnknowns")]
    assert outputs == initial and len(outputs) == len(block.outputs)
    experiment = md.find("DefaultExperiment")
    assert (float(experiment.get("startTime")), float(experiment.get("stopTime")), float(experiment.get("stepSize"))) \
        == (0.0, block.default_stop_time, block.default_step)


@pytest.mark.parametrize("model", MODELS)
def test_model_structure_declares_each_outputs_true_dependencies(fmu_dir, model):
    """FMI 2.0 (section 2.2.8): each output lists the inputs it depends on
    directly (indices of ScalarVariables, ascending, one dependenciesKind
    each); those are the block's declared feedthrough, which
    tests/blocks/test_feedthrough.py holds to finite differences.  In
    initialization mode (InitialUnknowns) the outputs depend on the same
    inputs and on the parameters, whose values are known then."""
    with zipfile.ZipFile(fmu_dir / f"{model}.fmu") as z:
        md = ET.fromstring(z.read("modelDescription.xml"))
    block = BLOCKS[model]
    variables = list(md.find("ModelVariables"))
    causality = {k: sv.get("causality") for k, sv in enumerate(variables, start=1)}
    name = {k: sv.get("name") for k, sv in enumerate(variables, start=1)}
    declared = block.output_dependencies()
    parameters = {p.name for p in block.parameters}
    for section, knowns in (("Outputs", {"input"}), ("InitialUnknowns", {"input", "parameter"})):
        unknowns = list(md.find(f"ModelStructure/{section}"))
        indices = [int(u.get("index")) for u in unknowns]
        assert indices == sorted(indices) and {causality[k] for k in indices} == {"output"}
        for u in unknowns:
            deps = [int(k) for k in u.get("dependencies").split()]
            kinds = u.get("dependenciesKind").split()
            assert deps == sorted(set(deps)) and len(kinds) == len(deps) and set(kinds) <= {"dependent"}
            assert {causality[k] for k in deps} <= knowns
            out = name[int(u.get("index"))]
            assert [name[k] for k in deps if causality[k] == "input"] == declared[out], out
            if section == "InitialUnknowns":
                assert {name[k] for k in deps if causality[k] == "parameter"} == parameters
    # not a dense declaration: some outputs depend on no input at all
    assert any(not d for d in declared.values()), model


def test_the_same_sources_build_the_same_fmu(tmp_path):
    """Byte for byte, with a GUID derived from the model and its sources."""
    from crane_cosim.fmus.build import build_fmu, guid, source_hash
    first = build_fmu("Controller", tmp_path / "a").read_bytes()
    second = build_fmu("Controller", tmp_path / "b").read_bytes()
    assert first == second
    md = read_model_description(str(tmp_path / "a" / "Controller.fmu"))
    assert md.guid == guid("Controller", source_hash()) != guid("Vessel", source_hash())
    assert md.generationDateAndTime is None


def _slave(path, name, tmp_path):
    md = read_model_description(str(path))
    s = FMU2Slave(guid=md.guid, unzipDirectory=extract(str(path), unzipdir=str(tmp_path / name)),
                  modelIdentifier=md.coSimulation.modelIdentifier, instanceName=name)
    s.instantiate()
    s.setupExperiment(startTime=0.0)
    s.enterInitializationMode()
    s.exitInitializationMode()
    vr = {v.name: v.valueReference for v in md.modelVariables}
    outs = [v.valueReference for v in md.modelVariables if v.causality == "output"]
    return s, vr, outs


@pytest.mark.parametrize("model", ["Crane", "Vessel", "HydraulicCylinder", "KnuckleBoomCrane", "JointFriction",
                                   "KnuckleBoomFriction"])
def test_fmu_state_round_trip_restores_everything(fmu_dir, tmp_path, model, rng):
    """save -> step -> restore -> step gives identical outputs; the internal
    numpy state is restored, not only the registered variables (for the
    friction blocks: the bristle states and the energy dissipated)."""
    s, vr, outs = _slave(fmu_dir / f"{model}.fmu", "a", tmp_path)
    md = read_model_description(str(fmu_dir / f"{model}.fmu"))
    inputs = [v.valueReference for v in md.modelVariables if v.causality == "input"]
    values = [float(v.start) for v in md.modelVariables if v.causality == "input"]
    if model == "Crane":
        values[21:24] = [300.0, 900.0, -100.0]  # joint torques
    elif model == "KnuckleBoomCrane":
        values[21:24] = [5e3, 1.2e6, 4e5]  # slewing torque, cylinder forces
    elif model == "Vessel":
        values[21] = 2000.0  # a roll moment on the vessel
    elif model.endswith("Friction"):  # every joint sliding under a radial load
        names = [v.name for v in md.modelVariables if v.causality == "input"]
        values = [0.02 if n.startswith("u_") else 3e4 for n in names]
    else:
        values[0], values[2], values[3] = 0.3, 0.8, 0.05  # valve open, piston moving
    t, h = 0.0, 1e-3
    s.setReal(inputs, values)
    for _ in range(50):
        s.doStep(t, h)
        t += h
    state = s.getFMUstate()

    def run(n, t):
        for _ in range(n):
            s.doStep(t, h)
            t += h
        return np.array(s.getReal(outs))

    y1 = run(100, t)
    y_more = run(10, t + 100 * h)
    s.setFMUstate(state)
    y2 = run(100, t)
    s.freeFMUstate(state)
    assert np.array_equal(y1, y2)
    assert not np.array_equal(y1, y_more)  # the restore did change something
    s.terminate()
    s.freeInstance()


def test_fmus_side_by_side_in_a_process_that_imports_the_project(fmu_dir, tmp_path):
    """Two instances of every FMU at once, in this process (which has the project
    and pythonfmu imported): each steps independently."""
    slaves = []
    for model in MODELS:
        for i in range(2):
            slaves.append((model, i) + _slave(fmu_dir / f"{model}.fmu", f"{model}{i}", tmp_path))
    for model, i, s, vr, outs in slaves:
        if model == "Crane":
            s.setReal([vr["tau_boom"]], [1000.0 * (i + 1)])
        for k in range(20):
            s.doStep(k * 1e-3, 1e-3)
    crane = [(i, s.getReal([vr["u_boom"]])[0]) for model, i, s, vr, _ in slaves if model == "Crane"]
    assert crane[0][1] != crane[1][1]  # different torques, different motion: no shared state
    for _, _, s, _, _ in slaves:
        s.terminate()
        s.freeInstance()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checked where the binary's fault was seen")
def test_the_binarys_interpreter_state_is_released_before_exit(fmu_dir, plain_fmu_dir, tmp_path):
    """pythonfmu 0.7's binary writes into freed memory at process exit unless
    its global interpreter-state pointer was reset before (docs/fmus.md).
    With the project's shim in front of it, the shim resets it from a C exit
    handler and the adapter registers nothing.  An FMU that carries
    pythonfmu's binary alone (built without a C compiler), instantiated in
    this Python host, registers that reset for its own binary from Python's
    exit handlers; an instance keeps working after it (in a Python host the
    state object holds nothing it uses), so the reset is safe whenever
    Python's exit runs it."""
    module_name = f"crane_cosim_fmu_{source_hash()}.host_process"
    shimmed, _, _ = _slave(fmu_dir / "Controller.fmu", "s", tmp_path)
    folder = tmp_path / "s" / "binaries" / "linux64"
    assert not {str(p.resolve()) for p in folder.glob("*.so")} & sys.modules[module_name]._RELEASE_REGISTERED
    shimmed.terminate()
    shimmed.freeInstance()

    first, vr, outs = _slave(plain_fmu_dir / "Controller.fmu", "c", tmp_path)
    host_process = sys.modules[module_name]
    binary = str((tmp_path / "c" / "binaries" / "linux64" / "Controller.so").resolve())
    assert binary in host_process._RELEASE_REGISTERED
    host_process._release_interpreter_state(binary)
    host_process._release_interpreter_state(binary)  # the second finds it null
    # an instance made before the reset and one made after it (a new state
    # object) step alike
    md = read_model_description(str(plain_fmu_dir / "Controller.fmu"))
    second = FMU2Slave(guid=md.guid, unzipDirectory=str(tmp_path / "c"),
                       modelIdentifier=md.coSimulation.modelIdentifier, instanceName="c2")
    second.instantiate()
    second.setupExperiment(startTime=0.0)
    second.enterInitializationMode()
    second.exitInitializationMode()
    for s in (first, second):
        s.setReal([vr["q_boom"]], [0.3])
        for k in range(5):
            s.doStep(k * 1e-3, 1e-3)
    y1, y2 = first.getReal(outs), second.getReal(outs)
    assert y1 == y2 and np.isfinite(y1).all() and np.abs(y1).max() > 0
    for s in (first, second):
        s.terminate()
        s.freeInstance()


def _references_to(obj):
    """How many references to ``obj`` the garbage collector can find (no
    comprehension here: its cell holding ``obj`` would be one more)."""
    n = 0
    for r in gc.get_referrers(obj):
        items = r.values() if isinstance(r, dict) else r if isinstance(r, (list, tuple)) else None
        if items is None:
            n += not isinstance(r, types.FrameType)
            continue
        for x in items:
            n += x is obj
    return n


@pytest.mark.parametrize("model", MODELS)
def test_entry_module_keeps_an_exact_reference_count(fmu_dir, tmp_path, model):
    """pythonfmu 0.7 releases a reference to the FMU entry module's dict that it
    never took, once per instance (docs/fmus.md); the entry script takes it
    back.  A count short of the references that exist frees the dict while the
    module still uses it: a crash at the second instance, or an abort at exit.
    After three instances the count equals the references the garbage
    collector finds (plus the one held here), exactly."""
    slaves = [_slave(fmu_dir / f"{model}.fmu", f"{model}{i}", tmp_path / str(i))[0] for i in range(3)]
    names = {(Path(s.unzipDirectory) / "resources" / "slavemodule.txt").read_text().strip() for s in slaves}
    for name in names:
        d = sys.modules[name].__dict__
        assert sys.getrefcount(d) - 2 == _references_to(d), name  # - 2: the argument and d
    for s in slaves:
        s.terminate()
        s.freeInstance()


def _isolated_site(tmp_path, dists):
    """A folder holding only the top-level packages of ``dists``."""
    site = tmp_path / "site"
    site.mkdir()
    for name in dists:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        tops = {Path(str(f)).parts[0] for f in dist.files or []}
        for top in tops:
            if top.endswith(".dist-info") or top == ".." or top.startswith("__"):
                continue
            src = Path(dist.locate_file(top))
            if src.exists() and not (site / top).exists():
                (site / top).symlink_to(src)
    return site


@pytest.mark.parametrize("model", MODELS)
def test_fmu_runs_where_only_fmpy_numpy_scipy_are_installed(fmu_dir, tmp_path, model, monkeypatch):
    """A fresh interpreter (isolated mode, no site-packages) that sees only fmpy,
    numpy, scipy and fmpy's own dependencies -- not this project, not
    pythonfmu, not numba (the knuckle boom crane runs its numpy code) --
    simulates the FMU with fmpy, and exits cleanly (a reference count left
    short by pythonfmu's loader once made such a process abort at exit about
    one run in 20; see docs/fmus.md).  Side by side in one process is tested
    above."""
    monkeypatch.delenv("CI", raising=False)  # a user's machine without numba, where the numpy code runs
    proc = _simulate_isolated(fmu_dir / (model + ".fmu"), _isolated_site(tmp_path, _FMPY_DISTS),
                              absent=("crane_cosim", "pythonfmu", "numba"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == [201, True]


@pytest.mark.slow
def test_compiled_crane_fmu_keeps_its_machine_code_across_runs(fmu_dir, tmp_path, monkeypatch):
    """With numba, the crane FMU compiles its kernels into the cache folder
    the first time (its sources unpacked to a temporary folder), and a second
    process loads them from there: it writes nothing new (numba would add or
    rewrite its index and code files if it compiled again)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(cache))
    site = _isolated_site(tmp_path, _FMPY_DISTS + ["numba", "llvmlite"])
    fmu = fmu_dir / "KnuckleBoomCrane.fmu"

    def files():
        return {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}

    first = _simulate_isolated(fmu, site, absent=("crane_cosim", "pythonfmu"))
    assert first.returncode == 0, first.stderr[-2000:]
    compiled = files()
    assert any(p.suffix == ".nbc" for p in compiled) and any(p.suffix == ".nbi" for p in compiled)
    second = _simulate_isolated(fmu, site, absent=("crane_cosim", "pythonfmu"))
    assert second.returncode == 0, second.stderr[-2000:]
    assert files() == compiled
    assert json.loads(second.stdout.strip().splitlines()[-1]) == [201, True]


_FMPY_DISTS = ["numpy", "scipy", "fmpy", "lxml", "attrs", "msgpack", "jinja2", "markupsafe", "lark"]


def _simulate_isolated(fmu, site, absent):
    """Simulate ``fmu`` for 0.2 s with fmpy in a fresh isolated interpreter
    that sees only ``site``; prints the number of rows and whether the last
    is finite."""
    script = textwrap.dedent(f"""
        import sys, json, importlib.util
        sys.path.insert(0, {str(site)!r})
        missing = [m for m in {tuple(absent)!r} if importlib.util.find_spec(m) is not None]
        assert not missing, f"not isolated: {{missing}}"
        import fmpy
        r = fmpy.simulate_fmu({str(fmu)!r}, stop_time=0.2, output_interval=1e-3)
        print(json.dumps([len(r), all(bool(abs(float(v)) < 1e300) for v in r[-1])]))
    """)
    return subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True,
                          timeout=HUNG)


def test_failure_to_initialize_reports_the_cause(fmu_dir, tmp_path):
    """fmpy alone says only that the call failed; the FMU logger gives the reason."""
    inst = open_instance(fmu_dir / "Crane.fmu", tmp_path, "crane", values={"m_king": -3.0})
    with pytest.raises(CraneCosimError, match=r"component crane \(Crane.fmu\) failed to initialize: "
                                              r"Crane \(crane\): cannot initialize: Crane parameter m_king = -3 kg"):
        inst.initialize(0.0)
    inst.free()


_LOADED = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
importlib.import_module(sys.argv[2])
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize("model", ["HydraulicCylinder", "Crane"])
def test_an_fmus_process_imports_its_own_block_alone(model, fmu_dir, unzipped):
    """The FMU's entry script imported in a fresh Python, as the process of
    an out-of-process host or a C host imports it: of the modules that
    define a block, its block's own alone, and not the registry of every
    block; the cylinder, which needs no scipy, loads none."""
    resources = unzipped(fmu_dir / f"{model}.fmu") / "resources"
    (entry,) = [p.stem for p in resources.glob("crane_cosim_*.py")]
    done = subprocess.run([sys.executable, "-c", _LOADED, str(resources), entry], capture_output=True, text=True,
                          timeout=HUNG)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = json.loads(done.stdout)
    package = f"crane_cosim_fmu_{source_hash()}.blocks"  # the FMU's private copy of the blocks
    block_modules = {cls.__module__.rpartition(".")[2] for cls in BLOCKS.values()}
    ours = {m.rpartition(".")[2] for m in loaded if m.startswith(package + ".")}
    assert ours & block_modules == {BLOCKS[model].__module__.rpartition(".")[2]}, sorted(ours)
    assert "registry" not in ours
    if model == "HydraulicCylinder":
        assert not any(m == "scipy" or m.startswith("scipy.") for m in loaded)


def test_a_second_run_after_the_first_ones_folder_is_gone(fmu_dir, tmp_path):
    """In one process, a run of a signal alone and then one of the crane on
    the vessel: the FMUs share their package, imported from the first run's
    unzipped folder, which the master deletes; the vessel's numba kernels,
    first imported in the second run, are found in its own folder."""
    import subprocess
    import sys
    script = f"""
from pathlib import Path
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.runtime.system import System
fmus = Path({str(fmu_dir)!r})
s = System("Ramp", stop_time=0.01, step=1e-3, algorithm="gauss-seidel", base_dir=fmus)
s.add_component("ramp", "Signal.fmu", table="0 0; 1 1")
run_cosim(s, Path({str(tmp_path)!r}) / "ramp", progress=False)
run_cosim(crane_on_vessel(fmus.parent, fmus.name, stop_time=0.01), Path({str(tmp_path)!r}) / "crane",
          progress=False)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HUNG)
    assert done.returncode == 0, done.stderr[-2000:]
