"""Views of a run: the crane, its vessel and the interface wrench drawn in
3-D from the run's recorded outputs (``scene.py``, with what each block
draws in ``skeletons.py``), written as an interactive page (``page.py``)."""
from __future__ import annotations

from pathlib import Path

from ..errors import CraneCosimError
from ..files.results import ANIMATION_FILE

__all__ = ["animate"]
#: what ``animate`` writes, by the output's suffix
FORMATS = (".html",)


def animate(run_dir, out=None, speed: float = 1.0, fps: float | None = None) -> Path:
    """Write the animation of the run in ``run_dir`` to ``out`` (default:
    ``animation.html`` in the run's folder), playing at ``speed`` times real
    time with ``fps`` frames a second of simulated time; returns the file."""
    from .page import write_page
    from .scene import FRAMES_PER_SECOND, scene_of_run

    run_dir = Path(run_dir)
    out = Path(out) if out is not None else run_dir / ANIMATION_FILE
    if out.suffix.lower() not in FORMATS:
        raise CraneCosimError(f"--out {out}: an animation is written as {', '.join(FORMATS)}, not "
                              f"{out.suffix or 'a file without a suffix'}")
    if not speed > 0:
        raise CraneCosimError(f"--speed {speed:g}: it must be a positive factor of real time")
    if fps is not None and not fps > 0:
        raise CraneCosimError(f"--fps {fps:g}: it must be a positive number of frames a second")
    scene = scene_of_run(run_dir, fps or FRAMES_PER_SECOND)
    return write_page(scene, out, speed)
