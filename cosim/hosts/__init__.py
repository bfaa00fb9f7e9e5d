"""The other ways to run a system: our monolithic reference
(``monolithic.py``, the blocks as one ODE), the other masters
(``libcosim.py``, ``ecos.py``: each ``run_<host>(system, outputs,
log_level, timing)``, a DataFrame of ``time`` and the outputs), and a
block served to a UDP bridge (``serve.py``)."""
from .ecos import run_ecos
from .libcosim import run_libcosim

#: the other masters a system runs under, by name (``crane-cosim bench --hosts``)
OTHER_MASTERS = {"libcosim": run_libcosim, "ecos": run_ecos}

__all__ = ["OTHER_MASTERS"]
