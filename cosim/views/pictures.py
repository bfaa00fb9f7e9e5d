"""The picture of each example in its README: a frame of its animation at
a moment that shows what it is about, drawn from a run of the example at
its defaults (``python -m crane_cosim.views.pictures [EXAMPLES]``, the
repository's ``examples/`` by default; a few minutes: every example runs)."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from ..runtime import run_cosim
from ..scenarios import SCENARIOS, STUDIES
from .scene import scene_of_run
from .video import write_frame

__all__ = ["PICTURE", "MOMENTS", "write_pictures"]

#: the picture's file in each example's folder
PICTURE = "animation.png"
#: example -> the time [s] its picture shows (the fatigue study's: its system
#: in the Waves block's default sea)
MOMENTS = {"crane_on_vessel": 2.5, "crane_on_vessel_friction": 2.5, "knuckle_boom": 12.0,
           "offshore_knuckle_boom": 12.0, "hydro_vessel": 12.0, "fatigue_study": 12.0, "flexible_crane": 1.0}


def write_pictures(examples) -> list[Path]:
    """Run each example of :data:`MOMENTS` in ``examples`` (FMUs in its
    ``fmus/``) and write its picture; returns the files."""
    examples = Path(examples)
    written = []
    for name, moment in MOMENTS.items():
        folder = examples / name
        build = SCENARIOS.get(name) or STUDIES[name]
        system = build(base_dir=folder)
        system.stop_time = min(system.stop_time, moment + 0.5)
        with tempfile.TemporaryDirectory() as out:
            run_cosim(system, out, progress=False)
            written.append(write_frame(scene_of_run(out), moment, folder / PICTURE))
        print(written[-1], flush=True)
    return written


if __name__ == "__main__":
    write_pictures(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "examples")
