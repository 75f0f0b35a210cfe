"""The supplier policy every agent is briefed with (Markdown shipped with the package)."""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["policy_text"]


@functools.cache
def policy_text() -> str:
    """The policy text, read once per process from ``remit/actors/policy.md``."""
    return resources.files("remit.actors").joinpath("policy.md").read_text(encoding="utf-8")
