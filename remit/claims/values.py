"""Values in a sentence and the attribute each one states.

A value is a code of a closed vocabulary in any spelling (:data:`~remit.claims.
vocabulary.CODES`), ``PN16`` / ``DN25`` (bar by definition), or an amount
(:mod:`remit.claims.amounts`). :func:`attribute_of` gives it its attribute for a SKU of a
family: the keyword right before it with only filler between (``pressure rating of``,
``face-to-face on BV-00013 is``), or right after it (``PEEK seat``), or else the one
attribute of the family that the code or the unit's quantity can be (a pressure of a
valve is its PN, a torque of an actuator its output torque; a length needs a keyword).

Example:
    >>> [(v.value, v.attribute) for v in values_in("BV-00008 is PN16 with a PEEK seat")]
    [(16.0, 'pn'), ('PEEK', None)]
"""

from __future__ import annotations

import re
from typing import NamedTuple

from remit.catalogue import Family, Quantity
from remit.claims.amounts import Amount, Op, amounts, comparison_before
from remit.claims.vocabulary import Code, Keyword, codes_in

__all__ = ["FAMILY_ATTRIBUTES", "Value", "attribute_of", "keyword_for", "values_in"]

_FILLER = re.compile(
    r"^[\s:=(\[,'\"*-]*(?:(?:is|are|was|of|at|to|up\s+to|rated|rating|class|type|grade|max"
    r"|maximum|min|minimum|material|made\s+(?:of|from)|in|from|with|has|have|a|an|the"
    r"|its|approx\.?|approximately|about|around|roughly|~|≈|at\s+least|no\s+more\s+than"
    r"|be|listed|specified|given|stated|as|sits|set|comes\s+in|only|just|exactly|nominal"
    r"|nominally|standard|range|limit|limited|temperature|temp\.?|:|-|=)(?![A-Za-z])"
    r"[\s:=(\[,'\"*-]*)*$",
    re.IGNORECASE)
_AFTER_FILLER = re.compile(r"^[\s\-(]*(?:\w+[\s\-]+)?$")
_PARENTHESES = re.compile(r"\([^()]*\)")


_FUSED = re.compile(r"(?<![\w-])(?P<kind>PN|DN)\s?-?\s?(?P<number>\d+(?:[.,]\d+)?)"
                    r"(?:\s?(?P<unit>bar|barg|psi|MPa|kPa)\b)?(?![\w.]\d)",
                    re.IGNORECASE)

_BY_QUANTITY: dict[Family, dict[Quantity, str]] = {
    Family.BALL_VALVE: {Quantity.PRESSURE: "pn", Quantity.TEMPERATURE: "seat_max_temp",
                        Quantity.TORQUE: "breakaway_torque"},
    Family.ACTUATOR: {Quantity.TORQUE: "output_torque", Quantity.PRESSURE: "supply"},
    Family.GASKET_KIT: {Quantity.PRESSURE: "pn"},
}
"""The one attribute a family carries of each quantity (lengths need a keyword)."""

FAMILY_ATTRIBUTES: dict[Family, frozenset[str]] = {
    Family.BALL_VALVE: frozenset({"dn", "pn", "body_material", "end_connection", "seat",
                                  "seat_max_temp", "iso5211_flange", "breakaway_torque",
                                  "certificate", "face_to_face"}),
    Family.ACTUATOR: frozenset({"actuator_type", "output_torque", "iso5211_flange", "supply"}),
    Family.GASKET_KIT: frozenset({"dn", "pn", "facing", "material"}),
}

_QUANTITY_OF_ATTRIBUTE = {"pn": Quantity.PRESSURE, "seat_max_temp": Quantity.TEMPERATURE,
                          "breakaway_torque": Quantity.TORQUE, "output_torque": Quantity.TORQUE,
                          "face_to_face": Quantity.LENGTH, "supply": Quantity.PRESSURE}


class Value(NamedTuple):
    start: int
    end: int
    value: float | str
    unit: str | None
    attribute: str | None           # fixed by the spelling (PN16, DN25), else None
    code: Code | None
    amount: Amount | None
    op: Op = "eq"                   # for PN/DN and codes: "at least PN16"
    approx: bool = False


def values_in(sentence: str) -> list[Value]:
    values: list[Value] = []
    taken: list[tuple[int, int]] = []
    for match in _FUSED.finditer(sentence):
        kind = match["kind"].upper()
        number = float(match["number"].replace(",", "."))
        unit = match["unit"] or ("bar" if kind == "PN" else None)
        op, approx = comparison_before(sentence[:match.start()])
        values.append(Value(match.start(), match.end(), number, unit, kind.lower(), None, None,
                             op, approx))
        taken.append((match.start(), match.end()))
    for code in codes_in(sentence):
        if any(s < code.end and code.start < e for s, e in taken):
            continue
        values.append(Value(code.start, code.end, code.code, None, None, code, None))
        taken.append((code.start, code.end))
    for amount in amounts(sentence):
        if any(s < amount.end and amount.start < e for s, e in taken):
            continue
        values.append(Value(amount.start, amount.end, amount.value, amount.unit, None, None,
                             amount))
    return sorted(values)


_OF_SKU = re.compile(r"(?:\s+(?:of|for|on|in)\s+(?:the\s+)?|\s*)"
                     r"[`*]*(?<![\w-])[A-Za-z]{2,3}-\d{3,6}(?![\w-])[`*]*(?:'s)?",
                     re.IGNORECASE)


def keyword_for(sentence: str, value: Value, keywords: list[Keyword],
                 family: Family | None) -> Keyword | None:
    """The keyword that names ``value``'s attribute: right before it with only filler
    between (a SKU it is "of" may stand in between: ``face-to-face on BV-00013 is``),
    else right after it."""
    fits = FAMILY_ATTRIBUTES.get(family) if family is not None else None
    before = [k for k in keywords if k.end <= value.start
              and _FILLER.match(_OF_SKU.sub(" ", sentence[k.end:value.start]))]
    after = [k for k in keywords if k.start >= value.end
             and _AFTER_FILLER.match(_PARENTHESES.sub(" ", sentence[value.end:k.start]))]
    for keyword in (before[-1:] + after[:1]):
        if fits is None or any(a in fits for a in keyword.attributes):
            return keyword
    return None


def attribute_of(  # noqa: PLR0911 - one answer per kind of value
        value: Value, keyword: Keyword | None, family: Family | None) -> str | None:
    """The attribute ``value`` states for a SKU of ``family``, or ``None``."""
    fits = FAMILY_ATTRIBUTES.get(family) if family is not None else None
    if value.attribute is not None:
        return value.attribute if fits is None or value.attribute in fits else None
    if value.code is not None:
        return value.code.attribute(family)
    amount = value.amount
    if amount is None:
        return None
    names = [] if keyword is None else [a for a in keyword.attributes
                                        if fits is None or a in fits]
    if amount.measure is None:
        # a bare number states a DN ("size 25"), or a value in the attribute's own unit
        return next((n for n in names if n == "dn" or n in _QUANTITY_OF_ATTRIBUTE), None)
    quantity = amount.measure.quantity
    named = next((n for n in names if _QUANTITY_OF_ATTRIBUTE.get(n) is quantity), None)
    if named is not None:
        return named
    if family is None or quantity is Quantity.LENGTH:
        return None
    # "a PTFE seat rated to 180 °C": the keyword names a neighbour, the unit the attribute
    return _BY_QUANTITY.get(family, {}).get(quantity)

