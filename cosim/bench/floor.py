"""The floor of a step of a Python FMU: what one ``fmi2SetReal``, one
``fmi2DoStep`` and one ``fmi2GetReal`` cost when the FMU does nothing, timed
as the master times the FMUs of a run (``runtime/instance.py``).

Two FMUs, each with one input and one output: a bare ``pythonfmu`` slave
(the cost of calling from C into Python through pythonfmu's binary and this
project's shim) and the project's adapter around a block that passes its
input on (the same, plus the adapter's bookkeeping).  ``crane-cosim bench``
reports them beside each FMU's time per step in a run, so that what is left
of a model's cost above the floor shows.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from pythonfmu.builder import FmuBuilder

from ..blocks.pass_on import PassOn
from ..fmus.build import build_block_fmu
from ..runtime.loading import open_instance

__all__ = ["floor_us_per_step"]


_BARE = '''from pythonfmu import Fmi2Causality, Fmi2Slave, Fmi2Variability, Real


class BareSlave(Fmi2Slave):
    author = "crane-cosim"
    description = "A pythonfmu slave that does nothing (the floor of a step of a Python FMU)"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.u = 0.0
        self.y = 0.0
        self.register_variable(Real("u", causality=Fmi2Causality.input, variability=Fmi2Variability.continuous,
                                    start=0.0))
        self.register_variable(Real("y", causality=Fmi2Causality.output, variability=Fmi2Variability.continuous))

    def do_step(self, current_time, step_size):
        self.y = self.u
        return True
'''


def _bare_fmu(folder: Path) -> Path:
    """A bare pythonfmu FMU, built with pythonfmu's own builder."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "bare_slave.py"
    script.write_text(_BARE)
    return Path(FmuBuilder.build_FMU(script, dest=folder))


def _time_steps(path: Path, work: Path, steps: int, step: float) -> float:
    """Mean wall time [µs] inside the three FMI calls of a step."""
    inst = open_instance(path, work, inputs=["u"], outputs=["y"])
    try:
        inst.initialize(0.0)
        inst.fmi_time = 0.0
        for k in range(steps):
            inst.u[0] = k
            inst.set_inputs()
            inst.do_step(k * step, step)
            inst.get_outputs()
        return inst.fmi_time / steps * 1e6
    finally:
        inst.free()


def floor_us_per_step(work=None, steps: int = 20000, step: float = 1e-3, repeat: int = 3) -> dict:
    """``{"pythonfmu": µs, "adapter": µs}``: the fastest of ``repeat`` means of
    ``steps`` steps of each floor FMU (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="crane_cosim_floor_", dir=work) as tmp:
        tmp = Path(tmp)
        fmus = {"pythonfmu": _bare_fmu(tmp / "bare"), "adapter": build_block_fmu(PassOn, tmp / "adapter")}
        out = {}
        for name, path in fmus.items():
            out[name] = min(_time_steps(path, tmp / f"run_{name}_{i}", steps, step) for i in range(repeat))
        return out
