"""The peer library in C (``bridge/peer/crane_peer.h``) and its example
(``bridge/peer/pd_peer.c``), compiled and run against bridges: the law's
answers to the last bit in either byte order, with no key and with keys
of 32 and of 100 bytes (longer than SHA-256's block: hashed first, as RFC
2104 says), a bridge of other signals refused, a bridge without the key
never answered; every rule of ``crane-cosim peer-check`` passed."""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from bridge_helpers import free_port, wait_bound
from crane_cosim.blocks.controller import Controller
from crane_cosim.bridge.link import BridgeError
from crane_cosim.bridge.peer_check import check_peer
from crane_cosim.bridge.udp_bridge import bridge_block, bridge_of
from crane_cosim.fmus.native import find_compiler

PEER = Path(__file__).resolve().parents[2] / "bridge" / "peer"
ControllerBridge = bridge_of(Controller)


@pytest.fixture(scope="module")
def pd_peer(tmp_path_factory):
    """The example, compiled with every warning an error."""
    cc = find_compiler()
    assert cc, "no C compiler (gcc or clang) on this machine"
    out = tmp_path_factory.mktemp("peer") / "pd_peer"
    subprocess.run([*cc, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-O2",
                    f"-I{PEER}", "-o", str(out), str(PEER / "pd_peer.c")], check=True, capture_output=True)
    return out


def _running(program, key_file=None):
    port = free_port()
    proc = subprocess.Popen([str(program), str(port), *([str(key_file)] if key_file else [])])
    wait_bound(port)
    return port, proc


def _law_run(cls, port, rng, steps=40, **params):
    """``steps`` lock-step steps of a bridge of ``cls``: each output against the PD law."""
    b = cls(port=float(port), **params)
    b.prepare()
    x = np.zeros(0)
    try:
        for k in range(steps):
            u = rng.normal(size=6)
            b.advance(k / 1024, x, u, 1 / 1024)
            y = b.output((k + 1) / 1024, x, u)
            assert np.array_equal(y[:6], np.concatenate([-3e4 * u[:3] - 8e3 * u[3:], np.zeros(3)])), k
        assert (b.answers, b.unasked, b.malformed, b.forged) == (steps, 0, 0, 0)
    finally:
        b.close()


@pytest.mark.parametrize("key", [None, b"k" * 32, bytes(range(1, 101))], ids=["no key", "32 bytes", "100 bytes"])
def test_the_c_library_serves_bridges_in_either_byte_order(pd_peer, tmp_path, rng, key, monkeypatch):
    monkeypatch.delenv("CRANE_COSIM_BRIDGE_KEY", raising=False)
    key_file = None
    if key is not None:
        key_file = tmp_path / "rig.key"
        key = key.replace(b"\n", b"n").replace(b"\r", b"r").replace(b" ", b"s")  # none at its ends in the file
        key_file.write_bytes(key + b"\n")
    port, proc = _running(pd_peer, key_file)
    try:
        for order in ("little", "big"):
            _law_run(ControllerBridge, port, rng, byte_order=order, key_file=str(key_file or ""))
        other = bridge_block("Swapped", Controller.inputs[::-1], Controller.outputs)(
            port=float(port), key_file=str(key_file or ""))
        other.prepare()
        with pytest.raises(BridgeError, match="refused the run: its signals are not this bridge's"):
            other.output(0.0, np.zeros(0), np.zeros(6))
        other.close()
        for big in (False, True):  # and every rule of peer-check
            checks = check_peer("127.0.0.1", port, Controller.inputs, Controller.outputs, key, big, wait=0.2)
            assert len(checks) == 11 + (key is not None)
            assert all(c.passed for c in checks), [(c.name, c.seen) for c in checks if not c.passed]
        if key is not None:  # a bridge without the key: never answered
            stranger = ControllerBridge(port=float(port), timeout=0.2)
            stranger.prepare()
            with pytest.raises(BridgeError, match="never answered"):
                stranger.output(0.0, np.zeros(0), np.zeros(6))
            stranger.close()
    finally:
        proc.kill()
        proc.wait()
