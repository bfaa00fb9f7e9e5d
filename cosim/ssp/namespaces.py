"""The names an SSP 1.0 file uses: its namespaces (registered with the
prefixes NTNU Ålesund's ecos and OSP libcosim match literally), the annotations of
our master and of OSP, and the files of an archive."""
from __future__ import annotations

import xml.etree.ElementTree as ET

SSD = "http://ssp-standard.org/SSP1/SystemStructureDescription"
SSC = "http://ssp-standard.org/SSP1/SystemStructureCommon"
SSV = "http://ssp-standard.org/SSP1/SystemStructureParameterValues"
SSM = "http://ssp-standard.org/SSP1/SystemStructureParameterMapping"
OSP = "http://opensimulationplatform.com/SSP/OSPAnnotations"
CC = "https://crane-cosim.org/SSP/MasterAnnotations"
# ecos matches the prefixes ssd:, ssv: and ssc: literally: keep exactly these.
for _p, _ns in (("ssd", SSD), ("ssc", SSC), ("ssv", SSV), ("ssm", SSM), ("osp", OSP), ("cc", CC)):
    ET.register_namespace(_p, _ns)

MASTER_ANNOTATION = "org.crane-cosim.master"
OSP_ANNOTATION = "com.opensimulationplatform"
FMU_TYPE = "application/x-fmu-sharedlibrary"
#: The name of every ``ssv:ParameterSet`` we write; pass it to ecos
#: (``init(parameter_set=...)``, ``--parameterSet``) to apply the values.
PARAMETER_SET = "initialValues"
#: The file an SSP archive holds its system in (SSP 1.0; ecos reads no other).
SSP_SSD = "SystemStructure.ssd"



def _q(ns, tag):
    return f"{{{ns}}}{tag}"
