"""Views of a run: the crane, its vessel and the interface wrench drawn in
3-D from the run's recorded outputs (``scene.py``, with what each block
draws in ``skeletons.py``), written as an interactive page (``page.py``)
or a video (``video.py``)."""
from __future__ import annotations

from pathlib import Path

from ..errors import CraneCosimError
from ..files.results import ANIMATION_FILE
from .page import write_page
from .scene import FRAMES_PER_SECOND, scene_of_run
from .video import VIDEO_FPS, write_video

__all__ = ["animate", "LIVE_ADDRESS"]

#: where ``run --view`` serves by default: loopback, so that only this machine sees it
LIVE_ADDRESS = ("127.0.0.1", 8765)
#: what ``animate`` writes, by the output's suffix
FORMATS = (".html", ".mp4", ".gif")


def animate(run_dir, out=None, speed: float = 1.0, fps: float | None = None) -> Path:
    """Write the animation of the run in ``run_dir`` to ``out`` (default:
    ``animation.html`` in the run's folder; ``.mp4`` or ``.gif``: a video),
    playing at ``speed`` times real time, the page with ``fps`` frames a
    second of simulated time (a video has ``VIDEO_FPS`` frames a second of
    its own); returns the file."""
    run_dir = Path(run_dir)
    out = Path(out) if out is not None else run_dir / ANIMATION_FILE
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise CraneCosimError(f"--out {out}: an animation is written as {', '.join(FORMATS)}, not "
                              f"{out.suffix or 'a file without a suffix'}")
    if not out.parent.is_dir():
        raise CraneCosimError(f"--out {out}: its folder {out.parent} does not exist")
    if out.is_dir():
        raise CraneCosimError(f"--out {out} is a folder; name the animation's file")
    if not speed > 0:
        raise CraneCosimError(f"--speed {speed:g}: it must be a positive factor of real time")
    if fps is not None and not fps > 0:
        raise CraneCosimError(f"--fps {fps:g}: it must be a positive number of frames a second")
    if suffix == ".html":
        return write_page(scene_of_run(run_dir, fps or FRAMES_PER_SECOND), out, speed)
    if fps is not None:
        raise CraneCosimError(f"--fps {fps:g}: a video has {VIDEO_FPS:g} frames a second; --speed sets how much "
                              f"simulated time each shows")
    return write_video(scene_of_run(run_dir, VIDEO_FPS / speed), out)
