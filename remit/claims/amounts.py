"""Amounts in text: numbers with their units, ranges, comparisons and hedges.

An :class:`Amount` is one number a sentence states (``16 bar``, ``1,600 kPa``,
``-20 to 180 °C``, ``at least PN16``'s ``16``, ``~230 psi``) with where it stands, the
unit as written and, when that is a unit of the catalogue's quantities, what it
measures (:func:`remit.catalogue.measure_unit`, backed by pint). A range states its
upper end as ``value`` and its lower end as ``low``; a comparison word before the
number sets ``op``; a hedge (``about``, ``~``, ``approx.``) sets ``approx``.

:func:`agrees` decides whether a stated amount agrees with a record's canonical value:
within 0.5%, or within the rounding the writer used (``3.35 in`` for 85 mm), or within
2.5% when the writer hedged (``about 230 psi`` for 16 bar).

Example:
    >>> [(a.value, a.unit, a.op) for a in amounts("rated to at least 1,600 kPa")]
    [(1600.0, 'kPa', 'ge')]
"""

from __future__ import annotations

import math
import re
from typing import Literal, NamedTuple

from remit.catalogue import MeasureUnit, measure_unit
from remit.errors import UnitError

__all__ = ["HEDGED_TOLERANCE", "RELATIVE_TOLERANCE", "Amount", "Op", "agrees", "amounts",
           "comparison_before"]

RELATIVE_TOLERANCE = 0.005
"""Relative tolerance of a stated number against the record, after normalisation."""

HEDGED_TOLERANCE = 0.025
"""Relative tolerance when the writer hedged the number (``about``, ``~``, ``approx.``)."""

Op = Literal["eq", "ge", "gt", "le", "lt"]
"""How a stated number relates to the value: equal, at least, more than, at most, less than."""

_NUMBER = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+(?!\d)|\d+)(?:[.,]\d+)?"
_UNIT = (
    r"°\s?[CF]\b|°(?![\w])|deg(?:ree)?s?\.?\s?(?:C|F|Celsius|Fahrenheit)\b|deg(?:ree)?s?\b"
    r"|Celsius\b|Fahrenheit\b|kelvins?\b|K\b"
    r"|m?bar(?:\s?\(?[ga]\)(?!\w)|[ga]\b)?|bars?\b|[kM]Pa\b|kpa\b|mpa\b|MPA\b|KPA\b|KPa\b"
    r"|psi[ga]?\b|lb/in2"
    r"|N\s?[-.·]?\s?m\b|newton[- ]?met(?:re|er)s?\b"
    r"|lbf?s?\s?[-.·]?\s?ft\b|ft\s?[-.·]?\s?lbf?s?\b|foot[- ]pounds?\b|pound[- ]f(?:ee|oo)t\b"
    r"|mm\b|millimet(?:re|er)s?\b|cm\b|inch(?:es)?\b|in\b(?!\s+(?:stock|the|a|an|your|our"
    r"|total|each|one|two|place|line|service|use|operation|production|progress)\b)|\"|''"
    r"|C\b|F\b|c\b(?![\w.])|f\b(?![\w.])"
)
_AMOUNT = re.compile(
    rf"(?<![\w.])(?<![A-Za-z]-)(?P<number>{_NUMBER})(?:\s?(?P<unit>{_UNIT}))?"
    rf"(?:\s*(?:-|to|and|through|\.{{2,3}}|/|~)\s*(?P<upper>{_NUMBER})(?:\s?(?P<upper_unit>{_UNIT}))?)?",
    re.IGNORECASE)
_BEFORE = re.compile(
    r"(?P<word>at\s+least|not\s+less\s+than|no\s+less\s+than|minimum(?:\s+of)?|min\.?|>=|≥"
    r"|more\s+than|greater\s+than|higher\s+than|over|above|in\s+excess\s+of|>"
    r"|up\s+to|maximum(?:\s+of)?|max\.?|at\s+most|no\s+more\s+than|not\s+more\s+than|<=|≤"
    r"|less\s+than|lower\s+than|below|under|<"
    r"|approx\.?|approximately|about|around|roughly|circa|ca\.|~|≈|nearly|some|close\s+to"
    r"|between|from)\s*$",
    re.IGNORECASE)
_OPS: dict[str, Op] = {
    "at least": "ge", "not less than": "ge", "no less than": "ge", "minimum": "ge",
    "minimum of": "ge", "min": "ge", "min.": "ge", ">=": "ge", "≥": "ge",
    "more than": "gt", "greater than": "gt", "higher than": "gt", "over": "gt",
    "above": "gt", "in excess of": "gt", ">": "gt",
    "at most": "le", "no more than": "le", "not more than": "le", "<=": "le", "≤": "le",
    "less than": "lt", "lower than": "lt", "below": "lt", "under": "lt", "<": "lt",
}
_HEDGES = frozenset({"approx", "approx.", "approximately", "about", "around", "roughly",
                     "circa", "ca.", "~", "≈", "nearly", "some", "close to"})


class Amount(NamedTuple):
    """A number stated in a sentence.

    Attributes:
        start, end: where it stands in the sentence (the comparison word excluded).
        value: the number; a range's upper end.
        low: a range's lower end, or ``None``.
        unit: the unit as written (``"kPa"``), or ``None``.
        measure: what that unit measures and its map to the canonical unit, when it is a
            unit of the catalogue's quantities.
        op: the comparison the writer made (``ge`` for "at least").
        approx: the writer hedged it ("about", "~").
        decimals: digits written after the decimal point (the writer's rounding).
    """

    start: int
    end: int
    value: float
    low: float | None
    unit: str | None
    measure: MeasureUnit | None
    op: Op
    approx: bool
    decimals: int

    def canonical(self) -> float:
        """The value in its quantity's canonical unit (as written when it has no unit)."""
        return self.value if self.measure is None else self.measure.to_canonical(self.value)


def _number(text: str) -> tuple[float, int]:
    """The number and its decimals: ``1,600`` is a thousand-separated 1600, ``1,6`` a
    decimal comma."""
    if re.fullmatch(r"[-+]?\d{1,3}(?:[, ]\d{3})+(?:\.\d+)?", text):
        text = text.replace(",", "").replace(" ", "")
    else:
        text = text.replace(",", ".")
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    return float(text), decimals


def _measure(unit: str | None) -> MeasureUnit | None:
    if unit is None:
        return None
    try:
        return measure_unit(unit)
    except UnitError:
        return None


def comparison_before(text: str) -> tuple[Op, bool]:
    """The comparison and hedge that ``text`` ends with (``at least``: ``ge``; ``~``: a
    hedge); ``("eq", False)`` when it ends with neither."""
    before = _BEFORE.search(text)
    if before is None:
        return "eq", False
    word = " ".join(before["word"].casefold().split())
    return _OPS.get(word, "eq"), word in _HEDGES


def amounts(sentence: str) -> list[Amount]:
    """Every number in ``sentence`` with its unit, range, comparison and hedge, in order."""
    found: list[Amount] = []
    position = 0
    while (match := _AMOUNT.search(sentence, position)) is not None:
        position = match.end()
        head = sentence[:match.start()]
        if re.search(r"[A-Za-z][-/]?$", head) or re.match(r"[A-Za-z]", sentence[match.end():]):
            # a number inside a word or code ("BV-00008", "F07", "EN1092-1", "316L", "PN16")
            # is not an amount of its own; codes and PN/DN are read as words.
            continue
        number, decimals = _number(match["number"])
        unit = match["unit"]
        upper = match["upper"]
        low: float | None = None
        value = number
        if upper is not None:
            upper_value, upper_decimals = _number(upper)
            joiner = sentence[match.end("number") if unit is None else match.end("unit"):
                              match.start("upper")]
            plain_dash = joiner.strip() == "-" and not joiner.startswith(" ")
            upper_unit = match["upper_unit"]
            between = re.search(r"\b(?:between|from)\s*$", sentence[:match.start()],
                                re.IGNORECASE) is not None
            different = (unit is not None and upper_unit is not None
                         and _measure(unit) != _measure(upper_unit))
            if joiner.strip() == "/" and unit is None and decimals == 0 and upper_decimals == 0:
                # "3/4 in": a fraction
                value = number / upper_value if upper_value else number
                unit = match["upper_unit"]
                decimals = 3
            elif (upper_value <= number or "/" in joiner
                  or (plain_dash and unit is None and upper_unit is None)
                  or (joiner.strip().casefold() == "and" and not between) or different):
                # "1/2", "16-25" without units, "1.2 MPa and 130 °C": not a range; the
                # second number is read on its own
                upper = None
                position = match.start("upper")
            else:
                low, value, decimals = number, upper_value, upper_decimals
                unit = match["upper_unit"] or unit
        op, approx = comparison_before(sentence[:match.start()])
        end = match.end() if upper is not None else (match.end("unit") if unit else
                                                      match.end("number"))
        found.append(Amount(start=match.start(), end=end, value=value, low=low, unit=unit,
                            measure=_measure(unit), op=op, approx=approx, decimals=decimals))
    return found


def agrees(stated: float, decimals: int, *, approx: bool, measure: MeasureUnit | None,
           record: float, op: Op = "eq") -> bool:
    """Whether a stated number agrees with a record's canonical value.

    Args:
        stated: the number as written, in its unit.
        decimals: digits written after its decimal point.
        approx: the writer hedged it.
        measure: its unit (``None``: written in the record's canonical unit).
        record: the record's value in the canonical unit.
        op: ``ge`` holds when the record is at least the stated value, and so on.
    """
    scale = 1.0 if measure is None else abs(measure.scale)
    value = stated if measure is None else measure.to_canonical(stated)
    rounding = 0.5 * 10.0 ** -decimals * scale if decimals else 0.0
    whole = f"{abs(stated):.0f}"
    if not decimals and whole.endswith("0") and measure is not None and scale != 1.0:
        # "230 psi" for 16 bar: a converted whole number ending in zero was rounded.
        approx = True
    tolerance = max(RELATIVE_TOLERANCE * abs(record), rounding,
                    HEDGED_TOLERANCE * abs(record) if approx else 0.0) + 1e-9
    if op == "eq":
        return math.isclose(value, record, abs_tol=tolerance)
    if op == "ge":
        return record >= value - tolerance
    if op == "gt":
        return record > value + 1e-6 * abs(value)  # "more than 100 Nm" is not 100 Nm
    if op == "le":
        return record <= value + tolerance
    return record < value - 1e-6 * abs(value)
