"""What the SSP writer refuses to write, so that every archive it writes
opens in OSP libcosim and in ecos: an archive under a name libcosim would
not open as one, and the value or connection of an Enumeration, which
neither host reads; an FMU that merely has Enumerations is exported, and
both hosts run the archive."""
import zipfile
from pathlib import Path

import numpy as np
import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results
from crane_cosim.ssp import PARAMETER_SET, write_ssp
from crane_cosim.hosts.ecos import _ecospy
from crane_cosim.hosts.libcosim import run_libcosim
from crane_cosim.runtime import System, run_cosim

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crane_on_vessel"


def test_export_to_a_name_without_the_suffix_is_refused(tmp_path, capsys):
    """Refused before any FMU is built, and nothing written."""
    out = tmp_path / "cov_archive"
    assert main(["export", str(EXAMPLE), str(out)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"crane-cosim: error: {out} does not end in .ssp, the suffix OSP libcosim opens an SSP archive by; "
        f"name it {out}.ssp")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, advice", [("a.SSP", "a.ssp"), ("a.zip", "a.zip.ssp"), ("a.ssp.part", "a.ssp.part.ssp")])
def test_write_ssp_takes_only_the_lower_case_suffix(tmp_path, name, advice):
    with pytest.raises(CraneCosimError, match=f"does not end in .ssp, .*; name it {tmp_path / advice}$"):
        write_ssp(System("x"), tmp_path / name)
    assert list(tmp_path.iterdir()) == []


H, STEPS = 0.1, 5


def _typed(typed_fmus, **values) -> System:
    """A source and a counter with Enumeration inputs, outputs and
    parameters (``tests/typed_fmus``), joined by a Boolean and a Real; the
    counter's level integrates the source's rate (rate0 [1/s])."""
    s = System("Typed", stop_time=STEPS * H, step=H, algorithm="jacobi", extrapolation="none", base_dir=typed_fmus)
    s.add_component("pulse", "Pulse2.fmu", rate0=2.0)
    s.add_component("c2", "Counter2.fmu", increment=3)
    s.connect("pulse.enable", "c2.enable")
    s.connect("pulse.rate", "c2.rate")
    for target, value in values.items():
        s.set_parameter(target.replace("__", "."), value)
    return s


def test_an_export_of_fmus_with_enumerations_runs_in_libcosim_and_ecos(typed_fmus, tmp_path, monkeypatch):
    """The Enumerations neither set nor connected are left out of the
    connectors (libcosim refused a connector without a type: "A valid
    connector type was not found!"); both hosts apply the values and
    connections, and the counter's level is our master's (same sums of
    the same numbers: equal to round-off, 1e-12)."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # ecos keeps its unpacked copy of an archive there
    archive = write_ssp(_typed(typed_fmus), tmp_path / "Typed.ssp")
    run_cosim(_typed(typed_fmus), tmp_path / "ours", progress=False)
    ours = read_results(tmp_path / "ours")["c2.level"].to_numpy()
    assert ours[-1] == pytest.approx(2.0 * STEPS * H)  # rate0 applied: 1.0 by default
    np.testing.assert_allclose(run_libcosim(archive)["c2.level"], ours, rtol=0, atol=1e-12)
    ecospy = _ecospy()  # with the tbb library it needs
    with ecospy.EcosSimulation(ssp_path=str(archive), step_size=H) as sim:
        assert sim.init(0.0, parameter_set=PARAMETER_SET)
        sim.step(STEPS)
        assert sim.get_real("c2::level") == pytest.approx(ours[-1], abs=1e-12)
        sim.terminate()


def test_an_enumerations_value_is_refused_at_export(typed_fmus, tmp_path):
    with pytest.raises(CraneCosimError) as exc:
        write_ssp(_typed(typed_fmus, pulse__first_mode="slow"), tmp_path / "Typed.ssp")
    assert str(exc.value) == ("pulse.first_mode is an Enumeration given a value, and neither OSP libcosim nor ecos "
                              "reads Enumeration variables (both leave them out of an FMU's variables); export the "
                              "system without a value for it")
    assert not (tmp_path / "Typed.ssp").exists()


def test_a_connection_of_enumerations_is_refused_at_export(typed_fmus, tmp_path, capsys):
    s = _typed(typed_fmus)
    s.connect("pulse.mode", "c2.mode")
    with pytest.raises(CraneCosimError, match=r"^the connection pulse.mode -> c2.mode joins the Enumeration "
                                              r"pulse.mode, and neither OSP libcosim nor ecos reads Enumeration "
                                              r"variables .*; export the system without this connection$"):
        write_ssp(s, tmp_path / "Typed.ssp")


def test_an_export_holding_an_fmi3_fmu_names_it_and_the_host_that_cannot_run_it(typed_fmus, tmp_path, recwarn):
    """An FMI 3.0 FMU: the archive is written (ecos runs it) with one
    warning naming the component and OSP libcosim, which loads FMI 1.0 and
    2.0 FMUs only; an archive of FMI 2.0 FMUs alone warns of nothing."""
    write_ssp(_typed(typed_fmus), tmp_path / "Typed.ssp")
    assert not recwarn.list
    s = _typed(typed_fmus)
    s.add_component("c3", "Counter3.fmu", increment=5)
    s.connect("pulse.rate", "c3.rate")
    with pytest.warns(UserWarning) as caught:
        archive = write_ssp(s, tmp_path / "Mixed.ssp")
    assert [str(w.message) for w in caught] == [
        "the component c3 is of FMI 3.0: ecos runs this archive, OSP libcosim (FMI 1.0 and 2.0 only) cannot"]
    assert zipfile.ZipFile(archive).getinfo("resources/Counter3.fmu")
