"""The measures of the friction step-size study (``docs/friction.md``), on
made-up runs whose answers are known by hand."""
import numpy as np
import pandas as pd
import pytest

from crane_cosim.studies.friction_study import chatter, group_errors, markdown


def _run(t, tau, u, q, W):
    return pd.DataFrame({"time": t, "friction.tau_f_boom": tau, "crane.u_boom": u, "crane.q_boom": q,
                         "crane.W_mount_fz": W, "crane.W_mount_fx": np.zeros_like(t)})


def test_chatter_counts_only_the_jumps_while_the_reference_sticks():
    t = np.arange(11) * 1e-3
    u = np.where(t < 4.5e-3, 0.0, 0.1)  # sticks, then slides (above the Stribeck velocity)
    ref = _run(t, np.full(11, 10.0), u, t, np.ones(11))
    tau = np.full(11, 10.0)
    tau[2] = 12.0  # a jump of 2 up and 2 down while sticking
    tau[8] = 20.0  # a larger one while sliding: not chatter
    assert chatter(_run(t, tau, u, t, np.ones(11)), ref) == pytest.approx(2.0 / 10.0)


def test_group_errors_are_rms_over_peak_and_skip_what_stays_at_zero():
    t = np.arange(5) * 1e-3
    ref = _run(t, np.array([0.0, 1, 2, 1, 0]), np.zeros(5), np.ones(5), np.full(5, 4.0))
    run = ref.copy()
    run["friction.tau_f_boom"] += 0.1
    run["crane.W_mount_fx"] = 1e-3  # beside a zero reference: left out, not an infinite ratio
    found = group_errors(run, ref)
    assert found == {"friction": pytest.approx(0.1 / 2), "coordinates": 0.0, "wrench": 0.0}


def test_an_unstable_run_is_named_not_given_a_figure():
    rows = [{"example": "x", "step": 0.02, "friction": 504.7, "coordinates": 5.2, "wrench": 0.5, "chatter": 26.0},
            {"example": "x", "step": 0.5, "diverged": "non-finite"}]
    lines = markdown(rows).splitlines()
    assert lines[2] == "| x | 20 ms | > 100% (unstable) | > 100% (unstable) | 50.00% | > 100% (unstable) |"
    assert lines[3] == "| x | 500 ms | diverged | | | |"
