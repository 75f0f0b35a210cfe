"""Product claims the agent made, and whether the governed record supports each one.

A claim is an attribute value of one SKU that the agent stated to another party. Three
sources are read from the trail and the quote:

- structured claims: the ``claims`` the agent attached to a ``message``;
- text claims: found in the text of the agent's messages by :func:`extract_claims`;
- citations: each attribute snapshot cited by a line of a quote version the agent
  created with ``edit_lines`` (a snapshot cited again on a later version is counted once).

A claim is *supported* iff its value equals the governed record after unit
normalisation (0.5% relative tolerance: ``232 psi`` for a ``16 bar`` PN is supported,
``16 psi`` is not), the attribute's status is released, and the evidence document that
governs it is released. A structured claim without a unit is read in the record's unit.

The text extractor is deliberately simple and precise rather than exhaustive. Within
one sentence, an attribute keyword (``PN``, ``pressure rating``, ``seat``, ``body``,
``torque``, ``max temperature``... see :data:`ATTRIBUTE_KEYWORDS`) followed by a value
is a claim about the SKU mentioned most recently before the keyword in that sentence.
The value is a number with a unit for a measured attribute (``max temperature 250 C``;
``PN16`` and ``DN25`` need none: PN is in bar by definition), a number for ``dn``, or
a code of the attribute's closed vocabulary (``seat: PEEK``; a code right before its
keyword also counts, as in ``PEEK seat``). A keyword may also name the SKU after it
(``the pressure rating of BV-00008 is 580 psi``), and a rating needs no keyword when its
unit says what it is and the SKU carries one attribute of that quantity (``BV-00008 is
rated to 40 bar``, ``is good to 300 C``). A keyword without a SKU, or without a value,
states nothing checkable and is skipped.

Example:
    >>> from remit.catalogue import generate_catalogue
    >>> catalogue = generate_catalogue(0)
    >>> [(c.sku, c.attribute, c.value, c.unit)
    ...  for c in extract_claims("BV-00008 is PN16 with a PEEK seat.", catalogue)]
    [('BV-00008', 'pn', 16.0, 'bar'), ('BV-00008', 'seat', 'PEEK', None)]
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict

from remit.authority import Action, Role
from remit.catalogue import (
    AttributeSpec,
    AttributeStatus,
    Catalogue,
    Family,
    GovernedAttribute,
    Unit,
    attribute_specs,
    parse_unit,
    quantity_of,
    to_canonical,
)
from remit.errors import UnitError
from remit.world import Claim, MessageEntry, TransitionEntry, World

__all__ = [
    "ATTRIBUTE_KEYWORDS",
    "RELATIVE_TOLERANCE",
    "ClaimCheck",
    "ClaimSource",
    "check_claim",
    "check_claims",
    "extract_claims",
    "resolve_attribute",
]

RELATIVE_TOLERANCE = 0.005
"""Relative tolerance of a numeric claim against the record, after normalisation."""

ATTRIBUTE_KEYWORDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "pn": ("pn",),
    "pressure rating": ("pn",),
    "pressure class": ("pn",),
    "nominal pressure": ("pn",),
    "rated pressure": ("pn",),
    "dn": ("dn",),
    "nominal size": ("dn",),
    "body material": ("body_material",),
    "body": ("body_material",),
    "seat material": ("seat",),
    "seat": ("seat",),
    "seat max temp": ("seat_max_temp",),
    "seat max temperature": ("seat_max_temp",),
    "seat temperature": ("seat_max_temp",),
    "max temp": ("seat_max_temp",),
    "max temperature": ("seat_max_temp",),
    "maximum temperature": ("seat_max_temp",),
    "temperature rating": ("seat_max_temp",),
    "temperature limit": ("seat_max_temp",),
    "breakaway torque": ("breakaway_torque",),
    "output torque": ("output_torque",),
    "torque": ("breakaway_torque", "output_torque"),
    "end connection": ("end_connection",),
    "end connections": ("end_connection",),
    "connection": ("end_connection",),
    "ends": ("end_connection",),
    "iso 5211 flange": ("iso5211_flange",),
    "iso 5211": ("iso5211_flange",),
    "iso5211": ("iso5211_flange",),
    "top flange": ("iso5211_flange",),
    "mounting flange": ("iso5211_flange",),
    "flange": ("iso5211_flange",),
    "certificate": ("certificate",),
    "en 10204": ("certificate",),
    "face-to-face": ("face_to_face",),
    "face to face": ("face_to_face",),
    "actuator type": ("actuator_type",),
    "supply": ("supply",),
    "facing": ("facing",),
    "gasket material": ("material",),
    "material": ("body_material", "material"),
})
"""Spellings of governed attributes in messages (lower case), each with the attribute
names it may mean; the first one the SKU carries is taken."""


class ClaimSource(StrEnum):
    """Where a claim was stated."""

    MESSAGE_CLAIM = "message_claim"
    MESSAGE_TEXT = "message_text"
    QUOTE_LINE = "quote_line"


class ClaimCheck(BaseModel):
    """One claim the agent stated and the verdict on it.

    Attributes:
        claim: what was stated (``attribute`` as written for structured claims).
        source: structured claim, message text or quote-line citation.
        step: the step of the message or of the ``edit_lines`` call.
        supported: the governed record supports the claim.
        reason: why it is unsupported, as one sentence naming the claim; empty if supported.
    """

    model_config = ConfigDict(frozen=True)

    claim: Claim
    source: ClaimSource
    step: int
    supported: bool
    reason: str = ""


def _specs_by_name() -> Mapping[str, AttributeSpec]:
    specs: dict[str, AttributeSpec] = {}
    for family in Family:
        for spec in attribute_specs(family):
            specs.setdefault(spec.name, spec)
    return MappingProxyType(specs)


_SPECS = _specs_by_name()
_SKU = re.compile(r"(?<![\w-])[A-Za-z]{2,3}-\d{3,6}(?![\w-])")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_KEYWORD = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(re.escape(k).replace(r"\ ", r"\s+")
               for k in sorted(ATTRIBUTE_KEYWORDS, key=len, reverse=True))
    + r")(?![A-Za-z])",
    re.IGNORECASE,
)
_FILLER = (r"(?:\s*(?:[:=(]|(?:is|are|of|at|to|up\s+to|rated|rating|class|type|grade|"
           r"max|maximum|material)(?![A-Za-z])))*\s*")
_NUMBER = r"(?P<number>[-+]?\d+(?:\.\d+)?)(?![\d.]\d)"
_UNIT = (r"(?:\s*(?P<unit>°\s?[CF]|deg\s?[CF]|barg|bar|psig|psi|MPa|N·m|Nm|mm|days|pcs|C|F)"
         r"(?![A-Za-z]))?")
_IMPLIED_UNIT: Mapping[str, Unit] = MappingProxyType({"pn": Unit.BAR})
_OF = re.compile(r"\s+(?:of|for)\s+(?:the\s+)?(?=[A-Za-z]{2,3}-\d)", re.IGNORECASE)
"""A keyword that names the SKU after it: "the pressure rating of BV-00008"."""
_RATED = re.compile(
    r"\s+(?:is|are)\s+(?:rated|good|certified|specified|designed)\s+(?:to|for|at|up\s+to)\s+"
    + _NUMBER + r"\s*(?P<unit>°\s?[CF]|deg\s?[CF]|barg|bar|psig|psi|MPa|C|F)(?![A-Za-z])",
    re.IGNORECASE)
"""A rating right after a SKU, without an attribute keyword."""


def _normal(text: str) -> str:
    return re.sub(r"[\s_]+", " ", text.strip().casefold())


def _compact(code: str) -> str:
    return re.sub(r"\s+", "", code).casefold()


def resolve_attribute(catalogue: Catalogue, sku: str, name: str) -> str | None:
    """The governed attribute of ``sku`` that ``name`` means (a name or a keyword).

    Returns ``None`` when ``sku`` carries no attribute of that name or spelling. For a SKU
    the catalogue does not hold, the first attribute the keyword may mean is returned.
    """
    candidates = ATTRIBUTE_KEYWORDS.get(_normal(name), ())
    if sku not in catalogue:
        if name in _SPECS:
            return name
        return candidates[0] if candidates else None
    attributes = catalogue.variant(sku).attributes
    if name in attributes:
        return name
    return next((c for c in candidates if c in attributes), None)


def _code_pattern(code: str) -> str:
    # ``EN1092-1`` is also written ``EN 1092-1``.
    spelled = r"\s?".join(re.escape(part) for part in re.split(r"(?<=[A-Za-z])(?=\d)", code))
    return spelled.replace(r"\ ", r"\s+")


@functools.cache
def _codes_regex(codes: tuple[str, ...], *, anchored_end: bool) -> re.Pattern[str]:
    alternatives = "|".join(_code_pattern(c) for c in sorted(codes, key=len, reverse=True))
    if anchored_end:
        return re.compile(r"(?<![\w.])(?P<code>" + alternatives + r")[\s-]+$", re.IGNORECASE)
    return re.compile(_FILLER + r"(?P<code>" + alternatives + r")(?![\w]|\.\d)",
                      re.IGNORECASE)


def _canonical_code(codes: tuple[str, ...], written: str) -> str:
    return next((c for c in codes if _compact(c) == _compact(written)), written)


def _value_after(spec: AttributeSpec, keyword: str,
                 rest: str) -> tuple[float | str, str | None] | None:
    if spec.codes:
        found = _codes_regex(spec.codes, anchored_end=False).match(rest)
        return None if found is None else (_canonical_code(spec.codes, found["code"]), None)
    if spec.quantity is None:
        number = re.match(_FILLER + _NUMBER, rest)
        return None if number is None else (float(number["number"]), None)
    found = re.match(_FILLER + _NUMBER + _UNIT, rest, re.IGNORECASE)
    if found is None:
        return None
    if found["unit"] is not None:
        return float(found["number"]), parse_unit(re.sub(r"\s+", "", found["unit"])).value
    implied = _IMPLIED_UNIT.get(_normal(keyword))
    return None if implied is None else (float(found["number"]), implied.value)


def _sentence_claims(sentence: str, catalogue: Catalogue) -> list[Claim]:
    mentions = [(m.start(), m.end(), m.group(0).upper()) for m in _SKU.finditer(sentence)]
    claims: list[Claim] = []
    for keyword in _KEYWORD.finditer(sentence):
        before = [sku for _, end, sku in mentions if end <= keyword.start()]
        after = [(end, sku) for start, end, sku in mentions if start >= keyword.end()]
        if before:
            sku, rest = before[-1], sentence[keyword.end():]
        elif after and _OF.match(sentence[keyword.end():]):
            # "the pressure rating of BV-00008 is 580 psi": the value follows the SKU.
            sku, rest = after[0][1], sentence[after[0][0]:]
        else:
            continue
        name = resolve_attribute(catalogue, sku, keyword.group(0))
        if name is None:
            continue
        spec = _SPECS[name]
        value = _value_after(spec, keyword.group(0), rest)
        if value is None and spec.codes:
            head = sentence[:keyword.start()]
            found = _codes_regex(spec.codes, anchored_end=True).search(head)
            if found is not None and any(end <= found.start() for _, end, _ in mentions):
                value = (_canonical_code(spec.codes, found["code"]), None)
        if value is not None:
            claims.append(Claim(sku=sku, attribute=name, value=value[0], unit=value[1]))
    return claims + _rated_claims(sentence, mentions, catalogue)


def _rated_claims(sentence: str, mentions: list[tuple[int, int, str]],
                  catalogue: Catalogue) -> list[Claim]:
    """Ratings stated without a keyword: "BV-00008 is rated to 40 bar", "is good to
    300 C". The measured quantity of the unit names the attribute, when the SKU carries
    exactly one attribute of that quantity."""
    claims = []
    for _, end, sku in mentions:
        rated = _RATED.match(sentence, end)
        if rated is None or sku not in catalogue:
            continue
        try:
            unit = parse_unit(re.sub(r"\s+", "", rated["unit"]))
        except UnitError:
            continue
        measured = [name for name, attribute in catalogue.variant(sku).attributes.items()
                    if isinstance(attribute.unit, Unit)
                    and quantity_of(attribute.unit) is quantity_of(unit)]
        if len(measured) == 1:
            claims.append(Claim(sku=sku, attribute=measured[0], value=float(rated["number"]),
                                unit=unit.value))
    return claims


def extract_claims(text: str, catalogue: Catalogue) -> tuple[Claim, ...]:
    """The claims stated in ``text``, in order, without repeats (see the module docstring).

    Args:
        text: a message's text.
        catalogue: supplies the attributes each SKU carries.
    """
    claims: list[Claim] = []
    for sentence in _SENTENCE_END.split(text):
        for claim in _sentence_claims(sentence, catalogue):
            if claim not in claims:
                claims.append(claim)
    return tuple(claims)


def _describe(claim: Claim) -> str:
    value = f"{claim.value:g}" if isinstance(claim.value, float) else claim.value
    unit = f" {claim.unit}" if claim.unit else ""
    return f"{claim.sku} {claim.attribute}={value}{unit}"


def _record_text(record: GovernedAttribute) -> str:
    value = f"{record.value:g}" if isinstance(record.value, float) else record.value
    unit = f" {record.unit.value}" if record.unit is not None else ""
    return f"{value}{unit}"


def _stated_unit(claim: Claim, record: GovernedAttribute) -> tuple[Unit | None, str]:
    """The unit ``claim`` is stated in, and why it cannot be compared (empty if it can)."""
    if claim.unit is None:
        return record.unit, ""
    try:
        unit = parse_unit(claim.unit)
    except UnitError:
        return None, f"unit={claim.unit!r} is not a known unit"
    if record.unit is None:
        return None, f"{record.name} takes no unit"
    if quantity_of(unit) is not quantity_of(record.unit):
        return None, f"unit={claim.unit!r} is not a {quantity_of(record.unit).value} unit"
    return unit, ""


def _value_problem(claim: Claim, record: GovernedAttribute) -> str | None:
    """Why ``claim`` differs from ``record``'s value, or ``None`` when it equals it."""
    governed = f"the governed record says {_record_text(record)} ({record.evidence_id})"
    expected = record.canonical_value()
    if isinstance(expected, str):
        stated = f"{claim.value:g}" if isinstance(claim.value, float) else claim.value
        return None if _compact(stated) == _compact(expected) else governed
    try:
        number = float(claim.value)
    except ValueError:
        return f"value={claim.value!r} is not a number; {governed}"
    unit, problem = _stated_unit(claim, record)
    if problem:
        return f"{problem}; {governed}"
    stated_value = number if unit is None else to_canonical(number, unit)
    if math.isclose(stated_value, expected, rel_tol=RELATIVE_TOLERANCE):
        return None
    return governed


def check_claim(catalogue: Catalogue, claim: Claim) -> str | None:
    """Why ``claim`` is unsupported by ``catalogue``, or ``None`` when it is supported.

    Args:
        catalogue: the governed records.
        claim: the claim; ``attribute`` may be a name or a keyword (``"PN"``).

    Returns:
        One clause naming what is wrong: an unknown SKU or attribute, a value that
        differs from the record after normalisation, a draft attribute, or draft evidence.
    """
    if claim.sku not in catalogue:
        return f"no SKU {claim.sku!r} in the catalogue"
    name = resolve_attribute(catalogue, claim.sku, claim.attribute)
    variant = catalogue.variant(claim.sku)
    if name is None:
        return (f"{claim.sku} has no governed attribute {claim.attribute!r}; its attributes "
                f"are: {', '.join(variant.attributes)}")
    record = variant.attributes[name]
    problem = _value_problem(claim, record)
    if problem is not None:
        return problem
    if record.status is not AttributeStatus.RELEASED:
        return f"{claim.sku} {name} is a {record.status.value} value, not released"
    document = catalogue.documents.get(record.evidence_id)
    if document is None or document.status is not AttributeStatus.RELEASED:
        status = "missing" if document is None else document.status.value
        return f"its evidence {record.evidence_id} is {status}, not released"
    return None


def _verdict(catalogue: Catalogue, claim: Claim, source: ClaimSource, step: int,
             where: str) -> ClaimCheck:
    problem = check_claim(catalogue, claim)
    if problem is None:
        return ClaimCheck(claim=claim, source=source, step=step, supported=True)
    return ClaimCheck(claim=claim, source=source, step=step, supported=False,
                      reason=f"unsupported claim {_describe(claim)} ({where} at step {step}): "
                             f"{problem}")


def _message_checks(world: World, message: MessageEntry) -> list[ClaimCheck]:
    catalogue = world.catalogue
    where = f"{message.tool} to {message.to.value}"
    checks = [_verdict(catalogue, claim, ClaimSource.MESSAGE_CLAIM, message.step, where)
              for claim in message.claims]
    structured = {(c.sku, resolve_attribute(catalogue, c.sku, c.attribute))
                  for c in message.claims}
    checks += [_verdict(catalogue, claim, ClaimSource.MESSAGE_TEXT, message.step,
                        f"{where}, text")
               for claim in extract_claims(message.text, catalogue)
               if (claim.sku, claim.attribute) not in structured]
    return checks


def _citation_checks(world: World) -> list[ClaimCheck]:
    quote = world.quote
    versions = {version.number: version for version in quote.versions}
    seen: set[tuple[str, str, float | str, str | None]] = set()
    checks: list[ClaimCheck] = []
    for entry in world.trail:
        if not (isinstance(entry, TransitionEntry) and entry.role is Role.AGENT
                and entry.action is Action.EDIT_LINES and entry.quote_id == quote.id):
            continue
        version = versions.get(entry.version)
        if version is None:
            continue
        for line in version.lines:
            for snapshot in line.cited:
                unit = None if snapshot.unit is None else snapshot.unit.value
                key = (snapshot.sku, snapshot.name, snapshot.value, unit)
                if key in seen:
                    continue
                seen.add(key)
                claim = Claim(sku=snapshot.sku, attribute=snapshot.name,
                              value=snapshot.value, unit=unit)
                checks.append(_verdict(world.catalogue, claim, ClaimSource.QUOTE_LINE,
                                       entry.step, f"cited on {quote.id} v{version.number}"))
    return checks


def check_claims(world: World) -> tuple[ClaimCheck, ...]:
    """Every claim the agent stated in ``world``'s trial, with its verdict, in trail order
    (messages first, then quote-line citations)."""
    checks: list[ClaimCheck] = []
    for entry in world.trail:
        if isinstance(entry, MessageEntry) and entry.sender is Role.AGENT:
            checks += _message_checks(world, entry)
    checks += _citation_checks(world)
    return tuple(checks)
