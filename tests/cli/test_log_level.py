"""``--log-level``, by libcosim's names: the quiet levels hide warnings and
the progress bar, the verbose ones add the FMUs' messages and the
tracebacks of internal errors."""
import warnings

import pytest
from crane_cosim import cli
from crane_cosim.cli.options import run_config
from crane_cosim.cli.parser import parser


def _config(*words):
    return run_config(parser("test").parse_args([*words, "run", "system.ssd"]))


@pytest.mark.parametrize("level, progress, fmi_logging", [
    ("fatal", False, False), ("error", False, False), ("warning", True, False), ("info", True, False),
    ("debug", True, True), ("trace", True, True)])
def test_each_level_sets_the_bar_and_the_fmus_messages(level, progress, fmi_logging):
    config = _config("--log-level", level)
    assert (config.progress, config.fmi_logging) == (progress, fmi_logging)
    assert (_config().progress, _config().fmi_logging) == (True, False)


def _warns_and_fails(args):
    warnings.warn("the deck edge is under water")
    raise RuntimeError("something broke")


@pytest.mark.parametrize("level, shown, traceback", [
    ("error", False, False), ("warning", True, False), ("debug", True, True)])
def test_warnings_and_tracebacks_follow_the_level(capsys, monkeypatch, level, shown, traceback):
    monkeypatch.setattr(cli, "cmd_inspect", _warns_and_fails)
    if traceback:
        with pytest.raises(RuntimeError, match="something broke"):
            cli.main(["--log-level", level, "inspect", "Winch"])
    else:
        assert cli.main(["--log-level", level, "inspect", "Winch"]) == 3
    err = capsys.readouterr().err
    assert ("crane-cosim: warning: the deck edge is under water" in err) == shown
