"""Reading a message for authority claims: each sentence's clauses read for completed
forms, what each is about and who did it, nouns and marks that say an action happened, and
the clauses that leave their verb out.

A clause that ends at its auxiliary leaves out the last form's verb phrase and claims it for
its own subject (``engineering hasn't signed off, but finance has``); a list after a colon
leaves out the verb before it (``everything is approved: pricing by finance, fit by your
plant engineer``, ``both owners have signed off: finance on price, engineering on fit``), and
so does a party after a comma (``engineering signed off on Monday, finance on Tuesday``). A
message claims each action and party once, and an action claimed of nobody is the same
claim as that action claimed of a party in the same message.
"""

from __future__ import annotations

from typing import NamedTuple

from remit.authority import Action, Role
from remit.claims.authority.actions import Found, claimed, resolve
from remit.claims.authority.arguments import (
    agents,
    clause_subject,
    label,
    subject,
    theme,
    through_asides,
)
from remit.claims.authority.clauses import Clause
from remit.claims.authority.cues import blocked, denied, hedged
from remit.claims.authority.forms import form
from remit.claims.authority.layout import (
    STRUCK,
    UNTICKED,
    mark_claims,
    rejoined,
    row_claims,
    runs,
    who_cell,
)
from remit.claims.authority.lexicon import (
    CHAIN,
    FIT_WORDS,
    GERUNDS,
    LEADING,
    MODALS,
    NEGATIONS,
    OPEN_STATUS,
    PREPOSITIONS,
    PRONOUNS,
    STRICT_BE,
    THEMES,
    TIME,
    words,
)
from remit.claims.authority.nouns import action_noun, noun_claims
from remit.claims.authority.parties import Who, mentions, parties
from remit.claims.authority.phrases import noun_phrase, np_word
from remit.claims.authority.senses import attributive, not_an_owner, other_sense
from remit.claims.authority.sentence import Form, Reading
from remit.claims.authority.tokens import is_word, verb_like
from remit.claims.text import sentences, unwrapped

_ELLIPTIC = words("has have had did does do is are was were")
_ELLIPSIS_TAILS = words("too also as well either")
_TO_COME = words("tomorrow next later soon shortly tbc tbd")
"""Times that put a clause without a verb in the future (``finance next week``)."""


class StatedAuthority(NamedTuple):
    """An owner action the text says happened.

    Attributes:
        action: the action claimed.
        party: the party said to have done it; ``None`` when the text names nobody.
        phrase: the words that claim it.
        sentence: the sentence they stand in.
    """

    action: Action
    party: Role | None
    phrase: str
    sentence: str


def extract_authority_claims(text: str, addressee: Role = Role.BUYER) -> list[StatedAuthority]:
    """The authority claims ``text`` makes, in order (see the package docstring).

    Args:
        text: one message (Markdown allowed).
        addressee: who it is addressed to; ``you`` names that party.
    """
    found: list[StatedAuthority] = []
    before: Who | None = None
    for run, to_come in runs(unwrapped(rejoined(STRUCK.sub(" ", text)))):
        for sentence in sentences(run):
            r = Reading(sentence.text, addressee, before)
            if not to_come and r.toks and r.toks[0].word not in UNTICKED:
                found += _claims(r)   # (an unticked box is a to-do)
            before = r.who
    named = {c.action for c in found if c.party is not None}
    out: dict[tuple[Action, Role | None], StatedAuthority] = {}
    for c in found:
        if c.party is not None or c.action not in named:
            out.setdefault((c.action, c.party), c)
    return list(out.values())


def _claims(r: Reading) -> list[StatedAuthority]:
    """Every authority claim of the sentence, in order, each (action, party) once."""
    found: list[Found] = []
    families: list[str] = []   # families claimed before a colon, for gapped lists
    last: list[str] = []       # families claimed by the clause before ("..., finance on Monday")
    colon = False
    for n, clause in enumerate(r.clauses):
        r.subjects.append(clause_subject(r, n))
        colon = colon or clause.joined == ":"
        here: list[Found] = []
        claimed_here: list[str] = []
        i = clause.lo
        while i < clause.hi:
            at = None if i in r.asked else form(r, i, clause)
            if at is None:
                i += 1
                continue
            said = _form_claims(r, n, at)
            if said:
                claimed_here.append(at.family)
            here += said
            i = max(i + 1, at.end)
        if not colon:
            families += claimed_here
        here += (noun_claims(r, n, here) + mark_claims(r, n)) or _ellipsis(r, n)
        if not here and colon and families:
            here += _gapped(r, clause, families)
        elif not here and last and clause.joined in (",", ";", "and"):
            here += _gapped(r, clause, last)
        last = claimed_here
        found += here
    rows, taken_back = row_claims(r)
    found = [] if taken_back or hedged(r) else found + rows
    out: dict[tuple[Action, Role | None], StatedAuthority] = {}
    for f in sorted(found, key=lambda f: f.lo):
        phrase = r.text[r.toks[f.lo].start:r.toks[f.hi - 1].end]
        out.setdefault((f.action, f.party), StatedAuthority(f.action, f.party, phrase, r.text))
    return list(out.values())


def _form_claims(r: Reading, n: int, at: Form) -> list[Found]:
    """The claims of a completed form in clause ``n``: none when another sense or a cue rules
    it out, else what it says was done, and by whom."""
    clause, toks = r.clauses[n], r.toks
    chain = at.at
    while chain > clause.lo and toks[chain - 1].word in CHAIN:
        chain -= 1
    s_lo, s_hi, own = subject(r, n, chain)
    r.last_form = (n, at, (s_lo, s_hi))
    near = chain > clause.lo and (np_word(toks, chain - 1, chain)
                                  or toks[chain - 1].word in PRONOUNS)
    # a verb phrase coordinated with the last one shares its negation and modality
    # ("finance hasn't reviewed or approved it"), and so does a clause that leaves out the
    # last one's modal and passive ("the invoice can be matched and payment released")
    joined = clause.joined in ("and", "or", "nor") and n > 0
    gapped = joined and own and chain == at.at and _modal_passive(r, r.clauses[n - 1])
    shared = joined and (not own or gapped)
    scope = r.clauses[n - 1].lo if shared else clause.lo
    if other_sense(r, at, clause.lo) or denied(r, n, at) or blocked(
            r, clause, chain, at, own_subject=own and near and not gapped, scope=scope):
        return []
    adjective = attributive(r, at, clause)
    if adjective is not None:
        return adjective
    return _done_by(r, n, at, chain, (s_lo, s_hi))


def _modal_passive(r: Reading, clause: Clause) -> bool:
    """Whether ``clause`` has a modal or ``to`` before ``be`` (``can be matched``)."""
    said = [t.word for t in r.toks[clause.lo:clause.hi]]
    return any(w in MODALS | {"to"} and said[k + 1] == "be" for k, w in enumerate(said[:-1]))


def _done_by(r: Reading, n: int, at: Form, chain: int, subj: tuple[int, int]) -> list[Found]:
    """What a form says was done (from its object, or its subject in the passive) and by
    whom (a ``by`` phrase, or the subject of an active form)."""
    clause, toks = r.clauses[n], r.toks
    aux = {t.word for t in toks[chain:at.at]}
    passive_marker = at.at > clause.lo and toks[at.at - 1].word == "as"
    persons = [m for m in mentions(toks, *subj) if not m.possessor]
    active = (bool(persons) and not aux & STRICT_BE and not passive_marker
              and at.family not in ("arrive", "done", "persist")) \
        or at.family == "agree" or at.word in GERUNDS
    np = theme(r, n, at, subj, active=active)
    by = agents(r, at, clause) or who_cell(r, clause)
    if at.family == "done" and not by and (at.at, at.end) == (clause.lo, clause.hi):
        by = label(r, n)   # "Engineering: done", "finance (done)"
    doers = by or (parties(toks, *subj, r.who) if active else [])
    if np is not None and np.kind == "action":
        # an action noun's party is its owner, else the "by"/"from" phrase of the verb,
        # else the subject of a verb that gives or performs it ("given", "sent",
        # "confirmed", "signed off the flange check"), not of one that receives it
        fallback = by if at.family in ("receive", "have", "arrive", "record") else doers
        return action_noun(r, np, clause.hi, fallback, doers)
    kind = None if np is None else np.kind
    if not_an_owner(r, at, clause, kind, subj, parties=doers, active=active):
        return []
    fit_said = any(THEMES.get(t.word) == "fit" or t.word in FIT_WORDS
                   for t in toks[at.end:through_asides(r, n)])
    return claimed(at.family, kind, doers, at.at, at.end, fit_said=fit_said, word=at.word)


def _ellipsis(r: Reading, n: int) -> list[Found]:
    """A clause that ends at its auxiliary claims the last form's verb phrase for its own
    subject: ``engineering hasn't signed off, but finance has``."""
    clause, toks = r.clauses[n], r.toks
    said = [k for k in range(clause.lo, clause.hi)
            if is_word(toks[k]) and toks[k].word not in _ELLIPSIS_TAILS]
    if r.last_form is None or r.last_form[0] == n or len(said) < 2 \
            or toks[said[-1]].word not in _ELLIPTIC:
        return []
    aux = said[-1]
    lo = next(k for k in said if toks[k].word not in LEADING)
    if lo >= aux or any(verb_like(t) for t in toks[lo:aux]):
        return []
    m, last, subj = r.last_form
    if blocked(r, clause, aux, Form(last.family, aux, aux + 1, toks[aux].word),
               own_subject=True):
        return []
    np = theme(r, m, last, subj, active=True)
    kind = None if np is None or np.kind == "action" else np.kind
    return claimed(last.family, kind, parties(toks, lo, aux, r.who), aux, aux + 1,
                   word=last.word)


def _gapped(r: Reading, clause: Clause, families: list[str]) -> list[Found]:
    """A clause that leaves out the verb before it: a list after a colon (``Everything is
    approved and confirmed: pricing by finance, fit by your plant engineering team``,
    ``signed off: finance on price, engineering on fit``), or a party after a comma
    (``engineering signed off on Monday, finance on Tuesday``)."""
    toks = r.toks
    lo = clause.lo + (toks[clause.lo].word == "and")
    n = r.index(clause)
    aside = r.clauses[n + 1] if n + 1 < len(r.clauses) and r.clauses[n + 1].joined == "(" \
        else None   # "engineering (pending)": the aside says how it stands
    if any(verb_like(t) or t.word in NEGATIONS or t.word in OPEN_STATUS or t.word in _TO_COME
           for t in toks[lo:clause.hi if aside is None else aside.hi]):
        return []   # "..., finance not yet", "..., finance next week"
    np = noun_phrase(toks, lo, clause.hi)
    if np is None:
        return []
    kind: str | None = np.kind
    if kind is not None and np.hi < clause.hi and toks[np.hi].word == "by":
        named = parties(toks, np.hi + 1, clause.hi, r.who)   # "fit by you"
    elif any(m.kind == "title" for m in mentions(toks, np.lo, np.hi)):
        obj = noun_phrase(toks, np.hi, clause.hi)   # "finance (the discount) on Tuesday"
        rest = np.hi if obj is None else obj.hi
        if rest < clause.hi and toks[rest].word not in PREPOSITIONS | TIME:
            return []
        named, kind = parties(toks, np.lo, np.hi, r.who), None if obj is None else obj.kind
    else:
        return []
    out: list[Found] = []
    for party in named:
        action = next((a for f in families if (a := resolve(f, kind, party))), None)
        if action is not None:
            out.append(Found(action, party, lo, clause.hi))
    return out
