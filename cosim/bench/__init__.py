"""Benchmarks: real-time factors and the master's overhead per example (``rates.py``),
our master beside libcosim and ecos (``bench_hosts.py``), portable FMUs (``portable_bench.py``),
drawing a run (``animation_bench.py``), each block's own time a step (``kernel_time.py``),
and the floor of an FMU call (``floor.py``); ``crane-cosim bench``, figures in docs/benchmarks.md."""
