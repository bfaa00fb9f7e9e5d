"""What the other hosts record of a system, for comparing with our master's
results: the time and the Real outputs (``hosts/libcosim.py`` and
``hosts/ecos.py`` read Real variables only)."""
from crane_cosim.runtime import plan_of


def host_columns(system, results) -> list[str]:
    """The columns of our master's ``results`` of ``system`` that a host
    records, in their order: ``time`` and the Real outputs."""
    real = {f"{p.name}.{v.name}" for p in plan_of(system).parts for v in p.outputs if v.type == "Real"}
    return [c for c in results.columns if c == "time" or c in real]
