"""implicit-bias: symbolic-numeric verification of implicit-bias theory.

The package is layered (imports only point down):

* :mod:`implicit_bias.theory` -- the papers' derivations in SymPy;
* :mod:`implicit_bias.numerics` -- vectorized NumPy evaluators and mpmath
  references;
* :mod:`implicit_bias.validation` -- NumPy simulations of the networks;
* :mod:`implicit_bias.claims` -- claims, verdicts and the registry;
* :mod:`implicit_bias.latex` and :mod:`implicit_bias.cli` on top.
"""

import importlib.metadata

from implicit_bias.errors import (
    ConvergenceError,
    ImplicitBiasError,
    InvalidArgumentError,
)

__all__ = [
    "ConvergenceError",
    "ImplicitBiasError",
    "InvalidArgumentError",
    "__version__",
]

try:
    # One version number: pyproject.toml's, as installed.
    __version__ = importlib.metadata.version("implicit-bias")
except importlib.metadata.PackageNotFoundError:  # run from a source tree
    __version__ = "0+unknown"
