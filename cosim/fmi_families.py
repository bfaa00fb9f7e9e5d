"""The families of FMI 2.0 and 3.0 variable types: how a value of each type
is exchanged, checked and recorded.  A fact of the standards, below
everything that handles values: the master (``runtime/types.py``) and the results file
(``files/results_stream.py``) alike."""

__all__ = ["FAMILY", "NUMERIC", "UNSUPPORTED"]

#: FMI type -> family (how the master exchanges and checks its values)
FAMILY = {"Real": "real", "Float64": "real", "Float32": "real",
          "Integer": "integer", "Int8": "integer", "UInt8": "integer", "Int16": "integer", "UInt16": "integer",
          "Int32": "integer", "UInt32": "integer", "Int64": "integer", "UInt64": "integer",
          "Boolean": "boolean", "Enumeration": "enumeration", "String": "string",
          "Binary": "binary", "Clock": "clock"}
#: the families exchanged as floats (all but String)
NUMERIC = ("real", "integer", "boolean", "enumeration")
#: the families the master cannot exchange, set or record
UNSUPPORTED = ("binary", "clock")
