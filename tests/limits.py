"""How long a test waits for something before it takes it for hung.

Not a measure of speed (the benchmark command measures that): a limit set
by what a quiet machine takes fails on a busy one. One hour is beyond any
single step of the suite on a two-core machine at load 8 (the slowest, a
cold ``build-fmus --portable`` of every FMU, takes minutes there), and
still ends a run that would otherwise hang CI to its own limit.
"""

#: [s] a process, thread or connection a test waits for that is not done
#: by then is hung
HUNG = 3600.0
