"""The picture of a system (``reports/system_drawing.py``, ``crane-cosim
draw``): a box per component, an arrow per pair of components labelled
with their connections, laid out by Graphviz."""
import shutil
import xml.etree.ElementTree as ET

import pytest
from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.reports import system_drawing
from crane_cosim.reports.system_drawing import SHOWN, dot_text, draw_system
from crane_cosim.scenarios import offshore_lift
from crane_cosim.ssp import write_ssd

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def lift(tmp_path, fmu_dir):
    return offshore_lift(base_dir=tmp_path, fmu_dir=str(fmu_dir))


def _needs_dot():
    if shutil.which("dot") is None:
        pytest.skip("no Graphviz: install the Debian package graphviz (apt-get install graphviz)")


def test_the_dot_text_has_a_box_per_component_and_an_arrow_per_pair(lift):
    text = dot_text(lift)
    for comp in lift.components:
        assert f'  "{comp.name}" [label="{comp.name}\\n' in text
    pairs = {(c.start_element, c.end_element) for c in lift.connections}
    assert sum(" -> " in line for line in text.splitlines()) == len(pairs)
    # the winch gets the wire's tension alone from the payload: named whole
    assert '"payload" -> "winch" [label="T_wire → T_wire"]' in text
    # the crane hands the vessel its 21 inertia terms and 6 bias forces: SHOWN named, the rest counted
    to_vessel = [c for c in lift.connections if (c.start_element, c.end_element) == ("crane", "vessel")]
    assert f"+{len(to_vessel) - SHOWN} more" in text


def test_a_name_with_quotes_is_escaped(lift):
    lift.name = 'the "big" lift \\ test'
    assert dot_text(lift).splitlines()[0] == 'digraph "the \\"big\\" lift \\\\ test" {'


def test_the_svg_draws_every_component_and_arrow(lift, tmp_path):
    _needs_dot()
    root = ET.parse(draw_system(lift, tmp_path / "lift.svg")).getroot()
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert {c.name for c in lift.components} <= set(titles)
    pairs = {(c.start_element, c.end_element) for c in lift.connections}
    assert sum("->" in (t or "") for t in titles) == len(pairs)


@pytest.mark.parametrize("name, fragment", [
    ("lift.jpg", "draw writes .svg, .pdf, .png, .dot files, not .jpg"),
    ("nowhere/lift.svg", "cannot be written: nowhere is not a folder"),
])
def test_a_file_draw_cannot_write_is_one_sentence(lift, tmp_path, monkeypatch, name, fragment):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CraneCosimError, match=fragment):
        draw_system(lift, name)


def test_without_graphviz_it_says_what_to_install_and_the_dot_text_still_comes(lift, tmp_path, monkeypatch):
    monkeypatch.setattr(system_drawing.shutil, "which", lambda name: None)
    with pytest.raises(CraneCosimError, match=r"needs Graphviz's dot program, which is not installed \(Debian and "
                                              r"Ubuntu: apt install graphviz"):
        draw_system(lift, tmp_path / "lift.svg")
    assert (draw_system(lift, tmp_path / "lift.dot")).read_text() == dot_text(lift)


def test_the_command_draws_a_system_file(lift, tmp_path, capsys):
    _needs_dot()
    path = write_ssd(lift, tmp_path / "lift.ssd")
    assert main(["draw", str(path), "--out", str(tmp_path / "lift.pdf")]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "lift.pdf")
    assert (tmp_path / "lift.pdf").read_bytes()[:5] == b"%PDF-"
