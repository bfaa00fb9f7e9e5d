"""What the tests of the bridge FMU against ``crane-cosim serve`` share
(``test_bridge.py``, ``test_bridge_faults.py``): the bridge FMU and the
reference run (fixtures, imported by each module), the system with the
bridge in place of the controller, the server in a process of its own, and
a relay between the bridge and the server that can kill the server or slip
datagrams in."""
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from types import SimpleNamespace

import pytest

from crane_cosim.blocks.controller import Controller
from crane_cosim.bridge.serve import Server
from crane_cosim.fmus.build import build_bridge_fmu
from crane_cosim.runtime import replace_component, run_cosim
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.files.results import read_results
from limits import HUNG
from udp_ports import free_port  # noqa: F401 (the bridge's tests import it from here)

STOP = 0.5  # s: 500 steps of 1 ms
# A bridge cannot save and restore its state (its block runs in another
# process), so the iterated algorithms, the examples' defaults, refuse it
# ("use gauss-seidel for this system"): the systems of these tests run by
# Gauss-Seidel at 1 ms, the grid of STOP's 500 steps, the bridged runs and
# their references alike.
GAUSS_SEIDEL = {"step": 1e-3, "algorithm": "gauss-seidel"}
COUNTER_NAMES = ["bridge_sent", "bridge_answers", "bridge_lost", "bridge_late", "bridge_stale", "bridge_held",
                 "bridge_safe", "bridge_age", "bridge_malformed", "bridge_forged", "bridge_unasked",
                 "bridge_round_trip"]


_BUILT = {}


@pytest.fixture(scope="module")
def bridge_fmu(tmp_path_factory):
    """``ControllerBridge.fmu``, built once for the session: a second build in
    a process whose runs have unpacked and removed the first one's package
    fails (the builder runs the entry script, which reads the spec beside
    the package already imported, from a folder that is gone)."""
    if "Controller" not in _BUILT:
        _BUILT["Controller"] = build_bridge_fmu(Controller, tmp_path_factory.mktemp("bridge"))
    return _BUILT["Controller"]


@pytest.fixture(scope="module")
def reference(fmu_dir, tmp_path_factory):
    """The crane on the vessel, all three FMUs in this process, by
    Gauss-Seidel at 1 ms as the bridged runs it is compared with."""
    out = tmp_path_factory.mktemp("reference")
    run_cosim(crane_on_vessel(base_dir=out, fmu_dir=str(fmu_dir), stop_time=STOP, **GAUSS_SEIDEL), out / "results",
              progress=False)
    return read_results(out / "results")


def bridged(tmp_path, fmu_dir, bridge_fmu, port, system=crane_on_vessel, component="controller", **params):
    """``system`` (a scenario) with the bridge ``bridge_fmu`` to the peer on
    ``port`` in place of ``component``, its parameters ``params``; by
    Gauss-Seidel at 1 ms (:data:`GAUSS_SEIDEL`: a bridge cannot be stepped twice)."""
    s = system(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP, **GAUSS_SEIDEL)
    replace_component(s, component, bridge_fmu)
    s.set_parameter(f"{component}.port", float(port))
    for name, value in params.items():
        s.set_parameter(f"{component}.{name}", value)
    return s


@contextmanager
def serving(block, drop=None, key=None, peer_class=None):
    """``block`` served by a :class:`Server` on a thread of its own (its
    peer of ``peer_class``, a :class:`Peer` that breaks a rule, if given)."""
    server = Server(block, drop=drop, key=key)
    if peer_class is not None:
        server.peer = peer_class(block, server.stats, key=key)
    stop = threading.Event()
    thread = threading.Thread(target=server.run, args=(stop.is_set, 0.02), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stop.set()
        thread.join(5)
        server.close()


def wait_bound(port: int) -> None:
    """Wait until a process has bound UDP ``port`` (ours can no longer)."""
    deadline = time.monotonic() + HUNG
    while time.monotonic() < deadline:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                return
        time.sleep(0.01)
    raise AssertionError(f"nothing bound UDP port {port} in {HUNG} s")


@contextmanager
def served(*options, block="Controller", stop_signal=signal.SIGTERM):
    """``crane-cosim serve BLOCK --port 0 OPTIONS`` in a process of its own,
    ready (its line read); stopped with ``stop_signal`` at the end.
    ``.port``, ``.proc``, and after the end ``.err``, its stderr."""
    proc = subprocess.Popen([sys.executable, "-m", "crane_cosim.cli", "serve", block, "--port", "0", *options],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    server = SimpleNamespace(proc=proc, port=None, err=None)
    try:
        line = proc.stdout.readline() if select.select([proc.stdout], [], [], 120)[0] else ""
        m = re.fullmatch(rf"serving {block} on udp://127\.0\.0\.1:(\d+)\n", line)
        assert m, (line, proc.poll())
        server.port = int(m[1])
        yield server
    finally:
        if proc.poll() is None:
            proc.send_signal(stop_signal)
        _, server.err = proc.communicate(timeout=HUNG)


class Relay:
    """Passes datagrams between a bridge and a served block.  It kills the
    server when request number ``kill_after + 1`` comes, so that the server
    dies mid-run at a known point whatever the machine's speed; and before
    passing on the answer to request number ``meddle_at`` it calls
    ``meddle(request, answer, bridge_address)``, which may send what it
    likes, from the relay's socket (the bridge's peer) or another."""

    def __init__(self, server, kill_after: int | None = None, meddle=None, meddle_at: int = 0):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.server, self.kill_after, self.passed = server, kill_after, 0
        self.meddle, self.meddle_at, self.last_request = meddle, meddle_at, None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        target, client = ("127.0.0.1", self.server.port), None
        while not self._stop.is_set():
            try:
                data, addr = self.sock.recvfrom(65536)
            except TimeoutError:
                continue
            if addr == target:
                if self.meddle is not None and self.passed == self.meddle_at:
                    self.meddle(self.last_request, data, client)
                self.sock.sendto(data, client)
            elif self.server.proc.poll() is None:
                client = addr
                if self.passed == self.kill_after:
                    self.server.proc.kill()
                    self.server.proc.wait()
                    continue
                self.passed += 1
                self.last_request = data
                self.sock.sendto(data, target)

    def close(self):
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


def one_sentence(err, *fragments):
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("crane-cosim: error: ") and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
