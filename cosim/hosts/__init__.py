"""Other programs that run a system or a block: the other masters
(``libcosim.py``, ``ecos.py``: each ``run_<host>(system, outputs,
log_level, timing)``, a DataFrame of ``time`` and the outputs), and a
block served to a UDP bridge (``serve.py``).  Our own monolithic
reference is ``crane_cosim.monolithic``."""
from .ecos import run_ecos
from .libcosim import run_libcosim

#: the other masters a system runs under, by name (``crane-cosim bench --hosts``)
OTHER_MASTERS = {"libcosim": run_libcosim, "ecos": run_ecos}

__all__ = ["OTHER_MASTERS"]
