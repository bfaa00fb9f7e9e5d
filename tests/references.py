"""References shared by the tests of the co-simulation against the monolithic run."""
from crane_cosim.files.results import read_results


def monolithic_runs(tmp_path_factory, system_of):
    """``get(key)``: the monolithic run of ``system_of(key)`` as a DataFrame,
    computed once per key (a fixture's reference for several tests)."""
    from crane_cosim.hosts.monolithic import run_monolithic
    cache = {}

    def get(key):
        if key not in cache:
            out = tmp_path_factory.mktemp("monolithic")
            assert run_monolithic(system_of(key), out, progress=False).status == "completed"
            cache[key] = read_results(out)
        return cache[key]
    return get
