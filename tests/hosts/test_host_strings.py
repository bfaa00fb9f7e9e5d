"""String parameters from every side of the project: the SSP files, the
command line, our master, the monolithic run, libcosim and ecos, and the
FMU reference, on the test-only block ``Choice`` (``tests/choice_block.py``):
its output ``level`` says which model the String parameter ``model`` chose
(lugre 2, dahl 1, none 0; ``sign`` minus negates it)."""
import xml.etree.ElementTree as ET
import zipfile

import pytest

from choice_block import Choice
from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.runtime import problems_of
from crane_cosim.cli import main
from crane_cosim.reports.docgen import _table
from crane_cosim.hosts.ecos import _ecospy, run_ecos
from crane_cosim.errors import CraneCosimError
from crane_cosim.hosts.libcosim import run_libcosim
from crane_cosim.runtime import run_cosim
from crane_cosim.monolithic.reference import run_monolithic
from crane_cosim.ssp import SSC, SSD, SSV, open_system, read_ssd, write_ssd, write_ssp
from crane_cosim.runtime.system import System
from crane_cosim.files.results import read_results

STOP, STEP = 0.05, 0.01


def _system(choice_fmu, **parameters) -> System:
    """One Choice component, its input left at its start value."""
    s = System("Choosing", stop_time=STOP, step=STEP, base_dir=choice_fmu.parent)
    s.add_component("c", choice_fmu.name, **parameters)
    return s


def _levels(out) -> list:
    return read_results(out)["c.level"].tolist()


# -- SSP ---------------------------------------------------------------------------------

def test_an_ssd_keeps_the_string(choice_fmu, tmp_path):
    s = _system(choice_fmu, model="dahl", sign="minus", k=2.0)
    s.base_dir = tmp_path
    s.component("c").source = str(choice_fmu)
    path = write_ssd(s, tmp_path / "s.ssd")
    root = ET.parse(path).getroot()
    connectors = {c.get("name"): c for c in root.iter(f"{{{SSD}}}Connector")}
    assert [(e.tag, e.attrib) for e in connectors["model"]] == [(f"{{{SSC}}}String", {})]  # no unit
    assert connectors["model"].get("kind") == "parameter"
    values = {p.get("name"): next(iter(p)) for p in root.iter(f"{{{SSV}}}Parameter")}
    assert (values["model"].tag, values["model"].attrib) == (f"{{{SSV}}}String", {"value": "dahl"})
    assert read_ssd(path).component("c").parameters == {"model": "dahl", "sign": "minus", "k": 2.0}


def test_an_archive_keeps_the_string(choice_fmu, tmp_path):
    path = write_ssp(_system(choice_fmu, model="none"), tmp_path / "s.ssp")
    with zipfile.ZipFile(path) as z:
        ssv = ET.fromstring(z.read("resources/c.ssv"))
    assert [(e.tag, e.attrib) for e in ssv.iter(f"{{{SSV}}}String")] == [(f"{{{SSV}}}String", {"value": "none"})]
    with open_system(path) as opened:
        assert opened.system.component("c").parameters == {"model": "none"}


@pytest.mark.parametrize("parameters,sentence", [
    ({"model": 1.0}, "c.model is a String parameter; set it to a text, not 1.0"),
    ({"k": "two"}, "c.k is a Real parameter; set it to a number, not 'two'"),
])
def test_a_value_of_the_wrong_kind_is_not_written(choice_fmu, tmp_path, parameters, sentence):
    with pytest.raises(CraneCosimError) as exc:
        write_ssp(_system(choice_fmu, **parameters), tmp_path / "s.ssp")
    assert str(exc.value) == sentence


# -- our master, the command line, check -------------------------------------------------

def test_our_master_sets_the_string(choice_fmu, tmp_path):
    run_cosim(_system(choice_fmu, model="dahl"), tmp_path / "dahl", progress=False)
    run_cosim(_system(choice_fmu), tmp_path / "lugre", progress=False)
    assert _levels(tmp_path / "dahl") == [1.0] * 6 and _levels(tmp_path / "lugre") == [2.0] * 6


@pytest.fixture
def ssd(choice_fmu):
    """The system as a .ssd beside the FMU (the FMU's folder is this test session's)."""
    return write_ssd(_system(choice_fmu), choice_fmu.parent / "Choosing.ssd")


def _cli(capsys, *args):
    code = main([*map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("settings,level", [
    (["c.model=none"], 0.0), (["c.model=dahl", "c.sign=minus"], -1.0), (["c.k=3", "c.model=lugre"], 2.0),
])
def test_set_on_the_command_line_takes_the_text(capsys, ssd, tmp_path, settings, level):
    args = [a for s in settings for a in ("--set", s)]
    code, _, err = _cli(capsys, "run", ssd, *args, "--out", tmp_path / "out", "--no-plots")
    assert code == 0, err
    assert _levels(tmp_path / "out") == [level] * 6


@pytest.mark.parametrize("setting,sentence", [
    ("c.model=bogus", "Choice parameter model = 'bogus' is invalid: it must be one of 'none', 'dahl', 'lugre'"),
    ("c.model=2", "Choice parameter model = '2' is invalid: it must be one of"),
    ("c.sign=true", "Choice parameter sign = 'true' is invalid: it must be one of 'plus', 'minus'"),
    ("c.k=heavy", "c.k is a Real parameter; set it to a number, not 'heavy'"),
])
def test_a_bad_value_on_the_command_line_is_one_sentence(capsys, ssd, tmp_path, setting, sentence):
    code, _, err = _cli(capsys, "run", ssd, "--set", setting, "--out", tmp_path / "out", "--no-plots")
    lines = err.strip().splitlines()
    assert code != 0 and len(lines) == 1 and lines[0].startswith("crane-cosim: error: "), err
    assert sentence in lines[0] and "Traceback" not in err


def test_export_and_check_take_the_text(capsys, ssd, tmp_path):
    code, _, err = _cli(capsys, "export", ssd, tmp_path / "s.ssp", "--set", "c.model=none")
    assert code == 0, err
    with open_system(tmp_path / "s.ssp") as opened:
        assert opened.system.component("c").parameters == {"model": "none"}
    code, out, err = _cli(capsys, "check", ssd, "--set", "c.model=dahl")
    assert code == 0 and "values and capabilities check out" in out, err


def test_set_types_the_value_by_the_fmu_it_replaces_with(capsys, ssd, tmp_path, fmu_dir):
    """With --replace, a value is read for the variable of the new FMU."""
    code, _, err = _cli(capsys, "check", ssd, "--replace", f"c={fmu_dir / 'Controller.fmu'}", "--set",
                        "c.kP_slew=strong")
    assert code == 2 and "c.kP_slew is a Real parameter; set it to a number, not 'strong'" in err


# -- the monolithic run: the block in-process --------------------------------------------

@pytest.fixture
def registered(monkeypatch):
    """Choice as one of the project's blocks, for this test only (the
    monolithic run and the block's own checks need its class)."""
    monkeypatch.setitem(BLOCKS, "Choice", Choice)


def test_the_monolithic_run_makes_the_block_with_the_string(registered, choice_fmu, tmp_path):
    run_monolithic(_system(choice_fmu, model="none", sign="minus", k=2.0), tmp_path / "out", progress=False)
    assert _levels(tmp_path / "out") == [0.0] * 6


def test_check_names_the_blocks_sentence_before_anything_runs(registered, choice_fmu):
    problems, _ = problems_of(_system(choice_fmu, model="bogus"))
    assert problems == ["component c: Choice parameter model = 'bogus' is invalid: it must be one of 'none', "
                        "'dahl', 'lugre'"]


# -- libcosim and ecos -------------------------------------------------------------------

def test_libcosim_sets_the_string(choice_fmu, tmp_path):
    """Set one by one (string_initial_value) and through its SSP loader (ssv:String)."""
    df = run_libcosim(_system(choice_fmu, model="dahl", sign="minus"))
    assert df["c.level"].tolist() == [-1.0] * 6
    archive = write_ssp(_system(choice_fmu, model="none"), tmp_path / "s.ssp")
    assert run_libcosim(archive)["c.level"].tolist() == [0.0] * 6


def test_ecos_sets_the_string(choice_fmu, tmp_path, monkeypatch):
    """ecos reads the ssv:String of the archive run_ecos writes for it."""
    _ecospy()  # a missing test dependency (or unzip) is an error, not a skip
    (tmp_path / "ecos_tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "ecos_tmp"))
    assert run_ecos(_system(choice_fmu, model="dahl", sign="minus"))["c.level"].tolist() == [-1.0] * 6


# -- the FMU reference -------------------------------------------------------------------

def test_the_reference_quotes_a_strings_default():
    rows = _table("Parameters", Choice.parameters, True)
    assert "| `model` |  | `\"lugre\"` | The model: none, dahl or lugre |" in rows
    assert "| `k` | 1 | 1 | Gain of the input |" in rows
