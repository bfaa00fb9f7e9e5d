"""Scripts of FMI 2.0 calls, run by fmpy's FMU2Slave: the Python twin of
``c_statuses.c`` (tests/fmus/test_statuses.py runs the same scripts in both).

A script is a list of scenarios, a scenario a list of calls, a call a word
and its arguments:

    reset, setup T [STOP], enter, exit, term, step T H, cancel,
    getr|geti|getb|gets VR, setr|seti|setb VR X, sets VR TEXT (NULL: a null
    pointer), ders VR ORDER X (an input derivative), dirder VR (a
    directional derivative), outder VR (an output derivative), save,
    restore, freestate (the one saved FMU state), roundtrip (serialize the
    saved state, deserialize it, restore and free the copy), garbage
    (deserialize 64 bytes that are no state), debug on|off [CATEGORY],
    rstatus|bstatus|istatus|sstatus|status KIND (fmi2GetRealStatus ...
    fmi2GetStatus), instantiate_me (an instance for model exchange: status
    0 if made, 3 if not).

``run(folder, scripts, logging_on)`` returns, per scenario, one
``(status, messages)`` per call: the messages the FMU logged during it.
Run as a program (``python status_script.py``), it reads a JSON list of
``[folder, scripts, logging_on]`` on stdin and prints the results as JSON,
so that a process of its own shows that a Python host exits cleanly too.
"""
from __future__ import annotations

import ctypes
import json
import sys

from fmpy import read_model_description
from fmpy.fmi1 import FMICallException
from fmpy.fmi2 import (FMU2Slave, fmi2CallbackAllocateMemoryTYPE, fmi2CallbackFreeMemoryTYPE,
                       fmi2CallbackFunctions, fmi2CallbackLoggerTYPE)
from fmpy import calloc, free


def _status(fn, *args) -> int:
    """The status of an fmpy call: fmpy raises above fmi2Warning, and its
    calls that return nothing else return the status itself (fmi2Warning
    among them)."""
    try:
        res = fn(*args)
    except FMICallException as exc:
        return exc.status
    return res if fn.__name__ in _RETURN_STATUS and isinstance(res, int) else 0


#: fmpy's calls that return the FMU's status
_RETURN_STATUS = {"reset", "setupExperiment", "enterInitializationMode", "exitInitializationMode", "terminate",
                  "cancelStep", "doStep", "setReal", "setInteger", "setBoolean", "setString",
                  "setRealInputDerivatives"}


class _Host:
    def __init__(self, folder: str, logging_on: bool):
        md = read_model_description(folder)
        self.folder, self.md = folder, md
        self.slave = FMU2Slave(guid=md.guid, unzipDirectory=folder, modelIdentifier=md.coSimulation.modelIdentifier,
                               instanceName="fmpy")
        self.messages = []

        def logger(env, instance, status, category, message):
            self.messages.append((status, message.decode(errors="replace")))

        self.callbacks = fmi2CallbackFunctions()
        self.callbacks.logger = fmi2CallbackLoggerTYPE(logger)
        self.callbacks.allocateMemory = fmi2CallbackAllocateMemoryTYPE(calloc)
        self.callbacks.freeMemory = fmi2CallbackFreeMemoryTYPE(free)
        self.slave.instantiate(callbacks=self.callbacks, loggingOn=logging_on)
        self.saved = None

    def call(self, word: str, *args: str) -> int:
        s = self.slave
        vr = [int(args[0])] if args and word not in ("setup", "step", "debug") and not word.endswith("status") else None
        if word == "reset":
            return _status(s.reset)
        if word == "setup":
            stop = float(args[1]) if len(args) > 1 else None
            return _status(s.setupExperiment, None, float(args[0]), stop)
        if word in ("enter", "exit", "term", "cancel"):
            return _status({"enter": s.enterInitializationMode, "exit": s.exitInitializationMode,
                            "term": s.terminate, "cancel": s.cancelStep}[word])
        if word == "step":
            return _status(s.doStep, float(args[0]), float(args[1]))
        if word in ("getr", "geti", "getb", "gets"):
            return _status({"getr": s.getReal, "geti": s.getInteger, "getb": s.getBoolean,
                            "gets": s.getString}[word], vr)
        if word == "setr":
            return _status(s.setReal, vr, [float(args[1])])
        if word in ("seti", "setb"):
            return _status(s.setInteger if word == "seti" else s.setBoolean, vr, [int(float(args[1]))])
        if word == "sets":
            return _status(s.setString, vr, [None if args[1] == "NULL" else args[1]])
        if word == "ders":
            return _status(s.setRealInputDerivatives, vr, [int(args[1])], [float(args[2])])
        if word == "dirder":
            return _status(s.getDirectionalDerivative, vr, vr, [1.0])
        if word == "outder":
            return _status(s.getRealOutputDerivatives, vr, [1])
        return self._state_or_status(word, *args)

    def _state_or_status(self, word: str, *args: str) -> int:
        s = self.slave
        if word == "save":
            try:
                self.saved = s.getFMUstate()
                return 0
            except FMICallException as exc:
                return exc.status
        if word == "restore":
            return _status(s.setFMUstate, self.saved)
        if word == "freestate":
            status = _status(s.freeFMUstate, self.saved)
            self.saved = None
            return status
        if word == "roundtrip":
            try:
                copy = s.deSerializeFMUstate(s.serializeFMUstate(self.saved))
                s.setFMUstate(copy)
                s.freeFMUstate(copy)
                return 0
            except FMICallException as exc:
                return exc.status
        if word == "garbage":
            return _status(s.deSerializeFMUstate, b"x" * 64)
        if word == "debug":
            return _status(s.setDebugLogging, args[0] == "on", args[1:])
        if word.endswith("status"):
            kind = int(args[0])
            call = {"rstatus": s.getRealStatus, "bstatus": s.getBooleanStatus, "istatus": s.getIntegerStatus,
                    "sstatus": s.getStringStatus, "status": s.getStatus}[word]
            return _status(call, kind)
        if word == "instantiate_me":
            return self._instantiate_model_exchange()
        raise ValueError(f"unknown call {word}")

    def _instantiate_model_exchange(self) -> int:
        dll, md = self.slave.dll, self.md
        dll.fmi2Instantiate.restype = ctypes.c_void_p
        resources = (self.slave.unzipDirectory.rstrip("/") + "/resources").encode()
        me = dll.fmi2Instantiate(b"me", 0, md.guid.encode(), b"file://" + resources, ctypes.byref(self.callbacks),
                                 0, 0)
        if me:
            dll.fmi2FreeInstance(ctypes.c_void_p(me))
        return 0 if me else 3

    def free(self):
        if self.saved is not None:
            _status(self.slave.freeFMUstate, self.saved)
        self.slave.freeInstance()


def run(folder: str, scripts, logging_on: bool):
    host = _Host(folder, logging_on)
    results = []
    for scenario in scripts:
        done = []
        for op in scenario:
            word, *args = op.split()
            host.messages.clear()
            status = host.call(word, *args)
            done.append((status, list(host.messages)))
        results.append(done)
    host.free()
    return results


if __name__ == "__main__":
    jobs = json.load(sys.stdin)
    print(json.dumps([run(folder, scripts, logging_on) for folder, scripts, logging_on in jobs]))
