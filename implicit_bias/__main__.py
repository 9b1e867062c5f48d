"""``python -m implicit_bias``: the ``implicit-bias`` command line."""

import sys

from implicit_bias.cli import main

# Guarded: tools that import every module of the package (the API page, the
# cache-key tests) must not run the command line.
if __name__ == "__main__":
    sys.exit(main())
