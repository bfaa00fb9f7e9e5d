"""DCP 1.0's PDUs (``bridge/dcp/pdu.py``): each type's length is DCPLib's
(its ``SIZE_HANDLING`` figures, read off its headers), every field
survives a round trip, a datagram of another length or an unknown type is
refused naming DCP's error, and a DAT payload packs each position in its
own data type."""
import struct

import pytest
from crane_cosim.bridge.dcp import pdu as P

# the length of each fixed-size PDU in DCPLib (include/core/dcp/model/pdu, SIZE_HANDLING)
DCPLIB_SIZES = {
    P.STC_REGISTER: 24, P.STC_DEREGISTER: 5, P.STC_PREPARE: 5, P.STC_CONFIGURE: 5, P.STC_INITIALIZE: 5,
    P.STC_RUN: 13, P.STC_DO_STEP: 9, P.STC_SEND_OUTPUTS: 5, P.STC_STOP: 5, P.STC_RESET: 5,
    P.CFG_TIME_RES: 12, P.CFG_STEPS: 10, P.CFG_INPUT: 17, P.CFG_OUTPUT: 16, P.CFG_CLEAR: 4,
    P.CFG_TARGET_NETWORK_INFORMATION: 13, P.CFG_SOURCE_NETWORK_INFORMATION: 13, P.CFG_TUNABLE_PARAMETER: 17,
    P.CFG_PARAM_NETWORK_INFORMATION: 13, P.CFG_LOGGING: 7, P.CFG_SCOPE: 7, P.INF_STATE: 4, P.INF_ERROR: 4,
    P.INF_LOG: 6, P.RSP_ACK: 4, P.RSP_NACK: 8, P.RSP_STATE_ACK: 5, P.RSP_ERROR_ACK: 6, P.NTF_STATE_CHANGED: 3}


def _fields(pdu_type):
    """A value for each field of ``pdu_type``'s layout, distinct per field."""
    names = P._LAYOUTS[pdu_type][1]
    codes = P._LAYOUTS[pdu_type][2]
    out, i = {}, 0
    for name, code in zip(names, codes.replace("16s", "s")):
        i += 1
        out[name] = bytes(range(i, i + 16)) if code == "s" else (i * 37) % (256 if code in "Bb" else 65536)
    return out


@pytest.mark.parametrize("pdu_type", sorted(DCPLIB_SIZES), ids=lambda t: P.TYPES[t])
def test_each_pdu_has_dcplibs_length_and_round_trips(pdu_type):
    fields = _fields(pdu_type)
    data = P.encode(pdu_type, **fields)
    assert len(data) == DCPLIB_SIZES[pdu_type]
    assert data[0] == pdu_type
    p = P.decode(data)
    assert (p.type, p.fields, p.payload) == (pdu_type, fields, b"")
    for wrong in (data[:-1], data + b"\0"):
        with pytest.raises(P.PduError, match=f"{P.TYPES[pdu_type]} of {len(wrong)} bytes") as exc:
            P.decode(wrong)
        assert P.error_name(exc.value.error) == "INVALID_LENGTH"


def test_the_fields_lie_where_dcplib_reads_them():
    """Offsets of DCPLib's getters: a register's uuid at 5, op mode at 21;
    a CFG_input's target value reference at 8 and source type at 16; the
    port at 7 and the IPv4 address at 9 of a network information, the
    address's first byte the most significant; a do-step's steps at 5."""
    reg = P.encode(P.STC_REGISTER, seq=0x0102, receiver=3, state=P.ALIVE, uuid=bytes(range(16)), op_mode=P.NRT,
                   major=1, minor=0)
    assert reg[1:3] == b"\x02\x01" and reg[3] == 3 and reg[5:21] == bytes(range(16)) and reg[21:24] == b"\x02\x01\x00"
    cfg = P.encode(P.CFG_INPUT, seq=1, receiver=1, data_id=7, pos=2, vr=0x1122334455667788, source_type=9)
    assert struct.unpack_from("<HHQB", cfg, 4) == (7, 2, 0x1122334455667788, 9)
    net = P.encode(P.CFG_SOURCE_NETWORK_INFORMATION, seq=1, receiver=1, data_id=1, protocol=P.UDP_IPV4, port=8080,
                   ip=P.ip_to_int("127.0.0.1"))
    assert struct.unpack_from("<HI", net, 7) == (8080, 0x7F000001)
    assert P.int_to_ip(P.ip_to_int("192.168.10.3")) == "192.168.10.3"
    step = P.encode(P.STC_DO_STEP, seq=1, receiver=1, state=P.RUNNING, steps=250)
    assert struct.unpack_from("<I", step, 5) == (250,)


def test_data_pdus_carry_their_payload_in_each_positions_type():
    types = [P.DATA_TYPE_CODES[n] for n in ("float64", "uint8", "int32", "float32")]
    payload = P.pack_values([1.25, 1.0, -7.0, 0.5], types)
    assert len(payload) == 8 + 1 + 4 + 4
    data = P.encode(P.DAT_INPUT_OUTPUT, payload, seq=9, data_id=2)
    p = P.decode(data)
    assert (p.seq, p.data_id) == (9, 2)
    assert P.unpack_values(p.payload, types) == [1.25, 1, -7, 0.5]
    with pytest.raises(P.PduError, match="payload of 16 bytes, where its positions take 17") as exc:
        P.unpack_values(p.payload[:-1], types)
    assert P.error_name(exc.value.error) == "INVALID_LENGTH"


def test_an_unknown_type_or_an_empty_datagram_is_refused_by_name():
    with pytest.raises(P.PduError, match="0x42 is no PDU of DCP 1.0"):
        P.decode(b"\x42\x00\x00\x00")
    with pytest.raises(P.PduError, match="empty datagram"):
        P.decode(b"")
    assert P.state_name(P.SENDING_D) == "SENDING_D" and P.error_name(0x2013) == "INVALID_SEQUENCE_ID"


@pytest.mark.parametrize("value,data_type,said", [
    (255.4, "uint8", None), (255.5, "uint8", "255.5 is outside a uint8's range, 0 to 255"),
    (-0.6, "uint16", "-0.6 is outside a uint16's range, 0 to 65535"), (-128.0, "int8", None),
    (2.0 ** 63, "int64", "9.223372036854776e+18 is outside an int64's range"), (float("nan"), "int32", "nan is not a "
                                                                                  "finite number, which an int32"),
    (3.5e38, "float32", "3.5e+38 is beyond a float32's range"), (float("inf"), "float32", "inf is not a finite"),
    (float("inf"), "float64", None), (3.4e38, "float32", None),
])
def test_a_value_its_data_type_cannot_hold_is_named(value, data_type, said):
    """What a DAT payload could not carry as it is (struct would refuse it,
    or round it into another number) is named before it is packed."""
    found = P.unfit(value, P.DATA_TYPE_CODES[data_type])
    assert found == said if said is None else found.startswith(said), found
