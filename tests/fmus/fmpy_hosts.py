"""FMUs run to the end of their DefaultExperiment by FMPy in a Python of
another process (``fmpy_runs.py``): another version of Python, or a
Windows Python under Wine; and the values the runs set where the start
values would leave every output at rest."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from crane_cosim.blocks.registry import BLOCKS
from limits import HUNG

__all__ = ["DRIVEN", "fmpy_final_outputs"]

#: values set in initialization mode where the start values leave every
#: output zero (friction at rest, a signal of an empty table): a comparison
#: of zeros would prove nothing.  They are the blocks' reference
#: experiment, which the portable FMUs carry with its result.
DRIVEN = {model: dict(cls.reference_experiment) for model, cls in BLOCKS.items() if cls.reference_experiment}

SCRIPT = Path(__file__).resolve().parent / "fmpy_runs.py"


def fmpy_final_outputs(command: list[str], fmus: list[Path], env: dict, path_of=str, script=SCRIPT) -> list[dict]:
    """``{output: value at the end}`` of each FMU of ``fmus`` run by
    ``command`` (a Python, with the arguments that start it) running
    ``fmpy_runs.py``; ``path_of`` turns a path into the one that Python
    reads (a Windows path under Wine)."""
    jobs = [[path_of(fmu), DRIVEN.get(Path(fmu).stem, {})] for fmu in fmus]
    proc = subprocess.run([*command, path_of(script)], input=json.dumps(jobs), capture_output=True, text=True,
                          timeout=HUNG, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])
