"""The co-simulation run-time: a system (``system.py``) resolved once into a
plan (``plan.py``: every FMU described, ``model.py``; every connection,
value and capability checked, ``checks.py``, ``types.py``), run by an
execution (``execution.py``) whose algorithm (``algorithms/``) steps the
FMUs (``instance.py``, ``fmi2.py``, ``fmi3.py``) and whose observers
(``observers/``) record, estimate, pace and report; ``run.py`` puts them
together, with one run configuration (``config.py``).

    from crane_cosim.runtime import RunConfig, System, run_cosim
    run_cosim(system, "results", RunConfig(algorithm="iterated-midpoint"))
"""
from .config import RunConfig
from .plan import plan_of, problems_of, replace_component
from .run import run_cosim
from .system import Component, Connection, System

__all__ = ["RunConfig", "System", "Component", "Connection", "run_cosim", "plan_of", "problems_of",
           "replace_component"]
