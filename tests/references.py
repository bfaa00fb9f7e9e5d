"""References shared by the tests of the co-simulation against the monolithic run."""


def monolithic_runs(tmp_path_factory, system_of):
    """``get(key)``: the monolithic run of ``system_of(key)`` as a DataFrame,
    computed once per key (a fixture's reference for several tests)."""
    import pandas as pd
    from crane_cosim.hosts.monolithic import run_monolithic
    cache = {}

    def get(key):
        if key not in cache:
            out = tmp_path_factory.mktemp("monolithic")
            assert run_monolithic(system_of(key), out, progress=False).status == "completed"
            cache[key] = pd.read_csv(out / "results.csv")
        return cache[key]
    return get
