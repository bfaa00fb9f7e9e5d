"""crane-cosim: FMI co-simulation of offshore cranes on moving vessels.

Installed as the package ``crane_cosim`` (this folder, ``cosim/``) with the
sub-packages ``crane_cosim.blocks`` (``blocks/``) and ``crane_cosim.fmus``
(``fmus/``): the repository's folders show the architecture
(docs/master.md) while the installed names stay out of the way of other
packages.
"""
__version__ = "0.1.0"
