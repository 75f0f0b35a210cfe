"""Settings for the whole test session."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from remit.harness.suite_cache import CACHE_DIR_ENV


def pytest_configure(config: pytest.Config) -> None:
    """The tests (and the commands they start) share a suite cache of their own in the
    temporary directory, never the user's (entries are keyed on remit's source, so one
    directory serves every checkout)."""
    os.environ.setdefault(CACHE_DIR_ENV, str(Path(tempfile.gettempdir()) / "remit-tests-cache"))
