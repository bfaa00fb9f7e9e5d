"""The animation of a run as one self-contained HTML page (plotly, its
JavaScript inside the page, so that it opens with no network): the scene
in 3-D, which the mouse turns and zooms, played in real time or at
``speed``, paused and scrubbed by a slider; the interface wrench as two
arrows at the mount (the force in red, the moment in purple, each scaled
so that its largest reaches a third of the crane's reach) and its six
components in a strip under the view, with a cursor at the frame's time.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..files.results import replaced
from ..reports.display_units import display_unit
from .scene import WRENCH, Scene, reach

__all__ = ["write_page", "figure_of", "arrow", "arrow_scales", "moving_lines", "moving_traces", "strip_units", "xyz_of",
           "scene_limits", "STYLE", "ARROW_SHARE"]

#: part kind -> (colour, line width [px])
STYLE = {
    "hull": ("#6b7280", 3), "water": ("#7dd3fc", 2), "link": ("#1d4ed8", 9), "bracket": ("#1d4ed8", 4),
    "barrel": ("#c2410c", 12), "piston": ("#a3a3a3", 6), "force": ("#dc2626", 6), "moment": ("#7e22ce", 6),
    "path": ("#16a34a", 3), "wire": ("#111827", 2), "payload": ("#ca8a04", 14),
}
#: the largest arrow's length, as a share of the crane's reach
ARROW_SHARE = 1 / 3
#: coordinates written to the page to the millimetre
DECIMALS = 3


def xyz_of(points: np.ndarray) -> dict:
    """Plotly's ``x``, ``y``, ``z`` of a polyline (k, 3), NaN rows as gaps."""
    pts = np.round(points, DECIMALS)
    return {axis: [None if np.isnan(v) else float(v) for v in pts[:, i]] for i, axis in enumerate("xyz")}


def arrow(origin: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """An arrow from ``origin`` along ``vector``: its shaft and a head of two
    barbs a fifth of its length (k, 3), NaN rows between."""
    tip = origin + vector
    length = np.linalg.norm(vector)
    if length == 0:
        return np.array([origin, origin])
    side = np.cross(vector, [0.0, 0.0, 1.0])
    if np.linalg.norm(side) < 1e-9 * length:
        side = np.cross(vector, [1.0, 0.0, 0.0])
    side *= 0.08 * length / np.linalg.norm(side)
    back = tip - 0.2 * vector
    nan = [np.nan] * 3
    return np.array([origin, tip, nan, back + side, tip, back - side])


def arrow_scales(scene: Scene, least: float = 0.0) -> tuple[float, float]:
    """The arrows' scales [m/N, m/(N.m)]: the largest force and moment over
    the scene's frames, or ``least`` [N, N.m] where they are smaller, reach
    :data:`ARROW_SHARE` of the crane's reach; 0 without a wrench, or where
    it is zero throughout and ``least`` is 0."""
    if scene.force is None:
        return 0.0, 0.0
    r = ARROW_SHARE * reach(scene)
    peaks = (max(float(np.linalg.norm(v, axis=1).max()), least) for v in (scene.force, scene.moment))
    return tuple(r / peak if peak > 0 else 0.0 for peak in peaks)


def strip_units(wrench) -> list[tuple[tuple[str, ...], str, str, float]]:
    """The strip's two groups, forces then moments: ``(components, SI
    unit, display unit, its size)``, the unit each group's peak in
    ``wrench`` calls for."""
    return [(group, si, *display_unit(si, float(np.abs(wrench[list(group)].to_numpy()).max())))
            for group, si in ((WRENCH[3:], "N"), (WRENCH[:3], "N.m"))]


def moving_traces(scene: Scene) -> list[tuple[str, str]]:
    """``(name, kind)`` of each moving trace, in the order of :func:`moving_lines`."""
    arrows = [(f"{k} on the crane", k) for k in ("force", "moment")] if scene.force is not None else []
    return [(p.name, p.kind) for p in scene.parts] + arrows


def moving_lines(scene: Scene, k: int, scales) -> list[np.ndarray]:
    """The polylines of frame ``k``, in the order of the page's moving traces."""
    out = [part.points[k] for part in scene.parts]
    if scene.force is not None:
        out += [arrow(scene.mount[k], scene.force[k] * scales[0]),
                arrow(scene.mount[k], scene.moment[k] * scales[1])]
    return out


def write_page(scene: Scene, path, speed: float = 1.0, camera: dict | None = None) -> Path:
    """Write ``scene`` to ``path`` as an HTML page playing at ``speed`` times
    real time, seen by ``camera`` (plotly's ``scene.camera``; default: from
    above one side); returns the path."""
    figure = figure_of(scene, speed, camera)
    # written under a temporary name, then renamed: a full disk leaves no page cut short
    return replaced(path, lambda part: figure.write_html(
        part, include_plotlyjs=True, full_html=True, auto_play=False, config={"displaylogo": False, "responsive": True},
        post_script=_AT_ADDRESS.replace("FRAME_MS", f"{_frame_ms(scene, speed):g}")))


#: the page's address says where to start: ``#t=1.5`` shows the frame
#: nearest 1.5 s, ``#play`` plays from the start (a link to a moment of a
#: run; a browser driven by a test)
_AT_ADDRESS = """
(function () {
  var gd = document.getElementById('{plot_id}');
  function go() {
    var hash = window.location.hash, names = gd._transitionData._frames.map(function (f) { return f.name; });
    var at = hash.match(/t=([0-9.eE+-]+)/), play = /play/.test(hash);
    if (at) {
      var t = parseFloat(at[1]), best = names[0];
      names.forEach(function (n) { if (Math.abs(parseFloat(n) - t) < Math.abs(parseFloat(best) - t)) best = n; });
      Plotly.animate(gd, [best], {frame: {duration: 0, redraw: true}, transition: {duration: 0}, mode: 'immediate'});
    } else if (play) {
      Plotly.animate(gd, null, {frame: {duration: FRAME_MS, redraw: true}, transition: {duration: 0},
                                fromcurrent: true, mode: 'immediate'});
    }
  }
  go();
  window.addEventListener('hashchange', go);
})();
"""


def figure_of(scene: Scene, speed: float = 1.0, camera: dict | None = None):
    """The plotly figure of ``scene``, its frames playing at ``speed`` times
    real time, seen by ``camera``."""
    # plotly only where the page is drawn
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    strip = scene.wrench is not None
    fig = make_subplots(rows=3 if strip else 1, cols=1,
                        specs=[[{"type": "scene"}]] + ([[{"type": "xy"}], [{"type": "xy"}]] if strip else []),
                        row_heights=[0.66, 0.17, 0.17] if strip else [1.0], vertical_spacing=0.04)
    for part in scene.static:
        colour, width = STYLE[part.kind]
        fig.add_trace(go.Scatter3d(**xyz_of(part.points[0]), mode="lines", name=part.name,
                                   line=dict(color=colour, width=width), hoverinfo="skip"), row=1, col=1)
    scales = arrow_scales(scene)
    first = len(fig.data)
    for (name, kind), points in zip(moving_traces(scene), moving_lines(scene, 0, scales)):
        colour, width = STYLE[kind]
        fig.add_trace(go.Scatter3d(**xyz_of(points), mode="lines", name=name, line=dict(color=colour, width=width)),
                      row=1, col=1)
    moving = list(range(first, len(fig.data)))
    if strip:
        moving += _add_strip(fig, scene)
    frames = []
    for k, t in enumerate(scene.times):
        data = [go.Scatter3d(**xyz_of(points)) for points in moving_lines(scene, k, scales)]
        if strip:
            data += [go.Scatter(x=[float(t), float(t)]) for _ in range(2)]
        frames.append(go.Frame(data=data, traces=moving, name=f"{t:.3f}"))
    fig.frames = frames
    _layout(fig, scene, speed)
    if camera is not None:
        fig.update_layout(scene_camera=camera)
    return fig


def _add_strip(fig, scene: Scene) -> list[int]:
    """The wrench's forces (row 2) and moments (row 3) over the run, in the
    units their peaks call for, and a cursor in each; returns the cursors'
    trace indices."""
    w = scene.wrench
    cursors = []
    for row, (group, si, label, size) in zip((2, 3), strip_units(w)):
        for c, colour in zip(group, ("#dc2626", "#16a34a", "#2563eb")):
            fig.add_trace(dict(type="scatter", x=w["time"], y=w[c] / size, mode="lines", line=dict(color=colour,
                          width=1.2), name=f"{'force' if c[0] == 'f' else 'moment'} {c[1]} [{label}]",
                          legendgroup="strip"), row=row, col=1)
        fig.update_yaxes(title_text=f"{'force' if si == 'N' else 'moment'} [{label}]", row=row, col=1)
        lo, hi = float((w[list(group)] / size).min().min()), float((w[list(group)] / size).max().max())
        fig.add_trace(dict(type="scatter", x=[scene.times[0]] * 2, y=[lo, hi], mode="lines", showlegend=False,
                           line=dict(color="black", width=1), hoverinfo="skip"), row=row, col=1)
        cursors.append(len(fig.data) - 1)
    fig.update_xaxes(title_text="time [s]", row=3, col=1)
    return cursors


def _layout(fig, scene: Scene, speed: float) -> None:
    """Axes in metres at their true proportions, the play and pause buttons
    and the time slider."""
    duration = _frame_ms(scene, speed)
    play = dict(label="Play", method="animate",
                args=[None, dict(frame=dict(duration=duration, redraw=True), fromcurrent=True,
                                 transition=dict(duration=0), mode="immediate")])
    pause = dict(label="Pause", method="animate",
                 args=[[None], dict(frame=dict(duration=0, redraw=False), transition=dict(duration=0),
                                    mode="immediate")])
    steps = [dict(method="animate", label=f"{t:.2f}",
                  args=[[f"{t:.3f}"], dict(frame=dict(duration=0, redraw=True), mode="immediate",
                                           transition=dict(duration=0))]) for t in scene.times]
    title = scene.title + (f" ({speed:g} times real time)" if speed != 1 else "")
    fig.update_layout(
        title=dict(text=title + ("<br><sup>" + "; ".join(scene.notes) + "</sup>" if scene.notes else ""),
                   y=0.985, yanchor="top"),
        height=900, margin=dict(l=10, r=10, t=120, b=10), legend=dict(font=dict(size=10)),
        scene=_scene_axes(scene),
        updatemenus=[dict(type="buttons", direction="left", x=0.0, y=1.0, xanchor="left", yanchor="bottom",
                          buttons=[play, pause])],
        sliders=[dict(active=0, steps=steps, x=0.12, len=0.88, y=1.0, yanchor="bottom",
                      currentvalue=dict(prefix="t = ", suffix=" s"), pad=dict(t=0, b=0))],
    )


def scene_limits(scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    """The box [m] that holds what the run draws over all its frames, a
    twentieth more on each side: ``(low, high)`` corners in Frame 0."""
    points = [part.points.reshape(-1, 3) for part in scene.parts + scene.static]
    points.append(scene.mount)
    every = np.concatenate(points)
    every = every[np.isfinite(every).all(axis=1)]
    lo, hi = every.min(axis=0), every.max(axis=0)
    pad = 0.05 * max(float((hi - lo).max()), 1.0)
    return lo - pad, hi + pad


def _scene_axes(scene: Scene) -> dict:
    """The 3-D axes, fixed to :func:`scene_limits` so that the view stays
    still while the crane moves, at the true proportions."""
    lo, hi = scene_limits(scene)
    span = hi - lo
    axes = {f"{a}axis": dict(range=[float(lo[i]), float(hi[i])], title=f"{a}0 [m]", autorange=False)
            for i, a in enumerate("xyz")}
    return dict(aspectmode="manual", aspectratio=dict(zip("xyz", (span / span.max()).tolist())),
                uirevision="keep", **axes)


def _frame_ms(scene: Scene, speed: float) -> float:
    """How long a frame stays on the screen [ms] to play at ``speed`` times real time."""
    return 1000.0 * float(np.diff(scene.times).mean() if scene.times.size > 1 else 0.04) / speed
