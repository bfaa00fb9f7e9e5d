"""Ctrl-C and SIGTERM during a run: noted while the FMUs run
(``runtime/observers/progress.py``), acted on between two steps, and never
dropped: a signal noted after the last look, while the last steps ran or
the FMUs were freed, ends the run as it leaves them; one that the
command's own handler raised inside a destructor (where Python prints the
exception and goes on) still ends the command with exit 143."""
import os
import signal
import time

import pytest

from crane_cosim.errors import Terminated
from crane_cosim.runtime.observers.progress import DeferredSignals


def _signalled(sig):
    os.kill(os.getpid(), sig)
    time.sleep(0.01)  # the handler runs between two bytecodes of this thread


@pytest.mark.parametrize("sig,raised", [(signal.SIGTERM, Terminated), (signal.SIGINT, KeyboardInterrupt)])
def test_a_signal_noted_after_the_last_look_is_acted_on_at_the_end(sig, raised):
    with pytest.raises(raised):
        with DeferredSignals() as signals:
            _signalled(sig)
            assert signals.requested  # noted, not raised, while the FMUs may run
    assert signal.getsignal(signal.SIGTERM) is not signals._note  # the handlers before it are back


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_sigterm_dropped_in_a_destructor_still_ends_the_command(monkeypatch, capsys):
    import crane_cosim.cli as cli

    class Freed:
        def __del__(self):
            _signalled(signal.SIGTERM)  # Terminated raised in here is printed and dropped by Python

    def command(args):
        Freed()
        return 0

    monkeypatch.setattr(cli, "cmd_check", command)
    assert cli.main(["check", "system.ssd"]) == 143
    assert capsys.readouterr().err.strip().endswith("crane-cosim: terminated (SIGTERM); the results computed so "
                                                     "far are on disk")
