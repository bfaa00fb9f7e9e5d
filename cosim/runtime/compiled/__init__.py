"""The master's steps compiled by numba, calling the FMUs through their
functions' addresses: the iterated midpoint's (``engine.py``)."""
