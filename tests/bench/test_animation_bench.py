"""``crane-cosim bench --animation``: a record per scenario with the time of
each form of the animation and the page's sizes (the speed itself is the
benchmark's to say, docs/benchmarks.md, not a test's)."""
import json

from crane_cosim.cli import main


def test_bench_animation_records(capsys):
    assert main(["bench", "--animation", "--json", "--stop-time", "0.2", "--scenario", "knuckle_boom"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["scenario"] for r in records] == ["knuckle_boom"]
    r = records[0]
    assert r["stop_time"] == 0.2 and all(r[k] > 0 for k in ("page_s", "mp4_s", "gif_s"))
    # plotly's JavaScript (4.8 MB) and the frames, more of them at 50 a second
    assert 4.5 < r["page_mb"] < r["page_50fps_mb"] < 6
