"""Read and write SSP 1.0: System Structure Descriptions (``.ssd``),
parameter values (``.ssv``) and SSP archives (``.ssp``).  See ``docs/ssp.md``.

What is written: one ``ssd:System`` with an ``ssd:Component`` per FMU, its
connectors with units, its parameter values, the connections, the units
used, and ``ssd:DefaultExperiment`` with two annotations:
``org.crane-cosim.master`` (step size, algorithm, coupling, input
extrapolation and, when not 1, the iterated midpoint's passes of our master) and ``com.opensimulationplatform`` (the
fixed-step algorithm as OSP libcosim reads it).

* :func:`write_ssd` writes a ``.ssd`` beside the FMUs (``source`` relative to
  the file) with the parameter values inline
  (``ssd:ParameterBinding/ssd:ParameterValues/ssv:ParameterSet``);
* :func:`write_ssp` writes an archive: ``SystemStructure.ssd`` at its root,
  the FMUs under ``resources/`` and one ``resources/<component>.ssv`` per
  component with parameters.  It is byte-reproducible.

Every ``ssv:ParameterSet`` we write is named :data:`PARAMETER_SET`, and each
component has at most one ``ssd:ParameterBinding``: NTNU Ålesund's ecos applies only
the sets whose name is passed to it (merged across components), OSP
libcosim only the first binding of each component, so this is the layout
both apply fully.

:func:`read_ssd` reads a ``.ssd`` (and the ``.ssv`` files its bindings name);
:func:`open_system` also opens ``.ssp`` archives, extracted safely
(:mod:`crane_cosim.files.archive`) into a temporary folder.
"""
from .namespaces import CC, FMU_TYPE, MASTER_ANNOTATION, OSP, OSP_ANNOTATION, PARAMETER_SET, SSC, SSD, SSP_SSD, SSV
from .read import OpenedSystem, find_ssd, is_ssp_archive, open_system, read_ssd
from .write import write_ssd, write_ssp, write_ssp_folder

__all__ = ["PARAMETER_SET", "write_ssd", "write_ssp", "write_ssp_folder", "read_ssd", "find_ssd", "open_system",
           "OpenedSystem", "is_ssp_archive", "SSD", "SSC", "SSV", "OSP", "CC", "SSP_SSD", "FMU_TYPE",
           "MASTER_ANNOTATION", "OSP_ANNOTATION"]
