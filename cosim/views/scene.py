"""A run as a scene to draw: every part of its cranes and vessels in Frame
0 (the ground frame of Cibicik & Egeland 2018: z up, the calm water's
plane at z = 0 for a floating vessel) at evenly spaced frames, the
interface wrench at the mount, and what could not be drawn.

The components are the run's (``summary.json``): a component whose FMU is
one of the package's blocks is made again with the run's parameters and
drawn by ``skeletons.py``; the crane's parts are carried from the mount
frame to Frame 0 by the mount's recorded pose (the vessel's outputs
``mount_R_*``, ``mount_p_*``; a crane with no vessel stands at the origin).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..blocks.registry import BLOCKS
from ..errors import CraneCosimError
from ..files.results import SUMMARY_FILE, model_of, read_results, read_summary
from .skeletons import Part, crane_parts, hull_outline_of

__all__ = ["Scene", "Drawing", "scene_of", "scene_of_run", "FRAMES_PER_SECOND"]

#: frames per second of simulated time, by default
FRAMES_PER_SECOND = 25.0
#: the interface wrench's components, in the order of its columns
WRENCH = ("nx", "ny", "nz", "fx", "fy", "fz")


@dataclass
class Scene:
    """``times`` (frames,) [s]; ``parts`` moving, ``static`` drawn once,
    each in Frame 0 [m]; ``mount`` (frames, 3) [m] the slewing joint's
    centre; ``wrench`` the interface wrench of the vessel on the crane at
    the mount, a DataFrame of ``time`` and its six components (mount axes,
    N.m and N, every recorded row) named by ``wrench_name``, and
    ``force``, ``moment`` (frames, 3) the same at the frames in Frame 0
    [N, N.m]; ``notes``: what is not drawn, and why."""

    title: str
    times: np.ndarray
    parts: list[Part]
    static: list[Part]
    mount: np.ndarray
    wrench: pd.DataFrame | None = None
    wrench_name: str = ""
    force: np.ndarray | None = None
    moment: np.ndarray | None = None
    notes: list[str] = field(default_factory=list)


def scene_of_run(run_dir, fps: float = FRAMES_PER_SECOND) -> Scene:
    """The scene of the run in ``run_dir`` at ``fps`` frames a second of
    simulated time (and its last recorded time)."""
    run_dir = Path(run_dir)
    df = read_results(run_dir)
    summary = _summary(run_dir)
    if len(df) == 0:
        raise CraneCosimError(f"{run_dir}: the run recorded no rows; there is nothing to animate")
    return scene_of(df, summary["components"], str(summary.get("system") or run_dir.name), fps, where=str(run_dir))


def scene_of(df: pd.DataFrame, components: dict, title: str, fps: float = FRAMES_PER_SECOND,
             where: str = "the run") -> Scene:
    """The scene of the recorded ``df`` (``time`` and ``component.variable``
    columns) of a system of ``components`` (name -> ``{"source": its FMU,
    "parameters": the values set}``, as ``summary.json`` has them); ``where``
    names the run in messages."""
    return Drawing(components, where).scene(df, title, fps)


class Drawing:
    """The drawable components of a system, their blocks made once (a live
    view draws every update with them): ``blocks`` name -> block, ``notes``
    what is not drawn and why."""

    def __init__(self, components: dict, where: str = "the run"):
        self.where = where
        made = {name: _block_of(name, spec) for name, spec in components.items()}
        self.blocks = {name: block for name, (block, _) in made.items() if block is not None}
        self.notes = [f"component {name}: {why}" for name, (block, why) in made.items() if block is None and why]

    def scene(self, df: pd.DataFrame, title: str, fps: float = FRAMES_PER_SECOND) -> Scene:
        """The scene of ``df`` at ``fps`` frames a second (and its last time)."""
        t = df["time"].to_numpy()
        times = np.arange(t[0], t[-1], 1.0 / fps)
        times = np.append(times, t[-1]) if times.size == 0 or times[-1] < t[-1] - 1e-9 else times
        R, p = _mount_pose(df, times, t)
        parts, static, notes = [], [], list(self.notes)
        for name, block in self.blocks.items():
            if block.draws == "load":
                parts.extend(self._load(df, name, times, t, notes))
            elif block.draws == "crane":
                for part in crane_parts(block, self._values(df, name, times, t), (R, p)):
                    points = part.points if part.ground else _to_ground(part.points, R, p)
                    parts.append(Part(part.name, part.kind, points))
            else:
                outline, mount = hull_outline_of(block)
                local = np.broadcast_to(outline - mount, (times.size, *outline.shape))
                parts.append(Part(f"{name} {block.draws}", "hull", _to_ground(local, R, p)))
                if block.calm_water:
                    static.append(Part("calm water", "water", _water(outline)))
        scene = Scene(title=title, times=times, parts=parts, static=static, mount=p, notes=notes)
        _add_wrench(scene, df, t, R)
        return scene

    def _load(self, df, component, times, t, notes: list) -> list[Part]:
        """A payload (its recorded ``payload_p_*``, Frame 0) and its wire from
        the crane's tip (a crane's recorded ``tip_p_*``), in Frame 0 [m];
        why the wire is not drawn, where it is not, into ``notes``."""
        at = self._position(df, component, "payload_p", times, t)
        crane = next((c[: -len(".tip_p_x")] for c in df.columns if c.endswith(".tip_p_x")), None)
        # the payload a short thick bar, a line's way of being a block
        parts = [Part(f"{component}", "payload", np.stack([at + [0, 0, 0.3], at - [0, 0, 0.3]], axis=1), ground=True)]
        if crane is None:
            notes.append(f"component {component}: no crane's tip recorded (tip_p_*): its wire is not drawn")
            return parts
        tip = self._position(df, crane, "tip_p", times, t)
        return [Part(f"{component} wire", "wire", np.stack([tip, at], axis=1), ground=True)] + parts

    def _position(self, df, component, prefix, times, t) -> np.ndarray:
        """``component``'s recorded ``<prefix>_x, _y, _z`` at the frames (frames, 3)."""
        get = self._values(df, component, times, t)
        return np.column_stack([get(f"{prefix}_{c}") for c in "xyz"])

    def _values(self, df, component, times, t):
        def get(name):
            column = f"{component}.{name}"
            if column not in df:
                raise CraneCosimError(f"{self.where}: component {component} did not record {name}, which its "
                                      f"drawing needs (record it, or all of the component's outputs)")
            return np.interp(times, t, df[column].to_numpy())
        return get


def _summary(run_dir: Path) -> dict:
    summary = read_summary(run_dir)
    if not isinstance(summary.get("components"), dict):
        raise CraneCosimError(f"{run_dir}: no readable {SUMMARY_FILE} naming the run's components; a run folder "
                              f"of crane-cosim run holds one")
    return summary


def _block_of(name: str, spec: dict):
    """``(block, why)``: the package's block of component ``name`` made with
    the run's parameters, or ``(None, the reason it is not drawn)``."""
    model = model_of(spec)
    cls = BLOCKS.get(model)
    if cls is None:
        return None, f"its FMU ({model}) is not one of the package's blocks, whose geometry is known"
    if cls.draws is None:
        return None, ""  # a controller, a friction or a cylinder's hydraulics: nothing of its own to draw
    params = {k: v for k, v in (spec.get("parameters") or {}).items() if k in {q.name for q in cls.parameters}}
    try:
        return cls(**params), ""
    except Exception as exc:  # a block refusing the run's parameters says why in one sentence
        return None, f"cannot be made again from the run's parameters ({exc})"


def _mount_pose(df: pd.DataFrame, times: np.ndarray, t: np.ndarray):
    """``(R, p)``: the orientation ``R_1^0`` (frames, 3, 3) and the position
    [m] (frames, 3) of the mount in Frame 0, from the component that
    outputs them (a vessel), else the identity at the origin."""
    source = next((c[: -len(".mount_R_11")] for c in df.columns if c.endswith(".mount_R_11")), None)
    n = times.size
    if source is None:
        return np.broadcast_to(np.eye(3), (n, 3, 3)).copy(), np.zeros((n, 3))
    R = np.stack([np.interp(times, t, df[f"{source}.mount_R_{i}{j}"]) for i in (1, 2, 3) for j in (1, 2, 3)],
                 axis=1).reshape(n, 3, 3)
    # interpolated rotations are not quite rotations: the nearest one (polar decomposition)
    U, _, Vt = np.linalg.svd(R)
    R = U @ Vt
    columns = [f"{source}.mount_p_{c}" for c in "xyz"]
    p = (np.column_stack([np.interp(times, t, df[c]) for c in columns]) if all(c in df for c in columns)
         else np.zeros((n, 3)))
    return R, p


def _to_ground(points: np.ndarray, R: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``points`` (frames, k, 3) in the mount frame carried to Frame 0."""
    return p[:, None, :] + np.einsum("fij,fkj->fki", R, points)


def _water(outline: np.ndarray) -> np.ndarray:
    """The calm water's plane drawn as a rectangle around the hull, one and
    a half times its extent (1, 5, 3) [m]."""
    finite = outline[np.isfinite(outline).all(axis=1)]
    lo, hi = (finite.min(axis=0), finite.max(axis=0)) if finite.size else (-np.ones(3), np.ones(3))
    c, h = (lo + hi) / 2, 0.75 * (hi - lo)
    corners = [[c[0] + sx * h[0], c[1] + sy * h[1], 0.0] for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1))]
    return np.array([corners])


def _add_wrench(scene: Scene, df: pd.DataFrame, t: np.ndarray, R: np.ndarray) -> None:
    """The interface wrench (the first crane's ``W_mount_*``) into ``scene``."""
    prefix = next((c[: -len("_fz")] for c in df.columns if c.endswith(".W_mount_fz")), None)
    if prefix is None or not all(f"{prefix}_{c}" in df for c in WRENCH):
        scene.notes.append("no interface wrench recorded (W_mount_*): no arrows")
        return
    scene.wrench_name = prefix
    scene.wrench = pd.DataFrame({"time": t, **{c: df[f"{prefix}_{c}"].to_numpy() for c in WRENCH}})
    at = np.column_stack([np.interp(scene.times, t, scene.wrench[c]) for c in WRENCH])
    scene.moment = np.einsum("fij,fj->fi", R, at[:, :3])
    scene.force = np.einsum("fij,fj->fi", R, at[:, 3:])


def reach(scene: Scene) -> float:
    """The largest distance [m] of a crane's point from the mount over the
    run (1 m where nothing is drawn): the scale of the scene's arrows."""
    d = [np.nanmax(np.linalg.norm(part.points - scene.mount[:, None, :], axis=2))
         for part in scene.parts if part.kind != "hull"]
    return float(max(d)) if d and math.isfinite(max(d)) and max(d) > 0 else 1.0
