"""Noun phrases and what they name: a determiner, modifiers and a head noun whose kind says
what an action is about.

A head's kind comes from the lexicon (``discount`` is commercial, ``substitution`` a fit,
``PO`` a purchase order, ``approval`` an action noun), from a code (``Q-1`` is a quote,
``BV-00008`` a product, ``INV-7741`` an invoice, ``12%`` commercial; a number in a unit of
the site's conditions makes a fact of a figure: ``the 12 bar figure``) or from the phrase
after it that names it: ``receipt of your PO`` is the PO's arrival, ``receipt of the goods``
the goods receipt, ``receipt of your RFQ`` neither; ``the change to the payment terms`` is
about the terms. An identifier, a status word or the paper it is written on after a noun
leaves the noun the head (``PO 4500123``, ``Discount status``, ``the exception form``; not
an action noun: ``the approval form`` is a paper).
"""

from __future__ import annotations

from typing import NamedTuple

from remit.claims.authority.lexicon import (
    ACTION_NOUNS,
    DETERMINERS,
    GENERIC_HEADS,
    GERUNDS,
    IDENTIFIER,
    NP_STOP,
    OK,
    PAPERS,
    PRODUCT_CODE,
    QUOTE_CODE,
    THEMES,
    UNITS,
    VERB_BASES,
    words,
)
from remit.claims.authority.tokens import Tok, is_word, past

_FIGURES = words("figure figures number numbers value values")
"""Nouns of a quantity, whatever it measures: a price's, or a site condition's (``the 12 bar
figure``; not ``the 12 bar option price``)."""
_CHANGES = words("change changes update amendment increase reduction extension")


class NP(NamedTuple):
    """A noun phrase."""

    lo: int     # its first word, a determiner included
    head: int   # its head noun
    hi: int     # one past its last word
    kind: str | None


def kind_of(word: str) -> str | None:
    """The kind of thing a head noun names: a theme, ``action``, or ``None``."""
    if word in ACTION_NOUNS:
        return "action"
    if word in THEMES:
        return THEMES[word]
    if word.endswith("%") or QUOTE_CODE.fullmatch(word):
        return "commercial" if word.endswith("%") else "quote"
    if PRODUCT_CODE.fullmatch(word):   # a code's prefix names its kind: "INV-7741", "GRN-6610"
        return THEMES.get(word.partition("-")[0], "product")
    return None


def np_word(toks: list[Tok], i: int, hi: int) -> bool:
    """Whether ``toks[i]`` may stand in a noun phrase."""
    tok = toks[i]
    if tok.word == "'s":
        return i + 1 < hi and is_word(toks[i + 1]) and toks[i + 1].word not in NP_STOP
    return is_word(tok) and tok.word not in NP_STOP


def noun_phrase(toks: list[Tok], i: int, hi: int) -> NP | None:
    """The noun phrase starting at ``i`` (determiners, modifiers, a head noun)."""
    lo = i
    while i < hi and toks[i].word in DETERMINERS:
        i += 1
    first = i
    while i < hi and np_word(toks, i, hi) and (i == first or toks[i].word not in DETERMINERS):
        if i > first and past(toks[i]) and not (i + 1 < hi and np_word(toks, i + 1, hi)
                                                and toks[i + 1].word not in DETERMINERS):
            break   # "the valve passed the test": a verb, not a modifier like "revised"
        if i > first and (toks[i].word in OK or not (toks[i].text[:1].isalnum()
                                                     or toks[i].word in UNITS)) \
                and toks[i - 1].word != "'s":
            break   # "the discount ok", "Q-1 👍": a predicate or a mark, not "finance's OK"
        i += 1
    if i == first:
        return None
    head = i - 1
    while head > first and (IDENTIFIER.fullmatch(toks[head].word)
                            or toks[head].word in GENERIC_HEADS
                            or (toks[head].word in PAPERS and kind_of(toks[head - 1].word)
                                not in ("action", None))):
        # "PO 4500123", "Discount status", "the exception form" (not "the approval form",
        # a paper that asks for an action): the noun before names it
        head -= 1
    kind = kind_of(toks[head].word)
    if (kind is None or toks[head].word in _FIGURES) and measured(toks, first, head + 1):
        kind = "fact"   # "the 12 bar figure": a condition of the site, not a price
    named = _named_by(toks, i, hi, kind, toks[head].word)
    return NP(lo, head, i, kind) if named is None else NP(lo, head, named.hi, named.kind)


def measured(toks: list[Tok], lo: int, hi: int) -> bool:
    """Whether ``toks[lo:hi]`` state a number in a unit of the site's conditions (``12 bar``,
    ``150 °C``)."""
    return any(toks[k].word[:1].isdigit() and toks[k + 1].word in UNITS
               for k in range(lo, hi - 1))


def _named_by(toks: list[Tok], i: int, hi: int, kind: str | None, head: str) -> NP | None:
    """The phrase after a receipt or a change that says what it is of (see the module
    docstring), with the kind it gives the whole phrase."""
    if i + 1 >= hi or not ((kind == "receipt" and toks[i].word == "of")
                           or (head in _CHANGES and toks[i].word in ("to", "of", "in"))):
        return None
    inner = noun_phrase(toks, i + 1, hi)
    if inner is None:
        return None
    if kind == "receipt":
        # the receipt of goods is the goods receipt; of anything else (an RFQ, the
        # datasheets), its arrival, which no owner action records
        return inner._replace(kind=inner.kind if inner.kind in ("po", "payment") else
                              "receipt" if inner.kind in ("goods", "product", "receipt")
                              else "other")
    # a change to nothing named is a change of specification (a fit)
    return inner if inner.kind in ("commercial", "quote", "po", "payment") else None


def phrase_ending(toks: list[Tok], head: int, lo: int, hi: int) -> NP:
    """The noun phrase whose head is ``head`` (read back to its determiner, not over a verb
    such as ``confirm``), with the phrase after it that names it (``receipt of your PO``)."""
    start = head
    while start > lo and toks[start - 1].word not in VERB_BASES | GERUNDS.keys() and (
            np_word(toks, start - 1, head + 1) or toks[start - 1].word in DETERMINERS):
        start -= 1
    whole = noun_phrase(toks, start, hi)
    if whole is not None and whole.head == head:
        return whole
    return NP(start, head, head + 1, kind_of(toks[head].word))


def first_phrase(toks: list[Tok], lo: int, hi: int) -> NP | None:
    """The first noun phrase in ``toks[lo:hi]``."""
    return next((np for k in range(lo, hi) if (np := noun_phrase(toks, k, hi)) is not None),
                None)
