"""``crane-cosim bench --animation``: how long drawing a run takes, the
page, the MP4 and the GIF of ``crane-cosim animate``, for a run of each
scenario of ``--stop-time`` seconds (20 s: the figure asked of a 20 s run,
under 10 s each), and the page's size at 25 and at 50 frames a second.

Records, one per scenario: ``scenario``, ``stop_time`` [s], ``page_s``,
``mp4_s``, ``gif_s`` [s] (wall
time of each, the run's results read and drawn; ``mp4_s`` null without
the optional extra ``video``), ``page_mb``, ``page_50fps_mb`` [MB]."""
from __future__ import annotations

import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

from ..runtime import run_cosim
from ..scenarios import SCENARIOS
from ..views import animate

__all__ = ["bench_animation"]


def bench_animation(scenarios, stop_time: float, work=None, on_record=None) -> list[dict]:
    """Run each of ``scenarios`` (names of ``SCENARIOS``) for ``stop_time``
    [s] in ``work`` (default: a temporary folder) and time its animation's
    three forms; ``on_record`` is told each record as it is made."""
    records = []
    with tempfile.TemporaryDirectory(prefix="crane_cosim_bench_") as tmp:
        work = Path(work or tmp)
        for name in scenarios:
            folder = work / name
            system = SCENARIOS[name](base_dir=folder)
            system.stop_time = stop_time
            run_cosim(system, folder / "run", progress=False, replace_run=True)
            record = {"scenario": name, "stop_time": stop_time}
            for key, out, fps in (("page_s", "animation.html", None), ("page_50fps", "animation50.html", 50.0),
                                  ("mp4_s", "animation.mp4", None), ("gif_s", "animation.gif", None)):
                if key == "mp4_s" and not _has_ffmpeg():
                    record[key] = None
                    continue
                start = time.perf_counter()
                path = animate(folder / "run", folder / out, fps=fps)
                if key == "page_50fps":
                    record["page_50fps_mb"] = path.stat().st_size / 1e6
                else:
                    record[key] = time.perf_counter() - start
                if key == "page_s":
                    record["page_mb"] = path.stat().st_size / 1e6
            records.append(record)
            if on_record:
                on_record(record)
    return records


def _has_ffmpeg() -> bool:
    return find_spec("imageio_ffmpeg") is not None
