"""References shared by the tests of the co-simulation against the monolithic run."""
import re

from made_once import made_once
from crane_cosim.files.results import read_results
from crane_cosim.monolithic.reference import run_monolithic


def monolithic_runs(tmp_path_factory, worker_id: str, name: str, system_of):
    """``get(key)``: the monolithic run of ``system_of(key)`` as a DataFrame,
    computed once per key for the whole session, whichever pytest-xdist
    worker asks first (:func:`made_once`; ``name`` tells the sets of
    references apart), and read once per worker."""
    cache = {}

    def run(key, out):
        assert run_monolithic(system_of(key), out, progress=False).status == "completed"

    def get(key):
        if key not in cache:
            slug = re.sub(r"[^\w.-]", "_", str(key))
            folder = made_once(tmp_path_factory, worker_id, f"monolithic-{name}-{slug}", lambda out: run(key, out))
            cache[key] = read_results(folder)
        return cache[key]
    return get
