"""Completed forms of the owner actions: past and perfect verbs with their particles,
predicates that say an action happened, and the non-finite forms read as done.

- a past or perfect verb, active or passive, with its particle: ``finance approved``, ``has
  signed off``, ``signed the exception off``, ``the CFO OK'd it``, ``PO received``,
  ``payment's gone through``, ``came back with their approval``; a participle spelt as its
  base (``come``) only after ``have`` or ``be`` (``you'll see the PO come through`` is not
  one);
- a predicate: ``is in``, ``in hand``, ``on file``, ``we are in receipt of``, ``is on board
  with``, ``is happy with``, a status without a verb (``fit ok (engineering)``), and
  possession of an action noun or a PO (``I have the go-ahead``);
- a gerund after ``thanks for`` (``thanks for approving``) and a base form after an
  emphatic ``did`` (``they did approve 10%``).
"""

from __future__ import annotations

from remit.claims.authority.clauses import Clause
from remit.claims.authority.lexicon import (
    ADVERBS,
    BASES,
    BE,
    DETERMINERS,
    GERUNDS,
    HAVE,
    OK,
    PARTICIPLES,
    PHRASAL,
    PRONOUNS,
    THANKS,
    words,
)
from remit.claims.authority.phrases import kind_of, noun_phrase, np_word
from remit.claims.authority.sentence import Form, Reading
from remit.claims.authority.tokens import verb_like

_ARRIVALS = {"came": words("in through from"), "come": words("in through from"),
             "went": words("through out"), "gone": words("through out"),
             "reached": words("us you")}
_BASE_LIKE = words("come")
"""Participles spelt as their base form: a participle only after ``have`` or ``be``."""
_IN_PREDICATES = words("in here through")
"""Adverbs that, after ``is``, say a document or an approval arrived."""
_AGREEING = words("happy satisfied fine comfortable content okay ok")
"""Adjectives that, with ``with`` or ``that``, say a party agrees."""


def form(r: Reading, i: int, clause: Clause) -> Form | None:
    """The completed action form at ``i``, if any (with its particle)."""
    toks = r.toks
    w = toks[i].word
    if w in GERUNDS and thanker(r, clause.lo, i) is not None:
        return _nonfinite(r, i, clause.hi, GERUNDS[w])     # "thanks for approving"
    if w in BASES and i > clause.lo and toks[i - 1].word == "did":
        return _nonfinite(r, i, clause.hi, BASES[w])       # "they did approve 10%"
    return _verb(r, i, clause.hi) or _predicate(r, i, clause)


def _nonfinite(r: Reading, i: int, hi: int, family: str) -> Form:
    w = r.toks[i].word
    nxt = r.toks[i + 1].word if i + 1 < hi else ""
    if family == "sign" and nxt == "off":
        family = "approve"
    return Form(family, i, i + 2 if nxt in PHRASAL.get(w, ()) else i + 1, w)


def _verb(r: Reading, i: int, hi: int) -> Form | None:
    """A past or perfect verb, with the particle it takes: ``approved``, ``signed off``,
    ``signed the exception off``, ``came in``, ``said yes``, ``got it through``."""
    toks = r.toks
    w = toks[i].word
    nxt = toks[i + 1].word if i + 1 < hi else ""
    family = PARTICIPLES.get(w)
    end = i + 2 if nxt in PHRASAL.get(w, ()) else i + 1
    if w == "signed":
        family, end = _signed(r, i, hi)
    elif w in ("came", "come") and nxt == "back" and i + 2 < hi and toks[i + 2].word == "with":
        family, end = "give", i + 3   # "engineering came back with their approval"
    elif w in ("replied", "responded") and nxt == "with":
        family, end = "give", i + 2   # "engineering replied with their sign-off"
    elif w in _ARRIVALS:
        family, end, w = ("arrive", i + 2, nxt) if nxt in _ARRIVALS[w] else (None, end, w)
    elif (w, nxt) in (("said", "yes"), ("checked", "in")):
        family, end = ("agree" if w == "said" else "record"), i + 2
    elif w in ("got", "gotten"):
        np = noun_phrase(toks, i + 1, hi)
        if np is not None and np.hi < hi and toks[np.hi].word == "through":
            family = "approve"   # "we got the discount through finance"
    if family is not None and toks[i].word in _BASE_LIKE:
        k = i - 1
        while k >= 0 and toks[k].word in ADVERBS:
            k -= 1
        if k < 0 or toks[k].word not in HAVE | BE:
            return None   # "you'll see the PO come through": a base form, not a perfect
    return None if family is None else Form(family, i, end, w)


def _signed(r: Reading, i: int, hi: int) -> tuple[str, int]:
    """``signed off``, ``signed the exception off``, ``signed it off``, ``signed for``,
    ``signed the quote``."""
    toks = r.toks
    nxt = toks[i + 1].word if i + 1 < hi else ""
    if nxt in ("off", "for"):
        return ("approve" if nxt == "off" else "record"), i + 2
    np = noun_phrase(toks, i + 1, hi)
    after = np.hi if np is not None else i + 2 if nxt in PRONOUNS else hi
    if after < hi and toks[after].word == "off":
        return "approve", i + 1
    return "sign", i + 1


def _predicate(r: Reading, i: int, clause: Clause) -> Form | None:
    """A predicate that says an action happened (see the module docstring)."""
    toks, hi = r.toks, clause.hi
    w = toks[i].word
    prev = toks[i - 1].word if i > 0 else ""
    nxt = toks[i + 1].word if i + 1 < hi else ""
    if w in ("in", "on"):
        return _in_hand(r, i, hi)
    if w in _IN_PREDICATES and prev in BE and not (
            nxt in DETERMINERS or (i + 1 < hi and np_word(toks, i + 1, hi))):
        return Form("arrive", i, i + 1, w)   # "the PO is here", not "is here to help"
    if prev in BE and w in _AGREEING and nxt in ("with", "that"):
        return Form("agree", i, i + 1, w)    # "finance is happy with the 12%"
    if w in OK and i > clause.lo and kind_of(prev) is not None \
            and not any(verb_like(t) for t in toks[clause.lo:i]):
        return Form("agree", i, i + 1, w)    # "fit ok (engineering)"
    if w in ("have", "has", "had") and i + 1 < hi and not verb_like(toks[i + 1]):
        np = noun_phrase(toks, i + 1, hi)
        if np is not None and np.kind in ("action", "po"):
            return Form("have", i, i + 1, w)   # "I have the go-ahead", "we have your PO"
    return None


def _in_hand(r: Reading, i: int, hi: int) -> Form | None:
    """``in hand``, ``on file``, ``in place``, ``is in``, ``in receipt of``, ``on board``."""
    toks = r.toks
    w = toks[i].word
    prev = toks[i - 1].word if i > 0 else ""
    nxt = toks[i + 1].word if i + 1 < hi else ""
    if w == "in" and nxt == "receipt" and i + 2 < hi and toks[i + 2].word == "of":
        return Form("receive", i, i + 3, "received")   # "we are in receipt of your PO"
    if nxt in ("hand", "file", "place"):
        return Form("arrive" if nxt != "place" else "persist", i, i + 2, nxt)
    if w == "in" and prev in BE and not (
            nxt in DETERMINERS or (i + 1 < hi and np_word(toks, i + 1, hi))):
        return Form("arrive", i, i + 1, w)   # "the PO is in", not "is in production"
    if w == "on" and prev in BE and nxt == "board":
        return Form("agree", i, i + 2, w)    # "finance is on board with the 12%"
    return None


def thanker(r: Reading, lo: int, i: int) -> tuple[int, int] | None:
    """Where the words between a thanks before ``i`` and its ``for`` (or gerund) stand
    (``thanks for``, ``grateful to finance for``, ``I appreciate you``), if there is one."""
    thanks = next((k for k in range(lo, i) if r.toks[k].word in THANKS), None)
    if thanks is None:
        return None
    at = next((k for k in range(thanks, i) if r.toks[k].word == "for"), None)
    if at is None and not r.toks[thanks].word.startswith("appreciate"):
        return None
    return thanks + 1, i if at is None else at
