"""Readable names of recorded variables (``cosim/reports/legends.py``): the
words of docs/names.md, with the symbol of the paper the component's model
follows."""
import re

import pytest

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.reports import plots
from crane_cosim.reports.legends import quantity, readable


@pytest.mark.parametrize("column, model, name", [
    ("vessel.q_roll", "Vessel", "roll $q_1$"),
    ("crane.q_slew", "Crane", "slew angle $q_4$"),  # Cibicik & Egeland (2018)
    ("crane.q_slew", "KnuckleBoomCrane", "slew angle $q_1$"),  # Cibicik & Egeland (2019)
    ("crane.q_boom_cyl", "KnuckleBoomCrane", "boom cylinder extension $q_2$"),
    ("crane.u_slew", "Crane", "slew rate $u_4$"),
    ("crane.u_jib_cyl", "KnuckleBoomCrane", "jib cylinder extension rate $u_3$"),  # the generalized speed of q3
    ("controller.q_boom_cyl_ref", "KnuckleBoomController", "boom cylinder extension set-point"),
    ("crane.W_mount_fx", "Crane", "force x (mount axes)"),
    ("crane.W_king_nz", "KnuckleBoomCrane", "moment z (king axes)"),
    ("controller.tau_slew", "KnuckleBoomController", "slewing torque $T_1$"),
    ("boom_cylinder.F", "HydraulicCylinder", "boom cylinder: force on the piston"),
    ("vessel.q_roll", None, "roll"),  # a model of no paper: no symbol
    ("fmu.something_else", None, "something_else"),  # a variable the table does not know keeps its name
])
def test_a_column_reads_as_words_and_symbol(column, model, name):
    assert readable(column, model) == name


def test_every_variable_a_run_plot_draws_has_words():
    """Each output of the project's blocks that a figure of ``plot_run``
    draws is named in words, not by its variable name."""
    unnamed = set()
    for block in BLOCKS.values():
        for v in block.outputs:
            for _, _, _, rows in plots._PANELS:
                if any(re.fullmatch(p, v.name) or re.fullmatch(p + "_ref", v.name) for p in rows):
                    if quantity(v.name)[0] == v.name:
                        unnamed.add(v.name)
    assert not unnamed


def test_every_block_takes_its_symbols_from_a_paper_the_table_knows():
    """A block's ``symbols_of`` names a paper the table of quantities has
    symbols of: a misspelt paper would leave its legends without symbols,
    silently."""
    from crane_cosim.blocks.registry import BLOCKS
    from crane_cosim.reports.legends import QUANTITIES
    known = {paper for _, symbols, _ in QUANTITIES.values() for paper in symbols}
    declared = {name: cls.symbols_of for name, cls in BLOCKS.items() if cls.symbols_of}
    assert declared and set(declared.values()) <= known, declared
