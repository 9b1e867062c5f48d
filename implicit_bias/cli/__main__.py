"""``python -m implicit_bias.cli``: the command line, as ``implicit-bias``."""

import sys

from implicit_bias.cli import main

if __name__ == "__main__":
    sys.exit(main())
