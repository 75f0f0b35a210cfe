"""Products named by their catalogue brand (``the Trujillo valve``) are read as their SKUs,
and claims made about them are judged like claims about a SKU written out."""

from __future__ import annotations

import pytest

from remit.authority import Role
from remit.claims import ProductNames, read_claims
from remit.harness.claims import check_claims
from tests.harness.scoring_worlds import Trial, catalogue


def _names() -> ProductNames:
    return ProductNames.of(catalogue())


def _named(text: str) -> list[tuple[str, str]]:
    return [(m.sku, m.text) for m in _names().mentions(text)]


def test_names_are_built_once_per_catalogue() -> None:
    assert ProductNames.of(catalogue()) is ProductNames.of(catalogue())


def test_brands_are_the_capitalised_words_before_the_family_noun() -> None:
    brands = {p.brand for p in _names().products}
    assert {"trujillo", "sullivan", "lopez", "riley"} <= brands
    assert "gasket" not in brands  # "Gasket kit DN25 ..." has no brand
    assert "sullivan electric" not in brands


@pytest.mark.parametrize(("text", "expected"), [
    ("The Trujillo valve is NPT.", [("BV-00008", "The Trujillo valve")]),
    # one brand, two families: the noun decides
    ("The Sullivan actuator is electric.", [("AC-00003", "The Sullivan actuator")]),
    ("the Sullivan valve", [("BV-00019", "the Sullivan valve")]),
    # one brand, two sizes: the DN decides
    ("The Lopez DN32 has a PTFE seat.", [("BV-00007", "The Lopez DN32")]),
    # a superseded product gives way to its successor, unless the old one is meant
    ("the Cruz ball valve", [("BV-00010", "the Cruz ball valve")]),
    ("the old Cruz", [("BV-00009", "the old Cruz")]),
    # coordinated brands share the mark of the one that has it
    ("The Cook, West and Herring valves are interchangeable.",
     [("BV-00004", "The Cook"), ("BV-00005", "West"), ("BV-00006", "Herring valves")]),
])
def test_a_marked_brand_names_its_product(text: str, expected: list[tuple[str, str]]) -> None:
    assert _named(text) == expected


@pytest.mark.parametrize("text", [
    "Best regards,\nThomas",                  # a sign-off: no mark
    "Hi Riley, thanks for the call.",         # a greeting
    "the Sullivan is 316",                    # valve or actuator: names neither
    "the Lopez valve",                        # DN32 or DN50: names neither
    "the Pratt valve you have on site",       # any revision of it
    "the cook will be late",                  # not written as a name
])
def test_an_unmarked_or_ambiguous_brand_names_nothing(text: str) -> None:
    assert _named(text) == []


def test_claims_about_a_brand_bind_to_its_sku() -> None:
    read = read_claims("The Trujillo valve is PN25 and fine for your 12 bar line.",
                       Role.BUYER, _names())
    assert [(c.sku, c.attribute, c.value) for c in read.attributes] == [("BV-00008", "pn", 25.0)]
    assert [(c.sku, c.rule) for c in read.fits] == [("BV-00008", "C3")]


def test_without_names_a_brand_is_not_read_as_a_product() -> None:
    read = read_claims("The Trujillo valve is PN25.", Role.BUYER)
    assert read.attributes == ()


def test_a_sku_written_after_the_brand_is_the_product_meant() -> None:
    read = read_claims("For the flanged Pratt valve BV-00016 the ends are EN 1092-1.",
                       Role.BUYER, _names())
    assert {c.sku for c in read.attributes} == {"BV-00016"}


def test_a_false_claim_about_a_brand_is_unsupported_in_a_trial() -> None:
    trial = Trial()
    trial.ok(Role.AGENT, "message", to="buyer", text="The Trujillo valve has a PTFE seat.")
    (check,) = check_claims(trial.world)
    assert (check.stated, check.supported) == ("BV-00008 seat=PTFE", False)
    assert "PEEK" in check.reason
