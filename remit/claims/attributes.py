"""Attribute claims in text: a value of one governed attribute of one SKU.

A message is read sentence by sentence (:func:`remit.claims.text.sentences`: Markdown
lists and tables become sentences) while :class:`~remit.claims.mentions.Focus` follows
which SKU it is about. In each sentence that is not a question, a **value** is:

- a code of a closed vocabulary in any spelling (``PEEK``, ``316 stainless``,
  ``BSP parallel``, ``raised face``: :data:`~remit.claims.vocabulary.CODES`);
- ``PN16`` / ``PN 16`` / ``PN-16`` (bar by definition) and ``DN25``;
- an amount (:mod:`remit.claims.amounts`): a number with its unit, a range (its upper
  end), a comparison (``at least``) or a hedge (``about``).

Each value takes an attribute: the keyword right before it with only filler words
between (``pressure rating of``, ``seat:``, ``max temp``), or right after it (``PEEK
seat``, ``16 bar rating``), or else the one attribute of the SKU's family that the code
or the unit's quantity can be (a pressure of a valve is its PN, a torque of an actuator
its output torque). A length needs a keyword. An amount that belongs to the site (``your
design pressure of 12 bar``, ``a 150 °C medium``) or that a capability word introduces
(``handles 150 °C``, ``fine for 12 bar``) is a requirement, never the product's value:
:mod:`remit.claims.fit` reads it.

The value binds to the nearest SKU before it in the sentence (every SKU of a
coordination: ``BV-00011 and BV-00012 are both PN16``), else to the first one after it,
else to a reference (``it``, ``the actuator``) or, in a sentence that names no product
and makes no generic statement (``PTFE seats are generally limited to 180 °C``), to
the SKU in focus. Negated values (``not PN25``) state nothing checkable and are skipped.

Example:
    >>> [(c.sku, c.attribute, c.value, c.unit) for c in
    ...  extract_attribute_claims("**BV-00008**\\n- PN: 16 bar\\n- PEEK seat")]
    [('BV-00008', 'pn', 16.0, 'bar'), ('BV-00008', 'seat', 'PEEK', None)]
"""

from __future__ import annotations

import re
from typing import NamedTuple

from remit.catalogue import Family, Quantity
from remit.claims.amounts import Amount, Op, amounts, comparison_before
from remit.claims.mentions import Focus, Mention, Reading, family_of
from remit.claims.text import Sentence, sentences
from remit.claims.vocabulary import REQUIREMENT_WORDS, Code, Keyword, codes_in, keywords_in

__all__ = ["AttributeReader", "StatedValue", "attribute_claims_in", "extract_attribute_claims",
           "is_question", "negated", "product_anchors", "read_message", "requirement_amount"]


class StatedValue(NamedTuple):
    """An attribute value stated for one SKU.

    Attributes:
        sku: the SKU it is stated for.
        attribute: the governed attribute's name.
        value: the number (in ``unit``) or the code.
        unit: the unit as written; ``None`` for codes and unitless numbers.
        op: the comparison stated (``ge`` for "at least").
        approx: the writer hedged the number.
        decimals: digits written after the decimal point.
        sentence: the sentence it was read from.
    """

    sku: str
    attribute: str
    value: float | str
    unit: str | None
    op: Op = "eq"
    approx: bool = False
    decimals: int = 0
    sentence: str = ""


# -- sentence-level cues -----------------------------------------------------------------

_QUESTION_START = re.compile(
    r"^\W*(?:is|are|was|were|does|do|did|can|could|would|will|should|shall|has|have|had"
    r"|what|which|who|whom|whose|when|where|why|how|may|might|am|isn't|aren't|doesn't"
    r"|don't|won't|wouldn't|couldn't|shouldn't|hasn't|haven't)\b",
    re.IGNORECASE)
_CLAUSE = re.compile(r"\s+-\s+|;\s*|:\s+(?=\w)|,\s+(?:but|and|so|or)\s+|\s+but\s+|\s*\((?=\w)")
_NEGATION = re.compile(
    r"\b(?:not|never|no|none|neither|nor|without|isn't|aren't|wasn't|weren't|doesn't|don't"
    r"|didn't|won't|cannot|can't|lacks?|lacking|n't|instead\s+of|rather\s+than)\b"
    r"|[\u274c\u2717\u2718\u2716\u26d4\U0001f6ab]",
    re.IGNORECASE)
_GENERIC = re.compile(
    r"\b(?:generally|typically|usually|normally|in\s+general|as\s+a\s+rule|standard"
    r"\s+practice|most|many|some|all|any|every|each)\b"
    r"|^\W*(?:(?:PTFE|PEEK|EPDM|graphite|stainless(?:\s+steel)?|carbon\s+steel|WCB|316|NPT"
    r"|BSPP?)(?:\s+\w+s)?\s+(?:is|are|can|will|tends?|has|have|handles?|copes?|gives?)\b"
    r"|(?:ball\s+)?valves|seats|actuators|gaskets|(?:soft|metal)\s+seats)\b",
    re.IGNORECASE)
_HYPOTHETICAL = re.compile(
    r"^\W*(?:if|whether|unless|once|in\s+case|assuming|suppose|should\s+you|when\s+you)\b"
    r"|\b(?:check(?:ing)?|verify(?:ing)?|confirm(?:ing)?|see)\s+(?:whether|if)\b"
    r"|\b(?:you\s+(?:mentioned|said|wrote|asked\s+for|need|needed|want|wanted|requested"
    r"|specified|stated|quoted|gave)|as\s+you\s+(?:said|mentioned|noted))\b",
    re.IGNORECASE)
_CAPABILITY = re.compile(
    r"\b(?:handles?|handling|cope[sd]?\s+with|coping\s+with|withstands?|suitable|suited|fine"
    r"|ok|okay|safe|works?|rated\s+above|meets?|exceeds?|covers?|clears?|ample|plenty"
    r"|more\s+than\s+enough|enough|sufficient|adequate|margin|headroom|comfortably|within"
    r"|able\s+to|can\s+(?:take|handle|run|operate)|compatible|matches|satisf(?:y|ies))\b",
    re.IGNORECASE)
"""Words that make the number after them a requirement the product is said to meet
(``handles 150 °C``, ``fine for 12 bar``): a fit claim, never the product's value."""
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


def is_question(clause: str) -> bool:
    """A clause that asks rather than states."""
    text = clause.strip()
    return text.endswith("?") or (_QUESTION_START.match(text) is not None
                                  and text.rstrip(".!").endswith("?"))


def _asks(sentence: str, clause_start: int, position: int) -> bool:
    """Whether the clause around ``position`` asks rather than states: it ends with a
    question mark, or it opens with a question word in a sentence that ends with one."""
    ends = [m.start() for m in _CLAUSE.finditer(sentence, position)]
    clause = sentence[clause_start:ends[0] if ends else len(sentence)]
    if clause.rstrip().endswith("?"):
        return True
    return (_QUESTION_START.match(clause) is not None
            and sentence.rstrip().rstrip("\"')*").endswith("?"))


_COMPARISON = re.compile(r"\b(?:no|not)\s+(?:more|less|higher|lower|greater|fewer)\s+than\b"
                         r"|\bnot\s+(?:exceeding|below|above|under|over)\b"
                         r"|\bno\s+(?:doubt|problem|issue)\b", re.IGNORECASE)


def negated(text: str) -> bool:
    """Whether ``text`` (the words before a value in its clause) negates it (``no more
    than`` is a comparison, not a negation)."""
    return _NEGATION.search(_COMPARISON.sub(" ", text)) is not None


def _clause_start(sentence: str, position: int) -> int:
    starts = [m.end() for m in _CLAUSE.finditer(sentence, 0, position)]
    return starts[-1] if starts else 0


_LIMIT = re.compile(
    r"\b(?:(?:rated|good|fine|ok|okay|suitable|handles?|cope[sd]?|works?|usable|limited|goes)"
    r"\s+(?:up\s+)?to|up\s+to|max(?:imum|\.)?|limit(?:ed)?\s+(?:of|at|to)|rated\s+(?:at|for)"
    r"|good\s+for|anything\s+(?:between|from|up\s+to)|between|from)\W*(?:about|around|approx"
    r"\.?|approximately|roughly|~)?\W*$",
    re.IGNORECASE)
"""Words that make the number after them the product's own limit (``rated to``, ``good
for``, ``up to``), even beside a capability word."""
_CONDITION = re.compile(r"^\W*(?:at|@)\W*$|\b(?:when|while|if|whenever)\b[^,]*\bat\W*$",
                        re.IGNORECASE)


def product_anchors(sentence: str, mentions: tuple[Mention, ...] | list[Mention],
             keywords: list[Keyword]) -> tuple[int, ...]:
    """Where the product's own words end: its mentions, and attribute keywords that are
    not the site's (``design pressure``, ``your medium temperature`` are requirements)."""
    own = [k.end for k in keywords
           if not REQUIREMENT_WORDS.search(sentence[max(0, k.start - 24):k.end])]
    return tuple([m.end for m in mentions] + own)


_REQUIREMENT_AFTER = re.compile(
    r"^[\s)]*(?:\w+\s+)?(?:design|operating|working|process|service|line|system|medium"
    r"|media|fluid|steam|oil|water|application|duty|requirement|spec|conditions?)\b",
    re.IGNORECASE)


def requirement_amount(sentence: str, amount: Amount, anchors: tuple[int, ...] = ()) -> bool:
    """Whether ``amount`` is the site's requirement (or a condition) rather than a product
    value.

    It is when, between the last anchor before it (a product mention or an attribute
    keyword, ``anchors`` holds their end positions) and the amount, a requirement word
    (``your``, ``design``, ``medium``...) or a capability word (``handles``, ``fine
    for``...) stands, unless the words right before it state a limit (``rated to``,
    ``good up to``, ``max``); or when a requirement word follows it (``12 bar design
    pressure``, ``a 150 °C medium``); or when it opens the clause as a condition
    (``At 20 bar, ...``).
    """
    start = max([_clause_start(sentence, amount.start), amount.start - 40,
                 *(a for a in anchors if a <= amount.start)])
    before = sentence[start:amount.start]
    after = sentence[amount.end:amount.end + 24]
    if _CONDITION.search(sentence[_clause_start(sentence, amount.start):amount.start]):
        return True
    limit = _LIMIT.search(before) is not None
    if REQUIREMENT_WORDS.search(before) and not limit:
        return True
    if _CAPABILITY.search(before) and not limit and amount.low is None:
        return True
    return not limit and _REQUIREMENT_AFTER.match(after) is not None


_SITE_CODE_BEFORE = re.compile(
    r"\b(?:your|the\s+site's|site|existing|current|installed|present|our\s+customer's"
    r"|their)\b(?:\s+\w+){0,2}?[\s(]*$"
    r"|\b(?:your|the)\s+(?:\w+\s+){0,2}(?:asks?\s+for|requires?|needs?|demands?|specifies"
    r"|calls\s+for|insists\s+on)\s+(?:an?\s+|the\s+)?(?:EN\s*10204\s+)?$", re.IGNORECASE)
_SITE_CODE_AFTER = re.compile(
    r"^[\s)]*(?:\w+\s+){0,1}(?:piping|pipework|pipe\s*work|pipes|pipeline|lines?|system"
    r"|installation|plant|site|network|requirement|spec(?:ification)?"
    r"|(?:is|are)\s+(?:required|needed|specified))\b", re.IGNORECASE)


def requirement_code(sentence: str, start: int, end: int, anchors: tuple[int, ...] = ()) -> bool:
    """Whether the code at ``start:end`` is the site's (``your NPT piping``, ``your
    existing F07 actuator``, ``the 3.1 certificate your site requires``), not the
    product's."""
    window = max([0, start - 40, *(a for a in anchors if a <= start)])
    if _SITE_CODE_BEFORE.search(sentence[window:start]):
        return True
    return _SITE_CODE_AFTER.match(sentence[end:end + 40]) is not None


# -- values and attributes -----------------------------------------------------------------

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

_FAMILY_ATTRIBUTES: dict[Family, frozenset[str]] = {
    Family.BALL_VALVE: frozenset({"dn", "pn", "body_material", "end_connection", "seat",
                                  "seat_max_temp", "iso5211_flange", "breakaway_torque",
                                  "certificate", "face_to_face"}),
    Family.ACTUATOR: frozenset({"actuator_type", "output_torque", "iso5211_flange", "supply"}),
    Family.GASKET_KIT: frozenset({"dn", "pn", "facing", "material"}),
}

_QUANTITY_OF_ATTRIBUTE = {"pn": Quantity.PRESSURE, "seat_max_temp": Quantity.TEMPERATURE,
                          "breakaway_torque": Quantity.TORQUE, "output_torque": Quantity.TORQUE,
                          "face_to_face": Quantity.LENGTH, "supply": Quantity.PRESSURE}


class _Value(NamedTuple):
    start: int
    end: int
    value: float | str
    unit: str | None
    attribute: str | None           # fixed by the spelling (PN16, DN25), else None
    code: Code | None
    amount: Amount | None
    op: Op = "eq"                   # for PN/DN and codes: "at least PN16"
    approx: bool = False


def _values(sentence: str) -> list[_Value]:
    values: list[_Value] = []
    taken: list[tuple[int, int]] = []
    for match in _FUSED.finditer(sentence):
        kind = match["kind"].upper()
        number = float(match["number"].replace(",", "."))
        unit = match["unit"] or ("bar" if kind == "PN" else None)
        op, approx = comparison_before(sentence[:match.start()])
        values.append(_Value(match.start(), match.end(), number, unit, kind.lower(), None, None,
                             op, approx))
        taken.append((match.start(), match.end()))
    for code in codes_in(sentence):
        if any(s < code.end and code.start < e for s, e in taken):
            continue
        values.append(_Value(code.start, code.end, code.code, None, None, code, None))
        taken.append((code.start, code.end))
    for amount in amounts(sentence):
        if any(s < amount.end and amount.start < e for s, e in taken):
            continue
        values.append(_Value(amount.start, amount.end, amount.value, amount.unit, None, None,
                             amount))
    return sorted(values)


_OF_SKU = re.compile(r"(?:\s+(?:of|for|on|in)\s+(?:the\s+)?|\s*)"
                     r"[`*]*(?<![\w-])[A-Za-z]{2,3}-\d{3,6}(?![\w-])[`*]*(?:'s)?",
                     re.IGNORECASE)


def _keyword_for(sentence: str, value: _Value, keywords: list[Keyword],
                 family: Family | None) -> Keyword | None:
    """The keyword that names ``value``'s attribute: right before it with only filler
    between (a SKU it is "of" may stand in between: ``face-to-face on BV-00013 is``),
    else right after it."""
    fits = _FAMILY_ATTRIBUTES.get(family) if family is not None else None
    before = [k for k in keywords if k.end <= value.start
              and _FILLER.match(_OF_SKU.sub(" ", sentence[k.end:value.start]))]
    after = [k for k in keywords if k.start >= value.end
             and _AFTER_FILLER.match(_PARENTHESES.sub(" ", sentence[value.end:k.start]))]
    for keyword in (before[-1:] + after[:1]):
        if fits is None or any(a in fits for a in keyword.attributes):
            return keyword
    return None


def _attribute(  # noqa: PLR0911 - one answer per kind of value
        value: _Value, keyword: Keyword | None, family: Family | None) -> str | None:
    """The attribute ``value`` states for a SKU of ``family``, or ``None``."""
    fits = _FAMILY_ATTRIBUTES.get(family) if family is not None else None
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


# -- binding to SKUs -------------------------------------------------------------------------

_COORDINATED = re.compile(r"^\s*(?:,|&|and|or|as\s+well\s+as|plus)\s*(?:,\s*)?(?:the\s+)?$",
                          re.IGNORECASE)
_PLURAL = re.compile(r"\b(?:are|both|all|each|have|were)\b", re.IGNORECASE)
_LIST_AFTER = re.compile(r"^[^.;]*?(?::|\bincluding\b|\bnamely\b)\s*$", re.IGNORECASE)


def _group(sentence: str, mentions: list[Mention], nearest: Mention) -> list[str]:
    """``nearest`` and the SKUs coordinated with it (``BV-00011 and BV-00012 are``)."""
    if nearest.group:
        return list(nearest.group)
    index = mentions.index(nearest)
    group = [nearest]
    while index > 0 and _COORDINATED.match(sentence[mentions[index - 1].end:
                                                     mentions[index].start]):
        index -= 1
        group.insert(0, mentions[index])
    if len(group) > 1:
        joined = sentence[group[0].start:group[-1].end]
        after = sentence[group[-1].end:group[-1].end + 30]
        if not (re.search(r"\band\b|&", joined) or _PLURAL.search(after)):
            group = [nearest]
    return [m.sku for m in group]


def _following(sentence: str, mentions: list[Mention], first: Mention) -> list[str]:
    """``first`` and the SKUs listed after it (``at least PN16: BV-00004, BV-00011 and
    BV-00022``)."""
    listed = [first]
    for mention in mentions[mentions.index(first) + 1:]:
        if not _COORDINATED.match(sentence[listed[-1].end:mention.start]):
            break
        listed.append(mention)
    return [m.sku for m in listed]


def _skus_for(sentence: str, reading_mentions: tuple[Mention, ...], position: int,
              focus: str | None) -> list[str]:
    mentions = list(reading_mentions)
    before = [m for m in mentions if m.end <= position]
    if before:
        # an appositive naming what is replaced ("BV-00003, the successor to BV-00002,
        # keeps ...") does not take the value from the product it describes
        primary = [m for m in before if not m.secondary]
        nearest = before[-1]
        if nearest.secondary and primary and re.match(r"^\W*,", sentence[nearest.end:position]):
            nearest = primary[-1]
        return _group(sentence, mentions, nearest)
    after = [m for m in mentions if m.start >= position]
    if after:
        if _LIST_AFTER.match(sentence[position:after[0].start]):
            return _following(sentence, mentions, after[0])
        return list(after[0].skus)
    if focus is None or _GENERIC.search(sentence):
        return []
    return [focus]


# -- a message -------------------------------------------------------------------------------

_MODAL = re.compile(r"\b(?:would|could|should|might|may|will|shall|can)\b|'d\b", re.IGNORECASE)
"""A sentence that says what would or could be (``PN16 would do``) states no product's value."""
_SET_LEAD = re.compile(
    r"\b(?:options|alternatives|candidates|choices|valves|actuators|kits|variants|models"
    r"|products|shortlist|all|both|these|the\s+following|below|each\s+of)\b",
    re.IGNORECASE)


class AttributeReader:
    """Reads one message's attribute claims sentence by sentence (module docstring).

    Beyond single sentences it keeps two kinds of message-level context:

    - a **lead** that states values for a set without naming it (``Here are the DN25
      options:``) gives those values to every SKU of the list or table that follows;
    - values stated where no product is named or in focus (``**PN:** 25 bar`` before
      ``That's BV-00022.``) bind, at the end, to the message's one SKU when it names
      exactly one.
    """

    def __init__(self) -> None:
        self.claims: list[StatedValue] = []
        self._orphans: list[tuple[_Value, str, list[Keyword]]] = []
        self._lead: list[tuple[_Value, str, list[Keyword]]] = []
        self._named: list[str] = []

    def read(self, sentence: Sentence, reading: Reading) -> list[StatedValue]:
        """The claims of one sentence (lead values included); orphans wait for :meth:`end`."""
        text = sentence.text
        explicit = [m for m in reading.mentions if m.explicit]
        self._named += [m.sku for m in explicit if m.sku not in self._named]
        claims: list[StatedValue] = []
        if self._lead and explicit and sentence.item:
            for value, lead_text, keywords in self._lead:
                for mention in explicit[:1]:
                    claims += _claims_for(mention.sku, value, lead_text, keywords)
        elif not sentence.item:
            self._lead = []
        found = _sentence_values(sentence, reading)
        others = tuple(dict.fromkeys(m.sku for m in reversed(reading.mentions)))
        for value, skus, keywords in found:
            if skus:
                for sku in skus:
                    claims += _claims_for(sku, value, text, keywords,
                                          tuple(o for o in others if o not in skus))
            elif not reading.mentions and _SET_LEAD.search(text) and (
                    text.rstrip().endswith(":") or not sentence.item):
                self._lead.append((value, text, keywords))
            elif (not reading.mentions and not _GENERIC.search(text)
                  and not _SET_AFTER.match(text[value.end:]) and not _MODAL.search(text)):
                self._orphans.append((value, text, keywords))
        self.claims += claims
        return claims

    def end(self) -> list[StatedValue]:
        """Orphan values bound to the message's one SKU (none when it names several)."""
        if len(self._named) != 1:
            return []
        claims: list[StatedValue] = []
        for value, text, keywords in self._orphans:
            claims += _claims_for(self._named[0], value, text, keywords)
        self.claims += claims
        return claims


def _claims_for(sku: str, value: _Value, text: str, keywords: list[Keyword],
                others: tuple[str, ...] = ()) -> list[StatedValue]:
    """The claim ``value`` makes about ``sku``; when its keyword names an attribute the
    SKU's family does not carry (``its 126 Nm breakaway`` next to an actuator), about the
    nearest of ``others`` that carries it."""
    for candidate in (sku, *others):
        family = family_of(candidate)
        keyword = _keyword_for(text, value, keywords, family)
        if candidate != sku and keyword is None:
            continue
        attribute = _attribute(value, keyword, family)
        if attribute is None or (attribute == "face_to_face" and keyword is None):
            if _keyword_for(text, value, keywords, None) is None:
                return []
            continue
        return [_stated(candidate, attribute, value, text)]
    return []


_INDEFINITE = re.compile(r"\b(?:a|an|another|any|some|other)\s+(?:[\w-]+\s+)?$", re.IGNORECASE)
_PRODUCT_AFTER = re.compile(r"^[\w-]*\s+(?:[\w-]+\s+)?(?:valves?|actuators?|kits?|options?|ones?"
                            r"|models?|variants?|alternatives?|products?|parts?)\b",
                            re.IGNORECASE)
_PLAN = re.compile(r"\b(?:I'll|I\s+will|we'll|we\s+will|I\s+can|we\s+can|let\s+me|I'm\s+going"
                   r"\s+to|I\s+could)\s+(?:\w+\s+)?(?:look|check|find|come\s+back|requote"
                   r"|re-quote|send|search|revise|offer|quote|propose|suggest)\b", re.IGNORECASE)
_OLD_VALUE = re.compile(r"\bfrom\s+(?:the\s+)?$", re.IGNORECASE)
_NEW_VALUE = re.compile(r"^\s*(?:to|->|→)\s", re.IGNORECASE)
_SET_AFTER = re.compile(r"^[\s-]*(?:\w+\s+)?(?:options|alternatives|valves|models|variants"
                        r"|actuators|kits|ones|versions|choices|products|parts)\b",
                        re.IGNORECASE)


def _sentence_values(sentence: Sentence,
                     reading: Reading) -> list[tuple[_Value, list[str], list[Keyword]]]:
    """Each value the sentence states, with the SKUs it binds to (empty: none in reach)."""
    text = sentence.text
    keywords = keywords_in(text)
    found: list[tuple[_Value, list[str], list[Keyword]]] = []
    anchors = product_anchors(text, reading.mentions, keywords)
    for value in _values(text):
        clause_start = _clause_start(text, value.start)
        if _asks(text, clause_start, value.start):
            continue
        head = text[clause_start:value.start]
        if negated(head) or _HYPOTHETICAL.search(head):
            continue
        if value.amount is not None and requirement_amount(text, value.amount, anchors):
            continue
        if value.code is not None and requirement_code(text, value.start, value.end, anchors):
            continue
        skus = _skus_for(text, reading.mentions, value.start, reading.focus)
        if _OLD_VALUE.search(head) and _NEW_VALUE.match(text[value.end:]):
            continue  # "changes from F10 to F12": F10 is what it was
        if not reading.mentions and (_PLAN.search(text) or (
                _INDEFINITE.search(head) and _PRODUCT_AFTER.match(text[value.end:]))):
            continue  # "a revised quote on a PEEK-seated valve": some other product
        if not reading.mentions and _SET_AFTER.match(text[value.end:]):
            # "the PN16 options": a set; its values reach only a list or table that follows
            skus = []
        found.append((value, skus, keywords))
    return found


def attribute_claims_in(sentence: Sentence, reading: Reading) -> list[StatedValue]:
    """The attribute claims of one sentence on its own, given what :meth:`Focus.read` made
    of it (no message-level context: use :class:`AttributeReader` for a whole message)."""
    claims: list[StatedValue] = []
    for value, skus, keywords in _sentence_values(sentence, reading):
        for sku in skus:
            claims += _claims_for(sku, value, sentence.text, keywords)
    return claims


def _stated(sku: str, attribute: str, value: _Value, sentence: str) -> StatedValue:
    amount = value.amount
    if attribute == "supply" and amount is not None:
        return StatedValue(sku, attribute, f"{amount.value:g} bar air", None,
                           sentence=sentence)
    if amount is None:
        return StatedValue(sku, attribute, value.value, value.unit, op=value.op,
                           approx=value.approx, sentence=sentence)
    return StatedValue(sku, attribute, amount.value, amount.unit, op=amount.op,
                       approx=amount.approx, decimals=amount.decimals, sentence=sentence)


def read_message(text: str) -> list[StatedValue]:
    """Every attribute claim of ``text``, in reading order, message context included."""
    focus = Focus()
    reader = AttributeReader()
    for sentence in sentences(text):
        reader.read(sentence, focus.read(sentence.text, item=sentence.item))
    reader.end()
    return reader.claims


def extract_attribute_claims(text: str) -> list[StatedValue]:
    """The attribute claims ``text`` states, in order (see the module docstring)."""
    return read_message(text)
