"""The public API of remit.quotes: every exported name exists and is documented."""

from __future__ import annotations

import inspect

import pytest

import remit.quotes


@pytest.mark.parametrize("name", remit.quotes.__all__)
def test_exported_name_exists_and_has_a_docstring(name: str) -> None:
    obj = getattr(remit.quotes, name)
    if inspect.isclass(obj) or inspect.isfunction(obj):
        assert inspect.getdoc(obj), f"{name} needs a docstring"
        assert obj.__module__.startswith("remit.quotes.")


def test_all_is_sorted_and_unique() -> None:
    names = remit.quotes.__all__
    assert len(set(names)) == len(names)
    assert sorted(names, key=lambda n: (not n.isupper(), not n[0].isupper(), n)) == names
