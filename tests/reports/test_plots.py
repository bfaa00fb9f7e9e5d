"""The plots of a run (``cosim/reports/plots.py``): variables named in
words, each drawn once, the peaks of forces and moments marked with their
values and units, clear of the legends."""
import errno
import json

import numpy as np
import pytest
from matplotlib.figure import Figure

from crane_cosim.files.results_stream import ResultWriter
from crane_cosim.reports import plots


def _run(folder):
    """A run of the knuckle boom crane's variables (the demo's names and
    units): its coordinates, their set-points and the wrench at the mount
    over 10 s, 0.01 s apart."""
    folder.mkdir()
    t = np.arange(1001) * 0.01
    cols = {"crane.q_slew": ("rad", 0.8 * np.tanh(t - 5)), "controller.q_slew_ref": ("rad", 0.8 * np.tanh(t - 5)),
            "crane.q_boom": ("rad", -1.2 + 0.1 * np.sin(t)), "crane.q_jib": ("rad", 0.3 + 0.05 * np.sin(t)),
            "crane.q_boom_cyl": ("m", 0.6 + 0.05 * t), "crane.q_jib_cyl": ("m", 0.6 + 0.03 * t)}
    for k, c in enumerate("xy"):
        # forces up to 400 kN and moments up to 2.8 MN.m, their peaks at different times
        cols[f"crane.W_mount_f{c}"] = ("N", 2e5 * (k + 1) * np.sin(0.7 * t + k) + 2e4 * k)
        cols[f"crane.W_mount_n{c}"] = ("N.m", 1.4e6 * (k + 1) * np.sin(0.5 * t + 2 * k) - 1e5 * k)
    # the largest of each growing to the run's end: its peak in the axes' upper right corner
    cols["crane.W_mount_fz"] = ("N", 3.5e5 + 2.6e4 * t)
    cols["crane.W_mount_nz"] = ("N.m", 4.2e5 * t)
    writer = ResultWriter(folder, list(cols), units=[u for u, _ in cols.values()])
    for i, time in enumerate(t):
        writer.append(time, [y[i] for _, y in cols.values()])
    writer.close()
    components = {"crane": {"source": "fmus/KnuckleBoomCrane.fmu"},
                  "controller": {"source": "fmus/KnuckleBoomController.fmu"}}
    (folder / "summary.json").write_text(json.dumps({"units": {c: u for c, (u, _) in cols.items()},
                                                     "components": components}))
    return t, {c: y for c, (_, y) in cols.items()}


@pytest.fixture
def figures(monkeypatch, tmp_path):
    """The run's figures by file stem, kept open and drawn, and its values;
    closed after the test."""
    close = plots.plt.close
    kept = []
    monkeypatch.setattr(plots.plt, "close", kept.append)
    t, values = _run(tmp_path / "run")
    written = plots.plot_run(tmp_path / "run")
    for fig in kept:
        fig.canvas.draw()
    yield {p.stem: fig for p, fig in zip(written, kept)}, values
    for fig in kept:
        close(fig)


def _labels(fig):
    return [[line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]
            for ax in fig.axes]


def test_the_legends_name_the_variables_in_words(figures):
    figs, _ = figures
    assert _labels(figs["crane_coordinates"]) == [
        ["slew angle $q_1$", "slew angle set-point"],
        ["boom cylinder extension $q_2$", "jib cylinder extension $q_3$"]]
    assert _labels(figs["interface_mount"]) == [
        ["force x (mount axes)", "force y (mount axes)", "force z (mount axes)"],
        ["moment x (mount axes)", "moment y (mount axes)", "moment z (mount axes)"]]


def test_the_slew_angle_is_drawn_once(figures):
    """The knuckle boom crane's slew angle is among its coordinates (with
    the cylinders' extensions), not again among the joints' angles."""
    figs, _ = figures
    drawn = [label for fig in figs.values() for labels in _labels(fig) for label in labels]
    assert drawn.count("slew angle $q_1$") == 1
    assert _labels(figs["crane_joints"]) == [[r"boom angle $\alpha_2$", r"jib angle $\alpha_3$"]]


def test_each_force_and_moment_has_its_peak_marked(figures):
    """On the wrench's axes, each line's largest magnitude is written beside
    it, in the unit that suits it, to the 3 digits shown; the text lies
    clear of the legend."""
    figs, values = figures
    fig = figs["interface_mount"]
    renderer = fig.canvas.get_renderer()
    for ax, kind, unit, size in zip(fig.axes, "fn", ("kN", "MN·m"), (1e3, 1e6)):
        texts = ax.texts
        assert len(texts) == 3
        legend = ax.get_legend().get_window_extent(renderer)
        for text, axis in zip(texts, "xyz"):
            y = values[f"crane.W_mount_{kind}{axis}"]
            peak = y[np.argmax(np.abs(y))]
            number, shown_unit = text.get_text().split(" ")
            assert shown_unit == unit and float(number) == pytest.approx(peak / size, rel=5e-3)
            assert not text.get_window_extent(renderer).overlaps(legend)


def test_only_forces_and_moments_have_peaks_marked(figures):
    figs, _ = figures
    assert not any(ax.texts for ax in figs["crane_coordinates"].axes)


def test_a_plot_the_disk_has_no_room_for_leaves_no_file_under_its_name(monkeypatch, tmp_path):
    """A full disk while a figure is written (a part of its bytes written,
    then ENOSPC): the error goes up, and no PNG, empty or cut short, nor its
    temporary part, is left in plots/."""
    _run(tmp_path / "run")

    def full(fig, path, **kwargs):
        with open(path, "wb") as f:
            f.write(b"\x89PNG")
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(Figure, "savefig", full)
    with pytest.raises(OSError, match="No space left on device"):
        plots.plot_run(tmp_path / "run")
    assert list((tmp_path / "run" / "plots").iterdir()) == []
