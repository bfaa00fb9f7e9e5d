"""docs/ssp.md says what it shows: its marked code blocks run as written
(export, run, libcosim, ecos in Python and on its command line), and its
table of limits is the code's."""
import os
import re
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from crane_cosim.files.archive import ENV, Limits, RATIO_FLOOR
from crane_cosim.files.results import read_results
from limits import HUNG

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "ssp.md"


def _blocks() -> dict:
    text = DOC.read_text()
    found = re.findall(r"<!-- checked: (\S+) -->\n```(\w+)\n(.*?)```", text, re.S)
    return {name: (lang, code) for name, lang, code in found}


BLOCKS = _blocks()


def _run(lang, code, cwd, timeout=HUNG):
    env = os.environ.copy()
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")  # python, crane-cosim
    env["TMPDIR"] = str(cwd / "tmp")  # ecos unpacks (and keeps) archives under TMPDIR
    (cwd / "tmp").mkdir(exist_ok=True)
    cmd = ["bash", "-euo", "pipefail", "-c", code] if lang == "sh" else [sys.executable, "-c", code]
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{lang} block failed ({proc.returncode}):\n{code}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def test_every_block_is_checked():
    assert sorted(BLOCKS) == ["ecos", "ecos-cli", "export", "libcosim", "open", "write"]


@pytest.fixture(scope="module")
def work(tmp_path_factory, fmu_dir):
    """A copy of the example with its FMUs built (as `run` would build them),
    after the export block ran in it."""
    w = tmp_path_factory.mktemp("docs")
    example = w / "examples" / "crane_on_vessel"
    # what a user's runs left in the example (its built FMUs, results) is not the example's
    shutil.copytree(REPO / "examples" / "crane_on_vessel", example, ignore=shutil.ignore_patterns("fmus", "results"))
    shutil.copytree(fmu_dir, example / "fmus")
    _run(*BLOCKS["export"], cwd=w)
    return w


def _rows_of_a_second(folder) -> int:
    """Rows of the doc's 1 s runs of the example as shipped: its default,
    the iterated midpoint at 2 ms (``DEFAULTS`` in cosim/scenarios.py; it
    was Gauss-Seidel at 1 ms, 1001 rows), which the run's summary says it took."""
    summary = json.loads((folder / "summary.json").read_text())
    assert (summary["algorithm"], summary["step"]) == ("iterated-midpoint", 0.002)
    return 501


def test_export_and_run(work):
    df = read_results(work / "results" / "CraneOnVessel")
    assert len(df) == _rows_of_a_second(work / "results" / "CraneOnVessel") and df["vessel.q_roll"].iloc[0] == 0.02


def test_write_ssp_from_python(tmp_path, fmu_dir):
    shutil.copytree(fmu_dir, tmp_path / "work" / "fmus")
    _run(*BLOCKS["write"], cwd=tmp_path)
    assert (tmp_path / "work" / "CraneOnVessel.ssp").is_file()


def test_open_system_from_python(work):
    _run(*BLOCKS["open"], cwd=work)
    assert len(read_results(work / "results")) == _rows_of_a_second(work / "results")


def test_libcosim_opens_the_archive(work):
    """libcosim steps the archive to its end (the block fails when a step does)."""
    assert "1.0 s" in _run(*BLOCKS["libcosim"], cwd=work).splitlines()


def test_ecos_opens_the_archive(work):
    roll, fz = map(float, _run(*BLOCKS["ecos"], cwd=work).split()[-2:])
    assert roll == 0.02 and fz > 0


def test_ecos_command_line_opens_the_archive(work):
    _run(*BLOCKS["ecos-cli"], cwd=work)
    csv = pd.read_csv(work / "CraneOnVessel.csv", skipinitialspace=True)
    assert (csv["vessel::q_roll_0[REAL]"] == 0.02).all() and len(csv) >= 999


def test_the_limits_table_is_the_code():
    rows = re.findall(r"^\| ([^|]+) \| ([^|]+) \| `(CRANE_COSIM_\w+)` \|$", DOC.read_text(), re.M)
    table = {var: limit.strip() for _, limit, var in rows}
    d = Limits()
    assert table == {ENV["max_unpacked"]: f"{d.max_unpacked >> 30} GiB", ENV["max_ratio"]: f"{d.max_ratio:g}:1",
                     ENV["max_entries"]: str(d.max_entries), ENV["max_xml"]: f"{d.max_xml >> 20} MiB"}
    assert f"larger than {RATIO_FLOOR >> 20} MiB" in DOC.read_text()
