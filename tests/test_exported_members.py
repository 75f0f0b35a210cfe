"""Every package names its public API in ``__all__``, and every name is real and documented."""

from __future__ import annotations

import importlib
import inspect

import pytest

PACKAGES = [
    "remit",
    "remit.catalogue",
    "remit.quotes",
    "remit.authority",
    "remit.errors",
    "remit.world",
    "remit.actors",
    "remit.scenarios",
    "remit.harness",
    "remit.reports",
    "remit.store",
    "remit.mcp",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_names_exist_and_are_documented(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert exported, f"{name}.__all__ is empty"
    assert len(set(exported)) == len(exported), f"{name}.__all__ has duplicates"
    undocumented = [
        member
        for member in exported
        if (inspect.isclass(obj := getattr(module, member)) or inspect.isfunction(obj))
        and not inspect.getdoc(obj)
    ]
    assert undocumented == []


def test_top_level_api_is_the_subpackages_api() -> None:
    """``remit`` re-exports, it does not define: each name is the subpackage's object."""
    remit = importlib.import_module("remit")
    for member in remit.__all__:
        if member == "__version__":
            continue
        obj = getattr(remit, member)
        assert obj.__module__.startswith("remit."), member
