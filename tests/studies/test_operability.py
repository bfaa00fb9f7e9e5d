"""The operability study (``cosim/studies/operability.py``,
``operability_cells.py``, ``reports/limit_diagram.py``): each sea state's
criteria from its seeds' runs, the seeds added where the interval asks for
them, the largest safe height per peak period, and bad input named before
anything runs.  The runs: the Table I crane of Cibicik & Egeland (2018) on
its vessel in waves, holding a 10 kg payload on 2 m of a soft wire, a few
seconds each (the statistics' own facts: test_extremes.py)."""
import json
import math

import numpy as np
import pandas as pd
import pytest

from crane_cosim.blocks.controller import Controller
from crane_cosim.cli import main
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.ssp import write_ssd
from crane_cosim.studies.extremes import mpm, probability_below
from crane_cosim.studies.operability_cells import (SLACK_FRACTION, cell_rows, limits_of, quantities_of, rigging_daf,
                                                   seed_row)

#: the sea grown over a quarter of its peak period, 2 s, then 1 s left out: 3 s of the 6 s judged
STUDY = ["--hs", "1,2", "--tp", "8", "--seeds", "2", "--max-seeds", "3", "--ramp-periods", "0.25", "--settle", "1",
         "--stop-time", "6", "--workers", "2", "--limit", "payload_swing=0.5"]
SKIP, RECORD = 3.0, 3.0


@pytest.fixture(scope="module")
def lift(fmu_dir, tmp_path_factory):
    """The small lift's system file: the crane holds its start pose."""
    folder = tmp_path_factory.mktemp("lift")
    s = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=5.0, sea={},
                        payload={"m_payload": 10.0, "l_wire_0": 2.0, "EA": 2e4})
    for v in Controller.parameters:
        if v.name.endswith("_duration"):
            s.set_parameter(f"controller.{v.name}", -1.0)
    return write_ssd(s, folder / "Lift.ssd")


@pytest.fixture(scope="module")
def study(lift, tmp_path_factory):
    out = tmp_path_factory.mktemp("study") / "study"
    code = main(["operability", str(lift), *STUDY, "--out", str(out)])
    return code, out


def test_each_seed_is_its_runs_extremes(study):
    code, out = study
    assert code == 0
    seeds = pd.read_csv(out / "seeds.csv")
    assert len(seeds) == 6  # 2 sea states, 3 seeds each after the second round
    for _, row in seeds.iterrows():
        df = pd.read_parquet(out / "runs" / "cases" / row["case"] / "results.parquet")
        w = df[df["time"] >= SKIP]
        assert row["tension_max"] == w["payload.T_wire"].max()
        assert row["tension_mean"] == pytest.approx(w["payload.T_wire"].mean(), rel=1e-15)
        assert row["tension_static"] == df["payload.T_wire"].iloc[0] == pytest.approx(10.0 * 9.81, rel=1e-12)
        # the swing: the payload's horizontal distance from under the tip
        assert row["payload_swing_max"] == w["payload.swing"].max()
        assert row["crane.W_mount_nx_max"] == np.abs(w["crane.W_mount_nx"]).max()
        assert row["record_s"] == pytest.approx(RECORD, abs=1e-9)
        values = json.loads((out / "runs" / "cases" / row["case"] / "config.json").read_text())["values"]
        assert float(values["waves.t_ramp"]) == 2.0 and float(values["waves.seed"]) == row["seed"]
    # recorded: only what the study reads
    assert set(df.columns) == {"time", "payload.T_wire", "payload.swing", "payload.payload_p_z", "crane.tip_p_z"} | {
        f"crane.W_mount_{c}" for c in ("nx", "ny", "nz", "fx", "fy", "fz")}


def test_each_sea_state_is_judged_from_its_seeds(study):
    _, out = study
    seeds, cells = pd.read_csv(out / "seeds.csv"), pd.read_csv(out / "operability.csv")
    for _, cell in cells.iterrows():
        mine = seeds[seeds["Hs"] == cell["Hs"]]
        records = 3 * 3600.0 / RECORD
        assert cell["seeds"] == 3  # two seeds' interval asked for more: the third round's cap
        assert cell["tension_mpm"] == pytest.approx(mpm(mine["tension_max"], records), rel=1e-14)
        static = mine["tension_static"].mean()
        assert cell["daf_mpm"] == pytest.approx(cell["tension_mpm"] / static, rel=1e-14)
        assert cell["slack_p"] == pytest.approx(
            probability_below(mine["tension_min"], SLACK_FRACTION * static, records), rel=1e-12)
        utilisation = {"daf": cell["daf_mpm"] / rigging_daf(static), "slack": cell["slack_p"] / 0.01,
                       "payload_swing": cell["payload_swing_mpm"] / 0.5}
        assert cell["utilisation"] == pytest.approx(max(utilisation.values()), rel=1e-14)
        assert cell["governs"] == max(utilisation, key=utilisation.get)
        assert cell["safe"] == (cell["utilisation"] <= 1.0)
    assert (out / "limit_diagram.png").stat().st_size > 10_000
    assert len(pd.read_parquet(out / "operability.parquet")) == 2


def test_a_study_run_again_reads_its_runs_and_gives_the_same_table(lift, study, capsys):
    _, out = study
    before = pd.read_csv(out / "operability.csv")
    assert main(["operability", str(lift), *STUDY, "--out", str(out)]) == 0
    pd.testing.assert_frame_equal(pd.read_csv(out / "operability.csv"), before)


def test_the_rigging_daf_is_noble_dentons_offshore_column():
    tonne = 9.80665e3
    assert rigging_daf(2 * tonne) == pytest.approx(1 + 0.25 * math.sqrt(100 / 3), rel=1e-15)  # 3 t at least
    assert rigging_daf(50 * tonne) == pytest.approx(1 + 0.25 * math.sqrt(2), rel=1e-15)
    assert [rigging_daf(w * tonne) for w in (200, 500, 2000, 3000)] == [1.25, 1.20, 1.15, 1.10]


def _cells(utilisation):
    return pd.DataFrame({"Hs": [1.0, 2.0, 3.0], "Tp": 8.0, "heading": 90.0, "utilisation": utilisation,
                         "governs": "daf"})


def test_the_limit_is_where_the_utilisation_crosses_one():
    limit = limits_of(_cells([0.5, 0.9, 1.3])).iloc[0]
    assert (limit["Hs_limit"], limit["limit"]) == (pytest.approx(2.25, rel=1e-15), "interpolated")
    assert limits_of(_cells([0.5, 0.9, 0.95])).iloc[0][["Hs_limit", "limit"]].tolist() == [3.0, "at least"]
    assert limits_of(_cells([1.1, 0.9, 1.3])).iloc[0][["Hs_limit", "limit"]].tolist() == [1.0, "below"]


def test_a_seeds_extremes_leave_out_the_start():
    t = np.arange(0.0, 10.0, 0.5)
    df = pd.DataFrame({"time": t, "p.T_wire": np.where(t < 2.0, 1e6, 100.0 + t), "c.tip_p_z": np.sin(t)})
    row = seed_row(df, {"tension": ["p.T_wire"], "tip_heave": ["c.tip_p_z"]}, 2.0)
    z = np.sin(t[t >= 2.0])
    assert row == {"record_s": 7.5, "tension_max": 109.5, "tension_min": 102.0, "tension_mean": 105.75,
                   "tension_static": 1e6,
                   "tip_heave_max": pytest.approx(np.abs(z - z.mean()).max(), rel=1e-15)}


def test_a_payload_without_its_swing_swings_from_its_mean_position():
    """Another payload's FMU, with a position but no ``swing``: the swing is
    the horizontal distance from its mean position; ours, from under the tip."""
    position = [f"p.payload_p_{c}" for c in "xyz"]
    assert quantities_of(["p.T_wire", *position], {})["payload_swing"] == position[:2]
    assert quantities_of(["p.T_wire", *position, "p.swing"], {})["payload_swing"] == ["p.swing"]
    t = np.arange(0.0, 4.0, 0.5)
    df = pd.DataFrame({"time": t, "p.payload_p_x": 3.0 + np.cos(t), "p.payload_p_y": 1.0 + 0 * t, "p.swing": t})
    p = np.cos(t) - np.cos(t).mean()
    assert seed_row(df, {"payload_swing": position[:2]}, 0.0)["payload_swing_max"] == pytest.approx(
        np.abs(p).max(), rel=1e-15)
    assert seed_row(df, {"payload_swing": ["p.swing"]}, 0.0)["payload_swing_max"] == 3.5


def test_cells_need_a_criterion_they_can_judge():
    seeds = pd.DataFrame({"Hs": 1.0, "Tp": 8.0, "heading": 90.0, "record_s": 10.0, "tip_heave_max": [1.0, 1.2]})
    assert cell_rows(seeds, 100.0, {"tip_heave": 2.0})["governs"].tolist() == ["tip_heave"]


def test_two_tensions_ask_which_one():
    with pytest.raises(Exception, match="2 wire tensions .* --tension"):
        quantities_of(["a.T_wire", "b.T_wire"], {})


@pytest.mark.parametrize("extra, fragment", [
    (["--hs", "1,x"], "--hs '1,x' is not numbers separated by commas"),
    (["--sea", "crane"], "--sea crane: the system has no component of that name with the parameters"),
    (["--limit", "hook_speed=2"], "the limit on hook_speed judges nothing called 'hook_speed'"),
    (["--seeds", "1"], "a sea state needs at least 2 seeds"),
    (["--tp", "0"], "the sea states' Tp values must be above 0"),
])
def test_bad_input_is_one_sentence_before_anything_runs(lift, tmp_path, capsys, extra, fragment):
    args = ["operability", str(lift), "--hs", "1", "--tp", "8", "--out", str(tmp_path / "s"), *extra]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1, err
    assert not (tmp_path / "s").exists()


def test_a_failed_run_is_named_and_its_sea_state_judged_from_the_others(tmp_path):
    """Runs that failed are told, each in a sentence, and left out; a sea
    state left with fewer than two runs is not judged."""
    from crane_cosim.studies.operability import SeaGrid, Study, _cells, _seed_rows, case_name

    grid = SeaGrid((1.0, 2.0), (8.0,), (90.0,))
    t = np.arange(0.0, 10.0, 0.1)
    statuses = {}
    for hs in grid.Hs:
        for seed in (1, 2, 3):
            name = case_name(hs, 8.0, 90.0, seed)
            failed = (hs == 1.0 and seed == 2) or (hs == 2.0 and seed > 1)
            statuses[name] = ("failed", "its vessel capsized") if failed else ("completed", "")
            if not failed:
                (tmp_path / "cases" / name).mkdir(parents=True)
                pd.DataFrame({"time": t, "p.T_wire": 100.0 + seed * np.sin(t)}).to_parquet(
                    tmp_path / "cases" / name / "results.parquet")
    summary = pd.DataFrame({"case": list(statuses), "status": [s for s, _ in statuses.values()],
                            "reason": [r for _, r in statuses.values()]})
    rows, failed = _seed_rows(tmp_path, grid, {cell: 3 for cell in grid.cells()}, summary,
                              {"tension": ["p.T_wire"]}, lambda tp: 1.0, {})
    assert failed == ["Hs1_Tp8_h90_s2: its vessel capsized", "Hs2_Tp8_h90_s2: its vessel capsized",
                      "Hs2_Tp8_h90_s3: its vessel capsized"]
    assert [r["case"] for r in rows] == ["Hs1_Tp8_h90_s1", "Hs1_Tp8_h90_s3", "Hs2_Tp8_h90_s1"]
    cells = _cells(pd.DataFrame(rows), Study(limits={"daf": 2.0}))
    assert cells[["Hs", "seeds"]].values.tolist() == [[1.0, 2]]
