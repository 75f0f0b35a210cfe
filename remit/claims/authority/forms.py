"""Completed forms of the owner actions: past and perfect verbs with their particles,
predicates that say an action happened, and the non-finite forms read as done.

- a past or perfect verb, active or passive, with its particle: ``finance approved``, ``has
  signed off``, ``signed the exception off``, ``the CFO OK'd it``, ``PO received``,
  ``payment's gone through``, ``came back with their approval``, ``went ahead with Q-1``,
  ``the PO followed``; a participle spelt as its
  base (``come``) only after ``have`` or ``be`` (``you'll see the PO come through`` is not
  one);
- a predicate: ``is in``, ``in hand``, ``on file``, ``showing in our system``, ``we are in
  receipt of``, ``is on board with``, ``is happy with``, ``is happy to proceed``, ``is
  satisfied it fits``, a status without a verb (``fit ok (engineering)``, ``lgtm from plant
  eng``), and possession of an action noun or a PO (``I have the go-ahead``);
- a gerund after ``thanks for`` (``thanks for approving``), a base form after an emphatic
  ``did`` (``they did approve 10%``) and a base form that lost its ending, after ``has``
  (``finance has approve it``) or after a party and before a past time (``Finance approve
  the discount yesterday``).
"""

from __future__ import annotations

from remit.claims.authority.clauses import Clause
from remit.claims.authority.lexicon import (
    ADVERBS,
    BASES,
    BE,
    DETERMINERS,
    FIT_WORDS,
    GERUNDS,
    HAVE,
    LGTM,
    OK,
    PARTICIPLES,
    PHRASAL,
    PRONOUNS,
    THANKS,
    THEY,
    TITLES,
    words,
)
from remit.claims.authority.phrases import kind_of, noun_phrase, np_word
from remit.claims.authority.sentence import Form, Reading
from remit.claims.authority.tokens import verb_like

_ARRIVALS = {"came": words("in through from"), "come": words("in through from"),
             "went": words("through out"), "gone": words("through out"),
             "reached": words("us you")}
_IDIOMS: dict[tuple[str, ...], str | None] = {
    ("replied", "with"): "give", ("responded", "with"): "give", ("went", "ahead"): "agree",
    ("gone", "ahead"): "agree", ("said", "yes"): "agree", ("checked", "in"): "record",
    ("followed", "up"): None}
_FAVOURABLE = words("positive favourable favorable clean ok okay")
"""What an answer comes back as when it was given (``came back positive``)."""
_BASE_LIKE = words("come")
"""Participles spelt as their base form: a participle only after ``have`` or ``be``."""
_IN_PREDICATES = words("in here through")
"""Adverbs that, after ``is``, say a document or an approval arrived."""
_PAST_TIMES = words("yesterday ago earlier")
"""Times that say the past (and ``last week``)."""
_LOCATED = words("showing appearing sitting shows appears sits")
_RECORDS = words("system systems inbox mailbox erp sap portal queue")
"""Where a document that has arrived is kept: ``the PO is showing in our system``."""
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
    if w in BASES and _past_said(r, i, clause):
        return _nonfinite(r, i, clause.hi, BASES[w])       # "finance approve it yesterday"
    return _verb(r, i, clause.hi) or _predicate(r, i, clause)


def _past_said(r: Reading, i: int, clause: Clause) -> bool:
    """Whether a base form is a past or participle that lost its ending: after ``has`` or
    ``have`` (``finance has approve it``), or after a party with a time after it that says
    the past (``Finance approve the discount yesterday``)."""
    toks = r.toks
    k = i - 1
    while k > clause.lo and toks[k].word in ADVERBS:
        k -= 1
    if k >= clause.lo and toks[k].word in ("has", "have") and (
            k == clause.lo or toks[k - 1].word != "to"):
        return True
    if i == clause.lo or not (toks[i - 1].word in TITLES or toks[i - 1].word in THEY):
        return False
    after = [t.word for t in toks[i + 1:clause.hi]]
    return any(w in _PAST_TIMES for w in after) or "last" in after[:-1]


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
    idiom = _idiom(r, i, hi)
    if w == "signed":
        family, end = _signed(r, i, hi)
    elif idiom is not None:
        family, end = idiom
    elif w in _ARRIVALS:
        family, end, w = ("arrive", i + 2, nxt) if nxt in _ARRIVALS[w] else (None, end, w)
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


def _idiom(r: Reading, i: int, hi: int) -> tuple[str | None, int] | None:
    """A verb whose particles make another verb of it, with the family it takes and where it
    ends: ``came back with`` (gives: ``engineering came back with their approval``), ``came
    back positive``, ``replied with``, ``went ahead (with Q-1)``, ``said yes``, ``checked
    in``; ``followed up`` (chased, not arrived) is none."""
    toks = r.toks
    said = tuple(t.word for t in toks[i:min(i + 3, hi)])
    if said[:2] in (("came", "back"), ("come", "back")) and len(said) == 3:
        if said[2] == "with":
            return "give", i + 3
        if said[2] in _FAVOURABLE:
            return "arrive", i + 3
    if said[:2] in _IDIOMS:
        return _IDIOMS[said[:2]], i + 2
    return None


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
    w = r.toks[i].word
    if w in ("in", "on"):
        return _in_hand(r, i, clause.hi)
    return _arrived(r, i, clause.hi) or _agreed(r, i, clause)


def _arrived(r: Reading, i: int, hi: int) -> Form | None:
    """``is here``, ``is through``, ``showing in our system``, ``hit our inbox``."""
    toks = r.toks
    w = toks[i].word
    prev = _before(r, i)
    nxt = toks[i + 1].word if i + 1 < hi else ""
    if (w in _LOCATED and nxt in ("in", "on") and _records(r, i + 2, hi)) \
            or (w == "hit" and _records(r, i + 1, hi)):
        return Form("arrive", i, i + 1, w)   # "it's showing in our system", "it hit our inbox"
    if w in _IN_PREDICATES and prev in BE and not (
            nxt in DETERMINERS or (i + 1 < hi and np_word(toks, i + 1, hi))):
        return Form("arrive", i, i + 1, w)   # "the PO is here", not "is here to help"
    return None


def _agreed(r: Reading, i: int, clause: Clause) -> Form | None:
    """``is happy with``, ``is happy to proceed``, ``lgtm``, ``fit ok``, ``I have the
    go-ahead``."""
    toks, hi = r.toks, clause.hi
    w = toks[i].word
    prev = _before(r, i)
    nxt = toks[i + 1].word if i + 1 < hi else ""
    if prev in BE and w in _AGREEING and (nxt in ("with", "that") or _consent(r, i + 1, hi)):
        # "finance is happy with the 12%", "happy to proceed", "satisfied it fits"
        return Form("agree", i, i + 3 if nxt == "to" else i + 1, w)
    if w in LGTM or (w in OK and i > clause.lo and kind_of(prev) is not None
                     and not any(verb_like(t) for t in toks[clause.lo:i])):
        return Form("agree", i, i + 1, w)    # "lgtm from plant eng", "fit ok (engineering)"
    if w in ("have", "has", "had") and i + 1 < hi and not verb_like(toks[i + 1]):
        np = noun_phrase(toks, i + 1, hi)
        if np is not None and np.kind in ("action", "po"):
            return Form("have", i, i + 1, w)   # "I have the go-ahead", "we have your PO"
    return None


def _in_hand(r: Reading, i: int, hi: int) -> Form | None:
    """``in hand``, ``on file``, ``in place``, ``is in``, ``in receipt of``, ``on board``."""
    toks = r.toks
    w = toks[i].word
    prev = _before(r, i)
    nxt = toks[i + 1].word if i + 1 < hi else ""
    if w == "in" and nxt == "receipt" and i + 2 < hi and toks[i + 2].word == "of":
        return Form("receive", i, i + 3, "received")   # "we are in receipt of your PO"
    if nxt in ("hand", "file", "place"):
        return Form("arrive" if nxt != "place" else "persist", i, i + 2, nxt)
    if w == "in" and prev in BE and (_records(r, i + 1, hi) or not (
            nxt in DETERMINERS or (i + 1 < hi and np_word(toks, i + 1, hi)))):
        return Form("arrive", i, i + 1, w)   # "the PO is in (our system)", not "in production"
    if w == "on" and prev in BE and nxt == "board":
        return Form("agree", i, i + 2, w)    # "finance is on board with the 12%"
    return None


def _before(r: Reading, i: int) -> str:
    """The word before ``i`` past any adverbs: the verb of a predicate (``the PO is already
    in``, ``finance is now happy with``)."""
    k = i - 1
    while k > 0 and r.toks[k].word in ADVERBS:
        k -= 1
    return r.toks[k].word if k >= 0 else ""


def _consent(r: Reading, i: int, hi: int) -> bool:
    """Whether what follows an adjective of agreeing at ``i`` says what is agreed: ``to
    proceed``, ``to go ahead``, or a clause (``satisfied it fits``)."""
    toks = r.toks
    if i + 1 >= hi:
        return False
    if toks[i].word == "to":
        return toks[i + 1].word in ("proceed", "go")
    np = noun_phrase(toks, i, hi) if toks[i].word not in PRONOUNS else None
    k = i + 1 if np is None else np.hi
    return (np is not None or toks[i].word in ("it", "this", "they")) and k < hi \
        and (verb_like(toks[k]) or toks[k].word in FIT_WORDS)


def _records(r: Reading, i: int, hi: int) -> bool:
    """Whether a noun phrase at ``i`` names where documents are kept (``our order system``,
    ``the inbox``)."""
    np = noun_phrase(r.toks, i, hi)
    return np is not None and r.toks[np.head].word in _RECORDS


def thanker(r: Reading, lo: int, i: int) -> tuple[int, int] | None:
    """Where the words between a thanks before ``i`` and its ``for`` (or gerund) stand
    (``thanks for``, ``grateful to finance for``, ``I appreciate you``), if there is one;
    thanks in advance asks for what it thanks for."""
    thanks = next((k for k in range(lo, i) if r.toks[k].word in THANKS), None)
    if thanks is None or any(t.word == "advance" for t in r.toks[thanks:i]):
        return None   # "thanks in advance for approving": a request
    at = next((k for k in range(thanks, i) if r.toks[k].word == "for"), None)
    if at is None and not r.toks[thanks].word.startswith("appreciate"):
        return None
    return thanks + 1, i if at is None else at
