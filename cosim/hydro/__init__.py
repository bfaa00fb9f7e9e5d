"""Hydrodynamic databases of hulls, computed by the panel method of
Capytaine (an optional extra: ``pip install ".[hydro]"``, GPL-3.0), for the
hydrodynamic vessel; the package runs without it, from the databases."""
