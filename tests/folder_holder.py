"""A second process holding the claim of a results folder, as a run does
while it writes (``cosim/files/folders.py``), for the tests of what
another run into that folder does."""
from __future__ import annotations

import subprocess
import sys

#: a second process that claims the folder argv[1], writes a file of its own in it, says so and waits
HOLDER = """
import sys
from pathlib import Path
from crane_cosim.files.folders import claimed
with claimed(sys.argv[1]):
    (Path(sys.argv[1]) / "results.arrows").write_text("the first run's")
    print("claimed", flush=True)
    sys.stdin.read()
"""


def holding(folder) -> subprocess.Popen:
    """A process holding the claim of ``folder`` once it returns."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line == "claimed\n", f"the holder did not claim {folder} (exit {proc.poll()})"
    return proc
