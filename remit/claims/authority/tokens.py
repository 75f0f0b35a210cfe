"""Words as read: a sentence's tokens, case-folded, contractions expanded, compounds joined,
emoji and misspellings read as the words they stand for.

``hasn't`` and ``hasnt`` read as ``has not``; ``purchase order`` as ``po``; ``post-approval``
as ``after approval``; ``rec'd`` as ``received``; ``tech`` as ``technical``; ``°C`` as
``degc``; ``appr0ved`` (a
zero for an ``o``) and ``aproved`` as ``approved``; 👍 as ``thumbs-up``. A misspelling is one
letter dropped or added, two letters swapped or one vowel written for another, never at the
first or last letter, of a word of the lexicon at least seven letters long, when it stands
for that word only and is not itself a word the grammar knows: ``finanace``, ``recieved``,
``acceptence`` are read through, ``approve``, ``account`` and ``financed`` stay themselves.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import NamedTuple

from remit.claims.authority.lexicon import (
    ACTION_NOUNS,
    BASES,
    BE,
    DETERMINERS,
    GERUNDS,
    HAVE,
    IRREGULAR_PASTS,
    MODALS,
    NP_STOP,
    PARTICIPLES,
    THEMES,
    TITLES,
    words,
)


class Tok(NamedTuple):
    """A token of a sentence."""

    word: str   # as read: case-folded, a contraction expanded ("hasn't" is "has", "not")
    text: str   # as written
    start: int
    end: int


_TOKEN = re.compile(r"\[[ xX]\]|\d+(?:[.,]\d+)*\s?%|[^\W_]+(?:[-'.][^\W_]+|,\d{3}(?!\d))*"
                    r"|°\s?[cCfF]\b|[^\w\s]")
_CONTRACTIONS = {"'s": "'s", "'ve": "have", "'ll": "will", "'re": "are", "'m": "am", "'d": "'d"}
_NOT_STEMS = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
_BARE_NOTS = words("isnt arent wasnt werent hasnt havent hadnt doesnt dont didnt cant couldnt "
                   "wont wouldnt shouldnt")
"""Negated auxiliaries written without their apostrophe."""
_SHORTHAND = {"rec'd": "received", "recd": "received", "rcvd": "received",
              "rcv'd": "received", "appr'd": "approved", "apprvd": "approved",
              "conf'd": "confirmed", "cnfrmd": "confirmed", "acc'd": "accepted",
              "tech": "technical"}
"""Business shorthand for the completed forms and the words around them (``PO rec'd``,
``tech sign-off``)."""
_DEGREES = re.compile(r"°\s?([cf])")
"""A temperature unit, read as one word (``150 °C`` is ``150 degc``)."""
_EMOJI = {"\U0001f44d": "thumbs-up"}
"""Emoji read as the word they stand for (👍)."""
_SKIN_TONES = ("\U0001f3fb", "\U0001f3ff")
_ZERO_FOR_O = re.compile(r"(?<=[a-z])0(?=[a-z])")
_COMPOUNDS = {("green", "light"): "green-light", ("thumbs", "up"): "thumbs-up",
              ("sign", "off"): "sign-off", ("go", "ahead"): "go-ahead",
              ("all", "clear"): "all-clear",
              ("purchase", "order"): "po", ("goods", "receipt"): "receipt",
              ("payment", "release"): "payment"}
"""Two-word nouns read as one; ``sign off``, ``go ahead`` and ``all clear`` only after a
determiner."""
_VERB_LIKE_COMPOUNDS = frozenset({"sign-off", "go-ahead", "all-clear"})
_MIN_TYPO = 7
"""Words this long or longer are read through a misspelling (shorter ones too often make
another word: ``signed``, ``singed``)."""
_VOWELS = "aeiou"


def _expanded(word: str) -> tuple[str, ...]:
    if word in _BARE_NOTS:
        return (_NOT_STEMS.get(word[:-2], word[:-2]), "not")   # "hasnt", "didnt"
    if ("'" not in word and word != "cannot") or word in ("ok'd", "okay'd"):
        return (word,)
    if word == "cannot":
        return ("can", "not")
    if word.endswith("n't") and len(word) > 3:
        stem = word[:-3]
        return (_NOT_STEMS.get(stem, stem), "not")
    for suffix, full in _CONTRACTIONS.items():
        if word.endswith(suffix) and len(word) > len(suffix):
            return (word[:-len(suffix)], full)
    return (word,)


@functools.cache
def _lexicon() -> tuple[frozenset[str], dict[str, str]]:
    """The words read through a misspelling, and their misspellings that drop a letter, swap
    two or write one vowel for another (each standing for one word only)."""
    lexicon = frozenset(w for w in (*PARTICIPLES, *TITLES, *ACTION_NOUNS, *THEMES)
                        if w.isalpha() and len(w) >= _MIN_TYPO)
    known = lexicon | BASES.keys() | GERUNDS.keys() | NP_STOP
    variants: dict[str, set[str]] = {}
    for word in lexicon:
        last = len(word) - 1
        for typo in ({word[:k] + word[k + 1:] for k in range(last)}
                     | {word[:k] + word[k + 1] + word[k] + word[k + 2:] for k in range(last - 1)}
                     | {word[:k] + v + word[k + 1:] for k in range(1, last) if word[k] in _VOWELS
                        for v in _VOWELS}):
            if typo not in known:
                variants.setdefault(typo, set()).add(word)
    return lexicon, {typo: min(w) for typo, w in variants.items() if len(w) == 1}


@functools.cache
def _spelt(word: str) -> str:
    """``word`` as the lexicon spells it when it misspells one of its words (see the module
    docstring)."""
    lexicon, dropped = _lexicon()
    if word in lexicon:
        return word
    if word in dropped:
        return dropped[word]
    added = {c for k in range(1, len(word) - 1) if (c := word[:k] + word[k + 1:]) in lexicon}
    return added.pop() if len(added) == 1 else word


def known(word: str) -> bool:
    """Whether ``word`` (case-folded) is a long word of the lexicon, or misspells one."""
    return _spelt(word) in _lexicon()[0]


def tokens(line: str) -> list[Tok]:
    """The words, marks and punctuation of ``line``, as read (see the module docstring)."""
    out: list[Tok] = []
    for match in _TOKEN.finditer(line):
        text = match.group(0)
        if unicodedata.category(text[0]).startswith("M") \
                or _SKIN_TONES[0] <= text <= _SKIN_TONES[1]:
            continue  # a variation selector, combining mark or skin tone on its own
        word = _EMOJI.get(text, _DEGREES.sub(r"deg\1", text.casefold()))
        word = _SHORTHAND.get(word, word)
        if "0" in word:
            word = _ZERO_FOR_O.sub("o", word)   # "appr0ved"
        if len(word) >= _MIN_TYPO - 1 and word.isalpha():
            word = _spelt(word)                  # "finanace aproved"
        parts = (("after", word[5:]) if word.startswith("post-") and word[5:] in ACTION_NOUNS
                 else _expanded(word))   # "post-approval" is "after approval"
        out += [Tok(part, text, match.start(), match.end()) for part in parts]
    merged: list[Tok] = []
    for tok in out:
        if merged:
            compound = _COMPOUNDS.get((merged[-1].word, tok.word))
            after_determiner = len(merged) > 1 and merged[-2].word in DETERMINERS | {"'s"}
            if compound and (compound not in _VERB_LIKE_COMPOUNDS or after_determiner):
                last = merged.pop()
                merged.append(Tok(compound, f"{last.text} {tok.text}", last.start, tok.end))
                continue
        merged.append(tok)
    return merged


def is_word(tok: Tok) -> bool:
    """A word or a number, not a mark or punctuation."""
    return tok.word[0].isalnum() or tok.word.endswith("%")


def past(tok: Tok) -> bool:
    """A regular past or participle (``-ed``)."""
    return tok.word.endswith("ed") and len(tok.word) > 4 and tok.word.isalpha()


def verb_like(tok: Tok) -> bool:
    """A finite verb or an auxiliary (for telling a clause from a noun phrase)."""
    w = tok.word
    return (w in BE or w in HAVE or w in MODALS or w in IRREGULAR_PASTS
            or w in PARTICIPLES or past(tok))
