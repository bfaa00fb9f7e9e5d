"""What a vessel of its own step costs and gains: every example with a
vessel, the crane at 1 ms and the vessel at 1 ms (the example as it is),
10 ms and 50 ms, against the monolithic run of the same blocks, over the
whole run (``docs/coupling-error.md``, "Components of their own steps").

    python -m crane_cosim.accuracy.coupling_study --part multirate [--out DIR] [--stop-time T]

Each run is the example's own algorithm (Gauss–Seidel) with the vessel
stepping every 1, 10 or 50 base steps (``master.md``, "Components of their
own steps"); the error is the worst, over the example's forces and
moments, of the RMS difference from the monolithic run over its peak, on
the 20 ms grid all steps share; the wall time is the run's own (the
FMUs' set-up left out), best of ``repeat``.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path


from ..files.results import read_results
from .comparison import error_norms, force_columns
from ..runtime.config import RunConfig
from ..runtime.run import run_cosim
from ..errors import SimulationError
from ..scenarios import crane_on_vessel, crane_on_vessel_friction, offshore_knuckle_boom
from .coupling_cases import COMPARE_EVERY, on_shared_grid, reference_run

__all__ = ["VESSEL_EXAMPLES", "VESSEL_STEPS", "run_multirate"]

#: the examples with a vessel (the component ``vessel``)
VESSEL_EXAMPLES = {"crane on the Table I vessel": crane_on_vessel,
                   "crane on the light vessel (120 kg)": lambda **k: crane_on_vessel(vessel_mass=120.0, **k),
                   "crane on the vessel with friction": crane_on_vessel_friction,
                   "offshore knuckle boom": offshore_knuckle_boom}
#: the vessel's own steps [s], the crane's being 1 ms
VESSEL_STEPS = (1e-3, 1e-2, 5e-2)
CRANE_STEP = 1e-3


def run_multirate(out: Path, stop_time: float = 20.0, repeat: int = 2) -> list[dict]:
    """The rows of the study, also written to ``coupling_error_multirate.json``
    in ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="crane_cosim_multirate_") as tmp:
        tmp = Path(tmp)
        for label, make in VESSEL_EXAMPLES.items():
            ref = reference_run(make(base_dir=tmp, stop_time=stop_time, step=COMPARE_EVERY), tmp / "mono")
            for vessel_step in VESSEL_STEPS:
                system = make(base_dir=tmp, stop_time=stop_time, step=CRANE_STEP)
                config = RunConfig(component_steps={"vessel": vessel_step} if vessel_step != CRANE_STEP else {},
                                   record_every=round(COMPARE_EVERY / CRANE_STEP), progress=False,
                                   replace_run=True)
                row = {"example": label, "algorithm": system.algorithm, "vessel_step": vessel_step,
                       "crane_step": CRANE_STEP, "stop_time": stop_time, "error": None, "diverged_at": None}
                walls = []
                for _ in range(repeat):
                    try:
                        walls.append(run_cosim(system, tmp / "run", config).wall_time)
                    except SimulationError:
                        row["diverged_at"] = float(read_results(tmp / "run")["time"].iloc[-1])
                        break
                if row["diverged_at"] is None:
                    row["wall_s"] = min(walls)
                    row["real_time_factor"] = stop_time / row["wall_s"]
                    run, r = on_shared_grid(read_results(tmp / "run"), ref)
                    row["error"] = float(error_norms(run, r, force_columns(system, ref))["rms_peak"].max())
                rows.append(row)
                print(json.dumps(row), flush=True)
    (out / "coupling_error_multirate.json").write_text(json.dumps(rows, indent=1) + "\n")
    return rows
