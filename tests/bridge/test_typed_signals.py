"""Integer and Boolean signals over the UDP bridge: agreed with their types
in the hello, carried exactly, presented by the bridge FMU with their FMI
types, refused by name when an answer breaks them, and checked by
``peer-check``.  The block behind the bridge is the test-only ``Brake``
(``tests/brake_block.py``: a Boolean and an Integer input, a Boolean and
two Integer outputs, an Integer state)."""
import json
import xml.etree.ElementTree as ET
import zipfile

import numpy as np
import pytest
from brake_block import Brake
from bridge_helpers import serving
from crane_cosim.blocks.block import Variable
from crane_cosim.bridge.packet import mistyped, signals_digest
from crane_cosim.bridge.peer_check import check_peer
from crane_cosim.bridge.serve import Peer
from crane_cosim.bridge.udp_bridge import BridgeError, bridge_block, bridge_from_spec, bridge_of
from crane_cosim.cli import main
from crane_cosim.fmus.build import build_bridge_fmu
from crane_cosim.runtime.loading import open_instance

BrakeBridge = bridge_of(Brake)
N_OUT = len(Brake.outputs)


def test_the_digest_names_each_signals_type():
    _, text = BrakeBridge.signals()
    assert text == ("input q [rad] Real\ninput brake [1] Boolean\ninput gear [1] Integer\n"
                    "output tau [N.m] Real\noutput engaged [1] Boolean\noutput code [1] Integer\n"
                    "output count [1] Integer\n")
    as_reals = [Variable(v.name, v.unit, 0.0, "") for v in Brake.inputs]
    assert signals_digest(as_reals, Brake.outputs)[0] != BrakeBridge.signals()[0]


@pytest.mark.parametrize("values,said", [
    ([0.5, 1.0, 2.0, 0.0], None),
    ([0.5, 0.5, 2.0, 0.0], "engaged = 0.5, which is not a Boolean (0 or 1)"),
    ([0.5, 1.0, 2.5, 0.0], "code = 2.5, which is not an Integer (a whole number from -2**31 to 2**31 - 1)"),
    ([0.5, 1.0, 2.0, 2.0 ** 31], "count = 2147483648.0, which is not an Integer"),
    ([0.5, 1.0, -2.0 ** 31, np.nan], "count = nan, which is not an Integer"),
])
def test_a_value_its_signal_cannot_hold_is_named(values, said):
    found = mistyped(np.array(values), Brake.outputs)
    assert found == said if said is None else found.startswith(said)


def test_the_spec_keeps_the_types_and_an_older_spec_is_all_reals():
    spec = json.loads(json.dumps(BrakeBridge.bridge_spec))
    again = bridge_from_spec(spec)
    assert [(v.name, v.type, v.start) for v in again.inputs] == [("q", "Real", 0.0), ("brake", "Boolean", False),
                                                                 ("gear", "Integer", 1)]
    assert again.signals() == BrakeBridge.signals()
    safe = {p.name: (p.type, p.start) for p in again.parameters if p.name.startswith("safe_")}
    assert safe == {"safe_tau": ("Real", 0.0), "safe_engaged": ("Boolean", False), "safe_code": ("Integer", 2),
                    "safe_count": ("Integer", 0)}
    for port in spec["inputs"] + spec["outputs"]:
        del port["type"]
    assert {v.type for v in bridge_from_spec(spec).inputs + bridge_from_spec(spec).outputs} == {"Real"}


def test_a_string_signal_is_refused():
    with pytest.raises(ValueError, match="Rig: input name is of type String: a signal is one of Real, Integer, "
                                         "Boolean"):
        bridge_block("Rig", (Variable("name", "", "a", "", type="String"),), (Variable("y", "1", 0.0, ""),))


def _steps(b, rng, n=50):
    """Drive the bridge ``b`` and a Brake of its own through ``n`` steps of
    random typed inputs; every output of the bridge is the Brake's."""
    brake = Brake()
    x, xb = brake.initial_state(), np.zeros(0)
    t, h = 0.0, 1.0 / 1024
    for _ in range(n):
        u = np.array([rng.normal(), rng.integers(2), rng.integers(-5, 6)], dtype=float)
        assert np.array_equal(b.output(t, xb, u)[:N_OUT], brake.output(t, x, u))
        xb, x = b.advance(t, xb, u, h), brake.advance(t, x, u, h)
        t += h
        assert np.array_equal(b.output(t, xb, u)[:N_OUT], brake.output(t, x, u))
    return x


def test_lock_step_carries_typed_signals_exactly(rng):
    with serving(Brake()) as server:
        b = BrakeBridge(port=float(server.port))
        b.prepare()
        try:
            x = _steps(b, rng)
        finally:
            b.close()
    assert x[0] > 10  # the brake was applied in many steps, counted by the peer's Integer state


class BrokenBrake(Peer):
    """A peer whose answers say the brake is half engaged."""

    def answer(self, data, addr=("", 0), now=None):
        out = super().answer(data, addr, now)
        if out is not None and len(self.cached) == N_OUT:
            p = self.codec.unpack(data, self.n_inputs)
            if p.seq == self.last_seq:
                return out[0], self.codec.answer_to(p, np.where(np.arange(N_OUT) == 1, 0.5, self.cached))
        return out


def test_an_answer_that_breaks_its_signals_types_fails_the_step_by_name():
    with serving(Brake(), peer_class=BrokenBrake) as server:
        b = BrakeBridge(port=float(server.port))
        b.prepare()
        try:
            with pytest.raises(BridgeError) as failed:
                b.output(0.0, np.zeros(0), np.array([0.1, 1.0, 3.0]))
        finally:
            b.close()
    assert str(failed.value) == (f"BrakeBridge: the peer at udp://127.0.0.1:{server.port} answered the request for "
                                 f"t = 0 s with engaged = 0.5, which is not a Boolean (0 or 1): the signals it "
                                 f"agreed to have these types")


def test_peer_check_checks_the_answers_types(capsys):
    with serving(Brake()) as server:
        checks = check_peer("127.0.0.1", server.port, Brake.inputs, Brake.outputs, wait=0.3)
    typed = [c for c in checks if c.name == "the answer's values are of the signals' types"]
    assert len(typed) == 1 and typed[0].passed and all(c.passed for c in checks)
    with serving(Brake(), peer_class=BrokenBrake) as server:
        checks = check_peer("127.0.0.1", server.port, Brake.inputs, Brake.outputs, wait=0.3)
    failed = [(c.name, c.seen) for c in checks if not c.passed]
    assert failed == [("the answer's values are of the signals' types",
                       "engaged = 0.5, which is not a Boolean (0 or 1)")]


@pytest.fixture(scope="module")
def brake_bridge_fmu(tmp_path_factory):
    return build_bridge_fmu(BrakeBridge, tmp_path_factory.mktemp("brake_bridge"))


def test_the_bridge_fmu_presents_the_signals_with_their_types(brake_bridge_fmu, tmp_path):
    with zipfile.ZipFile(brake_bridge_fmu) as z:
        md = ET.fromstring(z.read("modelDescription.xml"))
    declared = {sv.get("name"): (sv.get("causality"), sv.get("variability"), sv[0].tag)
                for sv in md.find("ModelVariables")}
    assert [declared[n] for n in ("brake", "gear", "engaged", "count", "safe_engaged", "safe_code")] == [
        ("input", "discrete", "Boolean"), ("input", "discrete", "Integer"), ("output", "discrete", "Boolean"),
        ("output", "discrete", "Integer"), ("parameter", "fixed", "Boolean"), ("parameter", "fixed", "Integer")]
    with serving(Brake()) as server:
        inst = open_instance(brake_bridge_fmu, tmp_path, "rig", values={"port": float(server.port)})
        inst.initialize(0.0)
        s, vr = inst._slave, {v.name: v.value_reference for v in inst.model.variables.values()}
        s.setReal([vr["q"]], [0.25])
        s.setBoolean([vr["brake"]], [True])
        s.setInteger([vr["gear"]], [4])
        # the master's initial exchange: the first request, at t = 0, starts the peer's run
        assert s.getInteger([vr["code"], vr["count"]]) == [9, 0]
        for k in range(3):
            inst.do_step(k * 0.01, 0.01)
        assert s.getBoolean([vr["engaged"]]) == [True]
        assert s.getInteger([vr["code"], vr["count"]]) == [9, 3]
        s.setBoolean([vr["brake"]], [False])
        assert (s.getReal([vr["tau"]]), s.getInteger([vr["code"]])) == ([-25.0], [8])
        assert not inst.errors
        inst.free()


def test_build_bridge_takes_the_signals_types(tmp_path, capsys):
    assert main(["build-bridge", "--name", "Rig", "--inputs", "q:rad,brake:Boolean,gear:1:Integer",
                 "--outputs", "tau:N.m", "--out", str(tmp_path)]) == 0
    with zipfile.ZipFile(tmp_path / "Rig.fmu") as z:
        md = ET.fromstring(z.read("modelDescription.xml"))
    types = {sv.get("name"): sv[0].tag for sv in md.find("ModelVariables")}
    assert [types[n] for n in ("q", "brake", "gear", "tau")] == ["Real", "Boolean", "Integer", "Real"]
    capsys.readouterr()
    assert main(["build-bridge", "--name", "Rig", "--inputs", "q:rad:m:Integer", "--outputs", "tau",
                 "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip().endswith(
        "--inputs: 'q:rad:m:Integer' is not NAME[:UNIT][:TYPE]: the type is one of Real, Integer, Boolean")
