"""The animation's page (cosim/views/page.py): one self-contained HTML file,
a frame per frame of the scene playing at real time or the speed asked,
the crane's parts to the millimetre, the wrench's arrows in proportion,
and the page of a 20 s run at 50 frames a second under 20 MB."""
import errno
import re

import numpy as np
import plotly.graph_objects as go
import pytest
from synthetic_runs import COMPONENTS, knuckle_boom_on_vessel

from crane_cosim.views.page import ARROW_SHARE, figure_of, write_page
from crane_cosim.views.scene import reach, scene_of


@pytest.fixture(scope="module")
def scene():
    return scene_of(knuckle_boom_on_vessel(duration=2.0), COMPONENTS, "made up", fps=25.0)


def test_a_frame_per_scene_frame_at_the_speed_asked(scene):
    fig = figure_of(scene, speed=2.0)
    assert len(fig.frames) == len(scene.times) == 51
    play = fig.layout.updatemenus[0].buttons[0]
    assert play.args[1]["frame"]["duration"] == pytest.approx(1000 / 25 / 2)
    assert [s.label for s in fig.layout.sliders[0].steps][-1] == "2.00"


def test_the_frames_hold_the_parts_to_the_millimetre_and_the_arrows_in_proportion(scene):
    fig = figure_of(scene)
    k = 30
    frame = fig.frames[k]
    for part, trace in zip(scene.parts, frame.data):
        drawn = np.column_stack([np.array(getattr(trace, a), dtype=float) for a in "xyz"])
        assert np.nanmax(np.abs(drawn - part.points[k])) <= 5e-4 + 1e-12
    force = frame.data[len(scene.parts)]
    tip = np.array([force.x[1], force.y[1], force.z[1]], dtype=float)
    scale = ARROW_SHARE * reach(scene) / np.linalg.norm(scene.force, axis=1).max()
    assert np.abs(tip - (scene.mount[k] + scale * scene.force[k])).max() <= 5e-4 + 1e-12


def test_the_page_stands_alone_and_a_long_run_stays_small(tmp_path):
    """20 s at 50 frames a second (1001 frames): measured 7.0 MB with the
    knuckle boom crane on the spring vessel; the 20 MB asked of it is the
    bound.  The page loads no script from elsewhere."""
    scene = scene_of(knuckle_boom_on_vessel(duration=20.0, rate=200.0), COMPONENTS, "made up", fps=50.0)
    path = write_page(scene, tmp_path / "animation.html")
    text = path.read_text()
    assert not re.search(r"<script[^>]+src=", text) and "plotly" in text.lower()
    assert path.stat().st_size < 20e6


def test_a_page_the_disk_has_no_room_for_leaves_no_file_under_its_name(scene, tmp_path, monkeypatch):
    """A full disk while the page is written: the error goes up, and
    neither the page cut short nor its temporary part is left."""
    def full(figure, path, **kwargs):
        with open(path, "w") as f:
            f.write("<html>")
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(go.Figure, "write_html", full)
    with pytest.raises(OSError, match="No space left on device"):
        write_page(scene, tmp_path / "animation.html")
    assert list(tmp_path.iterdir()) == []
