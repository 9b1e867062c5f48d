"""Test-wide configuration: Hypothesis profiles and global-state hygiene.

Profiles (select with ``HYPOTHESIS_PROFILE=<name>``; ``dev`` by default):

* ``dev`` -- quick feedback while editing;
* ``ci`` -- derandomized and bounded, so CI is reproducible and fast;
* ``thorough`` -- many examples, for humans hunting bugs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=50, deadline=timedelta(seconds=5))
settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _restore_global_numeric_state() -> Iterator[None]:
    """Restore mpmath's precision and NumPy's error state after every test."""
    dps = mpmath.mp.dps
    with np.errstate():
        yield
    mpmath.mp.dps = dps
