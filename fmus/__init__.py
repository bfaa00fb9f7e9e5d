"""FMU packaging: the generic block adapter and the build of every ``.fmu``."""
