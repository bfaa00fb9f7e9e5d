"""Interop: the project's FMUs under OSP libcosim (PyPI ``libcosimpy``),
through :func:`crane_cosim.hosts.libcosim.run_libcosim`, against our own master.

Criterion of the issue: the RMS difference of every interface-wrench
component (Frame 1 and Frame 2) over the run is within 1% of that
component's peak in our master's run.

libcosim's fixed-step algorithm is Jacobi with inputs held over the step, so
the like-for-like reference is our master with ``algorithm = "jacobi"`` and
``extrapolation = "none"``: the two must agree to round-off (checked at
1e-6, observed about 1e-12).  Against our master's default settings the
difference is the coupling error between two algorithms (about 0.2% over
the 4 s run here, about 2% for the slew components over the full 20 s).

The quick runs cover 4 s at 1 ms with the slew moved to 0.5 s (a parameter
set through libcosim), so that all six wrench components are loaded; the
full 20 s sequence is marked slow (`pytest -m slow`).  ``libcosimpy`` is a
declared test dependency: without it this module fails, it is not skipped.
"""
import shutil
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

import libcosimpy  # noqa: F401  # a missing test dependency is an error, not a skip

from crane_cosim.errors import CraneCosimError
from crane_cosim.hosts.libcosim import run_libcosim
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import SCENARIOS, STUDIES, crane_on_vessel
from crane_cosim.ssp import SSC, SSD, write_ssd
from crane_cosim.files.results import read_results
from crane_cosim.accuracy.comparison import relative_rms
from recorded import host_columns

WRENCH = [f"crane.W_{f}_{c}" for f in ("mount", "king") for c in ("nx", "ny", "nz", "fx", "fy", "fz")]
STOP = 4.0
STEP = 1e-3
EARLY_SLEW = {"controller.q_slew_move1_start": 0.5, "controller.q_slew_move1_duration": 3.0}


def _table(err: dict) -> str:
    return ", ".join(f"{c.split('.')[1]} {e:.2e}" for c, e in err.items())


def _system(fmu_dir, stop_time=STOP, early_slew=True, **settings):
    s = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=stop_time, step=STEP)
    if early_slew:
        for k, v in EARLY_SLEW.items():
            s.set_parameter(k, v)
    for k, v in settings.items():
        setattr(s, k, v)
    return s


def _master(out, system) -> pd.DataFrame:
    assert run_cosim(system, out, progress=False).status == "completed"
    return read_results(out)


@pytest.fixture(scope="module")
def libcosim_run(fmu_dir):
    return run_libcosim(_system(fmu_dir))


@pytest.fixture(scope="module")
def jacobi_run(tmp_path_factory, fmu_dir):
    """Our master with libcosim's algorithm: Jacobi, inputs held."""
    return _master(tmp_path_factory.mktemp("jacobi"),
                   _system(fmu_dir, algorithm="jacobi", extrapolation="none"))


def test_records_every_output_at_every_communication_point(libcosim_run, jacobi_run):
    assert list(libcosim_run.columns) == list(jacobi_run.columns)
    n = round(STOP / STEP)
    np.testing.assert_allclose(libcosim_run["time"], np.arange(n + 1) * STEP, rtol=0, atol=1e-12)
    assert np.isfinite(libcosim_run.to_numpy()).all()
    # the slew parameters reached the controller through libcosim, so every
    # wrench component is loaded (not round-off around zero)
    assert libcosim_run["controller.q_slew_ref"].iloc[-1] > 1.0
    for c in WRENCH:
        assert np.abs(libcosim_run[c]).max() > 10.0, c


def test_matches_our_master_with_the_same_algorithm(libcosim_run, jacobi_run):
    err = relative_rms(libcosim_run, jacobi_run, WRENCH)
    print("\nlibcosim vs our master (jacobi, no extrapolation), RMS / peak:", _table(err))
    assert max(err.values()) <= 0.01, _table(err)
    # same algorithm, same FMUs: round-off only (an extra step of delay or a
    # different initialization would show at 1e-4 or more)
    assert max(err.values()) <= 1e-6, _table(err)


def test_within_one_percent_of_our_master_defaults(tmp_path, fmu_dir, libcosim_run):
    system = _system(fmu_dir)
    ours = _master(tmp_path / "default", system)
    err = relative_rms(libcosim_run, ours, WRENCH)
    print(f"\nlibcosim vs our master ({system.algorithm}, extrapolation {system.extrapolation}), "
          f"RMS / peak:", _table(err))
    assert max(err.values()) <= 0.01, _table(err)


@pytest.fixture(scope="module")
def ssd_copy(tmp_path_factory, fmu_dir):
    """Our .ssd of the quick run, next to a copy of the FMUs."""
    root = tmp_path_factory.mktemp("libcosim_ssp")
    shutil.copytree(fmu_dir, root / "fmus")
    return write_ssd(_system(root / "fmus"), root / "CraneOnVessel.ssd")


def test_libcosim_ssp_loader_runs_our_ssd(ssd_copy, libcosim_run):
    """libcosim's own SSP loader takes our components, inline parameter
    values and connections: the same run as the one built variable by
    variable (the step size is passed to it explicitly)."""
    from_ssd = run_libcosim(ssd_copy)
    assert list(from_ssd.columns) == list(libcosim_run.columns)
    np.testing.assert_array_equal(from_ssd["time"], libcosim_run["time"])
    for c in libcosim_run.columns:
        scale = max(1.0, float(np.abs(libcosim_run[c]).max()))
        np.testing.assert_allclose(from_ssd[c], libcosim_run[c], rtol=0, atol=1e-9 * scale, err_msg=c)


def test_libcosim_takes_the_step_size_from_our_ssd(ssd_copy):
    from libcosimpy.CosimEnums import CosimVariableType
    from libcosimpy.CosimExecution import CosimExecution
    from libcosimpy.CosimObserver import CosimObserver

    exp = ET.parse(ssd_copy).getroot().find(f"{{{SSD}}}DefaultExperiment")
    annotations = [child.tag for child in exp]
    # Checked before libcosim is called: without an algorithm it can read,
    # cosim_ssp_execution_create dereferences a null algorithm (segfault).
    assert annotations == [f"{{{SSD}}}Annotations"], (
        f"DefaultExperiment holds {annotations}; libcosim reads its OSP algorithm annotation from "
        f"ssd:Annotations (SSP 1.0), not {{{SSC}}}Annotations")
    execution = CosimExecution.from_ssp_file(str(ssd_copy))
    observer = CosimObserver.create_time_series()
    execution.add_observer(observer)
    crane = execution.slave_index_from_instance_name("crane")
    vr = next(v.reference for v in execution.slave_variables(crane) if v.name == b"W_mount_fz")
    assert observer.start_time_series(crane, vr, CosimVariableType.REAL)
    assert execution.step(3)
    times, steps, _ = observer.time_series_real_samples(crane, vr, from_step=1, sample_count=3)
    assert list(steps) == [1, 2, 3]
    assert list(times) == [round(k * STEP * 1e9) for k in (1, 2, 3)]


def test_missing_libcosimpy_is_one_sentence(monkeypatch, fmu_dir):
    monkeypatch.setitem(sys.modules, "libcosimpy", None)
    with pytest.raises(CraneCosimError, match="needs the Python package libcosimpy.*pip install libcosimpy"):
        run_libcosim(_system(fmu_dir, stop_time=0.01))


@pytest.mark.slow
def test_full_sequence_matches_our_master(tmp_path, fmu_dir):
    """The 20 s hoisting sequence of the example (no early slew)."""
    lc = run_libcosim(_system(fmu_dir, stop_time=20.0, early_slew=False))
    same = _master(tmp_path / "jacobi", _system(fmu_dir, stop_time=20.0, early_slew=False,
                                                algorithm="jacobi", extrapolation="none"))
    err = relative_rms(lc, same, WRENCH)
    print("\n20 s, libcosim vs our master (jacobi, no extrapolation), RMS / peak:", _table(err))
    assert max(err.values()) <= 0.01, _table(err)
    assert max(err.values()) <= 1e-6, _table(err)


def _host_comparison(system, host_run, out):
    """Relative RMS (over the run, per output) and the relative error at t = 0
    of a host's run against our master's, same algorithm (Jacobi, inputs
    held), for every output whose peak is not round-off."""
    ours = _master(out, system)
    recorded = host_columns(system, ours)  # the Real outputs
    cols = [c for c in recorded if c != "time" and np.abs(ours[c]).max() > 1e-6]
    assert list(host_run.columns) == recorded
    rms = relative_rms(host_run, ours, cols)
    at_start = {c: abs(host_run[c].iloc[0] - ours[c].iloc[0]) / np.abs(ours[c]).max() for c in cols}
    return rms, at_start


#: every example, the studies' systems (with the Waves FMU) among them
EXAMPLES = {**SCENARIOS, **STUDIES}


def _example(fmu_dir, name, stop_time):
    s = EXAMPLES[name](base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=stop_time)
    s.algorithm, s.extrapolation = "jacobi", "none"
    return s


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_under_libcosims_ssp_loader_equals_our_master(tmp_path, fmu_dir, name):
    """Each example's system file, loaded by libcosim's own SSP loader, runs
    as our master runs it with the same algorithm, from t = 0: within 1% of
    every output's peak (RMS) as promised, and in fact to round-off (about
    3e-12 measured over 2 s; bound 1e-10).  This holds because our FMUs give
    the model's outputs in initialization mode, where libcosim settles the
    initial values (with zeros there, the knuckle boom crane took its first
    step without its cylinder forces and the wrench at the mount was 69% of
    its peak off at t = 0)."""
    system = _example(fmu_dir, name, 2.0)
    ssd = write_ssd(system, fmu_dir.parent / f"{system.name}.ssd")  # beside the FMUs it names
    rms, at_start = _host_comparison(system, run_libcosim(ssd), tmp_path / "ours")
    worst = max(rms, key=rms.get)
    assert rms[worst] <= 0.01 and max(at_start.values()) <= 0.01
    assert rms[worst] <= 1e-10, (worst, rms[worst])
    assert max(at_start.values()) <= 1e-10, max(at_start.items(), key=lambda kv: kv[1])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_full_example_under_libcosim_equals_our_master(tmp_path, fmu_dir, name):
    system = _example(fmu_dir, name, 20.0)
    ssd = write_ssd(system, fmu_dir.parent / f"{system.name}.ssd")
    rms, at_start = _host_comparison(system, run_libcosim(ssd), tmp_path / "ours")
    assert max(rms.values()) <= 1e-9 and max(at_start.values()) <= 1e-10


# -- our SSP archive in libcosim -------------------------------------------------------------------

SSP_STOP = 1.0
# one parameter per component, each visible in the outputs: the slew starts
# at 0.5 s instead of 6 s, the vessel starts rolled, the jib is twice as heavy
CHANGED = {"controller.q_slew_move1_start": 0.5, "vessel.q_roll_0": 0.02, "crane.m_jib": 60.0}
SEEN = ["crane.W_mount_fz", "crane.W_mount_nx", "crane.I_A_11", "vessel.q_roll", "controller.q_slew_ref"]


def _changed_system(fmu_dir, stop_time=SSP_STOP, skip=(), **settings):
    s = _system(fmu_dir, stop_time=stop_time, early_slew=False, **settings)
    for k, v in CHANGED.items():
        if k not in skip:
            s.set_parameter(k, v)
    return s


@pytest.fixture(scope="module")
def exported(tmp_path_factory, fmu_dir):
    from crane_cosim.ssp import write_ssp
    return write_ssp(_changed_system(fmu_dir), tmp_path_factory.mktemp("export") / "CraneOnVessel.ssp")


def _libcosim_archive(path, refs, n_steps):
    """libcosim's own loader on the archive itself: the recorded time series
    of ``refs`` at steps 1..n (and the last value of each)."""
    from libcosimpy.CosimEnums import CosimVariableType
    from libcosimpy.CosimExecution import CosimExecution
    from libcosimpy.CosimObserver import CosimObserver

    execution = CosimExecution.from_ssp_file(str(path), round(STEP * 1e9))
    observer = CosimObserver.create_time_series(buffer_size=n_steps + 1)
    execution.add_observer(observer)
    where = {}
    for ref in refs:
        comp, name = ref.split(".", 1)
        i = execution.slave_index_from_instance_name(comp)
        vr = next(v.reference for v in execution.slave_variables(i) if v.name.decode() == name)
        assert observer.start_time_series(i, vr, CosimVariableType.REAL)
        where[ref] = (i, vr)
    assert execution.step(n_steps)
    out = {}
    for ref, (i, vr) in where.items():
        _, steps, values = observer.time_series_real_samples(i, vr, from_step=1, sample_count=n_steps)
        assert list(steps) == list(range(1, n_steps + 1))
        out[ref] = np.asarray(values)
    return out


def test_libcosim_applies_every_parameter_of_our_archive(tmp_path, fmu_dir, exported):
    """from_ssp_file on the exported .ssp (libcosim unzips it itself): every
    component's parameter reaches its FMU, and the run is our master's
    (Jacobi, inputs held) within the issue's 1 % of peak.

    Not to round-off, as from rest above: started rolled, the system is not
    in equilibrium at t = 0, and libcosim's exchanges in initialization mode
    leave the crane's first step other inputs than our master's iteration to
    a fixed point (measured: RMS / peak 6e-4 for W_mount_nx, 2e-5 for
    W_mount_fz, 9e-5 for q_roll).  A parameter left unapplied would show at
    10 % or more: the roll starts at 0 instead of 0.02 rad, the slew
    set-point stays 0, the crane's articulated inertia about the mount
    (I_A_11, roll) is more than a sixth smaller."""
    n = round(SSP_STOP / STEP)
    got = _libcosim_archive(exported, SEEN + list(CHANGED), n)
    for ref, value in CHANGED.items():
        np.testing.assert_array_equal(got[ref], value, err_msg=ref)
    ours = _master(tmp_path / "ours", _changed_system(fmu_dir, algorithm="jacobi", extrapolation="none"))
    err = relative_rms(pd.DataFrame({"time": ours["time"][1:], **got}), ours[1:], SEEN)
    print("\nlibcosim (our archive) vs our master (jacobi, no extrapolation), RMS / peak:", _table(err))
    assert max(err.values()) <= 0.01, _table(err)
    # each change shows in the outputs: the roll starts at 0.02 rad, the slew
    # set-point moves before 1 s, and the heavier jib adds to the inertia
    assert ours["vessel.q_roll"].iloc[0] == 0.02 and got["vessel.q_roll"][0] == pytest.approx(0.02, abs=1e-4)
    assert got["controller.q_slew_ref"][-1] > 1e-3
    light = _master(tmp_path / "light", _changed_system(fmu_dir, stop_time=STEP, skip=("crane.m_jib",),
                                                        algorithm="jacobi", extrapolation="none"))
    assert got["crane.I_A_11"][0] > 1.2 * light["crane.I_A_11"].iloc[1]


def test_run_libcosim_takes_an_archive(fmu_dir, exported):
    """run_libcosim(.ssp) checks and extracts the archive and hands libcosim
    the files it checked: the run of the same system built call by call."""
    from_ssp = run_libcosim(exported)
    direct = run_libcosim(_changed_system(fmu_dir))
    assert list(from_ssp.columns) == list(direct.columns)
    np.testing.assert_array_equal(from_ssp["time"], direct["time"])
    for c in direct.columns:
        scale = max(1.0, float(np.abs(direct[c]).max()))
        np.testing.assert_allclose(from_ssp[c], direct[c], rtol=0, atol=1e-9 * scale, err_msg=c)


def test_libcosim_applies_only_the_first_binding(tmp_path, fmu_dir):
    """Why we write one binding per component: libcosim applies a
    component's first ParameterBinding and ignores the others (our reader
    applies them in order, the later value winning); run_libcosim sets the
    values as our reader resolved them (the roll's first sample is its
    initial value)."""
    from crane_cosim.ssp import read_ssd
    s = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STEP, step=STEP)
    s.component("vessel").parameters = {"q_roll_0": 0.01}
    ssd = write_ssd(s, tmp_path / "two.ssd")
    text = ssd.read_text()
    binding = text[text.index("<ssd:ParameterBinding>"):text.index("</ssd:ParameterBinding>") + 23]
    ssd.write_text(text.replace(binding, binding + binding.replace('value="0.01"', 'value="0.03"')))
    assert read_ssd(ssd).component("vessel").parameters == {"q_roll_0": 0.03}
    assert _libcosim_archive(ssd, ["vessel.q_roll_0"], 1)["vessel.q_roll_0"][0] == 0.01
    # our host sets the values our reader resolved over libcosim's reading of the file
    assert run_libcosim(ssd)["vessel.q_roll"].iloc[0] == 0.03


def test_hostile_archive_never_reaches_libcosim(tmp_path, exported):
    from hostile_files import replace_member, tree
    evil = replace_member(exported, tmp_path / "evil.ssp", "../../evil.txt", "owned")
    before = tree(tmp_path)
    with pytest.raises(CraneCosimError, match=f"SSP archive {evil} holds the entry '../../evil.txt'"):
        run_libcosim(evil)
    assert tree(tmp_path) == before


# -- components of their own steps: the same system file, the same steps -----------------------

def _slow_vessel(fmu_dir, folder, vessel_step):
    """The crane on the vessel with the vessel at its own step, written as a
    system file (``osp:StepSizeHint``) beside the FMUs."""
    s = _system(fmu_dir, stop_time=1.0, algorithm="jacobi")
    s.component("vessel").step = vessel_step
    return s, write_ssd(s, fmu_dir / f"{folder.name}.ssd")


@pytest.mark.parametrize("vessel_step", [0.005, 0.05])
def test_a_vessel_of_its_own_step_equals_libcosim(tmp_path, fmu_dir, vessel_step):
    """The vessel stepping every 5 and 50 base steps under the crane at 1 ms:
    libcosim, reading the component's step from our system file, and our
    Jacobi give every output within 3e-10 of its peak (measured: 5.1e-11
    and 9.5e-11; the aim was 1e-9), the vessel's held between its steps in
    both.
    An output that is zero but for round-off is measured against a
    millionth of its component's largest output of its unit."""
    import json
    system, ssd = _slow_vessel(fmu_dir, tmp_path, vessel_step)
    ours = _master(tmp_path / "ours", system)
    units = json.loads((tmp_path / "ours" / "summary.json").read_text())["units"]
    theirs = run_libcosim(ssd)
    columns = [c for c in ours.columns if c != "time"]
    assert set(columns) <= set(theirs.columns)
    peaks = np.abs(ours[columns]).max()
    largest = {}
    for c in columns:
        key = (c.split(".")[0], units[c])
        largest[key] = max(largest.get(key, 0.0), peaks[c])
    worst = max(np.abs(ours[c] - theirs[c]).max() / max(peaks[c], 1e-6 * largest[c.split(".")[0], units[c]])
                for c in columns if largest[c.split(".")[0], units[c]] > 0)
    assert worst <= 3e-10
    roll = ours["vessel.q_roll"].to_numpy()
    k = round(vessel_step / STEP)
    assert (roll[1:k] == roll[0]).all() and roll[k] != roll[0]  # held until its first step ends


def test_a_linear_transformation_equals_libcosims(tmp_path, fmu_dir, integrator_fmu):
    """A ramp into this project's integrator through u = 2 y + 1, written as
    an ssc:LinearTransformation that libcosim's SSP loader applies with a
    function of its own: its run and ours (Jacobi, inputs held) agree to
    round-off (measured 2.2e-16, bound 6.7e-16); the same connection in a system
    built in Python, which libcosim would connect as it is, is refused."""
    shutil.copy(integrator_fmu, tmp_path / integrator_fmu.name)
    shutil.copy(fmu_dir / "Signal.fmu", tmp_path / "Signal.fmu")
    from crane_cosim.runtime import RunConfig, System
    from crane_cosim.runtime.transformations import Linear
    s = System("Linear", stop_time=1.0, step=0.01, algorithm="jacobi", base_dir=tmp_path)
    s.add_component("ramp", "Signal.fmu", table="0 0; 10 10")
    s.add_component("sum", integrator_fmu.name)
    s.connect("ramp.y", "sum.u", Linear(2.0, 1.0))
    ssd = write_ssd(s, tmp_path / "Linear.ssd")
    theirs = run_libcosim(str(ssd), outputs=["sum.y"])
    run_cosim(s, tmp_path / "ours", RunConfig(progress=False))
    ours = read_results(tmp_path / "ours")
    assert len(theirs) == len(ours)
    assert np.abs(theirs["sum.y"].to_numpy() - ours["sum.y"].to_numpy()).max() < 6.7e-16
    assert ours["sum.y"].iloc[-1] == pytest.approx(1e-4 * 100 * 99 + 1.0)
    with pytest.raises(CraneCosimError, match="the connection ramp.y -> sum.u transforms its value, which libcosim"):
        run_libcosim(s, outputs=["sum.y"])
