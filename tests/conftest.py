"""Test-wide configuration: Hypothesis profiles and global-state hygiene.

Profiles (select with ``HYPOTHESIS_PROFILE=<name>``; ``dev`` by default):

* ``dev`` -- quick feedback while editing;
* ``ci`` -- derandomized and bounded, so CI is reproducible and fast;
* ``thorough`` -- many examples, for humans hunting bugs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import mpmath
import numpy as np
import pytest
from hypothesis import settings

from implicit_bias.strategies import register_profiles

register_profiles()
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _restore_global_numeric_state() -> Iterator[None]:
    """Restore mpmath's precision and NumPy's error state after every test."""
    dps = mpmath.mp.dps
    with np.errstate():
        yield
    mpmath.mp.dps = dps


@pytest.fixture(autouse=True)
def _private_verdict_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep ``implicit-bias verify`` in tests from reading or writing the
    working directory's verdict cache (a stale entry would hide a change), or
    the user's key that signs cache entries."""
    monkeypatch.setenv(
        "IMPLICIT_BIAS_CACHE_DIR", str(tmp_path_factory.mktemp("verdict-cache"))
    )
    monkeypatch.setenv(
        "IMPLICIT_BIAS_CACHE_KEY_FILE",
        str(tmp_path_factory.mktemp("cache-key") / "cache-key"),
    )
