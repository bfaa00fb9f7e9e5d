"""The live view's own process (``live.py`` starts it): it reads the run's
latest copy of its outputs from the memory the two share, draws it with
the blocks' geometry (``scene.py``), and serves the page and its updates
over HTTP: ``/`` the page (the animation's figure of the first copy,
without frames; plotly's JavaScript inside), ``/events`` the updates as
server-sent events, each the moving parts' lines, the arrows and the
wrench's components, ended by an ``end`` event when the run ends."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from multiprocessing import shared_memory

import numpy as np
import pandas as pd

from .page import arrow_scales, figure_of, moving_lines, moving_traces, strip_units, xyz_of
from .scene import Drawing

__all__ = ["serve", "SEQ", "ENDED", "TIME", "OUTPUTS"]

#: the layout of the memory the run shares with this process: [sequence, ended, time, outputs...]
SEQ, ENDED, TIME, OUTPUTS = 0, 1, 2, 3

#: the points of each component of the strip a page keeps
STRIP_POINTS = 5000


def serve(address, components: dict, names: list[str], title: str, memory: str, rate: float, conn) -> None:
    """The process's work: serve at ``address`` the view of the run whose
    outputs ``names`` are copied into the shared ``memory`` (``live.py``'s
    layout), until the run ends; the address served, or why not, to
    ``conn`` first."""
    try:
        view = _View(components, names, title, memory, rate)
        server = ThreadingHTTPServer(address, _handler(view))
    except OSError as exc:
        conn.send(("error", f"--view {address[0]}:{address[1]}: cannot serve there ({exc.strerror or exc})"))
        return
    except Exception as exc:  # the drawing's blocks refusing the run's parameters, said in one sentence
        conn.send(("error", f"--view: the live view cannot draw this run ({exc})"))
        return
    server.daemon_threads = True
    host, port = server.server_address[:2]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    conn.send(("url", f"http://{host}:{port}/"))
    view.follow()
    time.sleep(0.5)  # the pages listening get the end
    server.shutdown()


class _View:
    """The latest drawn update, and the page."""

    def __init__(self, components, names, title, memory, rate):
        self.memory = shared_memory.SharedMemory(name=memory)
        self.shared = np.ndarray(OUTPUTS + len(names), dtype=float, buffer=self.memory.buf)
        self.names = ["time"] + list(names)
        self.drawing = Drawing(components, "the live view")
        self.title, self.interval = title, 1.0 / rate
        self.changed = threading.Condition()
        self.update, self.seq, self.ended, self.page = None, 0, False, None

    def follow(self) -> None:
        """Draw each new copy, at most ``rate`` times a second, until the run ends."""
        last = 0.0
        while True:
            ended = self.shared[ENDED] == 1.0
            copy = self._read()
            if copy is not None and copy[0] != last:
                last = copy[0]
                scene = self.drawing.scene(pd.DataFrame([copy[1:]], columns=self.names), self.title)
                if self.page is None:
                    self.page = self._page(scene)
                update = json.dumps(self._update(scene, copy[1]), separators=(",", ":"))
                with self.changed:
                    self.update, self.seq = update, self.seq + 1
                    self.changed.notify_all()
            if ended:
                with self.changed:
                    self.ended = True
                    self.changed.notify_all()
                return
            time.sleep(self.interval)

    def _read(self):
        """``[sequence, time, outputs...]`` of the latest whole copy, or None."""
        for _ in range(100):
            seq = self.shared[SEQ]
            if seq % 2 == 0:
                copy = np.concatenate([[seq, self.shared[TIME]], self.shared[OUTPUTS:]])
                if self.shared[SEQ] == seq:
                    return copy if seq > 0 else None
            time.sleep(1e-4)
        return None

    def _page(self, scene) -> bytes:
        """The page: the animation's figure of the first update, without its
        frames and controls, and the script that applies each update."""
        # the arrows' scales fixed at the first update, for 1 kN and 1 kN.m at least
        self.scales = arrow_scales(scene, least=1e3)
        fig = figure_of(scene)
        fig.frames = []
        fig.update_layout(updatemenus=[], sliders=[], title=dict(text=f"{self.title}: live"))
        moving_names = [name for name, _ in moving_traces(scene)]
        moving = [i for i, d in enumerate(fig.data) if d.name in moving_names and d.type == "scatter3d"]
        strip = [i for i, d in enumerate(fig.data) if d.type == "scatter" and d.legendgroup == "strip"]
        #: the strip's groups and units, those of the first update (``page._add_strip``'s order)
        self.strip = strip_units(scene.wrench) if scene.wrench is not None else []
        script = (_LIVE_SCRIPT.replace("MOVING", json.dumps(moving)).replace("STRIP", json.dumps(strip))
                  .replace("POINTS", str(STRIP_POINTS)).replace("TITLE", json.dumps(self.title)))
        return fig.to_html(include_plotlyjs=True, full_html=True, post_script=script,
                           config={"displaylogo": False, "responsive": True}).encode()

    def _update(self, scene, t) -> dict:
        lines = [xyz_of(line) for line in moving_lines(scene, 0, self.scales)]
        w = []
        if scene.wrench is not None:
            row = scene.wrench.iloc[0]
            w = [float(row[c]) / size for group, _, _, size in self.strip for c in group]
        return {"t": float(t), **{a: [line[a] for line in lines] for a in "xyz"}, "w": w}

    def next_update(self, seq: int, timeout: float):
        """``(update, its number)`` newer than ``seq``, or ``(None, seq)``
        after ``timeout`` [s]; ``("end", seq)`` once the run ended."""
        with self.changed:
            self.changed.wait_for(lambda: self.seq > seq or self.ended, timeout)
            if self.seq > seq:
                return self.update, self.seq
            return ("end", seq) if self.ended else (None, seq)


def _handler(view: _View):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # the run's terminal is not the server's log
            pass

        def do_GET(self):
            if self.path.split("?")[0] == "/":
                deadline = time.monotonic() + 30
                while view.page is None and time.monotonic() < deadline and not view.ended:
                    time.sleep(0.05)
                if view.page is None:
                    self.send_error(503, "the run has not started yet")
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(view.page)))
                self.end_headers()
                self.wfile.write(view.page)
            elif self.path.split("?")[0] == "/events":
                self._events()
            else:
                self.send_error(404)

        def _events(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            seq = 0
            try:
                while True:
                    update, seq = view.next_update(seq, timeout=10.0)
                    if update == "end":
                        self.wfile.write(b"event: end\ndata: {}\n\n")
                        self.wfile.flush()
                        return
                    self.wfile.write(b": still here\n\n" if update is None else f"data: {update}\n\n".encode())
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):  # the page was closed
                return
    return Handler


#: applies the latest update at the screen's next refresh; older ones are dropped
_LIVE_SCRIPT = """
(function () {
  var gd = document.getElementById('{plot_id}');
  var moving = MOVING, strip = STRIP, latest = null, ended = false;
  var source = new EventSource('events');
  source.onmessage = function (e) { latest = JSON.parse(e.data); };
  source.addEventListener('end', function () { ended = true; source.close(); });
  function show() {
    if (latest) {
      var u = latest; latest = null;
      Plotly.restyle(gd, {x: u.x, y: u.y, z: u.z}, moving);
      if (strip.length && u.w.length) {
        Plotly.extendTraces(gd, {x: strip.map(function () { return [u.t]; }),
                                 y: u.w.map(function (v) { return [v]; })}, strip, POINTS);
      }
      Plotly.relayout(gd, {'title.text': TITLE + ': live, t = ' + u.t.toFixed(2) + ' s' + (ended ? ' (ended)' : '')});
      document.title = 't = ' + u.t.toFixed(3);
    }
    window.requestAnimationFrame(show);
  }
  window.requestAnimationFrame(show);
})();
"""
