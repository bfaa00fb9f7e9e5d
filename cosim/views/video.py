"""The animation of a run as a video: the scene of ``page.py`` drawn frame
by frame by matplotlib (the 3-D view, the interface wrench's arrows, the
strip of its components with a cursor) and encoded as MP4 (H.264, by the
ffmpeg that imageio-ffmpeg brings, the optional extra ``video``) or as an
animated GIF (by Pillow, which matplotlib brings), at :data:`VIDEO_FPS`
frames a second of the video: real time, or ``speed`` times it when the
scene's frames are that far apart."""
from __future__ import annotations

import queue
import threading
from pathlib import Path

import numpy as np

from ..errors import CraneCosimError
from ..files.results import replaced
from .page import STYLE, arrow_scales, moving_lines, moving_traces, scene_limits, strip_units
from .scene import Scene

__all__ = ["write_video", "write_frame", "VIDEO_FPS", "VIDEO_MISSING"]

#: frames a second of a video
VIDEO_FPS = 25.0
#: the video's size [px] (multiples of 16, as H.264 encoders want): MP4, and the smaller GIF
MP4_SIZE, GIF_SIZE = (960, 544), (800, 448)
VIDEO_MISSING = ("writing MP4 needs imageio-ffmpeg, the optional extra video (pip install \"crane-cosim[video]\"); "
                 "or write a .gif")


def write_video(scene: Scene, path) -> Path:
    """Write ``scene`` to ``path`` (``.mp4`` or ``.gif``), a frame of the
    video per frame of the scene; returns the path."""
    path = Path(path)
    mp4 = path.suffix.lower() == ".mp4"
    if mp4:
        try:
            # imageio-ffmpeg, an optional extra, only where a video is made
            import imageio_ffmpeg
        except ImportError:
            raise CraneCosimError(VIDEO_MISSING) from None
    size = MP4_SIZE if mp4 else GIF_SIZE
    frames = _frames(scene, size)
    # written under a temporary name, then renamed: a full disk or a failed
    # encoder leaves no video cut short under the name
    if mp4:
        return replaced(path, lambda part: _encode_mp4(frames, part, size, imageio_ffmpeg, path))
    else:
        # Pillow only where a video is made
        from PIL import Image

        # one palette, the first frame's (its lines, the axes, the strip: the
        # colours every frame has), quicker than one of each frame's own
        images, palette = [], None
        for rgba in frames:
            image = Image.fromarray(rgba[..., :3])
            if palette is None:
                palette = image.quantize(colors=128, dither=Image.Dither.NONE)  # 64 greyed the links' blue
            images.append(image.quantize(palette=palette, dither=Image.Dither.NONE))
        return replaced(path, lambda part: images[0].save(
            part, format="GIF", save_all=True, append_images=images[1:], duration=int(round(1000 / VIDEO_FPS)),
            loop=0, optimize=False))


def _encode_mp4(frames, path: Path, size, imageio_ffmpeg, named: Path) -> None:
    """H.264 of the RGBA ``frames`` at ``path`` (``named`` in messages: the
    file it becomes).  ffmpeg reads its pipe only
    between frames it encodes, so a thread of ours feeds it: the drawing of
    the next frames goes on meanwhile (on two cores 4.0 s against 6.0 for
    the barge's 20 s run)."""
    # the container named, as the path may be a temporary name without .mp4
    writer = imageio_ffmpeg.write_frames(str(path), size, fps=VIDEO_FPS, codec="libx264", pix_fmt_in="rgba",
                                         pix_fmt_out="yuv420p", quality=7, macro_block_size=16,
                                         ffmpeg_log_level="error", output_params=["-preset", "veryfast", "-f", "mp4"])
    writer.send(None)
    pending, failed = queue.Queue(maxsize=8), []

    def feed():
        try:
            for data in iter(pending.get, None):
                writer.send(data)
        except Exception as error:  # the encoder's failure, raised below in the caller's thread
            failed.append(error)

    feeder = threading.Thread(target=feed, name="mp4 encoder feed", daemon=True)
    feeder.start()
    try:
        for rgba in frames:
            data = rgba.tobytes()  # the canvas's buffer is redrawn for the next frame
            while feeder.is_alive():
                try:
                    pending.put(data, timeout=0.5)
                    break
                except queue.Full:
                    continue
            if failed:
                break
    finally:
        if feeder.is_alive():
            pending.put(None)
        feeder.join()
    try:
        if failed:
            raise failed[0]
        writer.close()
    except (OSError, RuntimeError):  # imageio-ffmpeg's when ffmpeg stops; ffmpeg's reason went to stderr
        raise CraneCosimError(f"writing {named} failed: ffmpeg stopped (its reason is printed above)") from None


def write_frame(scene: Scene, time: float, path, size=MP4_SIZE) -> Path:
    """Write the video's frame nearest ``time`` [s] as a PNG at ``path`` (an
    example's picture); returns the path."""
    # Pillow only where a video is made
    from PIL import Image
    k = int(np.argmin(np.abs(scene.times - time)))
    Image.fromarray(next(_frames(scene, size, only=k))[..., :3]).save(path, optimize=True)
    return Path(path)


def _frames(scene: Scene, size, only: int | None = None):
    """The RGBA images (height, width, 4) of the scene's frames, one after
    the other (or of frame ``only``): one figure, its lines' data changed
    each frame; each image is the canvas's own buffer, good until the next
    is asked for."""
    # matplotlib only where a video is made
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    dpi = 100 * size[0] / 1280  # the text in proportion to the picture, whatever its size
    fig = plt.figure(figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
    canvas = FigureCanvasAgg(fig)
    strip = scene.wrench is not None
    area = [0.0, 0.27 if strip else 0.0, 1.0, 0.68 if strip else 0.92]
    ax = fig.add_axes(area, projection="3d")
    lo, hi = scene_limits(scene)
    ax.set(xlim=(lo[0], hi[0]), ylim=(lo[1], hi[1]), zlim=(lo[2], hi[2]), xlabel="x0 [m]", ylabel="y0 [m]",
           zlabel="z0 [m]")
    ax.view_init(elev=25, azim=-60)
    ax.set_box_aspect(hi - lo, zoom=_zoom_to_fill(canvas, ax, area, lo, hi))
    for part in scene.static:
        colour, _ = STYLE[part.kind]
        ax.plot(*part.points[0].T, color=colour, lw=1)
    # a third of the page's widths (matplotlib's points against plotly's pixels)
    traces = [ax.plot([], [], [], color=STYLE[kind][0], lw=STYLE[kind][1] / 3, label=name)[0]
              for name, kind in moving_traces(scene)]
    scales = arrow_scales(scene)
    # the title drawn once; each frame writes only its time beside it
    fig.text(0.5, 0.975, f"{scene.title}   t = ", ha="right", va="top", fontsize="large")
    clock = fig.text(0.5, 0.975, "", ha="left", va="top", fontsize="large", family="monospace")
    cursors = _strip(fig, scene) if strip else []
    moving = traces + cursors + [clock]
    # the axes, the static parts and the strip drawn once; each frame draws
    # only what moves over them (a whole 3-D redraw takes five times longer)
    for artist in moving:
        artist.set_animated(True)
    canvas.draw()
    background = canvas.copy_from_bbox(fig.bbox)
    for k, t in enumerate(scene.times):
        if only is not None and k != only:
            continue
        canvas.restore_region(background)
        for trace, points in zip(traces, moving_lines(scene, k, scales)):
            trace.set_data_3d(*points.T)
        for cursor in cursors:
            cursor.set_xdata([t, t])
        clock.set_text(f"{t:6.2f} s")
        for artist in moving:
            (artist.axes or fig).draw_artist(artist)
        yield np.asarray(canvas.buffer_rgba())
    plt.close(fig)


def _zoom_to_fill(canvas, ax, area, lo, hi) -> float:
    """The zoom at which the 3-D view of the box from ``lo`` to ``hi`` [m]
    fills ``area`` (the figure's fractions its axes were given), a fifth
    of it left for the tick labels: a long hull seen from one side leaves
    most of it empty at matplotlib's zoom of 1.  Between 1 and 2."""
    # matplotlib only where a video is made
    from mpl_toolkits.mplot3d import proj3d
    ax.set_box_aspect(hi - lo)
    canvas.draw()
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    xs, ys, _ = proj3d.proj_transform(*corners.T, ax.get_proj())
    seen = np.ptp(ax.transData.transform(np.column_stack([xs, ys])), axis=0)  # [px]
    room = np.array([area[2] * canvas.figure.bbox.width, area[3] * canvas.figure.bbox.height])
    return float(np.clip(0.8 * (room / seen).min(), 1.0, 2.0))


def _strip(fig, scene: Scene) -> list:
    """The wrench's forces and moments under the view, a cursor on each."""
    w = scene.wrench
    cursors = []
    for i, (group, si, label, size) in enumerate(strip_units(w)):
        what = "force" if si == "N" else "moment"
        ax = fig.add_axes([0.07 + 0.48 * i, 0.06, 0.4, 0.17])
        for c in group:
            ax.plot(w["time"], w[c] / size, lw=0.8, label=c[1])
        ax.set_xlabel("time [s]", fontsize=8)
        ax.set_ylabel(f"{what} [{label}]", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7, ncol=3, loc="upper right")
        ax.grid(True, alpha=0.3)
        cursors.append(ax.axvline(scene.times[0], color="black", lw=0.8))
    return cursors
