"""``python -m implicit_bias``: the ``implicit-bias`` command line."""

import sys

from implicit_bias.cli import main

sys.exit(main())
