"""Physics blocks, no FMI: each block in numpy/scipy, the reference, with its
hot paths compiled by numba beside it (``*_kernels.py``, loaded by
``jit.py``).  Each block declares its ports once (``block.py``); ``fmus/``
and ``cosim/`` are generated from that.  Every block by model name:
``registry.BLOCKS``.  This file imports nothing, so that an FMU's process,
importing its own block, loads no other."""
