"""What the SSP writer refuses to write: an archive under a name other
tools would not open as one."""
from pathlib import Path

import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.files.ssp import write_ssp
from crane_cosim.runtime import System

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crane_on_vessel"


def test_export_to_a_name_without_the_suffix_is_refused(tmp_path, capsys):
    """Refused before any FMU is built, and nothing written."""
    out = tmp_path / "cov_archive"
    assert main(["export", str(EXAMPLE), str(out)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"crane-cosim: error: {out} does not end in .ssp, the suffix OSP libcosim opens an SSP archive by; "
        f"name it {out}.ssp")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, advice", [("a.SSP", "a.ssp"), ("a.zip", "a.zip.ssp"), ("a.ssp.part", "a.ssp.part.ssp")])
def test_write_ssp_takes_only_the_lower_case_suffix(tmp_path, name, advice):
    with pytest.raises(CraneCosimError, match=f"does not end in .ssp, .*; name it {tmp_path / advice}$"):
        write_ssp(System("x"), tmp_path / name)
    assert list(tmp_path.iterdir()) == []
