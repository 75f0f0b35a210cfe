"""Which product a sentence is about: SKU mentions, references back to them, and focus.

Within one message, a claim binds to a SKU named in its sentence or to the SKU in
focus. :class:`Focus` follows a message sentence by sentence:

- **SKU mentions** (``BV-00008``, ``bv-00008``, ```BV-00008```), each with the family its
  prefix names; a SKU the catalogue does not hold is still a mention (a claim about it
  is unsupported).
- **secondary mentions**: a SKU after ``than``, ``unlike``, ``compared with``,
  ``instead of``, ``replaces``, ``in place of``, ``superseded`` ... is what the sentence is
  *not* about; it does not take the focus.
- **references**: pronouns (``it``, ``its``, ``this one``) resolve to the SKU in focus;
  definite descriptions resolve to the last SKU of their family (``the actuator``,
  ``the gasket kit``, ``this valve``) or, for ``the replacement``, ``the successor``,
  ``the alternative``, to the SKU that replaces another in this message.
- **names**: given the catalogue's :class:`~remit.claims.names.ProductNames`, a product
  named by its brand (``the Trujillo valve``) is a mention of its SKU, unless a SKU
  written right after it spells out which product is meant (``the Pratt BV-00016``).

Example:
    >>> focus = Focus()
    >>> [m.sku for m in focus.read("BV-00003 replaces BV-00001.").mentions]
    ['BV-00003', 'BV-00001']
    >>> focus.current, focus.replacement
    ('BV-00003', 'BV-00003')
"""

from __future__ import annotations

import re
from typing import NamedTuple

from remit.catalogue import Family
from remit.claims.names import ProductNames

__all__ = ["SKU", "Focus", "Mention", "Reading", "family_of"]

SKU = re.compile(r"(?<![\w-])(?:(?P<prefix>(?i:BV|AC|GK))(?:-(?P<digits>\d{3,6})|(?P<joined>\d{5}))"
                 r"|(?P<other>[A-Za-z]{2,3})-(?P<long>\d{5,6}))(?![\w-])")
"""A SKU as written: a family prefix (BV, AC, GK) and three to six digits, or any two or
three letters and five or six digits (a tag such as ``XV-101`` is not a SKU)."""

_FAMILIES = {"BV": Family.BALL_VALVE, "AC": Family.ACTUATOR, "GK": Family.GASKET_KIT}

_SECONDARY_BEFORE = re.compile(
    r"(?:\bthan|\bunlike|\bcompared\s+(?:with|to)|\bversus|\bvs\.?|\binstead\s+of"
    r"|\brather\s+than|\breplaces|\breplacing|\bsupersedes|\bsuperseding|\bin\s+place\s+of"
    r"|\breplaced|\bsuperseded\s+by|\bsucceeds|\bsucceeded"
    r"|\bsuccessor\s+(?:to|of)|\breplacement\s+(?:for|of)|\balternative\s+to"
    r"|\bsubstitute\s+for|\bover|\bfrom|\bformerly|\bpreviously|\bold|\boriginal"
    r"|\b(?:version|revision)\s+of"
    r"|\bsuperseded\s+(?:part|sku|valve)?|\byour\s+(?:old|existing|current))"
    r"[\s:,'\"(]*(?:the\s+)?(?:[\w-]+\s+){0,2}?$",
    re.IGNORECASE)
_APPOSITION = re.compile(
    r"[\s,(:#\u2014\u2013-]*(?:(?:[A-Z0-9][\w./-]*|that's|that\s+is|i\.e\.?|aka|sku|code"
    r"|part\s+(?:no\.?|number))[\s,(:#\u2014\u2013-]*){0,8}")
"""What may stand between a brand and the SKU that spells it out (``the Pratt valve
BV-00016``, ``Trujillo ball valve DN25 PN16 ... - that's BV-00013``): the SKU is meant."""
_PASSIVE_REPLACED = re.compile(
    r"^[\s,)'\"]*(?:is|was|has\s+been|have\s+been|had\s+been|being)\s+(?:now\s+)?"
    r"(?:superseded|replaced|discontinued|obsolete|withdrawn|retired)",
    re.IGNORECASE)
_REPLACES_AFTER = re.compile(
    r"^[\s,)'\"]*(?:which\s+|that\s+)?(?:now\s+)?(?:replaces|supersedes|is\s+the\s+"
    r"(?:direct\s+|current\s+|drop-in\s+)?(?:successor|replacement|substitute|alternative)"
    r"|is\s+the\s+(?:current|new|newer|latest|updated)\s+(?:version|revision)\s+of)",
    re.IGNORECASE)

_PRONOUN = re.compile(
    r"\b(?:it|its|it's|itself|this\s+one|that\s+one|this\s+(?:model|unit|part|item|sku|option"
    r"|product|variant)|that\s+(?:model|unit|part|item|option|product|variant)"
    r"|the\s+(?:same\s+)?(?:model|unit|part|item|sku|product|variant|option|selected\s+\w+"
    r"|recommended\s+\w+|quoted\s+\w+|proposed\s+\w+))\b",
    re.IGNORECASE)
_DESCRIPTION = re.compile(
    r"\b(?:the|this|that|our|your)\s+(?:new\s+|proposed\s+|recommended\s+|quoted\s+"
    r"|selected\s+|chosen\s+|suggested\s+)?"
    r"(?P<noun>ball\s+valves?|valves?|actuators?|gasket\s+kits?|gaskets?|kits?"
    r"|replacement|successor|alternative|substitute|swap|current\s+one|new\s+one|old\s+one"
    r"|original|predecessor|old\s+part|superseded\s+one|previous\s+one|old\s+revision"
    r"|previous\s+revision)\b",
    re.IGNORECASE)
_PLURAL_REFERENCE = re.compile(
    r"\b(?:both(?:\s+of\s+them|\s+valves|\s+actuators|\s+kits)?|all\s+(?:three|four|five"
    r"|of\s+them|these|those|the\s+above)|each(?:\s+of\s+them)?|they|them|these(?:\s+(?:two"
    r"|three|valves|actuators|kits|options|models))?|the\s+(?:two|three|four)(?:\s+\w+)?"
    r"|either(?:\s+one|\s+of\s+them)?(?!\s+[A-Za-z]{2,3}-\d)(?!\s+(?:\S+\s+){0,3}or\b))\b",
    re.IGNORECASE)
_ORDINAL = re.compile(r"\b(?:the\s+)?(?P<which>former|latter|first(?:\s+one)?|second(?:\s+one)?"
                      r"|third(?:\s+one)?)\b(?!\s+(?:time|step|line|of\s+all|option\s+is))",
                      re.IGNORECASE)
_WHICH = {"former": 0, "first": 0, "first one": 0, "latter": -1, "second": 1,
          "second one": 1, "third": 2, "third one": 2}
_IS_REPLACEMENT = re.compile(
    r"\b(?:successor|replacement|alternative|substitute|swap|equivalent|recommendation"
    r"|drop-in)\s+(?:is|will\s+be|would\s+be|being|here\s+is)\s+(?:the\s+)?\W*$",
    re.IGNORECASE)
_ALIAS_DEFINED = re.compile(
    r"\b(?P<label>option\s+(?:[A-D]|[1-4])|choice\s+(?:[A-D]|[1-4])|alternative\s+(?:[A-D]|[1-4]))"
    r"\b\W{0,4}(?:is\s+|=\s*)?(?:the\s+)?(?:[\w-]+\s+){0,3}?\W{0,2}(?P<sku>[A-Za-z]{2,3}-\d{3,6})\b"
    r"|\b(?P<sku2>[A-Za-z]{2,3}-\d{3,6})\W{0,3}\((?P<label2>option\s+(?:[A-D]|[1-4]))\)",
    re.IGNORECASE)
_NAME_AFTER_SKU = re.compile(
    r"\b(?P<sku>[A-Za-z]{2,3}-\d{3,6})\W{0,3}[(,\u2013-]\s*(?:the\s+)?(?P<name>[A-Z][a-z]{2,})\b")
_NAME_BEFORE_SKU = re.compile(
    r"\bthe\s+(?P<name>[A-Z][a-z]{2,})(?:\s+(?:ball\s+)?(?:valve|actuator|kit))?\s*\(\s*"
    r"(?P<sku>[A-Za-z]{2,3}-\d{3,6})\s*\)")
_NOT_NAMES = frozenset({
    "option", "stainless", "carbon", "flanged", "threaded", "pneumatic", "electric", "spring",
    "double", "single", "current", "new", "old", "superseded", "discontinued", "active",
    "successor", "replacement", "alternative", "the", "which", "with", "and", "ball", "valve",
    "actuator", "gasket", "kit", "size", "rated", "price", "stock", "lead", "available", "out",
    "in", "for", "same", "previous", "original", "cheaper", "recommended", "preferred"})
_NOUN_FAMILY = {"valve": Family.BALL_VALVE, "ball valve": Family.BALL_VALVE,
                "actuator": Family.ACTUATOR, "gasket kit": Family.GASKET_KIT,
                "gasket": Family.GASKET_KIT, "kit": Family.GASKET_KIT}
_NEW_ONE = frozenset({"replacement", "successor", "alternative", "substitute", "swap",
                      "current one", "new one", "new valve"})
_OLD_ONE = frozenset({"old one", "old valve", "original", "predecessor", "old part",
                      "superseded one", "previous one", "old revision", "previous revision"})


class Mention(NamedTuple):
    """A product a sentence refers to, and where.

    Attributes:
        start, end: the span of the words that refer to it.
        sku: the SKU (upper case); the first of ``group`` for a plural reference.
        secondary: named only as a point of comparison or as what is replaced.
        explicit: the SKU is written out (not a pronoun or a description).
        group: every SKU a plural reference (``both``, ``all three``, ``they``) means.
    """

    start: int
    end: int
    sku: str
    secondary: bool = False
    explicit: bool = True
    group: tuple[str, ...] = ()

    @property
    def skus(self) -> tuple[str, ...]:
        """The SKUs this mention refers to."""
        return self.group or (self.sku,)


class Reading(NamedTuple):
    """One sentence as :meth:`Focus.read` saw it.

    Attributes:
        mentions: explicit SKU mentions and resolved references, in order.
        focus: the SKU in focus before this sentence (``None`` at the start).
    """

    mentions: tuple[Mention, ...]
    focus: str | None
    group: tuple[str, ...] = ()


def _sku_of(match: re.Match[str]) -> str:
    prefix = match["prefix"] or match["other"]
    return f"{prefix.upper()}-{match['digits'] or match['joined'] or match['long']}"


def family_of(sku: str) -> Family | None:
    """The family a SKU's prefix names (``BV`` ball valve, ``AC`` actuator, ``GK`` gasket kit)."""
    return _FAMILIES.get(sku.split("-", 1)[0].upper())


class Focus:
    """The SKU a message is about, followed sentence by sentence (module docstring).

    Attributes:
        current: the SKU in focus.
        replacement: the SKU that replaces another, when the message said so.
        last: the last SKU of each family mentioned.
    """

    def __init__(self, names: ProductNames | None = None) -> None:
        self.names = names
        self.current: str | None = None
        self.replacement: str | None = None
        self.replaced: str | None = None
        self.last: dict[Family, str] = {}
        self.group: tuple[str, ...] = ()
        self.aliases: dict[str, str] = {}
        self._rows: list[str] = []

    def _learn_aliases(self, sentence: str) -> None:
        """Names a message gives its products: ``Option A: BV-00012``, ``BV-00020
        (Roberts, DN25)``, ``the Dixon valve (BV-00013)``."""
        for match in _ALIAS_DEFINED.finditer(sentence):
            label = " ".join((match["label"] or match["label2"]).split()).casefold()
            sku = (match["sku"] or match["sku2"]).upper()
            self.aliases[label] = sku
        for match in _NAME_AFTER_SKU.finditer(sentence):
            if match["name"].casefold() not in _NOT_NAMES:
                self.aliases[match["name"].casefold()] = match["sku"].upper()
        for match in _NAME_BEFORE_SKU.finditer(sentence):
            if match["name"].casefold() not in _NOT_NAMES:
                self.aliases[match["name"].casefold()] = match["sku"].upper()

    def _alias_mentions(self, sentence: str, taken: list[tuple[int, int]]) -> list[Mention]:
        if not self.aliases:
            return []
        found: list[Mention] = []
        pattern = re.compile(
            r"\b(?:the\s+)?(?P<alias>" + "|".join(
                re.escape(a).replace(r"\ ", r"\s+") for a in sorted(self.aliases, key=len,
                                                                     reverse=True))
            + r")(?:\s+(?:valve|actuator|kit|one|option))?\b", re.IGNORECASE)
        for match in pattern.finditer(sentence):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue
            sku = self.aliases[" ".join(match["alias"].split()).casefold()]
            found.append(Mention(match.start(), match.end(), sku))
            taken.append((match.start(), match.end()))
        return found

    def _name_mentions(self, sentence: str, taken: list[tuple[int, int]],
                       written: list[Mention]) -> list[Mention]:
        """Products named by their catalogue brand, unless a SKU written right after
        spells out which one is meant."""
        found: list[Mention] = []
        for named in self.names.mentions(sentence) if self.names is not None else ():
            if not any(s < named.end and named.start < e for s, e in taken) and not any(
                    _APPOSITION.fullmatch(sentence[named.end:m.start]) for m in written
                    if m.start >= named.end):
                found.append(Mention(named.start, named.end, named.sku))
                taken.append((named.start, named.end))
        return found

    def _explicit(self, sentence: str) -> list[Mention]:
        mentions: list[Mention] = []
        for match in SKU.finditer(sentence):
            sku = _sku_of(match)
            before, after = sentence[:match.start()], sentence[match.end():]
            secondary = _SECONDARY_BEFORE.search(before) is not None
            if _PASSIVE_REPLACED.match(after):
                secondary = True
            if (secondary and re.search(r"\b(?:replaces|replaced|supersedes|superseding|replacing"
                                       r"|instead\s+of|in\s+place\s+of|successor\s+(?:to|of)"
                                       r"|replacement\s+(?:for|of)|substitute\s+for|from|over"
                                       r"|formerly|previously|old|original|version\s+of"
                                       r"|revision\s+of)\W*(?:[\w-]+\W+){0,2}$",
                                       before, re.IGNORECASE)) or _PASSIVE_REPLACED.match(after):
                self.replaced = sku
            if _REPLACES_AFTER.match(after) or _IS_REPLACEMENT.search(before):
                self.replacement = sku
            elif secondary and re.search(r"\b(?:replaces|supersedes|replacing|instead\s+of"
                                         r"|in\s+place\s+of|successor\s+(?:to|of)|replacement"
                                         r"\s+(?:for|of)|substitute\s+for)\W*(?:\w+\W+){0,2}$",
                                         before, re.IGNORECASE):
                # "BV-00003 replaces BV-00001": the SKU before the verb is the new one
                earlier = [m for m in mentions if not m.secondary]
                if earlier:
                    self.replacement = earlier[-1].sku
            mentions.append(Mention(match.start(), match.end(), sku, secondary))
        for i, mention in enumerate(mentions):
            after = sentence[mention.end:]
            if re.match(r"^[\s,)'\"]*(?:is|was|has\s+been)\s+(?:now\s+)?(?:superseded|replaced)"
                        r"\s+by\b", after, re.IGNORECASE) and i + 1 < len(mentions):
                self.replacement = mentions[i + 1].sku
        return mentions

    def _reference(  # noqa: PLR0911 - one answer per kind of reference
            self, match: re.Match[str], subject: str | None = None) -> str | None:
        """The SKU a pronoun or description refers to; ``subject`` is the product this
        sentence named before the reference (a pronoun after it refers to it)."""
        noun = match.groupdict().get("noun")
        if noun is None:
            return subject or self.current
        noun = " ".join(noun.casefold().split()).removesuffix("s")
        if noun in _NEW_ONE:
            return self.replacement or self.last.get(Family.BALL_VALVE) or self.current
        if noun in _OLD_ONE:
            return self.replaced
        family = _NOUN_FAMILY.get(noun)
        if family is None:
            return self.current
        if subject is not None and family_of(subject) is family:
            return subject
        if self.current is not None and family_of(self.current) is family:
            return self.current
        return self.last.get(family)

    def _plural(self, sentence: str, taken: list[tuple[int, int]],
                explicit: list[Mention]) -> list[Mention]:
        """``both``, ``all three``, ``the former``: references to the last group of SKUs
        (those this sentence named before the reference, when it named two or more)."""
        found: list[Mention] = []
        if len(self.group) < 2:
            return found
        for match in _PLURAL_REFERENCE.finditer(sentence):
            if not any(s < match.end() and match.start() < e for s, e in taken):
                before = tuple(dict.fromkeys(m.sku for m in explicit if m.end <= match.start()))
                if match.group(0).casefold().startswith("both"):
                    before = before[-2:]
                group = before if len(before) >= 2 else self.group
                found.append(Mention(match.start(), match.end(), group[0],
                                     explicit=False, group=group))
                taken.append((match.start(), match.end()))
        for match in _ORDINAL.finditer(sentence):
            index = _WHICH[" ".join(match["which"].casefold().split())]
            if index < len(self.group) and not any(s < match.end() and match.start() < e
                                                   for s, e in taken):
                found.append(Mention(match.start(), match.end(), self.group[index],
                                     explicit=False))
                taken.append((match.start(), match.end()))
        return found

    def _regroup(self, explicit: list[Mention], item: bool) -> None:
        """Remember SKUs named together: in one sentence, or one per row of a list or table."""
        named = list(dict.fromkeys(m.sku for m in explicit))
        if len(named) >= 2:
            self.group = tuple(named)
            self._rows = []
        elif item and len(named) == 1:
            self._rows.append(named[0])
            if len(self._rows) >= 2:
                self.group = tuple(dict.fromkeys(self._rows))
        elif named:
            self._rows = []

    def read(self, sentence: str, *, item: bool = False) -> Reading:
        """The products ``sentence`` mentions or refers to; then move the focus.

        Args:
            sentence: the sentence.
            item: it is a list item or a table row (consecutive rows naming one SKU each
                form a group that ``both`` or ``all three`` can refer to).
        """
        before = self.current
        self._learn_aliases(sentence)
        explicit = self._explicit(sentence)
        for mention in explicit:
            # "The replacement, BV-00010, has ...": the description names that SKU
            lead = sentence[:mention.start]
            if re.search(r"\b(?:the|its)\s+(?:current\s+|new\s+|direct\s+|recommended\s+)?"
                         r"(?:replacement|successor|alternative|substitute|current\s+one"
                         r"|new\s+one)\W{0,3}$", lead, re.IGNORECASE):
                self.replacement = mention.sku
        taken = [(m.start, m.end) for m in explicit]
        taken += [(m.start(), m.end()) for m in re.finditer(
            r"\b(?:the|its)\s+(?:current\s+|new\s+|direct\s+|recommended\s+)?(?:replacement"
            r"|successor|alternative|substitute|current\s+one|new\s+one)(?=\W{0,3}"
            r"[A-Za-z]{2,3}-\d)", sentence, re.IGNORECASE)]
        written = list(explicit)
        explicit += self._alias_mentions(sentence, taken)
        explicit += self._name_mentions(sentence, taken, written)
        explicit.sort()
        self._regroup(explicit, item)
        references: list[Mention] = self._plural(sentence, taken, explicit)
        primary = [m for m in explicit if not m.secondary]
        for pattern in (_DESCRIPTION, _PRONOUN):
            for match in pattern.finditer(sentence):
                if any(s < match.end() and match.start() < e for s, e in taken):
                    continue
                earlier = [m for m in primary if m.end <= match.start()]
                sku = self._reference(match, earlier[0].sku if earlier else None)
                if sku is not None:
                    references.append(Mention(match.start(), match.end(), sku, explicit=False))
                    taken.append((match.start(), match.end()))
        mentions = tuple(sorted(explicit + references))
        for mention in explicit:
            family = family_of(mention.sku)
            if family is not None:
                self.last[family] = mention.sku
        primary = [m for m in explicit if not m.secondary]
        if self.replacement is not None and any(m.sku == self.replacement for m in explicit):
            self.current = self.replacement
        elif primary:
            self.current = primary[-1].sku
        elif explicit and before is None:
            self.current = explicit[-1].sku
        return Reading(mentions=mentions, focus=before, group=self.group)
