"""``crane-cosim peer-check`` (``bridge/peer_check.py``): every rule passed
by ``serve`` (our block as the peer) in either byte order, with and without
a key; a peer that breaks a rule named by the rule it breaks; a device that
never answers stops the checks at the welcome; bad input one sentence."""
from __future__ import annotations

import pytest

from bridge_helpers import free_port, one_sentence, serving
from crane_cosim.blocks.controller import Controller
from crane_cosim.bridge.peer_check import check_peer
from crane_cosim.bridge.serve import Peer
from crane_cosim.cli import main

KEY = b"the rig's key of 32 bytes......."
RULES = ["a hello of other signals is refused", "the hello of its signals is welcomed, its header echoed",
         "a request numbered 0 is not answered", "a request is answered with 6 values, its header echoed",
         "a request sent again gets the same values, its own attempt and nonce echoed",
         "an older request is not answered", "a request of the run from another address is not answered",
         "requests of other lengths are not answered", "packets of layout versions 1 and 2 are not answered",
         "another run's hello is not welcomed while a run is served",
         "after the end of a run another is welcomed at once"]


@pytest.mark.parametrize("key,big", [(None, False), (None, True), (KEY, False)])
def test_serve_passes_every_rule(key, big):
    with serving(Controller(), key=key) as server:
        checks = check_peer("127.0.0.1", server.port, Controller.inputs, Controller.outputs, key, big, wait=0.3)
    expected = RULES[:9] + (["a request without the key's tag is not answered"] if key else []) + RULES[9:]
    assert [c.name for c in checks] == expected
    assert all(c.passed for c in checks), [(c.name, c.seen) for c in checks if not c.passed]


class AnswersOld(Peer):
    """A peer that answers an older request with the values it answered last."""

    def answer(self, data, addr=("", 0), now=None):
        out = super().answer(data, addr, now)
        p = self.codec.unpack(data, self.n_inputs) if data[:4] == b"CCB3" and len(data) == 80 else None
        if out is None and p is not None and self.client == (tuple(addr[:2]), p.run) and p.seq < self.last_seq:
            return p.seq, self.codec.answer_to(p, self.cached)
        return out


def test_a_peer_that_breaks_a_rule_fails_that_rule_by_name(capsys):
    with serving(Controller(), peer_class=AnswersOld) as server:
        assert main(["peer-check", f"127.0.0.1:{server.port}", "Controller", "--wait", "0.3"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[5] == "FAIL  an older request is not answered (seen: a reply)"
    assert [line[:4] for line in out[:-1]] == ["pass"] * 5 + ["FAIL"] + ["pass"] * 5
    assert out[-1] == "10 of 11 checks passed"


def test_a_device_that_answers_nothing_stops_the_checks_at_the_welcome(capsys):
    assert main(["peer-check", f"127.0.0.1:{free_port()}", "--inputs", "q:rad", "--outputs", "tau:N.m",
                 "--wait", "0.1"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "FAIL  a hello of other signals is refused (seen: no reply)",
        "FAIL  the hello of its signals is welcomed, its header echoed (seen: no reply)",
        "FAIL  the remaining rules (seen: not tried: they need a welcomed run whose first request is answered)",
        "0 of 3 checks passed"]


@pytest.mark.parametrize("args,fragment", [
    (["5000", "Controller"], "'5000' is not HOST:PORT with a port from 1 to 65535"),
    (["localhost:0", "Controller"], "'localhost:0' is not HOST:PORT"),
    (["localhost:5000"], "peer-check needs either a block (Vessel"),
    (["localhost:5000", "Nope"], "no block named 'Nope'"),
    (["localhost:5000", "Controller", "--wait", "0"], "--wait 0 must be a positive number of seconds"),
    (["localhost:5000", "Controller", "--key-file", "/no/key"], "--key-file: key file /no/key cannot be read"),
])
def test_peer_check_refuses_bad_input(capsys, args, fragment):
    assert main(["peer-check", *args]) == 2
    one_sentence(capsys.readouterr().err, fragment)
