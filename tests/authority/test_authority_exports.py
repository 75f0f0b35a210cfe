"""The public API of remit.authority: every exported name exists and is documented."""

from __future__ import annotations

from typing import get_args

import pytest

import remit.authority
from remit.authority.request import EvidenceKindName
from remit.catalogue.attributes import EvidenceKind


@pytest.mark.parametrize("name", remit.authority.__all__)
def test_exported_name_exists_and_has_a_docstring(name: str) -> None:
    obj = getattr(remit.authority, name)
    assert (obj.__doc__ or "").strip(), f"{name} has no docstring"


def test_all_is_sorted_and_unique() -> None:
    names = remit.authority.__all__
    assert len(names) == len(set(names))


def test_evidence_kinds_agree_with_the_catalogue() -> None:
    assert set(get_args(EvidenceKindName)) == {k.value for k in EvidenceKind}
