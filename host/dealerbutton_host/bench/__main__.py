"""`python -m dealerbutton_host.bench`: the benchmark on this computer (local.py)."""

import sys

from .local import main

sys.exit(main())
