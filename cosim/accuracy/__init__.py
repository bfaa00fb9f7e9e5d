"""Studies of the master: the error of the co-simulation against the
monolithic run by step, coupling and algorithm (``coupling_study.py``,
``multirate_study.py``, the page ``coupling_page.py`` writes), and the
measures that compare two runs (``comparison.py``)."""
