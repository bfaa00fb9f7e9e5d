"""A run's working folder in the temporary folder: removed at its end, and,
where a run was killed before its end, by the next run's start."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile

from crane_cosim.runtime.workdir import PREFIX, remove_stale, work_folder

#: a process that takes a working folder, says where, and waits
WORKER = """
import sys
from crane_cosim.runtime.workdir import work_folder
with work_folder() as folder:
    (folder / "Crane.fmu").write_bytes(bytes(1000))
    print(folder, flush=True)
    sys.stdin.read()
"""


def working(tmp_path) -> tuple[subprocess.Popen, str]:
    """A process holding a working folder in ``tmp_path``, and the folder."""
    proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(tmp_path)})
    folder = proc.stdout.readline().strip()
    assert folder.startswith(str(tmp_path / PREFIX)), f"no working folder (exit {proc.poll()})"
    return proc, folder


def test_the_next_run_removes_the_working_folders_of_killed_runs_only(tmp_path, monkeypatch):
    alive, alive_folder = working(tmp_path)
    killed, killed_folder = working(tmp_path)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    # an earlier version's folder (no process id in its name) is nobody's to tell: left
    (tmp_path / f"{PREFIX}k2j4h1").mkdir()
    # a folder whose run died before it took its claim: its process id is that of no process
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / f"{PREFIX}{ended.stdout.strip()}_x1").mkdir()
    try:
        assert sorted(os.listdir(tmp_path)) == sorted([os.path.basename(killed_folder), os.path.basename(alive_folder),
                                                       f"{PREFIX}k2j4h1", f"{PREFIX}{ended.stdout.strip()}_x1"])
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        with work_folder() as mine:
            assert mine.parent == tmp_path and mine.name.startswith(f"{PREFIX}{os.getpid()}_")
            assert sorted(os.listdir(tmp_path)) == sorted([os.path.basename(alive_folder), f"{PREFIX}k2j4h1",
                                                           mine.name])
        assert not mine.exists()
        assert remove_stale(tmp_path) == []   # the live run's is its own
    finally:
        alive.stdin.close()
        alive.wait()
    assert alive.returncode == 0 and sorted(os.listdir(tmp_path)) == [f"{PREFIX}k2j4h1"]
