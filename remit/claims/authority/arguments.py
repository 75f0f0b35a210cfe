"""The arguments of a form: its subject, what it is about (its theme), and who did it.

What was done comes from what the form is about: its object (active), its subject
(passive), a noun it names (``receipt of your PO``), the value of its label (``Received:
finance approval``), or the document ``it`` stands for; what a party agreed to do is about
that verb's object (``agreed to keep last year's rates``). Phrases of time or occasion are
not objects (``accepted on the 9th``, ``agreed on the call that ...``), nor is an action it
is for (``attached for your engineer's approval``).

The party is the one said to have done it: a ``by``, ``from`` or ``through`` phrase before
any other verb (or ``with`` after ``agreed``, or ``with`` the party's approval), a bracketed
aside after it naming a party and nothing else (``Fit confirmation (site engineering)``),
else the subject of an active form (its head before any preposition: ``the technical
authority at your site``; every party when coordinated; the subject of a complement clause
after ``that`` or a verb of saying; the antecedent of a relative ``who``, not a contrast:
``your engineer, not procurement, who``).
"""

from __future__ import annotations

import re

from remit.authority import Role
from remit.claims.authority.clauses import Clause
from remit.claims.authority.forms import thanker
from remit.claims.authority.lexicon import (
    DETERMINERS,
    GERUNDS,
    LEADING,
    MARKS,
    MONTHS,
    NEGATIONS,
    OBJECTS,
    PREPOSITIONS,
    PRONOUNS,
    REPORTING,
    TIME,
    words,
)
from remit.claims.authority.parties import mentions, owners, parties, roles
from remit.claims.authority.phrases import NP, kind_of, noun_phrase, np_word, phrase_ending
from remit.claims.authority.sentence import Form, Reading
from remit.claims.authority.tokens import Tok, is_word, verb_like

_WHEN_PREPOSITIONS = words("on at in during over via by after before")
_OCCASIONS = words("call calls phone meeting meetings email emails visit day date time portal "
                   "system")
"""Nouns of an occasion or a medium: ``agreed on the call``, ``accepted in the portal``."""
_DATE = re.compile(r"\d+(?:st|nd|rd|th)?|\d+[/.-]\d+(?:[/.-]\d+)?")
_IN_PREDICATES = words("in here through")
_DOCUMENT_FAMILIES = frozenset({"arrive", "done", "record", "receive", "release", "send"})
"""Families whose subject ``it`` may be a document named before (``it came in``)."""
_ACCEPTABLE = words("fine ok okay acceptable approved agreed good")
"""Predicates that, said of a price, say it is agreed to (``confirmed the 6% is fine``)."""
_OBJECT_FIRST = frozenset({"have", "receive", "give"})
"""Families whose object is what the action is about even in the passive (``the exception
got the green light``, ``the discount has been given the go-ahead``), before their subject
and a phrase after them (``remittance advice received for INV-7741``)."""
_SAYING = REPORTING | words("hear heard know knew see saw learn learned learnt note noted "
                            "report reported advise advised inform informed confirm")
"""Verbs whose complement clause may leave out ``that`` (``glad to hear finance approved``)."""


def subject(r: Reading, n: int, chain: int) -> tuple[int, int, bool]:
    """The subject of a form whose auxiliaries start at ``chain`` in clause ``n``: its span
    and whether it is the clause's own (else the last clause's before it)."""
    clause, toks = r.clauses[n], r.toks
    lo = clause.lo
    if toks[lo].word == "with":
        lo += 1   # "with engineering's sign-off secured": a clause without a verb
    # a complement clause has its own subject: "we wish to inform you that the Purchaser
    # has accepted", "Priya told me that she has approved", "Ravi said it's approved"
    lo = max([k + 1 for k in range(lo + 1, chain - 1) if toks[k].word == "that" and (
        verb_like(toks[k - 1]) or toks[k - 1].word in REPORTING
        or toks[k - 1].word in OBJECTS)]
        + [k + 1 + (toks[k + 1].word in OBJECTS) for k in range(lo + 1, chain - 1)
           if toks[k].word in _SAYING], default=lo)
    while lo < chain and (toks[lo].word in LEADING or toks[lo].word in MARKS
                          or not is_word(toks[lo])):
        lo += 1
    if lo < chain:
        return lo, chain, True
    if toks[clause.lo].word == "who":
        antecedent = _antecedent(r, n)
        if antecedent is not None:
            return antecedent[0], antecedent[1], False
    # the nearest clause before with a party or a thing in its subject; an aside in
    # brackets only when nothing else names one ("Marek (plant engineering) confirmed")
    for asides in (False, True):
        for k in range(min(n, len(r.subjects)) - 1, -1, -1):
            if (r.clauses[k].joined == "(") is not asides:
                continue
            s_lo, s_hi = r.subjects[k]
            if s_hi > s_lo and (mentions(toks, s_lo, s_hi) or any(
                    kind_of(t.word) for t in toks[s_lo:s_hi])):
                return s_lo, s_hi, False
    return chain, chain, False


def _antecedent(r: Reading, n: int) -> tuple[int, int] | None:
    """What a relative ``who`` opening clause ``n`` stands for: the noun phrase that ends the
    clause before, past a contrast that says who it was not (``it was your process engineer,
    not your procurement team, who confirmed``)."""
    for k in range(n - 1, -1, -1):
        before = r.clauses[k]
        if r.toks[before.lo].word in NEGATIONS:
            continue
        np = phrase_ending(r.toks, before.hi - 1, before.lo, before.hi)
        return (np.lo, np.hi) if mentions(r.toks, np.lo, np.hi) else None
    return None


def clause_subject(r: Reading, n: int) -> tuple[int, int]:
    """The words of clause ``n`` before its first verb (its subject, or its topic)."""
    clause, toks = r.clauses[n], r.toks
    lo = clause.lo
    while lo < clause.hi and (toks[lo].word in LEADING or not is_word(toks[lo])):
        lo += 1
    hi = next((k for k in range(lo, clause.hi) if verb_like(toks[k])
               or toks[k].word in _IN_PREDICATES), clause.hi)
    if hi == lo:
        inherited = subject(r, n, lo)
        return inherited[0], inherited[1]
    return lo, hi


def theme(r: Reading, n: int, form: Form, subj: tuple[int, int], *, active: bool) -> NP | None:
    """What the form is about: its object or the noun after its preposition (active), its
    subject (passive, or a predicate), the subject's noun (``the discount you OK'd``); an
    action the subject went through (``the quote went through approval``); a verb
    coordinated with the next shares its object (``signed and returned the quote``); ``it``,
    or no subject at all, the document named last."""
    toks, hi = r.toks, r.clauses[n].hi
    j = _object_start(r, form.end, hi)
    obj, pp = _object(r, n, form, j)
    topic = _subject_phrase(r, subj)
    # "the quote went through approval": the action it went through, about the subject
    underwent = form.family == "arrive" and obj is not None and obj.kind == "action"
    order = (obj, pp, topic) if active or underwent \
        else (obj, topic, pp) if form.family in _OBJECT_FIRST else (topic, obj, pp)
    found = next((np for np in order if np is not None and np.kind is not None), None)
    pronoun = any(t.word in ("it", "this") for t in toks[subj[0]:subj[1]]) or (
        j < hi and toks[j].word == "it") or subj[0] == subj[1]   # "PO? yes, rcvd this am"
    if found is None and pronoun and form.family in _DOCUMENT_FAMILIES:
        kind = r.who.it(form.at)   # "it came in this morning": the PO named before
        return None if kind is None else NP(form.at, form.at, form.end, kind)
    if found is None and (obj or pp) and form.family in ("agree", "accept", "sign", "confirm"):
        return NP(form.at, form.at, form.end, "other")   # "agreed to the delivery date"
    return found


def _object_start(r: Reading, j: int, hi: int) -> int:
    """Where the object after a form starts, past times, ``that``, an indirect object and
    phrases of time or occasion (``sent us the PO``, ``verified that BV-00005 ...``,
    ``accepted on the 9th``)."""
    toks = r.toks
    while j < hi:
        if toks[j].word in TIME or toks[j].word == "that" or (
                toks[j].word in PRONOUNS and j + 1 < hi
                and (toks[j + 1].word in DETERMINERS or np_word(toks, j + 1, hi))):
            j += 1
        elif (when := _when(r, j, hi)) is not None:
            j = when
        else:
            break
    return j


def _object(r: Reading, n: int, form: Form, j: int) -> tuple[NP | None, NP | None]:
    """The object of a form starting at ``j``, else the noun after its preposition; with no
    object in its clause, the object of the next verb it is coordinated with, or the value
    of the label it ends."""
    toks, hi = r.toks, r.clauses[n].hi
    obj = noun_phrase(toks, j, hi)
    if form.family == "give" and obj is not None and obj.kind != "action":
        k = obj.hi   # past the first object's own phrase: "the swap to BV-00013"
        while k < hi and toks[k].word in ("to", "for", "on", "of", "from") \
                and (inner := noun_phrase(toks, k + 1, hi)) is not None:
            k = inner.hi
        second = noun_phrase(toks, k, hi)
        if second is not None and second.kind == "action":
            # "has given the fit the nod": the action noun, about the first object
            obj = NP(obj.lo, second.head, second.hi, "action")
    pp = None
    if obj is None and j < hi and toks[j].word in ("on", "to", "for", "of", "with", "about") \
            and not (toks[j].word == "with" and form.family == "agree"):   # the agent
        pp = noun_phrase(toks, j + 1, hi)
        if pp is not None and toks[j].word == "to" and pp.lo == pp.head and pp.kind is None \
                and pp.hi < hi and (toks[pp.hi].word in DETERMINERS or _dated(toks, pp.hi, hi)):
            # "agreed to hold the price", "agreed to keep last year's rates": the verb's object
            pp = noun_phrase(toks, pp.hi + (toks[pp.hi].word in TIME), hi)
        if pp is not None and toks[j].word == "for" and pp.kind == "action":
            pp = None   # "attached for your engineer's approval": what it is for, not done
    if obj is None and pp is None and j == hi and n + 1 < len(r.clauses):
        following = r.clauses[n + 1]
        if following.joined in ("and", "or") and following.lo + 1 < following.hi \
                and verb_like(toks[following.lo + 1]):
            obj = noun_phrase(toks, following.lo + 2, following.hi)
        elif following.joined == ":":
            obj = noun_phrase(toks, following.lo, following.hi)   # "Received: finance approval"
    if form.family == "confirm" and obj is not None and obj.kind == "commercial" \
            and obj.hi + 1 < hi and verb_like(toks[obj.hi]) \
            and toks[obj.hi + 1].word not in _ACCEPTABLE:
        # "confirmed the price is correct" states a fact; "confirmed the 6% is fine" agrees
        obj = NP(obj.lo, obj.head, obj.hi, "other")
    return obj, pp


def _dated(toks: list[Tok], i: int, hi: int) -> bool:
    """Whether a phrase dated by a time opens at ``i`` (``last quarter's pricing``)."""
    return toks[i].word in TIME and i + 2 < hi and toks[i + 2].word == "'s"


def _subject_phrase(r: Reading, subj: tuple[int, int]) -> NP | None:
    """The noun phrase that heads a subject, not a noun in its ``on BV-00005`` phrase."""
    k = subj[0]
    while k < subj[1]:
        np = noun_phrase(r.toks, k, subj[1])
        if np is None:
            k += 1
            continue
        if np.kind is not None and (k == subj[0] or r.toks[k - 1].word not in PREPOSITIONS):
            return np
        k = np.hi
    return None


def _when(r: Reading, j: int, hi: int) -> int | None:
    """Where a phrase of time or occasion starting at ``j`` ends (``on the 9th``, ``at
    11:40``, ``on the call``, ``in June``), or ``None``."""
    toks = r.toks
    if toks[j].word not in _WHEN_PREPOSITIONS:
        return None
    np = noun_phrase(toks, j + 1, hi)
    if np is None:
        k = j + 1
        while k < hi and (toks[k].word[:1].isdigit() or toks[k].word in (":", "/")):
            k += 1
        return k if k > j + 1 else None   # "at 11:40"
    head = toks[np.head].word
    return np.hi if (head in TIME or head in MONTHS or head in _OCCASIONS
                     or _DATE.fullmatch(head)) else None


def agents(r: Reading, form: Form, clause: Clause) -> list[Role]:
    """Who did it, when the words say: the party thanked (``grateful to finance for
    approving``, else the addressee), a ``by``/``from``/``through`` phrase after the form and
    before any other verb (``Accepted by: Priya Shah (Procurement)``), the owner of an
    action noun after ``with`` (``went through with your approval``), or an aside after its
    clause."""
    toks = r.toks
    thanked = thanker(r, clause.lo, form.at) if form.word in GERUNDS else None
    if thanked is not None:   # "thanks for approving"; "grateful to finance for approving"
        return parties(toks, *thanked, r.who) or [r.who.addressee]
    for j in range(form.end, clause.hi):
        w = toks[j].word
        if verb_like(toks[j]) and toks[j - 1].word not in ("and", "or", ","):
            break   # another predicate's phrase: "accepted Q-1, nothing needed from you"
        if w in ("by", "from", "through") or (w == "with" and form.family == "agree"):
            end = clause.hi
            if j + 1 == clause.hi and clause.hi < len(toks) and toks[clause.hi].word == ":":
                end = next((k for k in range(clause.hi + 1, len(toks))
                            if toks[k].word == ";"), len(toks))  # "Accepted by: ..."
                named = roles(mentions(toks, clause.hi + 1, end), toks, r.who)
            else:
                named = parties(toks, j + 1, end, r.who)
            if named:
                return named
        elif w == "with" and (np := noun_phrase(toks, j + 1, clause.hi)) is not None \
                and np.kind == "action" and (named := owners(toks, np.lo, np.head, r.who)):
            return named   # "went through with your approval"
    return aside(r, clause.hi)



def aside(r: Reading, k: int) -> list[Role]:
    """The parties a bracketed aside at ``k`` (after any marks) names when it has no verb of
    its own: ``Fit confirmation (site engineering)``, ``granted (FD, 14:02)``."""
    toks = r.toks
    while k < len(toks) and toks[k].word in MARKS:
        k += 1
    if k >= len(toks) or toks[k].word != "(":
        return []
    end = next((j for j in range(k + 1, len(toks)) if toks[j].word == ")"), len(toks))
    if any(verb_like(t) for t in toks[k + 1:end]):
        return []
    return roles(mentions(toks, k + 1, end), toks, r.who)


def label(r: Reading, n: int) -> list[Role]:
    """The parties a label before a colon (or a bracket) names, for what follows it: ``Site
    engineering: OK ✅``, ``finance (done)``."""
    if n == 0 or r.clauses[n].joined not in (":", "("):
        return []
    before = r.clauses[n - 1]
    if any(verb_like(t) for t in r.toks[before.lo:before.hi]):
        return []
    return roles(mentions(r.toks, before.lo, before.hi), r.toks, r.who)


def through_asides(r: Reading, n: int) -> int:
    """Where clause ``n`` ends, read on past an aside in brackets (``the West valve
    (BV-00005) is a suitable replacement``)."""
    hi = r.clauses[n].hi
    for later in r.clauses[n + 1:]:
        if later.joined not in ("(", ")"):
            break
        hi = later.hi
    return hi
