"""Products named by their catalogue names: ``the Trujillo valve``, ``the Lopez DN32``.

Agents read product names from the catalogue and write them back without the SKU
(``The Sullivan actuator is electric, 114 N·m``). :class:`ProductNames` holds, for one
catalogue, each product's **brand**: the words of its name before the family noun
(``Trujillo`` in ``Trujillo ball valve DN25 PN16 WCB NPT PEEK``), its capitalised words
before the family noun (``Sullivan`` in ``Sullivan electric actuator 114 Nm F12``; a
name that opens with its family noun, ``Gasket kit DN25 ...``, has none).

A brand written with a capital letter names a product when the text marks it as one:
``the`` before it, or a family noun or a ``DN`` size after it (``the Cook``, ``Herring
valves``, ``Lopez DN32``); a name in a sign-off or a greeting (``Thomas``) is not marked.
Brands coordinated with a marked one share its mark (``The Cook, West and Herring
valves``). Among the products of one brand, a family noun and a DN size narrow the
choice; a product another of that brand supersedes gives way to it (``the Cruz valve``
is the current Cruz). A brand that still names more than one product names none.

Example:
    >>> from remit.catalogue import shared_catalogue
    >>> names = ProductNames.of(shared_catalogue())
    >>> [(m.sku, m.text) for m in names.mentions("The Sullivan actuator is electric.")]
    [('AC-00003', 'The Sullivan actuator')]
"""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple

from remit.catalogue import Catalogue, Family

__all__ = ["NamedProduct", "ProductNames"]

_FAMILY_NOUN = re.compile(r"\b(?:ball\s+valve|valve|actuator|gasket\s+kit|kit)\b", re.IGNORECASE)
_NOUN_FAMILY = {"valve": Family.BALL_VALVE, "actuator": Family.ACTUATOR, "kit": Family.GASKET_KIT}


_KEEP = 8
"""How many catalogues' names :meth:`ProductNames.of` keeps."""
_BUILT: dict[int, tuple[Catalogue, ProductNames]] = {}


class _Product(NamedTuple):
    brand: str
    sku: str
    family: Family
    dn: int | None
    superseded: bool


class NamedProduct(NamedTuple):
    """A product the text names by its brand.

    Attributes:
        start, end: the span of the name (with ``the``, the DN size and the noun).
        sku: the product it names.
        text: the words that name it.
    """

    start: int
    end: int
    sku: str
    text: str


class ProductNames:
    """The brands of one catalogue's products.

    Build it with :meth:`of`, which keeps one per catalogue: equal names are the same
    object, so a reading cached per text and names (``read_claims``) hashes it cheaply.
    """

    __slots__ = ("_by_sku", "_pattern", "products")

    def __init__(self, products: tuple[_Product, ...]) -> None:
        self.products = products
        self._by_sku = {p.sku: p for p in products}
        self._pattern = _pattern(tuple(sorted({p.brand for p in products}))) if products else None

    @staticmethod
    def of(catalogue: Catalogue) -> ProductNames:
        """The brands of ``catalogue``'s products, built once per catalogue."""
        cached = _BUILT.get(id(catalogue))
        if cached is not None and cached[0] is catalogue:
            return cached[1]
        products: list[_Product] = []
        for sku in sorted(catalogue.variants):
            variant = catalogue.variants[sku]
            noun = _FAMILY_NOUN.search(variant.name)
            words = variant.name[:noun.start()].split() if noun else []
            brand = " ".join(itertools.takewhile(lambda word: word[0].isupper(), words))
            if not brand:
                continue
            dn = variant.attributes.get("dn")
            products.append(_Product(
                brand.casefold(), sku, variant.family,
                int(dn.value) if dn is not None and isinstance(dn.value, int | float) else None,
                variant.lifecycle.superseded_by is not None))
        names = ProductNames(tuple(products))
        if len(_BUILT) >= _KEEP:
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[id(catalogue)] = (catalogue, names)
        return names

    def mentions(self, text: str) -> list[NamedProduct]:
        """Every product ``text`` names by its brand, in order (module docstring)."""
        if self._pattern is None:
            return []
        found: list[NamedProduct] = []
        for run in _runs(self._pattern, text):
            if not any(m["the"] or m["noun"] or m["dn"] for m in run):
                continue
            family = _family(run[-1]["noun"])
            resolved = [self._resolve(m["brand"].casefold(), _family(m["noun"]) or family,
                                      int(m["dn"]) if m["dn"] else None, _age(text, m))
                        for m in run]
            # "the Davies/Sullivan pair": a shared brand takes its coordinate's family
            families = {f for sku in resolved if sku and (f := self._family_of(sku))}
            for match, first in zip(run, resolved, strict=True):
                sku = first if first is not None or len(families) != 1 else self._resolve(
                    match["brand"].casefold(), next(iter(families)),
                    int(match["dn"]) if match["dn"] else None, _age(text, match))
                if sku is not None:
                    found.append(NamedProduct(match.start(), match.end(), sku, match.group(0)))
        return found

    def _family_of(self, sku: str) -> Family | None:
        product = self._by_sku.get(sku)
        return product.family if product is not None else None

    def _resolve(self, brand: str, family: Family | None, dn: int | None,
                 age: str | None) -> str | None:
        candidates = [p for p in self.products if p.brand == brand
                      and (family is None or p.family is family)
                      and (dn is None or p.dn == dn)]
        if len(candidates) > 1 and age == "installed":
            return None  # "the Pratt valve you have on site": any revision of it
        if len(candidates) > 1:
            candidates = [p for p in candidates if p.superseded is (age == "old")]
        return candidates[0].sku if len(candidates) == 1 else None


_OLD = re.compile(r"\b(?:old|older|original|previous|earlier|superseded)\s+$", re.IGNORECASE)
_INSTALLED_BEFORE = re.compile(r"\b(?:your|ur|the\s+site's)\s+(?:\w+\s+)?$|\b(?:existing"
                               r"|installed|current\s+site)\s+$", re.IGNORECASE)
_INSTALLED_AFTER = re.compile(r"^\s+(?:that\s+|which\s+)?(?:you|you've)\s+(?:already\s+)?"
                              r"(?:have|got|run|use|installed)\b",
                              re.IGNORECASE)


def _age(text: str, match: re.Match[str]) -> str | None:
    """``old`` for the old Cruz, ``installed`` for your Pratt or the Pratt you have."""
    head = match.group(0)[:match.start("brand") - match.start()]
    if _OLD.search(head):
        return "old"
    if _INSTALLED_BEFORE.search(text[max(0, match.start() - 30):match.start()] + head) or (
            _INSTALLED_AFTER.match(text[match.end():])):
        return "installed"
    return None


def _pattern(brands: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(b).replace(r"\ ", r"\s+")
                            for b in sorted(brands, key=len, reverse=True))
    return re.compile(
        r"\b(?P<the>(?i:the|your|our)\s+(?:(?i:current|new|newer|latest|old|older|original"
        r"|previous|existing|installed|same|other)\s+)?)?"
        r"(?P<brand>(?i:" + alternatives + r"))(?:'s)?\b"
        r"(?:\s+(?i:DN)\s?(?P<dn>\d{2,3})\b)?"
        r"(?:\s+(?P<noun>(?i:ball\s+valves?|valves?|actuators?|gasket\s+kits?|kits?))\b)?")


_COORDINATION = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&)\s+|/)\s*",
                           re.IGNORECASE)


def _runs(pattern: re.Pattern[str], text: str) -> list[list[re.Match[str]]]:
    """Brand matches written with a capital, grouped where coordinated (``Cook, West and
    Herring``)."""
    runs: list[list[re.Match[str]]] = []
    for match in pattern.finditer(text):
        if not match["brand"][0].isupper():
            continue
        if runs and _COORDINATION.fullmatch(text[runs[-1][-1].end():match.start()]):
            runs[-1].append(match)
        else:
            runs.append([match])
    return runs


def _family(noun: str | None) -> Family | None:
    if not noun:
        return None
    word = noun.split()[-1].casefold().removesuffix("s")
    return _NOUN_FAMILY.get(word)
