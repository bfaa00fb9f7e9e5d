"""``python -m crane_cosim.cli``: the ``crane-cosim`` command."""
import sys

from . import main

sys.exit(main())
