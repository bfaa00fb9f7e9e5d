"""The C++ programs written with DCPLib (``dcplib_build.py``), compiled once
for the whole session and shared by its pytest-xdist workers."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from crane_cosim.blocks.jit import under_ci
from dcplib_build import PROGRAMS, built, compiler, missing_headers
from made_once import made_once


@pytest.fixture(scope="session")
def dcplib_programs(tmp_path_factory, worker_id) -> dict:
    """name -> executable, for every program of :data:`PROGRAMS`, compiled
    at once; a skip where there is no g++ or no headers of Asio (a failure
    under CI), a compiler's error where one fails."""
    # under CI, whose run installs them (.ci/run), a missing tool fails the tests instead
    give_up = pytest.fail if under_ci() else pytest.skip
    gxx = compiler()
    if gxx is None:
        give_up("no g++ on this machine (apt-get install g++)")
    missing = missing_headers(gxx)
    if missing:
        give_up(f"the headers DCPLib needs are missing (apt-get install {' '.join(missing)})")

    def make(out):
        with ThreadPoolExecutor(len(PROGRAMS)) as pool:
            for job in [pool.submit(built, name, out) for name in PROGRAMS]:
                job.result()

    folder = made_once(tmp_path_factory, worker_id, "dcplib", make)
    return {name: folder / name for name in PROGRAMS}
