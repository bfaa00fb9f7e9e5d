"""A run's bookkeeping (``cosim/runtime/runlog.py``) when the disk fills:
one sentence naming the folder, the rows written before kept, the
summary written in the space kept for it."""
from __future__ import annotations

import json

import pytest

from crane_cosim.files.folders import NoSpaceLeft
from crane_cosim.files.results import read_results
from crane_cosim.files.results_stream import ResultWriter
from crane_cosim.runtime.runlog import SUMMARY_RESERVE, RunLog

#: what pyarrow raises when the disk is full (the errno in its text only)
FULL = "[Errno 28] Error writing bytes to file. Detail: [errno 28] No space left on device"


def test_a_disk_that_fills_is_one_sentence_keeping_the_rows_written_and_the_summary(tmp_path, monkeypatch):
    write = ResultWriter._write
    batches = []

    def full_after_the_first(self, k):
        if batches:
            raise OSError(FULL)
        batches.append(k)
        write(self, k)
    monkeypatch.setattr(ResultWriter, "_write", full_after_the_first)
    log = RunLog("S", 0.0, 1.0, {"a": {"source": "fmus/A.fmu", "parameters": {}}}, tmp_path, {"mode": "cosim"},
                 progress=False)
    with pytest.raises(NoSpaceLeft) as stopped:
        with log:
            log.open(["a.x"], ["m"])
            assert (tmp_path / SUMMARY_RESERVE).stat().st_size >= 64 << 10
            for k in range(100):
                log.record(k * 0.01, [float(k)])
                if k in (49, 99):
                    log.writer.flush()   # the first batch, then the second, which the disk has no room for
    assert str(stopped.value) == (f"the results folder {tmp_path} has no space left on device; the results up to "
                                  f"t = 0.49 s are kept in it")
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["status"] == "failed" and summary["error"] == (f"no space left on device in {tmp_path} at "
                                                                  f"t = 0.99 s"), summary
    assert read_results(tmp_path)["a.x"].tolist() == [float(k) for k in range(50)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.arrows", "summary.json"]
