"""What the tests of DCP share: ``crane-cosim dcp-slave`` in a process of
its own, and the crane on the vessel by Gauss-Seidel at 1 ms, the run
every DCP run of it is compared with."""
import re
import select
import subprocess
import sys
from contextlib import contextmanager
from types import SimpleNamespace

from crane_cosim.files.results import read_results
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import crane_on_vessel
from limits import HUNG

STOP = 0.5  # s: 500 steps of 1 ms
WAIT = 30.0  # s, for a process that has nothing left to wait for: test_master's watchdog gives up after 10 s
# a DCP slave cannot be rolled back: its systems run by Gauss-Seidel at 1 ms, a resolution of the slaves
GAUSS_SEIDEL = {"step": 1e-3, "algorithm": "gauss-seidel"}


@contextmanager
def dcp_slave(block, description, *options):
    """``crane-cosim dcp-slave BLOCK --port 0 --description DESCRIPTION
    OPTIONS`` in a process of its own, ready (its line read), stopped by
    SIGTERM at the end; ``.port``, ``.proc``, and after the end ``.err``."""
    proc = subprocess.Popen([sys.executable, "-m", "crane_cosim.cli", "dcp-slave", block, "--port", "0",
                             "--description", str(description), *options],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    slave = SimpleNamespace(proc=proc, port=None, err=None)
    try:
        line = proc.stdout.readline() if select.select([proc.stdout], [], [], HUNG)[0] else ""
        m = re.fullmatch(rf"DCP slave {block} on udp://127\.0\.0\.1:(\d+); its slave description: .*\n", line)
        assert m, (line, proc.poll(), proc.stderr.read() if proc.poll() is not None else "")
        slave.port = int(m[1])
        yield slave
    finally:
        if proc.poll() is None:
            proc.terminate()
        _, slave.err = proc.communicate(timeout=HUNG)


def reference_run(out, fmu_dir, **parameters):
    """The crane on the vessel, all three FMUs in this process, by
    Gauss-Seidel at 1 ms for :data:`STOP`; ``parameters``: values by
    ``component.variable``."""
    system = crane_on_vessel(base_dir=out, fmu_dir=str(fmu_dir), stop_time=STOP, **GAUSS_SEIDEL)
    for name, value in parameters.items():
        system.set_parameter(name, value)
    run_cosim(system, out / "results", progress=False)
    return read_results(out / "results")
