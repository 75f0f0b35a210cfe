"""The plugin's tests run pytest in pytest, with ``pytester``.

``pytest_plugins = ["pytester"]`` is refused in a conftest below the rootdir when the
whole suite runs (pytest loads this file after configuration), so the plugin is
imported here, where pytest still calls ``pytest_configure`` for late conftests.

remit's modules (and hypothesis, which its pytest plugin imports at the end of every
run) are imported here once: pytester restores ``sys.modules`` after each inline run, so
a module first imported inside a run would be imported anew by the next.
"""

from __future__ import annotations

import hypothesis
import pytest

import remit.harness.collected
import remit.harness.outcome
import remit.reports.explain

__all__ = ["hypothesis", "remit"]


def pytest_configure(config: pytest.Config) -> None:
    """Make the ``pytester`` fixture available to these tests only."""
    config.pluginmanager.import_plugin("pytester")
