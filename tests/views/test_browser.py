"""The animation's page in a real browser: headless Chromium (the Debian
package ``chromium``; under CI it must be there) opens it, plays it, and
its screenshots show the crane where the kinematics put it: pixels of the
links' colour at the projection, computed here from the scene, of the
king's top and the jib's tip, at the start and after the crane has
slewed."""
import re
import shutil
import subprocess

import numpy as np
import pytest
from synthetic_runs import COMPONENTS, knuckle_boom_on_vessel

from crane_cosim.views.page import STYLE, write_page
from crane_cosim.views.scene import scene_of
from limits import HUNG

#: the screenshot's size [px]
SIZE = (1000, 900)
#: a pixel is the part's within this distance in RGB: a line's core is drawn
#: in its colour exactly, antialiased edges and the labels' text are not
NEAR = 8.0
#: seen from far out on +x0, looking along -x0, z0 up, without perspective:
#: the screen's right is +y0, its up +z0
SIDE = dict(eye=dict(x=3.0, y=0.0, z=0.0), up=dict(x=0.0, y=0.0, z=1.0), center=dict(x=0, y=0, z=0),
            projection=dict(type="orthographic"))


def _chromium() -> str:
    path = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    if path is None:
        pytest.skip("no Chromium: install the Debian package chromium (apt-get install chromium)")
    return path


def _browser(url, *flags) -> subprocess.CompletedProcess:
    return subprocess.run([_chromium(), "--headless", "--no-sandbox", "--use-angle=swiftshader",
                           "--enable-unsafe-swiftshader", "--hide-scrollbars", f"--window-size={SIZE[0]},{SIZE[1]}",
                           "--virtual-time-budget=4000", *flags, url], capture_output=True, text=True, timeout=HUNG)


def _pixels(path, colour) -> np.ndarray:
    """(row, column) of the screenshot's pixels of ``colour`` (hex) in the 3-D
    view (left of the legend, above the strip)."""
    from matplotlib.image import imread
    rgb = imread(path)[..., :3] * 255.0
    target = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], float)
    mask = np.linalg.norm(rgb - target, axis=2) < NEAR
    mask[int(0.62 * SIZE[1]):] = False
    mask[:, int(0.8 * SIZE[0]):] = False
    return np.argwhere(mask)


@pytest.fixture(scope="module")
def still_vessel(tmp_path_factory):
    """The made-up run with the vessel level and still: the knuckle boom
    crane slewing 0.3 rad/s and stroking on it; its page from the side."""
    df = knuckle_boom_on_vessel(duration=4.0)
    for name in ("roll", "pitch", "yaw"):
        df[f"vessel.q_{name}"] = 0.0
    for i in (1, 2, 3):
        for j in (1, 2, 3):
            df[f"vessel.mount_R_{i}{j}"] = float(i == j)
    df["vessel.mount_p_x"], df["vessel.mount_p_y"], df["vessel.mount_p_z"] = 0.0, 0.0, 15.0
    scene = scene_of(df, COMPONENTS, "still", fps=25.0)
    folder = tmp_path_factory.mktemp("page")
    return scene, write_page(scene, folder / "animation.html", camera=SIDE), folder


def _projection(scene, k, shot):
    """The screen (row, column) of Frame-0 points at frame ``k``: the hull's
    box, whose y0 and z0 extents the grey pixels span, calibrates the
    linear map of the orthographic side view."""
    hull = next(p for p in scene.parts if p.kind == "hull").points[k]
    hull = hull[np.isfinite(hull[:, 0])]
    grey = _pixels(shot, STYLE["hull"][0])
    (r0, c0), (r1, c1) = grey.min(axis=0), grey.max(axis=0)
    (y0, z0), (y1, z1) = hull[:, 1:].min(axis=0), hull[:, 1:].max(axis=0)

    def at(point):
        return np.array([r1 - (point[2] - z0) / (z1 - z0) * (r1 - r0), c0 + (point[1] - y0) / (y1 - y0) * (c1 - c0)])
    return at


@pytest.mark.parametrize("t", [0.0, 3.0])
def test_a_screenshot_shows_the_crane_where_the_kinematics_put_it(still_vessel, t):
    """At t = 0 and after 3 s (the crane slewed 0.9 rad): the link colour
    within 6 px of the projected king top and jib tip (the lines are 9 px
    wide), and, at 3 s, none where the jib tip was at the start."""
    scene, page, folder = still_vessel
    shot = folder / f"at_{t:g}.png"
    done = _browser(f"file://{page}#t={t:g}", f"--screenshot={shot}")
    assert shot.exists(), done.stderr[-2000:]
    k = int(np.argmin(abs(scene.times - t)))
    at = _projection(scene, k, shot)
    blue = _pixels(shot, STYLE["link"][0])
    parts = {p.name: p.points for p in scene.parts}
    for point in (parts["king"][k, 1], parts["jib"][k, 1]):
        assert np.linalg.norm(blue - at(point), axis=1).min() < 6.0, (point, at(point))
    if t > 0:
        start = at(parts["jib"][0, 1])
        assert np.linalg.norm(at(parts["jib"][k, 1]) - start) > 30  # it moved on the screen
        assert np.linalg.norm(blue - start, axis=1).min() > 6.0


def test_the_page_plays(still_vessel):
    """Opened at #play, the page steps through its frames: after four
    seconds of the browser's virtual time (in software WebGL, a few frames'
    redraws) the slider shows a later time than the start."""
    _, page, _ = still_vessel
    done = _browser(f"file://{page}#play", "--dump-dom")
    shown = re.findall(r"t = ([0-9.]+) s", done.stdout)
    assert shown and float(shown[-1]) > 0, done.stdout[-500:]
