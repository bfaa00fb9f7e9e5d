"""Fatigue from recorded runs (``cosim/studies/fatigue.py``): rainflow counting
against the published example of ASTM E1049-85, damage-equivalent loads
against the sinusoid's range, the lifetime over a scatter table, the bolt
force of a slewing ring against the ring's equilibrium, and the command."""
import json

import numpy as np
import pandas as pd
import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results_stream import ResultWriter
from crane_cosim.studies.fatigue import (YEAR, case_table, combined, cycles, damage_equivalent_load, parse_combination,
                                         read_cases, signals_of, slewing_ring_bolt, study)


def test_rainflow_counts_the_astm_e1049_example():
    """ASTM E1049-85, section 5.4.4, Fig. 6 and Table X2.4 (rainflow
    counting): the loads -2, 1, -3, 5, -1, 3, -4, 4, -2 hold half a cycle
    of range 3, one and a half of 4, half of 6, one of 8 and half of 9."""
    c = cycles([-2, 1, -3, 5, -1, 3, -4, 4, -2])
    counted = c.groupby("range")["count"].sum().to_dict()
    assert counted == {3.0: 0.5, 4.0: 1.5, 6.0: 0.5, 8.0: 1.0, 9.0: 0.5}


@pytest.mark.parametrize("m", [3, 4, 5])
def test_the_del_of_a_sinusoid_is_its_range(m):
    """200 periods of a sinusoid of amplitude 3 kN about a mean of 7 kN,
    from a crest to a crest (20 samples a period, the crests and troughs
    among them): 200 cycles of range 6 kN, and with N_ref = 200 the DEL
    is that range for every slope (round-off: 1e-16 measured)."""
    t = np.arange(0, 200 * 20 + 1) / 20
    c = cycles(7e3 + 3e3 * np.cos(2 * np.pi * t))
    assert c["count"].sum() == 200
    assert damage_equivalent_load(c["range"], c["count"], m, 200) == pytest.approx(6e3, rel=1e-12)
    assert c["mean"].to_numpy() == pytest.approx(7e3, rel=1e-12)


def test_a_lifetime_scales_the_damage_of_the_record():
    """A record of T seconds standing for a lifetime of 2 T: the DEL grows by
    2**(1/m)."""
    t = np.linspace(0.0, 100.0, 4001)
    df = pd.DataFrame({"time": t, "x": np.sin(2 * np.pi * t / 4) + 0.3 * np.sin(2 * np.pi * t / 1.3)})
    one, two = (case_table(df, {"x": df["x"].to_numpy()}, n_ref=1e3, life=k * 100.0) for k in (1, 2))
    for m in (3, 4, 5):
        assert two[f"DEL_m{m}"][0] / one[f"DEL_m{m}"][0] == pytest.approx(2 ** (1 / m), rel=1e-12)


def test_cases_combine_by_the_probability_of_their_conditions():
    """(sum p_k DEL_k**m)**(1/m): one case alone is itself; two cases of
    DELs 1 and 2 at slope 3, half the life each: (0.5 + 4)**(1/3)."""
    assert combined([5.0], [1.0], 4) == 5.0
    assert combined([1.0, 2.0], [0.5, 0.5], 3) == pytest.approx(4.5 ** (1 / 3), rel=1e-15)


def test_the_bolt_forces_balance_the_wrench_on_the_ring():
    """24 bolts on a 0.3 m circle, each bolt's force from the formula: their
    sum and their moments about x1 and y1 give back the vertical force and
    the tilting moments of the crane's wrench (the force a bolt in tension
    puts on the crane points down, -z1)."""
    n, d = 24, 0.3
    wrench = {"crane.W_mount_fz": 1.2e4, "crane.W_mount_nx": -3.1e3, "crane.W_mount_ny": 4.4e3}
    df = pd.DataFrame({k: [v] for k, v in wrench.items()})
    angles = 2 * np.pi * np.arange(n) / n + 0.1
    F = np.array([slewing_ring_bolt(n, d, a, prefix="crane.W_mount_").of(df)[0] for a in angles])
    # by default the wrench is found by its role, as a run's summary gives it
    roles = {f"crane.W_mount_{c}": f"interface.wrench.{c}" for c in ("fz", "nx", "ny")}
    by_role = signals_of(df, ["crane.W_mount_fz"], [slewing_ring_bolt(n, d, angles[0])], roles)
    assert by_role[f"bolt_{np.degrees(angles[0]):g}deg"][0] == F[0]
    x, y = d / 2 * np.cos(angles), d / 2 * np.sin(angles)
    # the bolts' forces on the crane: -F along z1 at (x, y)
    assert np.sum(-F) == pytest.approx(wrench["crane.W_mount_fz"], rel=1e-12)
    assert np.sum(-F * y) == pytest.approx(wrench["crane.W_mount_nx"], rel=1e-12)  # y * f_z
    assert np.sum(F * x) == pytest.approx(wrench["crane.W_mount_ny"], rel=1e-12)  # -x * f_z


def test_a_combination_is_read_as_a_sum_of_terms():
    c = parse_combination("bolt = 2.5e-2*crane.W_mount_fz - 0.4*crane.W_mount_nx + crane.W_mount_ny")
    assert c.name == "bolt"
    assert c.terms == ((2.5e-2, "crane.W_mount_fz"), (-0.4, "crane.W_mount_nx"), (1.0, "crane.W_mount_ny"))
    for bad in ("bolt", "=crane.x", "bolt=2*", "bolt=crane.x crane.y", "bolt=1e*crane.x"):
        with pytest.raises(CraneCosimError, match="combination"):
            parse_combination(bad)


def _run_folder(folder, amplitude, periods=50, system=None):
    """A run's results.arrows of the mount wrench: sinusoids of ``amplitude``
    [N] and [N.m], 20 samples a period of 2 s; ``system``: the name its
    summary gives the run's system."""
    folder.mkdir(parents=True)
    t = np.arange(0, periods * 20 + 1) * 0.1
    cols = {"time": t}
    for k, c in enumerate(("nx", "ny", "nz", "fx", "fy", "fz")):
        cols[f"crane.W_mount_{c}"] = 1e3 * k + amplitude * np.sin(np.pi * t + k)
    writer = ResultWriter(folder, list(cols)[1:], units=["N.m"] * 3 + ["N"] * 3)
    for row in np.column_stack(list(cols.values())):
        writer.append(row[0], row[1:])
    writer.close()
    # what a run's summary says the columns are for
    roles = {f"crane.W_mount_{c}": f"interface.wrench.{c}" for c in ("nx", "ny", "nz", "fx", "fy", "fz")}
    (folder / "summary.json").write_text(json.dumps({"roles": roles, **({"system": system} if system else {})}))
    return folder


def test_a_scatter_table_gives_the_lifetime_del(tmp_path):
    """Two sea states, runs of 100 s each, amplitudes 1 and 2 kN, 30% and
    70% of a 20-year life: every case's DEL at N_ref cycles is its range
    times (cycles in the life / N_ref)**(1/m), and the lifetime DEL is
    their combination."""
    _run_folder(tmp_path / "calm", 1e3)
    _run_folder(tmp_path / "rough", 2e3)
    pd.DataFrame({"case": ["calm", "rough"], "probability": [0.3, 0.7], "Hs": [1.0, 3.0]}).to_csv(
        tmp_path / "scatter.csv", index=False)
    cases, life = study(tmp_path / "scatter.csv", tmp_path / "out", n_ref=1e7, life=20 * YEAR, plots=False)
    per_life = 50 * 20 * YEAR / 100.0  # cycles in the life: 50 a record of 100 s
    for m in (3, 4, 5):
        rows = cases[cases["signal"] == "crane.W_mount_fz"].set_index("case")
        for case, amplitude in (("calm", 1e3), ("rough", 2e3)):
            assert rows.loc[case, f"DEL_m{m}"] == pytest.approx(2 * amplitude * (per_life / 1e7) ** (1 / m),
                                                                rel=2e-3)
        lifetime = life.set_index("signal").loc["crane.W_mount_fz", f"DEL_m{m}"]
        assert lifetime == pytest.approx(combined(rows[f"DEL_m{m}"], [0.3, 0.7], m), rel=1e-12)
    assert set(cases["Hs"]) == {1.0, 3.0}
    assert (tmp_path / "out" / "fatigue_cases.csv").exists() and (tmp_path / "out" / "fatigue_lifetime.csv").exists()


def test_the_command_writes_tables_and_figures(tmp_path, capsys):
    run = _run_folder(tmp_path / "run", 1e3)
    assert main(["fatigue", str(run), "--bolt", "24,0.3,90", "--combine", "sum=crane.W_mount_fx+crane.W_mount_fy",
                 "--skip", "10"]) == 0
    out = capsys.readouterr().out
    assert "bolt_90deg" in out and "sum" in out
    names = {p.name for p in (run / "fatigue").iterdir()}
    assert names == {"fatigue_cases.csv", "fatigue_lifetime.csv", "run_records.png", "run_rainflow.png", "del.png"}
    cases = pd.read_csv(run / "fatigue" / "fatigue_cases.csv")
    assert cases["duration_s"].iloc[0] == pytest.approx(90.0)


@pytest.mark.parametrize("args, message", [
    (["nowhere"], "is neither a run folder nor a scatter table"),
    (["--bolt", "24"], "--bolt '24' is not 2 or 3 numbers separated by commas"),
    (["--combine", "x=crane.W_mount_fx+crane.nothing"], "the combination x uses crane.nothing, which the results "
                                                         "do not hold"),
    (["--signal", "vessel.*"], "no recorded column matches vessel.*"),
])
def test_bad_input_is_one_sentence(tmp_path, capsys, args, message):
    run = _run_folder(tmp_path / "run", 1e3)
    argv = ["fatigue", str(tmp_path / args[0])] if args == ["nowhere"] else ["fatigue", str(run), *args]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("crane-cosim: error: ") and message in err and "\n" not in err


def test_probabilities_that_do_not_sum_to_one_are_refused(tmp_path, capsys):
    _run_folder(tmp_path / "a", 1e3)
    pd.DataFrame({"case": ["a"], "probability": [0.5]}).to_csv(tmp_path / "scatter.csv", index=False)
    assert main(["fatigue", str(tmp_path / "scatter.csv")]) == 2
    assert "must be numbers of at least 0 summing to 1 (they sum to 0.5)" in capsys.readouterr().err


def test_a_run_whose_summary_names_no_interface_wrench_needs_its_signals_named(tmp_path, capsys):
    folder = _run_folder(tmp_path / "run", 1e3)
    (folder / "summary.json").write_text("{}")
    assert main(["fatigue", str(folder)]) == 2
    assert capsys.readouterr().err.strip() == (
        "crane-cosim: error: the run's summary names no column with the role of the interface wrench "
        "(interface.wrench.*); name the signals to count with --signal")
    assert main(["fatigue", str(folder), "--signal", "crane.W_mount_f*", "--no-plots"]) == 0


def test_the_tables_say_the_unit_of_each_row(tmp_path, capsys):
    """The CSVs stay in SI, each row's unit in a column: N.m for the
    moments, N for the forces, the bolt's axial force and a sum of forces;
    a combination of a force and a moment has no unit it can say ("1"),
    and the command says so."""
    run = _run_folder(tmp_path / "run", 1e3)
    assert main(["fatigue", str(run), "--bolt", "24,0.3", "--combine", "sum=crane.W_mount_fx+crane.W_mount_fy",
                 "--combine", "mix=crane.W_mount_fz+0.5*crane.W_mount_nx", "--combine",
                 "given[N]=crane.W_mount_fz+0.5*crane.W_mount_nx", "--no-plots"]) == 0
    err = capsys.readouterr().err
    expected = {**{f"crane.W_mount_n{a}": "N.m" for a in "xyz"}, **{f"crane.W_mount_f{a}": "N" for a in "xyz"},
                "bolt_0deg": "N", "sum": "N", "mix": "1", "given": "N"}
    for name in ("fatigue_cases.csv", "fatigue_lifetime.csv"):
        table = pd.read_csv(run / "fatigue" / name)
        assert dict(zip(table["signal"], table["unit"])) == expected
    assert "the unit of mix is not known" in err and "given" not in err


def test_the_printed_table_is_in_kn_and_mn(tmp_path, capsys):
    """Each printed row in the unit that keeps its DELs between 1 and 1000:
    the fixture's sinusoids of 1 kN (kN·m) amplitude have lifetime DELs of
    4 to 6.3 kN (N_ref 1e7 over 20 years, 50 cycles a 100 s record: the
    range of 2 kN times (3.2e8 / 1e7)**(1/m)), so kN for the forces, kN·m
    for the moments; the numbers are the CSV's SI values over 1e3, to the 4
    digits printed."""
    run = _run_folder(tmp_path / "run", 1e3)
    assert main(["fatigue", str(run), "--no-plots"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["signal", "unit", "m", "=", "3", "m", "=", "4", "m", "=", "5"]
    life = pd.read_csv(run / "fatigue" / "fatigue_lifetime.csv").set_index("signal")
    printed = {line.split()[0]: line.split()[1:] for line in lines[1:7]}
    for signal, row in life.iterrows():
        unit, *values = printed[signal]
        assert unit == {"N": "kN", "N.m": "kN·m"}[row["unit"]]
        for m, value in zip((3, 4, 5), values):
            assert 1 <= float(value) < 1000
            assert float(value) == pytest.approx(row[f"DEL_m{m}"] / 1e3, rel=5e-4)


@pytest.mark.parametrize("folder, system, name", [
    ("results", "OffshoreKnuckleBoom", "OffshoreKnuckleBoom (results)"),  # a folder's name that says nothing
    ("Hs2_seed3", "OffshoreKnuckleBoom", "OffshoreKnuckleBoom (Hs2_seed3)"),
    ("OffshoreKnuckleBoom", "OffshoreKnuckleBoom", "OffshoreKnuckleBoom"),  # crane-cosim run's own results/<system>
    ("results", None, "results"),  # a summary that names no system
])
def test_a_run_folder_is_a_case_named_after_its_system_and_folder(tmp_path, folder, system, name):
    run = _run_folder(tmp_path / folder, 1e3, system=system)
    assert [case for case, *_ in read_cases(run)] == [name]


def test_the_figures_of_a_run_folder_are_named_after_its_case(tmp_path):
    """A scatter table's case keeps its folder's name; the figures of a run
    folder's case "OffshoreKnuckleBoom (results)" are
    OffshoreKnuckleBoom_results_*.png."""
    run = _run_folder(tmp_path / "results", 1e3, system="OffshoreKnuckleBoom")
    assert main(["fatigue", str(run)]) == 0
    assert {p.name for p in (run / "fatigue").glob("*.png")} == {
        "OffshoreKnuckleBoom_results_records.png", "OffshoreKnuckleBoom_results_rainflow.png", "del.png"}
    pd.DataFrame({"case": ["results"], "probability": [1.0]}).to_csv(tmp_path / "scatter.csv", index=False)
    cases, _ = study(tmp_path / "scatter.csv", tmp_path / "out", plots=False)
    assert set(cases["case"]) == {"results"}


def test_the_command_says_each_stage_before_it(tmp_path, capsys, monkeypatch):
    """Two cases of a scatter table: a line on stderr per case read and
    counted, then the tables, then the figures, each before its work (60 s
    without a word before)."""
    from crane_cosim.reports import fatigue_plots
    _run_folder(tmp_path / "calm", 1e3)
    _run_folder(tmp_path / "rough", 2e3)
    pd.DataFrame({"case": ["calm", "rough"], "probability": [0.3, 0.7]}).to_csv(tmp_path / "scatter.csv", index=False)
    said = []
    monkeypatch.setattr(fatigue_plots, "plot_fatigue", lambda *a: said.append(capsys.readouterr().err))
    assert main(["fatigue", str(tmp_path / "scatter.csv")]) == 0
    out = tmp_path / "fatigue"
    assert said[0].splitlines() == [
        f"fatigue: reading and counting case 1 of 2, calm ({tmp_path / 'calm'}) ...",
        f"fatigue: reading and counting case 2 of 2, rough ({tmp_path / 'rough'}) ...",
        f"fatigue: writing the tables in {out} ...",
        f"fatigue: drawing the figures of 2 case(s) in {out} (the slowest part; --no-plots leaves them out) ..."]
