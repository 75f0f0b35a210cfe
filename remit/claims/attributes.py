"""Attribute claims in text: a value of one governed attribute of one SKU.

A message is read sentence by sentence (:func:`remit.claims.text.sentences`: Markdown
lists, tables and code blocks become sentences) while
:class:`~remit.claims.mentions.Focus` follows which SKU it is about. In each clause that
states (:mod:`remit.claims.cues`: not a question, not negated, not a condition, a plan or
reported speech), every value (:mod:`remit.claims.values`: a code in any spelling,
``PN16``/``DN25``, an amount with its unit, range, comparison or hedge) that is not the
site's requirement takes its attribute and binds to a product:

- the product an ``of``/``on``/``for`` names right after it (``the PN10 of BV-00015``,
  ``14 Nm for the Davies``);
- the other product of a pair after ``versus`` (``16 Nm versus 14 Nm``);
- else the nearest product before it in the sentence, every product of a coordination
  (``BV-00011 and BV-00012 are both PN16``) or of a plural reference (``both``,
  ``all three``), skipping an appositive that names what is replaced;
- else the product named after it (every product of a list after a colon);
- else, in a sentence that names no product and makes no generic statement (``PTFE
  seats are generally limited to 180 °C``) or plan (``I'll requote with a PEEK-seated
  valve``), the product in focus.

``respectively`` shares the values of a kind out in order. A torque without a keyword
beside an actuator is its output torque; a keyword the product's family does not carry
(``its 22 Nm breakaway``) moves the value to a product that carries it.

Across sentences (:class:`AttributeReader`): a lead that states values for a set
(``Here are the DN25 options:``) gives them to each product of the list or table that
follows, and values stated where no product is in reach bind, at the end, to the
message's one product when it names exactly one.

Example:
    >>> [(c.sku, c.attribute, c.value, c.unit) for c in
    ...  extract_attribute_claims("**BV-00008**\\n- PN: 16 bar\\n- PEEK seat")]
    [('BV-00008', 'pn', 16.0, 'bar'), ('BV-00008', 'seat', 'PEEK', None)]
"""

from __future__ import annotations

import re
from typing import NamedTuple

from remit.catalogue import Family, Quantity
from remit.claims.amounts import Op
from remit.claims.cues import (
    GENERIC,
    REQUIREMENT_AFTER,
    asks,
    clause_start,
    hypothetical,
    negated,
    product_anchors,
    requirement_amount,
    requirement_code,
)
from remit.claims.mentions import Focus, Mention, Reading, family_of
from remit.claims.text import Sentence, sentences
from remit.claims.values import Value, attribute_of, keyword_for, values_in
from remit.claims.vocabulary import Keyword, keywords_in

__all__ = ["AttributeReader", "StatedValue", "extract_attribute_claims", "read_message"]


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


# -- binding to SKUs -------------------------------------------------------------------------

_COORDINATED = re.compile(r"^\s*(?:,|&|and|or|as\s+well\s+as|plus)\s*(?:,\s*)?(?:the\s+)?$",
                          re.IGNORECASE)
_PLURAL = re.compile(r"\b(?:are|both|all|each|have|were|come|ship|share|offer|use|feature"
                     r"|carry|take|run)\b", re.IGNORECASE)
_OF_FOLLOWING = re.compile(r"^\s*(?:(?:rating|class|seat|body|ends|flange|torque|certificate"
                           r"|connection|material|facing|breakaway)\s+)?(?:of|on|for)\s+"
                           r"(?:the\s+)?(?:older|newer|old|new|other|current|superseded)?\s*$",
                           re.IGNORECASE)
_RELATIVE = re.compile(r"^\s*(?:[\w-]+\s+)?(?:sibling|twin|counterpart|version|variant"
                       r"|equivalent|alternative|successor|replacement|cousin)\b", re.IGNORECASE)
"""``its EPDM sibling``: what follows ``its`` is another product, the sentence's subject."""
_VERSUS = re.compile(r"\b(?:versus|vs\.?|compared\s+(?:with|to)|against|whereas|while)\s+"
                     r"(?:\w+\s+)?$", re.IGNORECASE)


def _group_of(mentions: list[Mention]) -> list[str]:
    """The distinct products a sentence names or refers to, in order."""
    return list(dict.fromkeys(s for m in mentions for s in m.skus))
_LIST_AFTER = re.compile(r"^[^.;]*?(?::|\bincluding\b|\bnamely\b|\()\s*$", re.IGNORECASE)


def _group(sentence: str, mentions: list[Mention], nearest: Mention) -> list[str]:
    """``nearest`` and the SKUs coordinated with it (``BV-00011 and BV-00012 are``)."""
    if nearest.group:
        return list(nearest.group)
    if not nearest.explicit:
        return [nearest.sku]  # "BV-00013 and BV-00020, the latter has": one product
    index = mentions.index(nearest)
    group = [nearest]
    while index > 0 and _COORDINATED.match(sentence[mentions[index - 1].end:
                                                     mentions[index].start]):
        index -= 1
        group.insert(0, mentions[index])
    if len(group) > 1:
        joined = sentence[group[0].start:group[-1].end]
        after = sentence[group[-1].end:group[-1].end + 30]
        listed = sentence[:group[0].start].rstrip().endswith("(")
        if not (re.search(r"\band\b|&", joined) or _PLURAL.search(after) or listed):
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


def _skus_for(  # noqa: PLR0911, PLR0912 - one answer per way a value reaches its product
        sentence: str, reading_mentions: tuple[Mention, ...], position: int,
        focus: str | None, pair: tuple[str, ...] = (), *, end: int | None = None) -> list[str]:
    """The SKUs a value at ``position`` (ending at ``end``) is stated for (module docstring)."""
    mentions = list(reading_mentions)
    end = position if end is None else end
    inside = [m for m in mentions if m.start <= position and end <= m.end]
    if inside:
        return list(inside[0].skus)  # "the Lopez DN32": the size is part of the name
    following = [m for m in mentions if m.start >= end and (
        m.explicit or sentence[m.start:m.start + 4].casefold() == "the ")]
    if following and re.fullmatch(r"\s*\(?\s*", sentence[end:following[0].start]) and (
            re.match(r"DN", sentence[position:end], re.IGNORECASE)):
        return [following[0].sku]  # "the Cruz DN100 BV-00010": the size names the SKU
    if following and not re.search(r"\(\s*$", sentence[:position]) and _OF_FOLLOWING.match(
            sentence[end:following[0].start]):
        # "the PN10 of BV-00015", "14 Nm for the Davies": the value belongs to what follows
        return [following[0].sku]
    versus = _VERSUS.search(sentence[:position])
    group = _group_of(mentions)
    if len(group) < 2 and len(pair) == 2:
        group = list(pair)
    if versus is not None and len(group) == 2:
        # "16 Nm versus 14 Nm": the second value is the other product's
        subject = [m for m in mentions if m.end <= versus.start() and m.sku in group]
        if subject:
            return [s for s in group if s != subject[-1].sku]
    before = [m for m in mentions if m.end <= position]
    if before and re.match(r"\s*(?:vs\.?|versus)\s", sentence[end:]) and len(
            pair_named := _group(sentence, mentions, before[-1])) == 2:
        return [pair_named[0]]  # "A and B ...: PN25 vs PN10": the first of the two
    if before:
        # an appositive naming what is replaced ("BV-00003, the successor to BV-00002,
        # keeps ...") does not take the value from the product it describes
        primary = [m for m in before if not m.secondary]
        nearest = before[-1]
        if nearest.secondary and primary and re.match(
                r"^\W*,|^\s+and\s+(?:it\s+)?(?:comes|has|is|offers|keeps|ships|uses|features)\b",
                sentence[nearest.end:position]):
            nearest = primary[-1]  # "BV-00010 is the current version of BV-00009 and has"
        elif (len(before) > 1 and not nearest.explicit and _RELATIVE.match(sentence[end:])
              and re.fullmatch(r"its\s*", sentence[nearest.start:position], re.IGNORECASE)):
            nearest = before[-2]  # "GK-00009 is its EPDM sibling": GK-00009 is EPDM
        return _group(sentence, mentions, nearest)
    after = [m for m in mentions if m.start >= position and (m.explicit or m.group)]
    if after:
        if _LIST_AFTER.match(sentence[position:after[0].start]):
            return _following(sentence, mentions, after[0])
        return list(after[0].skus)
    if focus is None or GENERIC.search(sentence):
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
        self._orphans: list[tuple[Value, str, list[Keyword]]] = []
        self._lead: list[tuple[Value, str, list[Keyword]]] = []
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
            elif not reading.mentions and (text.rstrip().endswith(":") or (
                    _SET_LEAD.search(text) and not sentence.item)):
                self._lead.append((value, text, keywords))
            elif (not reading.mentions and not GENERIC.search(text)
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


def _claims_for(sku: str, value: Value, text: str, keywords: list[Keyword],
                others: tuple[str, ...] = ()) -> list[StatedValue]:
    """The claim ``value`` makes about ``sku``; when its keyword names an attribute the
    SKU's family does not carry (``its 126 Nm breakaway`` next to an actuator), about the
    nearest of ``others`` that carries it."""
    named = keyword_for(text, value, keywords, None)
    candidates = (sku, *others)
    if (named is None and value.amount is not None and value.amount.measure is not None
            and value.amount.measure.quantity is Quantity.TORQUE
            and family_of(sku) is not Family.ACTUATOR):
        # a torque without a keyword beside an actuator is the actuator's output torque
        actuators = [o for o in others if family_of(o) is Family.ACTUATOR]
        candidates = (*actuators[:1], sku, *others)
    for candidate in candidates:
        family = family_of(candidate)
        keyword = keyword_for(text, value, keywords, family)
        if keyword is None and named is not None:
            continue  # "its 22 Nm breakaway": a keyword this family does not carry
        if candidate != sku and keyword is None and named is None and candidate not in (
                candidates[:1]):
            continue
        attribute = attribute_of(value, keyword, family)
        if attribute is None or (attribute == "face_to_face" and keyword is None):
            if named is None:
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
_COPULA = re.compile(r"(?:\b(?:is|was|are|were|be|been|remains?|becomes?)|'s)\s+(?:\w+\s+)?$",
                     re.IGNORECASE)
_DESCRIBING = re.compile(r"^[\w-]*\s+ones?\b", re.IGNORECASE)
_MARKED_NO = re.compile(r"^[^;|.]{0,24}?(?:\u274c|\u2717|\u2718|\u2716|\bnot\s+OK\b)")
_NOT_A_VALUE_AFTER = re.compile(
    r"^\s*(?:x|\u00d7|times)?\s*(?:margin|factor|rule|ratio|safety|sizing)\b|^-?to-F\d{2}\b"
    r"|^\s+adapter\b|^\s*\(?(?:to|->|→)\s*F\d{2}\)?\s+adapter\b", re.IGNORECASE)
_OLD_VALUE = re.compile(r"\bfrom\s+(?:the\s+)?$", re.IGNORECASE)
_NEW_VALUE = re.compile(r"^\s*(?:to|->|→)\s", re.IGNORECASE)
_SET_AFTER = re.compile(r"^[\s-]*(?:\w+\s+)?(?:options|alternatives|valves|models|variants"
                        r"|actuators|kits|ones|versions|choices|products|parts)\b",
                        re.IGNORECASE)


def _sentence_values(sentence: Sentence,
                     reading: Reading) -> list[tuple[Value, list[str], list[Keyword]]]:
    """Each value the sentence states, with the SKUs it binds to (empty: none in reach)."""
    text = sentence.text
    keywords = keywords_in(text)
    found: list[tuple[Value, list[str], list[Keyword]]] = []
    anchors = product_anchors(text, reading.mentions, keywords)
    for value in values_in(text):
        start = clause_start(text, value.start)
        if asks(text, start, value.start):
            continue
        head = text[start:value.start]
        if negated(head) or hypothetical(head):
            continue
        if value.amount is not None and requirement_amount(text, value.amount, anchors):
            continue
        if value.code is not None and requirement_code(text, value.start, value.end, anchors):
            continue
        if value.attribute is not None and REQUIREMENT_AFTER.match(
                text[value.end:value.end + 24]):
            continue  # "the DN32 line": the site's, not the product's
        skus = _skus_for(text, reading.mentions, value.start, reading.focus, reading.group,
                         end=value.end)
        if _OLD_VALUE.search(head) and _NEW_VALUE.match(text[value.end:]):
            continue  # "changes from F10 to F12": F10 is what it was
        indefinite = _INDEFINITE.search(head)
        if (not reading.mentions and _PLAN.search(text)) or (
                indefinite is not None and _PRODUCT_AFTER.match(text[value.end:])
                and not _COPULA.search(head[:indefinite.start()])):
            # "a revised quote on a PEEK-seated valve", "we can offer a 316 alternative":
            # some other product ("it is a DN80 valve" describes its subject, though)
            continue
        if value.code is not None and _DESCRIBING.match(text[value.end:]):
            continue  # "the stainless one", "the two carbon-steel ones": a way to point
        if _MARKED_NO.match(text[value.end:]):
            continue  # "3.1 certificate ✗": the cell says it does not
        if _NOT_A_VALUE_AFTER.match(text[value.end:]):
            continue  # "the 1.25 margin", "an F10-to-F12 adapter": not the product's value
        if _SET_AFTER.match(text[value.end:]):
            listed = [m.sku for m in reading.mentions if m.explicit and m.start >= value.end]
            # "the PN16 options": a set; its values reach only the products listed after it
            # in the sentence, or a list or table that follows
            clause = [m for m in reading.mentions if m.start >= start]
            skus = listed if listed else (skus if clause else [])
        found.append((value, skus, keywords))
    return _respectively(text, reading, found)


def _kind_of(value: Value) -> str:
    if value.attribute is not None:
        return value.attribute
    if value.code is not None:
        return "|".join(sorted(set(value.code.attributes.values())))
    measure = value.amount.measure if value.amount is not None else None
    return measure.quantity.value if measure is not None else "number"


def _respectively(text: str, reading: Reading,
                  found: list[tuple[Value, list[str], list[Keyword]]]
                  ) -> list[tuple[Value, list[str], list[Keyword]]]:
    """``BV-00001 and BV-00009 have 76 Nm and 148 Nm respectively``: the n-th value of a
    kind goes to the n-th product named."""
    if not re.search(r"\brespectively\b", text, re.IGNORECASE):
        return found
    named = _group_of([m for m in reading.mentions if m.explicit or m.group])
    if len(named) < 2:
        return found
    by_kind: dict[str, list[int]] = {}
    for index, (value, _, _) in enumerate(found):
        by_kind.setdefault(_kind_of(value), []).append(index)
    shared = list(found)
    for indices in by_kind.values():
        if len(indices) == len(named):
            for sku, index in zip(named, indices, strict=True):
                value, _, keywords = shared[index]
                shared[index] = (value, [sku], keywords)
    return shared


def _stated(sku: str, attribute: str, value: Value, sentence: str) -> StatedValue:
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
