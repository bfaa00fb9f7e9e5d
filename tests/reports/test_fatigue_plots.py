"""The fatigue study's figures (``cosim/reports/fatigue_plots.py``): every
number with its unit, in the unit that suits the signal, and labels that
can be read."""
import numpy as np
import pandas as pd
import pytest

from crane_cosim.reports import fatigue_plots
from crane_cosim.studies.fatigue import cycles


@pytest.fixture
def figures(monkeypatch, tmp_path):
    """The figures of a study of one case, ``("case", ...)``, by title, kept
    open and drawn: a tilting moment of cycles about means from 1.2 to 2.9
    MN·m (a crane slewing in waves), a transverse force of cycles about
    means from -400 to 100 kN (whose six-digit means, in N, overlapped on
    their axis) and a vertical force about 350 kN."""
    kept = []
    monkeypatch.setattr(fatigue_plots.plt, "close", kept.append)
    rng = np.random.default_rng(3)
    time = np.linspace(0.0, 200.0, 4001)
    signals = {"crane.W_mount_nx": 2.05e6 + 0.85e6 * np.sin(time / 9) + 0.6e6 * np.sin(time * 1.3 + rng.random()),
               "crane.W_mount_fy": -1.1e5 + 2e5 * np.sin(time / 11) + 2.5e5 * np.sin(time * 1.1),
               "crane.W_mount_fz": 3.5e5 + 6e4 * np.sin(time * 0.8) + 2e4 * rng.standard_normal(time.size)}
    units = {"crane.W_mount_nx": "N.m", "crane.W_mount_fy": "N", "crane.W_mount_fz": "N"}
    counted = {name: cycles(y) for name, y in signals.items()}
    cases = pd.DataFrame([{"case": "case", "signal": name, "unit": units[name], "probability": 1.0,
                           **{f"DEL_m{m}": 4.0 * np.ptp(y) / m for m in (3, 4, 5)}} for name, y in signals.items()])
    fatigue_plots.plot_fatigue(tmp_path, cases, {"case": (time, signals, counted)}, (3, 4, 5))
    for fig in kept:
        fig.canvas.draw()
    return {fig._suptitle.get_text(): fig for fig in kept}


def _axes(fig):
    return [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]


def test_every_axis_says_its_unit_and_has_no_offset(figures):
    """Each signal in the largest unit in which what a figure shows of it
    peaks at 1 or more, in each axis label, and no "1e6" or "+3.5e5" over
    an axis: the transverse force peaks at 0.56 MN in its record and its
    rainflow matrix (kN), its DELs at 1.2 MN (MN)."""
    labels = []
    for fig in figures.values():
        for ax in _axes(fig):
            for axis in (ax.xaxis, ax.yaxis):
                assert axis.get_offset_text().get_text() == "", (fig._suptitle.get_text(), axis.get_label_text())
            labels.append(ax.get_ylabel())
    assert labels == ["crane.W_mount_nx\n[MN·m]", "crane.W_mount_fy\n[kN]", "crane.W_mount_fz\n[kN]",  # records
                      "range [MN·m]", "range [kN]", "range [kN]",  # rainflow matrix
                      "crane.W_mount_nx\n[MN·m]", "crane.W_mount_fy\n[MN]", "crane.W_mount_fz\n[kN]"]  # DELs
    rainflow = _axes(figures["case: rainflow matrix"])
    assert [ax.get_xlabel() for ax in rainflow] == ["mean [MN·m]", "mean [kN]", "mean [kN]"]


def test_the_extremes_are_written_with_their_unit(figures):
    """The records' largest and smallest values, written beside their marks,
    in the axis's unit: 3.5 MN·m at most (2.05 + 0.85 + 0.6)."""
    nx = _axes(figures["case: records, extremes marked"])[0]
    texts = [t.get_text() for t in nx.texts]
    assert len(texts) == 2 and all(t.endswith(" MN·m") for t in texts)
    assert 3.0 < float(texts[0].split()[0]) <= 3.5


def test_the_rainflow_matrix_mean_labels_stand_apart(figures):
    """The tick labels of the mean axis of each rainflow matrix do not
    overlap (with 24 bins and numbers of seven digits they did)."""
    fig = figures["case: rainflow matrix"]
    renderer = fig.canvas.get_renderer()
    for ax in _axes(fig):
        boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_visible() and t.get_text()]
        assert len(boxes) >= 2
        for a, b in zip(boxes, boxes[1:]):
            assert not a.overlaps(b), [t.get_text() for t in ax.get_xticklabels()]
