"""An instance's calls as the run sees them: what a failing FMU says,
and the values it gives that the master cannot carry exactly
(``runtime/instance.py``)."""
import subprocess
import sys
from pathlib import Path

import pytest

from crane_cosim.errors import SimulationError
from crane_cosim.files.results import read_results
from crane_cosim.ssp import write_ssd
from crane_cosim.runtime import System, run_cosim
from limits import HUNG
from misbehaving_fmus import c_fmu

TYPED = Path(__file__).parent.parent / "typed_fmus"


@pytest.fixture(scope="module")
def raiser3(tmp_path_factory):
    """``Raiser3.fmu`` (``tests/typed_fmus/raiser3.py``), built by
    pythonfmu3's own command line."""
    out = tmp_path_factory.mktemp("raiser")
    subprocess.run([sys.executable, "-m", "pythonfmu3", "build", "-f", str(TYPED / "raiser3.py"), "-d", str(out),
                    "--no-external-tool"], check=True, capture_output=True)
    return out / "Raiser3.fmu"


def test_a_python_exception_on_the_second_line_of_a_message_is_the_reason(raiser3, tmp_path):
    """pythonfmu3 logs ``Fatal py exception encountered: [doStep] ...`` and
    the exception on the line after it: the run's failure gives that
    exception (exit 1), and the rows before it stay on disk.  Run by the
    command line, in a process of its own: pythonfmu3's library, unloaded
    after an exception in the FMU, leaves objects that crash a later
    garbage collection in the process that loaded it (a pytest worker)."""
    s = System("Raising", stop_time=1.0, step=0.1, base_dir=raiser3.parent)
    s.add_component("r", raiser3.name, fail_at=0.25)
    ssd = write_ssd(s, raiser3.parent / f"{tmp_path.name}.ssd")
    ran = subprocess.run([sys.executable, "-m", "crane_cosim.cli", "run", str(ssd), "--out", str(tmp_path / "out"),
                          "--no-plots"], capture_output=True, text=True, timeout=HUNG)
    said = [line for line in ran.stderr.splitlines() if line.startswith("crane-cosim:")]
    assert ran.returncode == 1 and len(said) == 1, ran.stderr
    assert said[0].startswith(
        "crane-cosim: error: component r (Raiser3.fmu) failed to step from t = 0.3 s: ValueError('the level ran over "
        "at t = 0.3 s') (a Python exception in the FMU); the results up to t = 0.3 s are in"), said[0]
    assert read_results(tmp_path / "out")["time"].iloc[-1] == pytest.approx(0.3)


@pytest.fixture(scope="module")
def early3(tmp_path_factory):
    """``Early3.fmu`` (``tests/typed_fmus/early3.c``): ``big_out``, an Int64
    output, echoes ``big``, an Int64 parameter."""
    return c_fmu("early3", tmp_path_factory.mktemp("early3"))


@pytest.mark.parametrize("big", [2 ** 53 + 1, -(2 ** 53) - 1, 2 ** 63 - 1])
def test_an_int64_output_beyond_2_53_ends_the_run_by_name(early3, tmp_path, big):
    """2**53 + 1 is 2**53 as a float: compared as a float it passed, and was
    recorded as 2**53.  The parameter itself is set exactly (Int64's call)."""
    s = System("Big", stop_time=0.3, step=0.1, base_dir=early3.parent)
    s.add_component("e", early3.name, big=big, early_at=-1.0)
    with pytest.raises(SimulationError) as failure:
        run_cosim(s, tmp_path / "out", progress=False)
    assert str(failure.value).startswith(
        f"component e returned {big} for its output big_out, beyond the 2**53 that crane-cosim carries exactly; "
        f"no point was recorded"), str(failure.value)


@pytest.mark.parametrize("big", [2 ** 53, -(2 ** 53), 2 ** 53 - 1])
def test_an_int64_output_up_to_2_53_is_recorded_exactly(early3, tmp_path, big):
    s = System("Big", stop_time=0.3, step=0.1, base_dir=early3.parent)
    s.add_component("e", early3.name, big=big, early_at=-1.0)
    run_cosim(s, tmp_path / "out", progress=False)
    assert list(read_results(tmp_path / "out")["e.big_out"]) == [big] * 4
