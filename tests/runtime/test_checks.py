"""Values checked before anything runs (``runtime/checks.py``), with an
FMI 3.0 FMU of a Float32 parameter and Int64 outputs
(``tests/typed_fmus/early3.c``): a value the master would set as an
infinity or carry inexactly is refused by name, exit 2."""
import pytest

from crane_cosim.cli import main
from crane_cosim.ssp import write_ssd
from crane_cosim.runtime import RunConfig, System, problems_of
from hostile_files import replace_member
from misbehaving_fmus import SOURCES, c_fmu

FLOAT32_RANGE = "(-3.4028234663852886e+38 to 3.4028234663852886e+38)"


@pytest.fixture(scope="module")
def early3(tmp_path_factory):
    return c_fmu("early3", tmp_path_factory.mktemp("early3"))


def _system(fmu):
    s = System("Values", stop_time=0.3, step=0.1, base_dir=fmu.parent)
    s.add_component("e", fmu.name, early_at=-1.0)
    return s


@pytest.mark.parametrize("values, sentence", [
    ({"e.gain": "1e39"}, f"e.gain = 1e+39 is outside the range of a Float32 {FLOAT32_RANGE}"),
    ({"e.gain": -3.5e38}, f"e.gain = -3.5e+38 is outside the range of a Float32 {FLOAT32_RANGE}"),
    ({"e.count": str(2 ** 53 + 1)}, "e.count = 9007199254740993 is beyond the 2**53 in magnitude that crane-cosim "
                                    "carries exactly (it exchanges and records an Int64 output as a 64-bit float)"),
    ({"e.count": -(2 ** 53) - 1}, "e.count = -9007199254740993 is beyond the 2**53 in magnitude"),
    ({"e.count": "9.007199254740993e15"}, "e.count = 9007199254740993 is beyond the 2**53 in magnitude"),
])
def test_a_value_the_master_cannot_carry_is_refused_by_name(early3, values, sentence):
    problems, _ = problems_of(_system(early3), RunConfig(values=values))
    assert len(problems) == 1 and problems[0].startswith(sentence), problems


@pytest.mark.parametrize("values", [{"e.gain": "3.4e38"}, {"e.count": str(2 ** 53)}, {"e.big": str(2 ** 62)}])
def test_values_within_what_the_master_carries_pass(early3, values):
    """The largest Float32s, 2**53 itself, and an Int64 parameter beyond
    2**53 (set through fmi3SetInt64, exactly; never carried as a float)."""
    assert problems_of(_system(early3), RunConfig(values=values))[0] == []


def test_check_and_run_refuse_a_float32_set_beyond_its_range(early3, tmp_path, capsys):
    """The run failed on an infinity after check passed it."""
    ssd = write_ssd(_system(early3), early3.parent / f"{tmp_path.name}.ssd")
    for command in (["check", str(ssd)], ["run", str(ssd), "--out", str(tmp_path / "out"), "--no-plots"]):
        assert main([*command, "--set", "e.gain=1e39"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert err[0] == f"crane-cosim: error: e.gain = 1e+39 is outside the range of a Float32 {FLOAT32_RANGE}", err
    assert not (tmp_path / "out").exists()


def test_an_int64_output_declared_to_start_beyond_2_53_is_refused(early3, tmp_path):
    text = (SOURCES / "early3.xml").read_text().replace('initial="exact" start="0"',
                                                       f'initial="exact" start="{2 ** 53 + 1}"')
    replace_member(early3, tmp_path / early3.name, "modelDescription.xml", text)
    problems, _ = problems_of(_system(tmp_path / early3.name))
    assert problems == ["component e (Early3.fmu) declares the start value 9007199254740993 of e.count, which is "
                        "beyond the 2**53 in magnitude that crane-cosim carries exactly (it exchanges and records an "
                        "Int64 output as a 64-bit float)"]


def _oscillator(integrator_fmu, stop_time):
    """Two integrators, ``b`` stepping every 5 base steps of 0.01 s."""
    s = System("Oscillator", stop_time=stop_time, step=0.01, base_dir=integrator_fmu.parent)
    s.add_component("a", integrator_fmu.name, x0=1.0, k=1.0)
    s.add_component("b", integrator_fmu.name, x0=0.0, k=-1.0).step = 0.05
    s.connect("b.y", "a.u")
    s.connect("a.y", "b.u")
    return s


def test_check_says_where_a_components_last_step_is_cut_at_the_stop_time(integrator_fmu, tmp_path, capsys):
    """A run of 0.23 s ends inside b's fifth step of 0.05 s: the master cuts
    it to 0.03 s (libcosim does not take it), and ``check`` says so; a run
    of a whole number of b's steps gets no such note."""
    sentence = ("the run of 0.23 s is not a whole number of component b's steps of 0.05 s: its last step, from "
                "0.2 s, is cut to 0.03 s at the stop time, so that its outputs there are of that time (libcosim "
                "does not take that step, and holds its outputs of 0.2 s)")
    problems, notes = problems_of(_oscillator(integrator_fmu, 0.23))
    assert problems == [] and sentence in notes, notes
    assert not any("is cut to" in n for n in problems_of(_oscillator(integrator_fmu, 0.25))[1])
    ssd = write_ssd(_oscillator(integrator_fmu, 0.23), integrator_fmu.parent / f"{tmp_path.name}.ssd")
    assert main(["check", str(ssd)]) == 0
    assert f"note: {sentence}" in capsys.readouterr().out
