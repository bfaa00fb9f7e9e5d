"""``crane-cosim export-results``'s writers: the CSV is the one runs wrote
before results.arrows, byte for byte; the Parquet file keeps the types and
the metadata."""
from __future__ import annotations

import math

import numpy as np
import pyarrow.parquet as pq
import pytest
import scipy.io

from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import CsvWriter, read_results
from crane_cosim.files.results_export import _quoted, export_results
from crane_cosim.files.results_stream import ResultWriter

COLUMNS = ["a.x", "a.n", "a.on", "a.mode", "a.label"]
TYPES = ["Real", "Integer", "Boolean", "Enumeration", "String"]
#: each column's format in the CSV runs wrote (runtime/observers/recorder.py before results.arrows)
OLD_FORMATS = ["%.12g", "%d", "%d", "%d", "%s"]


def _rows(rng, n=300):
    """Rows of every type: reals of every magnitude, NaN and infinities,
    whole numbers, Booleans, Strings a CSV must quote."""
    labels = ["plain", "a,b", 'say "hi"', " padded", "two\nlines", ""]
    for k in range(n):
        x = rng.standard_normal() * 10.0 ** rng.integers(-30, 30)
        if k % 50 == 7:
            x = (math.nan, math.inf, -math.inf, 0.0, -0.0)[k % 5]
        yield k * 1e-3, [x, float(rng.integers(-2 ** 31, 2 ** 31)), float(k % 2), float(k % 4)], [labels[k % 6]]


def test_the_csv_export_is_the_csv_runs_wrote_before_byte_for_byte(tmp_path, rng):
    """Against the old writer with the old formats: reals to 12 significant
    digits (``%.12g``), whole numbers for Integer, Boolean and Enumeration,
    Strings quoted as RFC 4180 quotes them."""
    old = CsvWriter(tmp_path / "old", COLUMNS, formats=OLD_FORMATS)
    new = ResultWriter(tmp_path / "new", COLUMNS, types=TYPES)
    for t, values, texts in _rows(rng):
        old.append(t, [*values, _quoted(texts[0])])
        new.append(t, values, texts)
    old.close()
    new.close()
    written = export_results(tmp_path / "new", csv=True)
    assert written == [tmp_path / "new" / "results.csv"]
    assert written[0].read_bytes() == (tmp_path / "old" / "results.csv").read_bytes()


def test_the_parquet_export_keeps_the_types_and_the_metadata(tmp_path, rng):
    w = ResultWriter(tmp_path, COLUMNS, ["N", "", "", "", ""], TYPES, ["interface.wrench.fz"] + [None] * 4,
                     system="S")
    for t, values, texts in _rows(rng, 20):
        w.append(t, values, texts)
    w.close()
    [path] = export_results(tmp_path, parquet=True)
    assert path == tmp_path / "results.parquet"
    back = read_results(path)
    arrows = read_results(tmp_path)
    assert back.equals(arrows) and back.attrs == arrows.attrs
    assert pq.read_schema(path).field("a.x").metadata[b"unit"] == b"N"


def test_the_csv_export_with_units_has_them_in_its_second_row(tmp_path, rng):
    """``units``: the same CSV with a second row of units (time in s), which
    pandas reads back with ``header=[0, 1]`` to the same numbers."""
    w = ResultWriter(tmp_path, COLUMNS, ["N", "", "", "", ""], TYPES, system="S")
    for t, values, texts in _rows(rng, 20):
        w.append(t, values, texts)
    w.close()
    plain = export_results(tmp_path, out=tmp_path / "plain.csv")[0].read_text().splitlines()
    lines = export_results(tmp_path, out=tmp_path / "units.csv", units=True)[0].read_text().splitlines()
    assert lines[1] == "s,N,,,," and lines[:1] + lines[2:] == plain


def test_the_mat_export_holds_a_struct_per_component_with_units(tmp_path, rng):
    """MATLAB's ``a.x`` is the results' column ``a.x``: reals as doubles
    (NaN and the infinities kept), whole numbers and Booleans as doubles,
    Strings as text; ``units.a.x`` its unit; a column MATLAB cannot name has
    its name's other characters as ``_``."""
    columns = [*COLUMNS, "b.x[1]", "b.x_1_"]
    w = ResultWriter(tmp_path, columns, ["N", "", "", "", "", "m", "m/s"], [*TYPES, "Real", "Real"], system="S")
    rows = list(_rows(rng, 30))
    for t, values, texts in rows:
        w.append(t, [*values, t, -t], texts)
    w.close()
    [path] = export_results(tmp_path, out=tmp_path / "r.mat")
    mat = scipy.io.loadmat(path, simplify_cells=True)
    df = read_results(tmp_path)
    assert np.array_equal(mat["time"], df["time"].to_numpy())
    assert np.array_equal(mat["a"]["x"], df["a.x"].to_numpy(), equal_nan=True)
    for name in ("n", "on", "mode"):
        assert np.array_equal(mat["a"][name], df[f"a.{name}"].to_numpy(float))
    assert [v if isinstance(v, str) else "" for v in mat["a"]["label"]] == df["a.label"].tolist()  # '' reads as []
    assert np.array_equal(mat["b"]["x_1_"], df["b.x[1]"].to_numpy())
    assert np.array_equal(mat["b"]["x_1__2"], df["b.x_1_"].to_numpy())
    assert mat["units"]["time"] == "s" and mat["units"]["a"]["x"] == "N" and mat["units"]["b"]["x_1__2"] == "m/s"


def test_the_format_follows_out_s_suffix_and_two_formats_need_two_files(tmp_path):
    w = ResultWriter(tmp_path / "run", ["c.y"], ["m"], ["Real"])
    w.append(0.0, [1.0])
    w.close()
    [p] = export_results(tmp_path / "run" / "results.arrows", out=tmp_path / "y.parquet")
    assert read_results(p)["c.y"].tolist() == [1.0]
    [c] = export_results(tmp_path / "run", out=tmp_path / "y.csv")
    assert c.read_text() == "time,c.y\n0,1\n"
    # a suffix of another format is refused, not given CSV bytes under its name
    for name in ("r.xlsx", "y.txt", "noext"):
        with pytest.raises(CraneCosimError) as refused:
            export_results(tmp_path / "run", out=tmp_path / name)
        assert str(refused.value).startswith(f"--out {tmp_path / name}: the results are written as .csv, .parquet, "
                                             f".mat files, not "), refused.value
        assert not (tmp_path / name).exists()
    with pytest.raises(CraneCosimError, match="names a Parquet file, and --csv asks for CSV: give one of the two"):
        export_results(tmp_path / "run", csv=True, out=tmp_path / "z.parquet")
    with pytest.raises(CraneCosimError, match="--out names one file: give --csv or --parquet with it, not both"):
        export_results(tmp_path / "run", csv=True, parquet=True, out=tmp_path / "z.csv")
    with pytest.raises(CraneCosimError, match="would overwrite the results it is made from"):
        export_results(tmp_path / "run", out=tmp_path / "run" / "results.arrows")
    assert np.isfinite(read_results(tmp_path / "run")["c.y"]).all()   # left as it was
