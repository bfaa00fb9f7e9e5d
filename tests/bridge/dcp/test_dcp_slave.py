"""One of our blocks as a DCP slave (``bridge/dcp/slave.py``,
``slave_server.py``) and a DCP bridge driving it (``master.py``,
``dcp_bridge.py``): in lock-step the bridge's outputs are the block's own
to the last bit, before the run and in every step; the slave refuses what
DCPLib's slave refuses, naming DCP's error; a parameter set by the master
is the block's; Integer and Boolean ports go by DCP's integer types; in
soft real time it steps on its clock and sends each
stream every ``CFG_steps`` steps."""
import socket
import threading
import time
from contextlib import contextmanager

import numpy as np
import pytest
from brake_block import Brake
from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.controller import Controller
from crane_cosim.bridge.dcp import pdu as P
from crane_cosim.bridge.dcp.dcp_bridge import dcp_bridge_of
from crane_cosim.bridge.dcp.description import description_of
from crane_cosim.bridge.dcp.master import DcpError
from crane_cosim.bridge.dcp.slave import Slave
from crane_cosim.bridge.dcp.slave_server import SlaveServer

MASTER = ("127.0.0.1", 40000)


@contextmanager
def served(block_cls, **values):
    server = SlaveServer(block_cls, "127.0.0.1", 0, values)
    stop = threading.Event()
    thread = threading.Thread(target=server.run, args=(stop.is_set, 0.02), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stop.set()
        thread.join()
        server.close()


def _deregistered(server) -> None:
    """Wait (1 s at most) for the served slave to be back in ALIVE."""
    for _ in range(100):
        if server.slave.state == P.ALIVE:
            break
        time.sleep(0.01)
    assert server.slave.state == P.ALIVE


def test_a_bridge_in_lock_step_gives_the_blocks_outputs_to_the_last_bit(rng):
    with served(Controller) as server:
        bridge = dcp_bridge_of(server.description, "ControllerDcp")()
        bridge.prepare()
        block = Controller()
        x = block.initial_state()
        try:
            for u in (rng.normal(size=6), rng.normal(size=6)):  # the initial exchange, asked twice
                assert np.array_equal(bridge.output(0.0, np.zeros(0), u)[:6], block.output(0.0, x, u))
            t, h = 0.0, 2e-3
            for k in range(150):  # through the first set-point move's start (1 s) and beyond
                u = rng.normal(size=6) * [0.1, 0.1, 0.1, 1, 1, 1]
                bridge.advance(t, np.zeros(0), u, h)
                x = block.advance(t, x, u, h)
                t = (k + 1) * h
                y = bridge.output(t, np.zeros(0), u)
                assert np.array_equal(y[:6], block.output(t, x, u)), k
            assert list(y[6:8]) == [150, 0]  # dcp_steps, dcp_missed
            assert 0 < y[8] < bridge.p.timeout
            with pytest.raises(ParameterError, match=r"a step of 0.0015 s is not a whole number of the DCP "
                                                     r"slave's time resolution, 0.001 s"):
                bridge.advance(t, np.zeros(0), u, 1.5e-3)
        finally:
            bridge.close()
        _deregistered(server)  # stopped and deregistered by the bridge's close
        assert server.stats.refused == 0 and server.stats.steps == 300


def test_integer_and_boolean_ports_go_by_their_dcp_types_to_the_last_bit(rng):
    """A Boolean port is a uint8 and an Integer an int32 in the slave's
    description; the bridge presents both as Integer ports (DCP 1.0 has no
    boolean), carries them exactly, and refuses an input its data type
    cannot hold, by name."""
    with served(Brake) as server:
        d = server.description
        assert [(v.name, v.type) for v in d.variables if v.causality != "parameter"] == [
            ("tau", "float64"), ("engaged", "uint8"), ("code", "int32"), ("count", "int32"), ("q", "float64"),
            ("brake", "uint8"), ("gear", "int32")]
        Bridge = dcp_bridge_of(d, "BrakeDcp")
        assert [(v.name, v.type) for v in Bridge.inputs] == [("q", "Real"), ("brake", "Integer"), ("gear", "Integer")]
        bridge, block = Bridge(), Brake()
        bridge.prepare()
        x = block.initial_state()
        try:
            u = np.array([0.3, 1.0, -7.0])
            assert np.array_equal(bridge.output(0.0, np.zeros(0), u)[:4], block.output(0.0, x, u))
            t, h = 0.0, 1e-3
            for k in range(40):
                u = np.array([rng.normal(), rng.integers(2), rng.integers(-2**30, 2**30)], dtype=float)
                bridge.advance(t, np.zeros(0), u, h)
                x = block.advance(t, x, u, h)
                t = (k + 1) * h
                assert np.array_equal(bridge.output(t, np.zeros(0), u)[:4], block.output(t, x, u)), k
            with pytest.raises(DcpError, match=r"BrakeDcp: input brake = 256.0 is outside a uint8's range, 0 to 255 "
                                               r"\(its data type in the slave description\)"):
                bridge.advance(t, np.zeros(0), np.array([0.0, 256.0, 0.0]), h)
        finally:
            bridge.close()


def test_a_block_that_fails_in_a_step_takes_the_slave_through_its_error_states(rng):
    """An Integer output its int32 cannot hold (code = 2 gear + brake with
    gear 2**30): the slave says why, goes to ERROR_HANDLING then
    ERROR_RESOLVED, the master names the state, and the bridge's close
    deregisters the slave, free for the next master."""
    notices = []
    with served(Brake) as server:
        server.on_notice = notices.append
        bridge = dcp_bridge_of(server.description, "BrakeDcp")()
        bridge.prepare()
        try:
            bridge.output(0.0, np.zeros(0), np.array([0.0, 0.0, 5.0]))
            with pytest.raises(DcpError, match=r"BrakeDcp: the DCP slave at udp://127.0.0.1:\d+ went to "
                                               r"ERROR_HANDLING during STC_send_outputs: it failed \(its own log "
                                               r"says why\)"):
                bridge.advance(0.0, np.zeros(0), np.array([0.0, 0.0, 2.0 ** 30]), 1e-3)
        finally:
            bridge.close()
        _deregistered(server)
        assert notices == [("Brake failed at t = 0.001 s: output code = 2147483648.0 is outside an "
                             "int32's range, -2147483648 to 2147483647")]


def test_a_slave_that_is_not_there_is_named():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        d = description_of(Controller, "127.0.0.1", port)
        bridge = dcp_bridge_of(d, "Nobody")(timeout=0.2)
        with pytest.raises(DcpError, match=rf"Nobody: the DCP slave at udp://127.0.0.1:{port} did not answer its "
                                           r"registration \(STC_register\) within 0.2 s"):
            bridge.prepare()
        bridge.close()


# -- the state machine, PDU by PDU ----------------------------------------------------------------------------
class _Master:
    """Sends PDUs to a socket-free :class:`Slave` and reads its replies."""

    def __init__(self, slave, mode=P.NRT):
        self.slave, self.seq, self.now = slave, 100, 0.0  # now: the monotonic clock the PDUs come at [s]
        self.replies = self.send(P.STC_REGISTER, state=P.ALIVE, uuid=slave.d.uuid_bytes, op_mode=mode, major=1,
                                 minor=0, seq=100)

    def send(self, pdu_type, payload=b"", seq=None, **fields):
        if seq is None:
            self.seq += 1
            seq = self.seq
        out = self.slave.handle(P.encode(pdu_type, payload, seq=seq, receiver=1, **fields), MASTER, self.now)
        return [P.decode(data) for data, _ in out]

    def error(self, pdu_type, **fields):
        (reply,) = self.send(pdu_type, **fields)
        assert reply.type == P.RSP_NACK, reply
        return P.error_name(reply.error)

    def configure(self, data_port, outputs=True):
        d = self.slave.d
        ins, outs = d.of("input"), d.of("output")
        self.send(P.CFG_TIME_RES, numerator=1, denominator=100)
        for i, v in enumerate(ins):
            self.send(P.CFG_INPUT, data_id=1, pos=i, vr=v.vr, source_type=P.FLOAT64)
        self.send(P.CFG_SCOPE, data_id=1, scope=0)
        self.send(P.CFG_SOURCE_NETWORK_INFORMATION, data_id=1, protocol=0, port=data_port, ip=0x7F000001)
        if outputs:
            for i, v in enumerate(outs):
                self.send(P.CFG_OUTPUT, data_id=2, pos=i, vr=v.vr)
            self.send(P.CFG_SCOPE, data_id=2, scope=0)
            self.send(P.CFG_STEPS, data_id=2, steps=2)
            self.send(P.CFG_TARGET_NETWORK_INFORMATION, data_id=2, protocol=0, port=MASTER[1], ip=0x7F000001)


def _slave():
    return Slave(Controller, description_of(Controller, "127.0.0.1", 5000))


def test_registration_is_refused_for_another_uuid_mode_or_version():
    s = _slave()
    uuid = s.d.uuid_bytes
    for fields, error in ((dict(uuid=bytes(16), op_mode=P.NRT, major=1, minor=0), "INVALID_UUID"),
                          (dict(uuid=uuid, op_mode=P.HRT, major=1, minor=0), "INVALID_OP_MODE"),
                          (dict(uuid=uuid, op_mode=P.NRT, major=2, minor=0), "INVALID_MAJOR_VERSION"),
                          (dict(uuid=uuid, op_mode=P.NRT, major=1, minor=1), "INVALID_MINOR_VERSION")):
        (reply,) = [P.decode(d) for d, _ in s.handle(P.encode(P.STC_REGISTER, seq=1, receiver=1, state=P.ALIVE,
                                                               **fields), MASTER, 0.0)]
        assert (reply.type, P.error_name(reply.error)) == (P.RSP_NACK, error)
    m = _Master(s)
    assert [(r.type, r.fields.get("state")) for r in m.replies] == [(P.RSP_ACK, None),
                                                                   (P.NTF_STATE_CHANGED, P.CONFIGURATION)]


def test_the_slave_refuses_what_dcplibs_slave_refuses():
    s = _slave()
    m = _Master(s)
    out_vr = s.d.of("output")[0].vr
    assert m.error(P.CFG_INPUT, data_id=1, pos=0, vr=out_vr, source_type=P.FLOAT64) == "INVALID_VALUE_REFERENCE"
    assert m.error(P.CFG_INPUT, data_id=1, pos=0, vr=s.d.of("input")[0].vr,
                   source_type=P.DATA_TYPE_CODES["uint64"]) == "INVALID_SOURCE_DATA_TYPE"
    assert m.error(P.CFG_SOURCE_NETWORK_INFORMATION, data_id=1, protocol=0, port=80,
                   ip=0x7F000001) == "INVALID_NETWORK_INFORMATION"
    assert m.error(P.STC_INITIALIZE, state=P.CONFIGURATION) == "PROTOCOL_ERROR_PDU_NOT_ALLOWED_IN_THIS_STATE"
    assert m.error(P.STC_PREPARE, state=P.CONFIGURED) == "INVALID_STATE_ID"
    (reply,) = m.send(P.CFG_CLEAR, seq=m.seq + 5)  # control PDUs lost on the way
    # as DCPLib's slave: the count follows the PDU received, the next expected after it
    assert (reply.type, P.error_name(reply.error), reply.exp_seq) == (P.RSP_NACK, "INVALID_SEQUENCE_ID", m.seq + 6)
    m.seq += 5
    m.send(P.CFG_INPUT, data_id=1, pos=1, vr=s.d.of("input")[1].vr, source_type=P.FLOAT64)  # position 0 missing
    assert m.error(P.STC_PREPARE, state=P.CONFIGURATION) == "INCOMPLETE_CONFIG_GAP_INPUT_POS"
    m.send(P.CFG_CLEAR)
    m.configure(5000)
    m.send(P.CFG_CLEAR)
    m.configure(5000, outputs=False)
    m.send(P.CFG_OUTPUT, data_id=2, pos=0, vr=out_vr)
    assert m.error(P.STC_PREPARE, state=P.CONFIGURATION) == "INCOMPLETE_CONFIG_NW_INFO_OUTPUT"
    assert s.refused == 8


def test_a_parameter_set_by_the_master_is_the_blocks():
    s = _slave()
    m = _Master(s)
    m.configure(5000)
    kp = next(v for v in s.d.of("parameter") if v.name == "kP_slew")
    m.send(P.CFG_PARAMETER, P.pack_values([5e4], [P.FLOAT64]), vr=kp.vr, source_type=P.FLOAT64)
    for pdu_type, state in ((P.STC_PREPARE, P.CONFIGURATION), (P.STC_CONFIGURE, P.PREPARED)):
        m.send(pdu_type, state=state)
    u = [0.1, 0, 0, 0, 0, 0]
    s.handle(P.encode(P.DAT_INPUT_OUTPUT, P.pack_values(u, [P.FLOAT64] * 6), seq=1, data_id=1), MASTER, 0.0)
    m.send(P.STC_INITIALIZE, state=P.CONFIGURED)
    sent = m.send(P.STC_SEND_OUTPUTS, state=P.INITIALIZED)
    (data,) = [r for r in sent if r.type == P.DAT_INPUT_OUTPUT]
    tau_slew = P.unpack_values(data.payload, [P.FLOAT64] * 6)[0]
    assert tau_slew == Controller(kP_slew=5e4).output(0.0, np.zeros(0), np.array(u))[0] == -5e4 * 0.1
    assert [r.state for r in sent if r.type == P.NTF_STATE_CHANGED] == [P.SENDING_I, P.CONFIGURED]


def test_in_soft_real_time_it_steps_on_its_clock_and_sends_every_cfg_steps_steps():
    s = _slave()
    m = _Master(s, P.SRT)
    m.configure(5000)
    for pdu_type, state in ((P.STC_PREPARE, P.CONFIGURATION), (P.STC_CONFIGURE, P.PREPARED)):
        m.send(pdu_type, state=state)
    assert m.error(P.STC_DO_STEP, state=P.CONFIGURED, steps=1) == "PROTOCOL_ERROR_PDU_NOT_ALLOWED_IN_THIS_STATE"
    start = m.now = 50.0
    replies = m.send(P.STC_RUN, state=P.CONFIGURED, start_time=0)
    assert [r.state for r in replies if r.type == P.NTF_STATE_CHANGED] == [P.SYNCHRONIZING, P.SYNCHRONIZED]
    assert m.error(P.STC_DO_STEP, state=P.SYNCHRONIZED, steps=1) == "NOT_SUPPORTED_PDU"
    assert s.next_due() == start  # start time 0: at once
    sent = [P.decode(d) for d, _ in s.tick(start + 0.105)]  # the steps due at 0, 0.01, ..., 0.10 s: 11
    assert s.steps_done == 11 and s.t == pytest.approx(0.11)
    assert [p.seq for p in sent] == [1, 2, 3, 4, 5]  # the outputs every 2 steps (CFG_steps)
    assert s.late == 10  # all but the last were done more than a resolution after their time
    assert s.tick(start + 0.109) == [] and s.next_due() == pytest.approx(start + 0.11)
