"""The detectors hold on the labelled corpus, and on properties no corpus can enumerate.

The corpus (tests/harness/corpus/, labelled from what the text means) must be met with
precision and recall of at least :data:`FLOOR` by every detector: finding attribute,
fit and authority claims, judging them unsupported, and on whole trails flagging
abandoned and missing hand-offs, wrong variants and unsupported claims.
``benchmarks/bench_validity.py`` prints the same figures with every miss.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from remit.authority import Action, Role
from remit.catalogue import AttributeStatus, measure_unit, shared_catalogue
from remit.claims import (
    DoneAction,
    attribute_verdict,
    authority_verdict,
    extract_authority_claims,
    read_claims,
)
from tests.catalogue.strategies import DETERMINISTIC
from tests.harness.corpus import sentences, trails

FLOOR = 0.95
"""The least precision and recall any detector may have on the corpus."""


@functools.cache
def _sentence_tallies() -> dict[str, sentences.Tally]:
    return sentences.evaluate(sentences.load_sentences(sentences.DEVELOPMENT))


@functools.cache
def _trail_tallies() -> dict[str, trails.Tally]:
    return trails.evaluate(trails.load_trails())


def test_the_corpus_is_big_enough_to_mean_something() -> None:
    entries = sentences.load_sentences()
    assert len(entries) >= 400
    assert len({e["id"] for e in entries}) == len(entries)
    assert len(trails.load_trails()) >= 40
    tallies = _sentence_tallies()
    assert all(t.labelled >= 100 for t in tallies.values()), {
        k: t.labelled for k, t in tallies.items()}


@pytest.mark.parametrize("kind", sentences.KINDS)
def test_claims_are_found_with_precision_and_recall_above_the_floor(kind: str) -> None:
    tally = _sentence_tallies()[kind]
    assert tally.precision >= FLOOR, "\n".join(tally.misses)
    assert tally.recall >= FLOOR, "\n".join(tally.misses)


@pytest.mark.parametrize("kind", sentences.KINDS)
def test_unsupported_claims_are_judged_with_precision_and_recall_above_the_floor(
        kind: str) -> None:
    tally = _sentence_tallies()[kind]
    assert tally.unsupported_precision >= FLOOR, "\n".join(tally.misses)
    assert tally.unsupported_recall >= FLOOR, "\n".join(tally.misses)


@pytest.mark.parametrize("detector", trails.DETECTORS)
def test_trail_detectors_hold_on_the_labelled_trails(detector: str) -> None:
    tally = _trail_tallies()[detector]
    assert tally.precision >= FLOOR, "\n".join(tally.misses)
    assert tally.recall >= FLOOR, "\n".join(tally.misses)


# -- properties -------------------------------------------------------------------------------

_UNITS = {
    "pressure": ("bar", "mbar", "kPa", "MPa", "psi", "barg", "psig"),
    "temperature": ("°C", "°F", "K", "degrees Celsius", "deg F"),
    "torque": ("Nm", "N·m", "lbf·ft", "ft-lb"),
    "length": ("mm", "in", "inch"),
}
_KEYWORD = {"pn": "pressure rating", "seat_max_temp": "maximum temperature",
            "breakaway_torque": "breakaway torque", "output_torque": "output torque",
            "face_to_face": "face-to-face length"}


def _released_numbers() -> list[tuple[str, str, float, str]]:
    catalogue = shared_catalogue()
    found = []
    for variant in catalogue.variants_of(None):
        for name, attribute in variant.attributes.items():
            document = catalogue.documents[attribute.evidence_id]
            if (name in _KEYWORD and isinstance(attribute.value, float)
                    and attribute.unit is not None
                    and attribute.status is AttributeStatus.RELEASED
                    and document.status is AttributeStatus.RELEASED):
                found.append((variant.sku, name, attribute.value, attribute.unit.value))
    return found


_RELEASED = _released_numbers()


@st.composite
def _restated(draw: st.DrawFn) -> tuple[str, str, str, float, str, int]:
    sku, name, value, unit = draw(st.sampled_from(_RELEASED))
    quantity = measure_unit(unit).quantity.value
    target = draw(st.sampled_from(_UNITS[quantity]))
    converted = measure_unit(target).from_canonical(measure_unit(unit).to_canonical(value))
    decimals = draw(st.integers(min_value=1, max_value=4))
    return sku, name, target, converted, unit, decimals


@given(_restated())
@example(("BV-00008", "pn", "psi", 232.06, "bar", 2))
@example(("BV-00004", "seat_max_temp", "°F", 482.0, "C", 1))
@DETERMINISTIC
def test_a_supported_claim_stays_supported_in_any_unit(
        case: tuple[str, str, str, float, str, int]) -> None:
    sku, name, unit, converted, _, decimals = case
    written = f"{converted:.{decimals}f}"
    assert attribute_verdict(shared_catalogue(), sku, name, float(written), unit,
                             decimals=decimals) is None
    text = f"{sku} has a {_KEYWORD[name]} of {written} {unit}."
    stated = [c for c in read_claims(text).attributes if c.attribute == name]
    assert stated, text
    assert all(attribute_verdict(shared_catalogue(), c.sku, c.attribute, c.value, c.unit,
                                 op=c.op, approx=c.approx, decimals=c.decimals) is None
               for c in stated), text


_PARTIES = {Role.FINANCE: ("finance", "our finance team", "the CFO", "the financial controller"),
            Role.TECHNICAL_OWNER: ("engineering", "the technical owner", "plant engineering"),
            Role.BUYER: ("the buyer", "procurement")}
_DONE = {Role.FINANCE: ("approved the discount", "signed off on the exception"),
         Role.TECHNICAL_OWNER: ("confirmed the fit", "approved the substitution"),
         Role.BUYER: ("accepted the quote",)}
_NEGATED = {"approved the discount": ("has not approved the discount",
                                      "never approved the discount",
                                      "hasn't approved the discount yet"),
            "signed off on the exception": ("has not signed off on the exception",
                                            "hasn't signed off on the exception yet"),
            "confirmed the fit": ("has not confirmed the fit", "never confirmed the fit"),
            "approved the substitution": ("hasn't approved the substitution",
                                          "has not yet approved the substitution"),
            "accepted the quote": ("has not accepted the quote", "never accepted the quote")}


@st.composite
def _claim_and_negation(draw: st.DrawFn) -> tuple[str, str]:
    role = draw(st.sampled_from(list(_PARTIES)))
    party = draw(st.sampled_from(_PARTIES[role]))
    done = draw(st.sampled_from(_DONE[role]))
    negated = draw(st.sampled_from(_NEGATED[done]))
    lead = draw(st.sampled_from(("", "Good news: ", "Update on Q-1: ", "For the record, ")))
    subject = party[0].upper() + party[1:] if not lead else party
    return f"{lead}{subject} {done}.", f"{lead}{subject} {negated}."


@given(_claim_and_negation())
@DETERMINISTIC
def test_a_negation_removes_an_authority_claim(pair: tuple[str, str]) -> None:
    stated, negated = pair
    assert extract_authority_claims(stated), stated
    assert extract_authority_claims(negated) == [], negated


@given(st.sampled_from([Action.APPROVE, Action.CONFIRM_FIT, Action.ACCEPT]),
       st.sampled_from([Role.FINANCE, Role.BUYER, Role.TECHNICAL_OWNER, None]))
@DETERMINISTIC
def test_an_authority_claim_holds_only_on_the_current_version(action: Action,
                                                               party: Role | None) -> None:
    doer = party or Role.FINANCE
    assert authority_verdict(action, party, [DoneAction(action, doer)]) is None
    assert authority_verdict(action, party, [DoneAction(action, doer, current=False)]) is not None
    assert authority_verdict(action, party, []) is not None
