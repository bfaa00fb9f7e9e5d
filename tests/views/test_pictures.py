"""The examples' pictures (cosim/views/pictures.py): in each README, and there."""
from pathlib import Path

from crane_cosim.views.pictures import MOMENTS, PICTURE


def test_every_drawn_example_shows_its_picture():
    """Each example a picture is made of (``cosim/views/pictures.py``)
    shows it in its README, and the picture is there."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    for name in MOMENTS:
        assert f"]({PICTURE})" in (examples / name / "README.md").read_text(), name
        assert (examples / name / PICTURE).stat().st_size > 10_000, name
