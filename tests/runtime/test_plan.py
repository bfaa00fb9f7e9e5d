"""What the plan refuses before anything runs (``runtime/plan.py``):
two instances of an FMU that may be instantiated only once per process."""
import subprocess
import zipfile
import sys

import pytest

from crane_cosim.cli import main
from crane_cosim.files.results import read_results
from crane_cosim.ssp import write_ssd
from crane_cosim.runtime import RunConfig, System, problems_of, run_cosim
from hostile_files import replace_member
from misbehaving_fmus import SOURCES, c_fmu


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    """``Quitter2.fmu`` (pythonfmu, FMI 2.0; ``tests/typed_fmus/quitter2.py``)
    and ``Early3.fmu`` (FMI 3.0), each as ``Single2.fmu``/``Single3.fmu``
    whose description declares canBeInstantiatedOnlyOncePerProcess."""
    out = tmp_path_factory.mktemp("single")
    subprocess.run([sys.executable, "-m", "pythonfmu", "build", "-f", str(SOURCES / "quitter2.py"), "-d", str(out),
                    "--no-external-tool"], check=True, capture_output=True)
    with zipfile.ZipFile(out / "Quitter2.fmu") as z:
        text = z.read("modelDescription.xml").decode()
    replace_member(out / "Quitter2.fmu", out / "Single2.fmu", "modelDescription.xml",
                   text.replace('canBeInstantiatedOnlyOncePerProcess="false"',
                                'canBeInstantiatedOnlyOncePerProcess="true"'))
    early = c_fmu("early3", out)
    replace_member(early, out / "Single3.fmu", "modelDescription.xml", (SOURCES / "early3.xml").read_text().replace(
        'canHandleVariableCommunicationStepSize="true"',
        'canHandleVariableCommunicationStepSize="true" canBeInstantiatedOnlyOncePerProcess="true"'))
    return out


def _system(folder, fmu, names=("a", "b")):
    s = System("Once", stop_time=0.5, step=0.1, base_dir=folder)
    for name in names:
        s.add_component(name, fmu)
    return s


def test_two_instances_of_an_fmi2_fmu_only_once_per_process_are_refused_by_name(single):
    problems, _ = problems_of(_system(single, "Single2.fmu"))
    assert problems == ["components a and b are instances of Single2.fmu, which declares "
                        "canBeInstantiatedOnlyOncePerProcess, and would share one process; run with --processes, "
                        "which gives each component a process of its own"]
    assert problems_of(_system(single, "Single2.fmu", ("a",)))[0] == []
    assert problems_of(_system(single, "Quitter2.fmu"))[0] == []   # the same FMU without the flag


def test_two_instances_of_an_fmi3_fmu_only_once_per_process_are_refused_by_name(single):
    problems, _ = problems_of(_system(single, "Single3.fmu", ("a", "b", "c")))
    assert problems == ["components a, b and c are instances of Single3.fmu, which declares "
                        "canBeInstantiatedOnlyOncePerProcess, and would share one process; crane-cosim runs FMI 3.0 "
                        "FMUs in its own process only, so keep one such component"]


def test_check_refuses_them_and_processes_runs_each_in_a_process_of_its_own(single, tmp_path, capsys):
    """``check`` exits 2 naming both; ``run --processes`` runs them, each
    instance its own (both integrate u + 1 = 1 over 0.5 s)."""
    ssd = write_ssd(_system(single, "Single2.fmu"), single / f"{tmp_path.name}.ssd")
    assert main(["check", str(ssd)]) == 2
    assert "components a and b are instances of Single2.fmu" in capsys.readouterr().err
    assert problems_of(_system(single, "Single2.fmu"), RunConfig(processes=True))[0] == []
    run_cosim(_system(single, "Single2.fmu"), tmp_path / "out", RunConfig(processes=True, progress=False))
    df = read_results(tmp_path / "out")
    y = sum(min((k + 1) * 0.1, 0.5) - k * 0.1 for k in range(5))   # the steps the master gives, as it gives them
    assert df["a.y"].iloc[-1] == df["b.y"].iloc[-1] == y
