"""Settings for the whole test session."""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from remit.harness.suite_cache import CACHE_DIR_ENV


def pytest_configure(config: pytest.Config) -> None:
    """The tests (and the commands they start) share a suite cache of their own in the
    temporary directory, never the user's (entries are keyed on remit's source, so one
    directory serves every checkout)."""
    os.environ.setdefault(CACHE_DIR_ENV, str(Path(tempfile.gettempdir()) / "remit-tests-cache"))


RAY_OBJECT_STORE_BYTES = 200 * 1024**2
"""The local Ray's object store: records are small, and the machine is shared."""


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[ModuleType]:
    """A local Ray with 2 CPUs, started once per session (per pytest-xdist worker) for
    the Ray executor tests, and shut down after them; remit reuses it
    (:class:`~remit.harness.RayExecutor` connects to the Ray this process started)."""
    ray = pytest.importorskip(
        "ray", reason="the Ray executor tests need the ray extra: pip install -e '.[dev,ray]'")
    ray.init(num_cpus=2, object_store_memory=RAY_OBJECT_STORE_BYTES, include_dashboard=False,
             log_to_driver=False, namespace="remit-tests")
    yield ray
    ray.shutdown()


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own SIGINT handling, as in ``remit run`` (a test runner may change it)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
