"""The master algorithms, one class each behind one interface
(:class:`~.base.Algorithm`); ``docs/master.md`` says how to add one.

* ``jacobi`` and ``gauss-seidel`` (``explicit.py``): every component steps
  once, its inputs held over the step; components may have steps of their
  own, multiples of the base step;
* ``iterated-midpoint`` (``midpoint.py``): inputs held at their sources'
  mid-step values, the loop stepped again until they settle;
* ``iterated-quadratic`` (``quadratic.py``): inputs on the quadratic through
  their sources' values at the start, middle and end of the step.
"""
from .base import ACCURACY, SETTLE, Algorithm
from .explicit import GaussSeidel, Jacobi
from .midpoint import IteratedMidpoint
from .quadratic import IteratedQuadratic

#: every algorithm by its name
ALGORITHMS = {cls.name: cls for cls in (Jacobi, GaussSeidel, IteratedMidpoint, IteratedQuadratic)}
#: the algorithms that step components again (re-step passes)
ITERATED = tuple(name for name, cls in ALGORITHMS.items() if issubclass(cls, IteratedMidpoint))

__all__ = ["ACCURACY", "SETTLE", "Algorithm", "ALGORITHMS", "ITERATED", "Jacobi", "GaussSeidel", "IteratedMidpoint", "IteratedQuadratic"]
