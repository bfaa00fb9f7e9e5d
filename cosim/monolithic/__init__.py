"""Our monolithic reference: the blocks of a system as one ODE, integrated
in this process (``reference.py``, ``composite.py``; a flexible crane's
loop with its base and friction settled in one compiled call,
``crane_loop.py``), the accuracy reference of every co-simulation."""
from .reference import run_monolithic

__all__ = ["run_monolithic"]
