"""The words of the command line's help (``cosim/cli/parser.py``) and of
the project's texts: plain text in the help, the hosts named by whose they
are."""
import re
import subprocess
from pathlib import Path

import pytest

from crane_cosim.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _help(capsys, *args) -> str:
    with pytest.raises(SystemExit) as ended:
        main([*args, "--help"])
    assert ended.value.code == 0
    return capsys.readouterr().out


def test_help_is_plain_text(capsys):
    """No reStructuredText markup (``like this``) in the top-level help nor
    in any command's."""
    top = _help(capsys)
    commands = re.search(r"\{([a-z,-]+)\}", top).group(1).split(",")
    for args in ([], *([c] for c in commands)):
        text = top if not args else _help(capsys, *args)
        assert "``" not in text, f"crane-cosim {' '.join(args)} --help: {text}"


def test_ecos_is_named_as_ntnu_alesunds():
    """ecos is NTNU Ålesund's, not DNV's: nowhere in the tracked code, docs
    and tests is it called DNV's."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    wrong = re.compile(r"DNV('s)?\s+ecos")
    found = [f"{name}:{k + 1}" for name in files if (ROOT / name).is_file()
             for k, line in enumerate((ROOT / name).read_text(errors="replace").splitlines())
             if wrong.search(line)]
    assert not found, f"ecos called DNV's in {', '.join(found)}"


@pytest.mark.parametrize("words,typed,meant", [
    (["run", "sys.ssd", "--set", "vessel.m", "1200"], "'vessel.m 1200'", "--set vessel.m=1200"),
    (["check", "sys.ssd", "--set", "vessel.m", "=", "1200", "--step", "0.01"], "'vessel.m = 1200'",
     "--set vessel.m=1200"),
    (["run", "sys.ssd", "--set", "vessel.x0=", "-1"], "'vessel.x0= -1'", "--set vessel.x0=-1"),
    (["run", "sys.ssd", "--replace", "crane", "Crane2.fmu"], "'crane Crane2.fmu'", "--replace crane=Crane2.fmu"),
    (["sweep", "sys.ssd", "--vary", "waves.Hs", "1,2"], "'waves.Hs 1,2'", "--vary waves.Hs=1,2"),
    (["run", "sys.ssd", "--set=vessel.m", "1200"], "'vessel.m 1200'", "--set vessel.m=1200"),
    (["run", "sys.ssd", "--set", "vessel.m=1200", "--set", "crane.m", "1200"], "'crane.m 1200'",
     "--set crane.m=1200"),
])
def test_a_pair_typed_as_two_words_is_one_sentence(capsys, words, typed, meant):
    """``--set vessel.m 1200``: one sentence saying the option takes
    NAME=VALUE, what was typed and what to write, exit 2 (argparse said
    "unrecognized arguments: 1200")."""
    assert main(words) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [f"crane-cosim: error: {meant.split()[0]} takes NAME=VALUE as one word, without "
                                        f"spaces; {typed} was typed: write {meant}"]


def test_other_stray_words_keep_argparses_message(capsys):
    with pytest.raises(SystemExit) as ended:
        main(["run", "sys.ssd", "extra"])
    assert ended.value.code == 2
    assert "unrecognized arguments: extra" in capsys.readouterr().err
