"""The animation as a video (cosim/views/video.py): MP4 at 25 frames a
second of real time (or --speed times it), a frame per frame of the scene,
the crane's links in them; an animated GIF the same; and the sentences for
what cannot be written."""
import errno
import sys

import numpy as np
import pytest
from PIL import Image
from synthetic_runs import COMPONENTS, knuckle_boom_on_vessel

from crane_cosim.errors import CraneCosimError
from crane_cosim.views.page import STYLE
from crane_cosim.views.scene import scene_of
from crane_cosim.views.video import GIF_SIZE, MP4_SIZE, VIDEO_FPS, VIDEO_MISSING, write_video


def _scene(speed=1.0):
    return scene_of(knuckle_boom_on_vessel(duration=2.0), COMPONENTS, "made up", fps=VIDEO_FPS / speed)


def _link_pixels(rgb, near=60.0):
    """How many pixels of the links' colour (H.264 and the GIF's palette
    shift it a little)."""
    target = np.array([int(STYLE["link"][0][i:i + 2], 16) for i in (1, 3, 5)], float)
    return int((np.linalg.norm(rgb.astype(float) - target, axis=2) < near).sum())


@pytest.mark.parametrize("speed", [1.0, 2.0])
def test_mp4_plays_the_run_at_real_time_or_the_speed_asked(tmp_path, speed):
    import imageio_ffmpeg
    scene = _scene(speed)
    path = write_video(scene, tmp_path / "run.mp4")
    reader = imageio_ffmpeg.read_frames(str(path))
    meta = reader.__next__()
    frames = [np.frombuffer(f, np.uint8).reshape(meta["size"][1], meta["size"][0], 3) for f in reader]
    assert tuple(meta["size"]) == MP4_SIZE and meta["fps"] == VIDEO_FPS
    # 2 s of the run in 2 s of video, or in 1 s at twice real time
    assert len(frames) == len(scene.times) == round(2.0 * VIDEO_FPS / speed) + 1
    assert all(_link_pixels(f) > 100 for f in frames)  # measured at least 193, the boom seen end on
    assert np.abs(frames[0].astype(int) - frames[-1].astype(int)).sum() > 0  # the crane moved


def test_a_gif_holds_every_frame_for_a_frame_of_real_time(tmp_path):
    scene = _scene()
    image = Image.open(write_video(scene, tmp_path / "run.gif"))
    assert image.size == GIF_SIZE and image.n_frames == len(scene.times) and image.info["duration"] == 40
    image.seek(image.n_frames - 1)
    assert _link_pixels(np.asarray(image.convert("RGB"))) > 100


def test_without_imageio_ffmpeg_mp4_is_refused_with_the_way_out(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(CraneCosimError) as e:
        write_video(_scene(), tmp_path / "run.mp4")
    assert str(e.value) == VIDEO_MISSING and not (tmp_path / "run.mp4").exists()


def test_when_ffmpeg_stops_the_video_fails_in_one_sentence(tmp_path):
    """ffmpeg refusing its output (here in a folder that does not exist)
    stops the frames' feed and is said, naming the video, not left hanging
    or a broken pipe's traceback."""
    with pytest.raises(CraneCosimError) as e:
        write_video(_scene(), tmp_path / "gone" / "run.mp4")
    assert str(e.value) == (f"writing {tmp_path / 'gone' / 'run.mp4'} failed: ffmpeg stopped (its reason is "
                            f"printed above)")


def test_a_video_the_disk_has_no_room_for_leaves_no_file_under_its_name(tmp_path, monkeypatch):
    """A full disk while the GIF is written (a part of its bytes written,
    then ENOSPC): the error goes up, and neither the GIF cut short nor its
    temporary part is left."""
    def full(image, path, *args, **kwargs):
        with open(path, "wb") as f:
            f.write(b"GIF89a")
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(Image.Image, "save", full)
    with pytest.raises(OSError, match="No space left on device"):
        write_video(_scene(), tmp_path / "run.gif")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("box, zoomed", [((66.0, 27.0, 23.0), True), ((4.0, 4.0, 8.0), False)])
def test_the_view_fills_its_area_without_leaving_it(box, zoomed):
    """A long hull's box (the barge's scene: 66 x 27 x 23 m) is zoomed until
    its projection fills four fifths of the 3-D view's area along one side
    (the rest for the tick labels); a tall crane's, which matplotlib's zoom
    of 1 already fits, is left as it is."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from mpl_toolkits.mplot3d import proj3d

    from crane_cosim.views.video import _zoom_to_fill
    fig = plt.figure(figsize=(9.6, 5.44), dpi=100)
    canvas, area = FigureCanvasAgg(fig), [0.0, 0.27, 1.0, 0.68]
    ax = fig.add_axes(area, projection="3d")
    lo, hi = -np.array(box) / 2, np.array(box) / 2
    ax.set(xlim=(lo[0], hi[0]), ylim=(lo[1], hi[1]), zlim=(lo[2], hi[2]))
    ax.view_init(elev=25, azim=-60)
    zoom = _zoom_to_fill(canvas, ax, area, lo, hi)
    assert (zoom > 1.2) if zoomed else (zoom == 1.0)
    ax.set_box_aspect(hi - lo, zoom=zoom)
    canvas.draw()
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    xs, ys, _ = proj3d.proj_transform(*corners.T, ax.get_proj())
    px = ax.transData.transform(np.column_stack([xs, ys]))
    room = np.array([area[2] * 960, area[3] * 544])
    filled = np.ptp(px, axis=0) / room
    # the zoom scales the projection in proportion: 0.8 of the area along
    # its tighter side (measured 0.8015), inside it; the tall box fills its
    # height at matplotlib's zoom already (1.005 of it), left so
    if zoomed:
        assert filled.max() == pytest.approx(0.8, abs=0.003)
        assert np.all(px.min(axis=0) >= [0.0, area[1] * 544]) and np.all(px.max(axis=0) <= [960, 0.95 * 544])
    else:
        assert filled.max() > 0.8
