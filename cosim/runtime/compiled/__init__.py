"""The master's steps compiled by numba, calling the FMUs through their
functions' addresses: the iterated midpoint's and the iterated quadratic's
(``engine.py``).  Their machine code is cached per content of the modules
here (``cache.py``), installed before any of them is loaded."""
from .cache import install as _install

_install()
