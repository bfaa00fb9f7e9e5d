"""A folder claimed by one run at a time (a flock the OS releases when its
process dies), and the folders a refused command made removed again."""
from __future__ import annotations

import os
import signal

import pytest
from folder_holder import holding

from crane_cosim.errors import CraneCosimError
from crane_cosim.files.folders import (LOCK_FILE, FolderBusy, claimed, made_folders_undone, no_space, refuse_busy,
                                       unwritable)

def test_a_folder_another_process_claims_is_refused_naming_it_and_its_pid(tmp_path):
    out = tmp_path / "out"
    proc = holding(out)
    try:
        with pytest.raises(FolderBusy) as refused:
            with claimed(out, "--out"):
                pass
        assert str(refused.value) == (f"--out {out} is being written by another run (pid {proc.pid}): wait for it "
                                      f"to end, or give another folder")
        with pytest.raises(FolderBusy, match=f"pid {proc.pid}"):
            refuse_busy(out)
        assert (out / "results.arrows").read_text() == "the first run's"
        assert sorted(p.name for p in out.iterdir()) == [LOCK_FILE, "results.arrows"]
    finally:
        proc.stdin.close()
        proc.wait()
    assert proc.returncode == 0
    # its end released the claim and took the lock file with it
    assert sorted(p.name for p in out.iterdir()) == ["results.arrows"]
    with claimed(out):
        pass


def test_a_sigkilled_claim_leaves_no_stale_lock(tmp_path):
    out = tmp_path / "out"
    proc = holding(out)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert (out / LOCK_FILE).read_text() == f"{proc.pid}\n"   # the file stays, its lock does not
    refuse_busy(out)
    with claimed(out):
        assert (out / LOCK_FILE).read_text() == f"{os.getpid()}\n"
    assert not (out / LOCK_FILE).exists()


def test_a_claim_nests_in_one_process_and_removes_only_the_empty_folders_it_made(tmp_path):
    out = tmp_path / "a" / "b"
    with claimed(out):
        with claimed(out):   # the same process's run inside its command's claim
            pass
        assert (out / LOCK_FILE).exists()   # still held by the outer one
    assert not (tmp_path / "a").exists()   # nothing written: nothing left
    with claimed(out):
        (out / "x").write_text("")
    assert (out / "x").exists() and not (out / LOCK_FILE).exists()


def test_folders_made_by_a_refused_block_go_again(tmp_path):
    with pytest.raises(CraneCosimError):
        with made_folders_undone(tmp_path / "a" / "b") as out:
            out.mkdir(parents=True)
            raise CraneCosimError("refused")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "keep").mkdir()
    with made_folders_undone(tmp_path / "keep" / "c") as out:
        out.mkdir()
    assert list((tmp_path / "keep").iterdir()) == []
    assert (tmp_path / "keep").is_dir()   # it was there before


def test_the_sentences_of_a_full_disk_and_a_folder_that_cannot_be_written(tmp_path):
    import errno
    assert no_space(OSError(errno.ENOSPC, "No space left on device"))
    assert no_space(OSError("[Errno 28] Error writing bytes to file. Detail: [errno 28] No space left on device"))
    assert not no_space(OSError(errno.EACCES, "Permission denied"))
    exc = OSError(errno.EROFS, "Read-only file system", str(tmp_path / "fmus" / "Crane.fmu"))
    assert str(unwritable(exc, "cannot build the FMUs of S")) == (
        f"cannot build the FMUs of S: the folder {tmp_path} cannot be written (Read-only file system)")
