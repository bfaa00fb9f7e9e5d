"""A recorded run as a scene (cosim/views/scene.py): the crane carried to
Frame 0 by the mount's recorded pose, the vessel's hull with it, the
interface wrench turned into Frame 0, and what cannot be drawn named."""
import numpy as np
import pytest
from synthetic_runs import COMPONENTS, knuckle_boom_on_vessel, vessel

from crane_cosim.blocks.screw import rot_zyx
from crane_cosim.errors import CraneCosimError
from crane_cosim.views.scene import Drawing, scene_of


@pytest.fixture(scope="module")
def run():
    df = knuckle_boom_on_vessel()
    return df, scene_of(df, COMPONENTS, "made up", fps=25.0)


def _at(df, column, times):
    return np.interp(times, df["time"], df[column])


def test_frames_at_the_rate_asked_and_the_last_time():
    df = knuckle_boom_on_vessel(duration=1.01)
    assert np.allclose(scene_of(df, COMPONENTS, "", fps=10.0).times, [0, .1, .2, .3, .4, .5, .6, .7, .8, .9, 1, 1.01])


def test_the_hull_turns_about_the_rotation_point_by_the_recorded_angles(run):
    """The spring vessel's box is drawn about its centre of gravity, which
    the recorded roll, pitch and yaw carry to R(q) cog (Cibicik & Egeland
    2018: the vessel turns about the origin), though the drawing takes the
    mount's recorded pose, a path of its own (bound: the 1e-9 m to which
    the corners are rounded to find the eight)."""
    df, scene = run
    hull = next(p for p in scene.parts if p.kind == "hull").points
    cog = np.array([vessel().p.cog_x, vessel().p.cog_y, vessel().p.cog_z])
    R = np.array([rot_zyx(*(_at(df, f"vessel.q_{a}", [t])[0] for a in ("roll", "pitch", "yaw"))) for t in scene.times])
    # the mean of the box's eight corners (each drawn more than once)
    centres = np.array([np.unique(np.round(frame[np.isfinite(frame[:, 0])], 9), axis=0).mean(axis=0)
                        for frame in hull])
    assert np.abs(centres - np.einsum("fij,j->fi", R, cog)).max() < 1e-9


def test_the_crane_stands_on_the_mount_and_turns_with_it(run):
    """The king's foot is the recorded mount position; the king's axis is
    the mount's z axis, the third column of the recorded R_1^0."""
    df, scene = run
    king = next(p for p in scene.parts if p.name == "king").points
    assert np.abs(king[:, 0] - scene.mount).max() < 1e-12
    z1 = np.column_stack([_at(df, f"vessel.mount_R_{i}3", scene.times) for i in (1, 2, 3)])
    axis = (king[:, 1] - king[:, 0]) / np.linalg.norm(king[:, 1] - king[:, 0], axis=1)[:, None]
    assert np.abs(axis - z1 / np.linalg.norm(z1, axis=1)[:, None]).max() < 1e-9


def test_the_wrench_in_frame_zero_and_in_full_in_the_strip(run):
    df, scene = run
    R = np.array([rot_zyx(*(_at(df, f"vessel.q_{a}", [t])[0] for a in ("roll", "pitch", "yaw"))) for t in scene.times])
    f = np.column_stack([_at(df, f"crane.W_mount_f{c}", scene.times) for c in "xyz"])
    assert np.abs(scene.force - np.einsum("fij,fj->fi", R, f)).max() < 1e-6 * np.abs(f).max()
    assert len(scene.wrench) == len(df) and scene.wrench_name == "crane.W_mount"


def test_what_is_not_drawn_is_named():
    df = knuckle_boom_on_vessel(duration=0.1)
    foreign = {**COMPONENTS, "gripper": {"source": "fmus/Gripper.fmu", "parameters": {}}}
    assert scene_of(df, foreign, "").notes == ["component gripper: its FMU (Gripper) is not one of the package's "
                                                "blocks, whose geometry is known"]
    with pytest.raises(CraneCosimError, match="component crane did not record q_jib_cyl"):
        scene_of(df.drop(columns="crane.q_jib_cyl"), COMPONENTS, "")


def test_a_payload_hangs_on_its_wire_from_the_cranes_tip():
    """A payload (``draws = "load"``) is drawn where it was recorded, in
    Frame 0, on a wire from the crane's recorded tip; without the tip, its
    wire is named as not drawn."""
    df = knuckle_boom_on_vessel(duration=1.0)
    t = df["time"].to_numpy()
    tip = np.column_stack([9.0 + 0.1 * np.sin(t), 0.2 * t, 4.5 + 0.3 * np.cos(t)])
    for i, c in enumerate("xyz"):
        df[f"crane.tip_p_{c}"] = tip[:, i]
        df[f"payload.payload_p_{c}"] = tip[:, i] - [0.0, 0.3, 10.0][i]
    components = {**COMPONENTS, "payload": {"source": "fmus/Payload.fmu", "parameters": {}}}
    scene = scene_of(df, components, "", fps=10.0)
    wire = next(p for p in scene.parts if p.kind == "wire")
    load = next(p for p in scene.parts if p.kind == "payload")
    for f, time in enumerate(scene.times):
        at_tip = [_at(df, f"crane.tip_p_{c}", time) for c in "xyz"]
        at_load = [_at(df, f"payload.payload_p_{c}", time) for c in "xyz"]
        assert np.allclose(wire.points[f], [at_tip, at_load], rtol=0, atol=1e-12)
        assert np.allclose(load.points[f].mean(axis=0), at_load, rtol=0, atol=1e-12)
    no_tip = df.drop(columns=[f"crane.tip_p_{c}" for c in "xyz"])
    drawing = Drawing(components)
    note = "component payload: no crane's tip recorded (tip_p_*): its wire is not drawn"
    for _ in range(2):  # a live view draws each update with the same drawing: the note once each time
        scene = drawing.scene(no_tip, "", fps=10.0)
        assert not any(p.kind == "wire" for p in scene.parts)
        assert scene.notes.count(note) == 1
