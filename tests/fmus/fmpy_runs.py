"""FMUs run by FMPy to the end of their DefaultExperiment, in whatever
Python runs this script (test_portable.py runs it under other Pythons than
the building one, with nothing of this project installed).

Reads a JSON list of ``[fmu, start_values]`` on stdin; prints a JSON list
of ``{output name: value at the end}``, one per FMU.
"""
import json
import sys

import fmpy
from fmpy.model_description import read_model_description


def final_outputs(fmu: str, start_values: dict) -> dict:
    md = read_model_description(fmu)
    outputs = [v.name for v in md.modelVariables if v.causality == "output" and v.type == "Real"]
    h = float(md.defaultExperiment.stepSize)
    # in a co-simulation FMPy steps at the output interval
    result = fmpy.simulate_fmu(fmu, stop_time=float(md.defaultExperiment.stopTime), output=outputs,
                               output_interval=h, start_values=start_values)
    return {name: float(result[name][-1]) for name in outputs}


if __name__ == "__main__":
    jobs = json.load(sys.stdin)
    print(json.dumps([final_outputs(fmu, values) for fmu, values in jobs]))
