"""The live view of a run (cosim/views/live.py, live_server.py): a paced
run of the crane on the vessel served while it goes; a client gets the page
and, during the run, updates at most at the screen's rate, in time order,
then the end; the view's process never holds the run's interpreter."""
import json
import re
import socket
import threading
import time
import urllib.request
from types import SimpleNamespace

import numpy as np
import pytest

from crane_cosim.errors import CraneCosimError
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.views.live import LIVE_RATE, OUTPUTS, SEQ, TIME, LiveView, live_view, parse_address
from limits import HUNG


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listen(url, got: dict):
    """Read the page, then the events until the end, noting when each came."""
    deadline = time.monotonic() + HUNG
    while time.monotonic() < deadline:
        try:
            got["page"] = urllib.request.urlopen(url, timeout=HUNG).read().decode()
            break
        except OSError:
            time.sleep(0.05)
    with urllib.request.urlopen(url + "events", timeout=HUNG) as stream:
        event = None
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                if event == "end":
                    got["end"] = time.monotonic()
                    return
                got["updates"].append((time.monotonic(), json.loads(line[6:])["t"]))


def test_a_paced_run_is_seen_while_it_goes(fmu_dir, tmp_path):
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    got = {"updates": []}
    client = threading.Thread(target=_listen, args=(url, got), daemon=True)
    client.start()
    # 4 s: the view's own process starts and draws its first page after
    # 0.25 s of the run here, 1.3 s on a loaded machine; updates before it
    # are not seen
    s = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=4.0)
    result = run_cosim(s, tmp_path, real_time=1.0, observers=[live_view(("127.0.0.1", port))], progress=False)
    client.join(timeout=HUNG)
    assert result.status == "completed"
    assert "EventSource" in got["page"] and "plotly" in got["page"].lower()
    updates = got["updates"]
    # paced at real time: about 25 a second, in time order, every one before the end
    times = [t for _, t in updates]
    assert len(updates) >= 20 and times == sorted(times) and len(set(times)) == len(times)
    received = [w for w, _ in updates]
    span = received[-1] - received[0]
    assert len(updates) <= LIVE_RATE * span + 2
    assert times[-1] > 3.5 and all(w <= got["end"] for w in received)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["live_view"]["url"] == url and summary["live_view"]["copies"] >= len(updates)


def test_the_address_and_a_busy_port_are_named(fmu_dir, tmp_path):
    assert parse_address("8765") == ("127.0.0.1", 8765) and parse_address("0.0.0.0:80") == ("0.0.0.0", 80)
    for bad in ("localhost:99", "1.2.3.4:70000", "port"):
        with pytest.raises(CraneCosimError, match=re.escape(f"--view {bad}: give [HOST:]PORT")):
            parse_address(bad)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        s = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.1)
        with pytest.raises(CraneCosimError, match=f"--view 127.0.0.1:{port}: cannot serve there"):
            run_cosim(s, tmp_path, observers=[live_view(("127.0.0.1", port))], progress=False)


def test_the_end_is_copied_once_when_the_last_row_was_of_that_instant():
    """The run's last row copied for the view (its time, 4 s), then the run
    ends at 4 s: no second copy of that instant, which a page would show as
    the same time twice; an end later than the last copy is copied."""
    view = LiveView.__new__(LiveView)  # its view process and shared memory stood in for
    view.interval, view.due, view.copies, view.t_copied, view.figures = 1.0 / LIVE_RATE, 0.0, 0, None, {}
    view.shared = np.zeros(OUTPUTS + 2)
    view.ys = [np.array([1.0, 2.0])]
    view.process = SimpleNamespace(join=lambda timeout: None, is_alive=lambda: False)
    view.memory = SimpleNamespace(close=lambda: None, unlink=lambda: None)
    view.rows_complete(SimpleNamespace(t=4.0), np.array([[4.0, 1.0, 2.0]]))
    view.finished(SimpleNamespace(t=4.0), None)
    assert view.copies == 1 and view.figures["copies"] == 1
    shared = view.shared = np.zeros(OUTPUTS + 2)  # (the view lets go of its memory as it ends)
    view.t_copied, view.copies = 3.96, 0
    view.finished(SimpleNamespace(t=4.0), None)
    assert view.copies == 1 and shared[SEQ] == 2 and shared[TIME] == 4.0
