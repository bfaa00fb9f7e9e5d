"""The protocol data units (PDUs) of DCP 1.0 (Modelica Association, 2019,
Distributed Co-Simulation Protocol, chapter 5), as sent over UDP/IPv4: one
PDU per datagram, little-endian, its type identifier first.

Each layout below is the standard's and DCPLib's (the reference
implementation: ``include/core/dcp/model/pdu``); :func:`encode` makes a
PDU from its fields, :func:`decode` reads one, refusing by name a type it
does not know and a length that is not its type's.  A DAT PDU's payload is
the values of its positions one after another, each in the data type its
sender declares (:func:`pack_values`, :func:`unpack_values`).  This module
imports the standard library only.
"""
from __future__ import annotations

import math
import struct
from typing import NamedTuple

__all__ = ["PduError", "Pdu", "encode", "decode", "TYPES", "STATES", "ERRORS", "DATA_TYPES", "pack_values",
           "unfit", "unpack_values", "ip_to_int", "int_to_ip", "state_name", "error_name"]

# -- type identifiers (DCP 1.0, Table 5.1) -------------------------------------------------------
STC_REGISTER, STC_DEREGISTER, STC_PREPARE, STC_CONFIGURE, STC_INITIALIZE = 0x01, 0x02, 0x03, 0x04, 0x05
STC_RUN, STC_DO_STEP, STC_SEND_OUTPUTS, STC_STOP, STC_RESET = 0x06, 0x07, 0x08, 0x09, 0x0A
CFG_TIME_RES, CFG_STEPS, CFG_INPUT, CFG_OUTPUT, CFG_CLEAR = 0x20, 0x21, 0x22, 0x23, 0x24
CFG_TARGET_NETWORK_INFORMATION, CFG_SOURCE_NETWORK_INFORMATION = 0x25, 0x26
CFG_PARAMETER, CFG_TUNABLE_PARAMETER, CFG_PARAM_NETWORK_INFORMATION, CFG_LOGGING, CFG_SCOPE = (
    0x27, 0x28, 0x29, 0x2A, 0x2B)
INF_STATE, INF_ERROR, INF_LOG = 0x80, 0x81, 0x82
RSP_ACK, RSP_NACK, RSP_STATE_ACK, RSP_ERROR_ACK, RSP_LOG_ACK = 0xB0, 0xB1, 0xB2, 0xB3, 0xB4
NTF_STATE_CHANGED, NTF_LOG = 0xE0, 0xE1
DAT_INPUT_OUTPUT, DAT_PARAMETER = 0xF0, 0xF1

_STC = ("seq", "receiver", "state")
_NET = ("seq", "receiver", "data_id", "protocol", "port", "ip")
# type -> (name, fields after the type identifier, their struct codes, whether a payload of any length follows)
_LAYOUTS = {
    STC_REGISTER: ("STC_register", _STC + ("uuid", "op_mode", "major", "minor"), "HBB16sBBB", False),
    STC_DEREGISTER: ("STC_deregister", _STC, "HBB", False),
    STC_PREPARE: ("STC_prepare", _STC, "HBB", False),
    STC_CONFIGURE: ("STC_configure", _STC, "HBB", False),
    STC_INITIALIZE: ("STC_initialize", _STC, "HBB", False),
    STC_RUN: ("STC_run", _STC + ("start_time",), "HBBq", False),
    STC_DO_STEP: ("STC_do_step", _STC + ("steps",), "HBBI", False),
    STC_SEND_OUTPUTS: ("STC_send_outputs", _STC, "HBB", False),
    STC_STOP: ("STC_stop", _STC, "HBB", False),
    STC_RESET: ("STC_reset", _STC, "HBB", False),
    CFG_TIME_RES: ("CFG_time_res", ("seq", "receiver", "numerator", "denominator"), "HBII", False),
    CFG_STEPS: ("CFG_steps", ("seq", "receiver", "steps", "data_id"), "HBIH", False),
    CFG_INPUT: ("CFG_input", ("seq", "receiver", "data_id", "pos", "vr", "source_type"), "HBHHQB", False),
    CFG_OUTPUT: ("CFG_output", ("seq", "receiver", "data_id", "pos", "vr"), "HBHHQ", False),
    CFG_CLEAR: ("CFG_clear", ("seq", "receiver"), "HB", False),
    CFG_TARGET_NETWORK_INFORMATION: ("CFG_target_network_information", _NET, "HBHBHI", False),
    CFG_SOURCE_NETWORK_INFORMATION: ("CFG_source_network_information", _NET, "HBHBHI", False),
    CFG_PARAMETER: ("CFG_parameter", ("seq", "receiver", "vr", "source_type"), "HBQB", True),
    CFG_TUNABLE_PARAMETER: ("CFG_tunable_parameter", ("seq", "receiver", "param_id", "pos", "vr", "source_type"),
                            "HBHHQB", False),
    CFG_PARAM_NETWORK_INFORMATION: ("CFG_param_network_information",
                                    ("seq", "receiver", "param_id", "protocol", "port", "ip"), "HBHBHI", False),
    CFG_LOGGING: ("CFG_logging", ("seq", "receiver", "category", "level", "mode"), "HBBBB", False),
    CFG_SCOPE: ("CFG_scope", ("seq", "receiver", "data_id", "scope"), "HBHB", False),
    INF_STATE: ("INF_state", ("seq", "receiver"), "HB", False),
    INF_ERROR: ("INF_error", ("seq", "receiver"), "HB", False),
    INF_LOG: ("INF_log", ("seq", "receiver", "category", "max_num"), "HBBB", False),
    RSP_ACK: ("RSP_ack", ("resp_seq", "sender"), "HB", False),
    RSP_NACK: ("RSP_nack", ("resp_seq", "sender", "exp_seq", "error"), "HBHH", False),
    RSP_STATE_ACK: ("RSP_state_ack", ("resp_seq", "sender", "state"), "HBB", False),
    RSP_ERROR_ACK: ("RSP_error_ack", ("resp_seq", "sender", "error"), "HBH", False),
    RSP_LOG_ACK: ("RSP_log_ack", ("resp_seq", "sender"), "HB", True),
    NTF_STATE_CHANGED: ("NTF_state_changed", ("sender", "state"), "BB", False),
    NTF_LOG: ("NTF_log", ("sender", "time", "template_id"), "BQB", True),
    DAT_INPUT_OUTPUT: ("DAT_input_output", ("seq", "data_id"), "HH", True),
    DAT_PARAMETER: ("DAT_parameter", ("seq", "param_id"), "HH", True),
}
_STRUCTS = {t: struct.Struct("<B" + codes) for t, (_, _, codes, _) in _LAYOUTS.items()}
TYPES = {t: layout[0] for t, layout in _LAYOUTS.items()}

# -- the slave's states (Table 4.1) --------------------------------------------------------------
(ALIVE, CONFIGURATION, PREPARING, PREPARED, CONFIGURING, CONFIGURED, INITIALIZING, INITIALIZED, SENDING_I,
 SYNCHRONIZING, SYNCHRONIZED, RUNNING, COMPUTING, COMPUTED, SENDING_D, STOPPING, STOPPED, ERROR_HANDLING,
 ERROR_RESOLVED) = range(19)
STATES = ("ALIVE", "CONFIGURATION", "PREPARING", "PREPARED", "CONFIGURING", "CONFIGURED", "INITIALIZING",
          "INITIALIZED", "SENDING_I", "SYNCHRONIZING", "SYNCHRONIZED", "RUNNING", "COMPUTING", "COMPUTED",
          "SENDING_D", "STOPPING", "STOPPED", "ERROR_HANDLING", "ERROR_RESOLVED")

# -- operating modes, scopes, transport protocols ---------------------------------------------------
HRT, SRT, NRT = 0, 1, 2
OP_MODES = {HRT: "HardRealTime", SRT: "SoftRealTime", NRT: "NonRealTime"}
SCOPE_INITIALIZATION_RUN_NRT, SCOPE_INITIALIZATION, SCOPE_RUN_NRT = 0, 1, 2
UDP_IPV4 = 0

# -- error codes (Table 5.x) -------------------------------------------------------------------------
ERRORS = {
    0x0000: "NONE", 0x1001: "PROTOCOL_ERROR_GENERIC", 0x1002: "PROTOCOL_ERROR_HEARTBEAT_MISSED",
    0x1003: "PROTOCOL_ERROR_PDU_NOT_ALLOWED_IN_THIS_STATE", 0x1004: "PROTOCOL_ERROR_PROPERTY_VIOLATED",
    0x1005: "PROTOCOL_ERROR_STATE_TRANSITION_IN_PROGRESS", 0x2001: "INVALID_LENGTH",
    0x2002: "INVALID_LOG_CATEGORY", 0x2003: "INVALID_LOG_LEVEL", 0x2004: "INVALID_LOG_MODE",
    0x2005: "INVALID_MAJOR_VERSION", 0x2006: "INVALID_MINOR_VERSION", 0x2007: "INVALID_NETWORK_INFORMATION",
    0x2008: "INVALID_OP_MODE", 0x2009: "INVALID_PAYLOAD", 0x200A: "INVALID_SCOPE",
    0x200B: "INVALID_SOURCE_DATA_TYPE", 0x200C: "INVALID_START_TIME", 0x200D: "INVALID_STATE_ID",
    0x200E: "INVALID_STEPS", 0x200F: "INVALID_TIME_RESOLUTION", 0x2010: "INVALID_TRANSPORT_PROTOCOL",
    0x2011: "INVALID_UUID", 0x2012: "INVALID_VALUE_REFERENCE", 0x2013: "INVALID_SEQUENCE_ID",
    0x3001: "INCOMPLETE_CONFIG_GAP_INPUT_POS", 0x3002: "INCOMPLETE_CONFIG_GAP_OUTPUT_POS",
    0x3003: "INCOMPLETE_CONFIG_GAP_TUNABLE_POS", 0x3004: "INCOMPLETE_CONFIG_NW_INFO_INPUT",
    0x3005: "INCOMPLETE_CONFIG_NW_INFO_OUTPUT", 0x3006: "INCOMPLETE_CONFIG_NW_INFO_TUNABLE",
    0x3007: "INCOMPLETE_CONFIG_SCOPE", 0x3008: "INCOMPLETE_CONFIG_STEPS",
    0x3009: "INCOMPLETE_CONFIG_TIME_RESOLUTION", 0x300A: "INCOMPLETE_CONFIGURATION",
    0x4001: "NOT_SUPPORTED_LOG_ON_NOTIFICATION", 0x4002: "NOT_SUPPORTED_LOG_ON_REQUEST",
    0x4003: "NOT_SUPPORTED_VARIABLE_STEPS", 0x4004: "NOT_SUPPORTED_TRANSPORT_PROTOCOL",
    0x4005: "NOT_SUPPORTED_PDU", 0x4006: "NOT_SUPPORTED_PDU_SIZE"}
_CODES = {name: code for code, name in ERRORS.items()}

# -- data types (Table 3.x): code -> (name, struct code); string and binary are not exchanged here -----
DATA_TYPES = {0: ("uint8", "B"), 1: ("uint16", "H"), 2: ("uint32", "I"), 3: ("uint64", "Q"), 4: ("int8", "b"),
              5: ("int16", "h"), 6: ("int32", "i"), 7: ("int64", "q"), 8: ("float32", "f"), 9: ("float64", "d")}
DATA_TYPE_CODES = {name: code for code, (name, _) in DATA_TYPES.items()}
FLOAT64 = DATA_TYPE_CODES["float64"]
_FLOAT32_MAX = 3.4028234663852886e38


class PduError(ValueError):
    """A datagram that is not a DCP PDU this end reads; ``error`` is the
    DCP error code that names why (INVALID_LENGTH, NOT_SUPPORTED_PDU)."""

    def __init__(self, message: str, error: int):
        super().__init__(message)
        self.error = error


class Pdu(NamedTuple):
    """A PDU read: its type identifier, its fields by name, and the
    payload that follows them (DAT, CFG_parameter, logs; else empty)."""
    type: int
    fields: dict
    payload: bytes = b""

    @property
    def name(self) -> str:
        return TYPES[self.type]

    def __getattr__(self, field):
        try:
            return self.fields[field]
        except KeyError:
            raise AttributeError(f"{TYPES.get(self.type, self.type)} has no field {field}") from None


def error_code(name: str) -> int:
    return _CODES[name]


def state_name(state: int) -> str:
    return STATES[state] if 0 <= state < len(STATES) else f"unknown state {state}"


def error_name(code: int) -> str:
    return ERRORS.get(code, f"unknown error 0x{code:04X}")


def encode(pdu_type: int, payload: bytes = b"", **fields) -> bytes:
    """The PDU of type ``pdu_type`` with ``fields`` (every field of its
    layout, by name) and, for a type that carries one, ``payload``."""
    _, names, _, tail = _LAYOUTS[pdu_type]
    head = _STRUCTS[pdu_type].pack(pdu_type, *(fields[n] for n in names))
    return head + payload if tail else head


def decode(data: bytes) -> Pdu:
    """The PDU in ``data``; :class:`PduError` for an unknown type or a
    length that is not its type's."""
    if not data:
        raise PduError("an empty datagram", _CODES["INVALID_LENGTH"])
    pdu_type = data[0]
    if pdu_type not in _LAYOUTS:
        raise PduError(f"type identifier 0x{pdu_type:02X} is no PDU of DCP 1.0", _CODES["NOT_SUPPORTED_PDU"])
    name, names, _, tail = _LAYOUTS[pdu_type]
    s = _STRUCTS[pdu_type]
    if len(data) < s.size or (len(data) != s.size and not tail):
        raise PduError(f"{name} of {len(data)} bytes, where its layout has {s.size}", _CODES["INVALID_LENGTH"])
    values = s.unpack_from(data)
    return Pdu(pdu_type, dict(zip(names, values[1:])), bytes(data[s.size:]))


def pack_values(values, types) -> bytes:
    """The payload of a DAT PDU: each value in its data type (codes of
    :data:`DATA_TYPES`); integers are rounded to the nearest and must fit."""
    out = []
    for v, code in zip(values, types):
        fmt = DATA_TYPES[code][1]
        out.append(struct.pack("<" + fmt, float(v) if fmt in "fd" else int(round(v))))
    return b"".join(out)


def unfit(value: float, code: int) -> str | None:
    """Why ``value`` does not fit the data type ``code`` (an integer type's
    range, after rounding to the nearest; a float32's largest magnitude),
    in words, or None."""
    name, fmt = DATA_TYPES[code]
    a_type = f"{'an' if name[0] == 'i' else 'a'} {name}"  # an int32, a uint8
    if fmt == "d":
        return None
    if not math.isfinite(value):
        return f"{value!r} is not a finite number, which {a_type} cannot hold"
    if fmt == "f":
        return None if abs(value) <= _FLOAT32_MAX else f"{value!r} is beyond a float32's range"
    bits = 8 * struct.calcsize(fmt)
    low, high = (0, 2 ** bits - 1) if fmt.isupper() else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
    return None if low <= round(value) <= high else f"{value!r} is outside {a_type}'s range, {low} to {high}"


def unpack_values(payload: bytes, types) -> list:
    """The values of a DAT payload whose positions have the data types
    ``types``; :class:`PduError` when its length is not theirs."""
    fmt = "<" + "".join(DATA_TYPES[code][1] for code in types)
    if len(payload) != struct.calcsize(fmt):
        raise PduError(f"a DAT_input_output payload of {len(payload)} bytes, where its positions take "
                       f"{struct.calcsize(fmt)}", _CODES["INVALID_LENGTH"])
    return list(struct.unpack(fmt, payload))


def ip_to_int(host: str) -> int:
    """The IPv4 address ``host`` (dotted) as the uint32 of a network
    information PDU: its first byte the most significant (DCPLib's
    ``address_v4::to_ulong``), sent little-endian as every field."""
    a, b, c, d = (int(x) for x in host.split("."))
    return a << 24 | b << 16 | c << 8 | d


def int_to_ip(value: int) -> str:
    return ".".join(str(value >> s & 0xFF) for s in (24, 16, 8, 0))
