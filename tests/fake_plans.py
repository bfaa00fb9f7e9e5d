"""Plans of small systems made by hand, for the tests of the algorithms'
planning (which components step again, how many passes, what is refused):
each component has a Real input per component it reads and one Real
output ``y``, which depends on its inputs directly or not at all."""
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from crane_cosim.runtime.model import Capabilities, ModelInfo, VariableInfo
from crane_cosim.runtime.plan import Part, Plan, Route, Settings


def model(name, can_roll_back=True, feedthrough=True, interpolates=True, fmi_version="2.0", can_vary_step=True):
    u = VariableInfo("u", "Real" if fmi_version == "2.0" else "Float64", "input")
    y = VariableInfo("y", u.type, "output", initial="calculated")
    return ModelInfo(Path(f"{name}.fmu"), fmi_version, name, name, "", "test", {"u": u, "y": y},
                     {"y": None if feedthrough else ()},
                     Capabilities(can_roll_back, interpolates and fmi_version == "2.0", can_vary_step))


def route(src):
    return Route(src, np.array([0]), np.array([0]))


def plan(models, routes: dict, algorithm="iterated-midpoint", iterations=None, extrapolation="none", every=None):
    """A plan of ``models`` (in stepping order) where ``routes`` maps each
    component's name to the indices of the components it reads."""
    parts = []
    for k, m in enumerate(models):
        sources = routes.get(m.model_name, [])
        inputs = [VariableInfo(f"u{j}", m.variables["u"].type, "input") for j in range(len(sources))]
        parts.append(Part(k, m.model_name, m.path, m, {}, (every or {}).get(m.model_name, 1),
                          inputs=inputs, outputs=[m.variables["y"]]))
    all_routes = [[Route(src, np.array([0]), np.array([j])) for j, src in enumerate(routes.get(m.model_name, []))]
                  for m in models]
    settings = Settings(0.0, 1.0, 0.1, algorithm, "inertia", extrapolation, iterations)
    return Plan("S", settings, parts, [], all_routes, [[] for _ in models], 10)


def instances(plan):
    """Stand-ins for the instances of ``plan``: what an algorithm reads of
    them when it is set up."""
    return [SimpleNamespace(name=p.name, y=np.zeros(1), output_units=[""], may_roll_back=False,
                            smooth=np.ones(len(p.inputs), bool)) for p in plan.parts]
