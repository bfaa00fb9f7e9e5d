"""``crane-cosim build-fmus``, ``hydro`` ... (``cosim/cli/tools.py``): where
``hydro`` writes a hull's database, what it says of it, and ``--refit``."""
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.hull_database import read_database, write_database
from crane_cosim.blocks.hydro_vessel import HydroVessel
from crane_cosim.cli import main, tools

ROOT = Path(__file__).resolve().parents[2]


def test_the_examples_database_computed_again_is_not_left_untracked():
    """``crane-cosim hydro examples/hydro_vessel/barge.toml`` writes
    ``barge.nc`` beside the hull file, as for any hull of a user's (the
    docs say so); in the source tree git ignores it (it ships as
    ``blocks/hulls/barge.nc``), so that the command leaves the clone clean."""
    ignored = subprocess.run(["git", "check-ignore", "-q", "examples/hydro_vessel/barge.nc"], cwd=ROOT)
    assert ignored.returncode == 0


def test_hydro_says_how_a_vessel_takes_the_database(tmp_path, monkeypatch, capsys):
    """The database's path and the --set that gives it to a HydroVessel
    (Capytaine's computation replaced: its figures are tests/hydro's)."""
    hull = tmp_path / "barge.toml"
    shutil.copy(ROOT / "examples" / "hydro_vessel" / "barge.toml", hull)
    monkeypatch.setattr(tools, "compute_database", lambda spec, progress: SimpleNamespace(computed_by="Capytaine"))
    monkeypatch.setattr(tools, "write_database", lambda db, out: Path(out).write_bytes(b"CDF"))
    assert main(["hydro", str(hull)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(tmp_path / "barge.nc")
    assert captured.err.strip().splitlines()[-1] == (f"hydro: Capytaine, in 0 s; a HydroVessel takes it by its path: "
                                                     f"--set vessel.database={tmp_path / 'barge.nc'}")


def test_hydro_refit_fits_a_database_without_its_memory_and_the_vessel_takes_it(tmp_path, capsys):
    """A database written without its radiation memory is refused by the
    vessel in one sentence that names the command; ``hydro --refit`` fits
    it (the shipped barge's fit again, the same orders) and the vessel
    takes it."""
    bare = tmp_path / "bare.nc"
    write_database(replace(read_database("barge"), radiation=None), bare)
    with pytest.raises(ParameterError, match=r"^HydroVessel parameter database: .*bare.nc carries no fitted "
                                             r"radiation memory: `crane-cosim hydro --refit .*bare.nc` fits it$"):
        HydroVessel(database=str(bare))
    assert main(["hydro", "--refit", str(bare)]) == 0
    assert capsys.readouterr().out.strip() == str(bare)
    assert read_database(bare).radiation.orders == read_database("barge").radiation.orders
    assert HydroVessel(database=str(bare)).fit.n_states == read_database("barge").radiation.n_states


def test_hydro_refit_of_a_fit_that_cannot_be_made_passive_says_so(tmp_path, monkeypatch, capsys):
    """A fit the enforcement cannot make passive: one sentence naming the
    database, exit code 2, the database left as it was."""
    path = tmp_path / "barge.nc"
    write_database(read_database("barge"), path)
    before = path.read_bytes()

    def refused(*args):
        raise ValueError("its radiation memory's fit could not be made passive in 30 rounds")
    monkeypatch.setattr(tools, "fit_radiation", refused)
    assert main(["hydro", "--refit", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (f"crane-cosim: error: hydro --refit {path}: its radiation memory's "
                                               f"fit could not be made passive in 30 rounds")
    assert path.read_bytes() == before
