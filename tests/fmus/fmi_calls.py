"""What the FMU tests check of an FMI call's status."""
import pytest
from fmpy.fmi1 import FMICallException


def fails(call, *args):
    """The FMI call returns fmi2Error (fmpy raises on it)."""
    with pytest.raises(FMICallException) as failed:
        call(*args)
    assert failed.value.status == 3  # fmi2Error
