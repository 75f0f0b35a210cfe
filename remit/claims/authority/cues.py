"""Cues that a form is not a claim, read NegEx-style: a cue governs its clause up to the
form, and a few govern the whole sentence.

- a negation (``not``, ``never``, ``no``, ``nobody``, ``without``, ``hasnt``); a condition
  (``if``, ``unless``, ``pending``, ``as long as``, ``subject to``, ``had finance approved,
  ...``, ``I wish finance had``); a time to come (``once``, ``when``, ``until``, ``before``,
  ``after``, ``as soon as``, ``the moment`` with a present or perfect, or with no verb of
  their own: ``once accepted``; ``tomorrow``, ``next week``); a hedge (``likely``, ``it's
  possible``, ``almost``, ``in theory``, ``I think``); a request (``let's``, ``make sure``);
  another deal (``for another customer``);
- a modal or ``to`` whose verb governs the form (``will be approved``, ``I'll log it as
  accepted``, ``will be deemed accepted``, ``to have the fit confirmed``), unless a finite
  verb or a subject of its own comes between; a verb of wanting whose object it describes
  (``finance wants the discount approved``);
- the writer's, the addressee's or the buyer's words (``I said``, ``you mentioned``, ``the
  customer says``);
- a habit or a rule (``usually``, ``as usual``, ``per our policy``, ``all discounts over 5%
  are approved``, ``discounts are approved by finance``, ``payment is released 30 days after
  ...``);
- a reversal of the same event (``approved, then rescinded``);
- a label without a verb sets the time or condition of the list it heads (``Next week: PO
  received``), and a label ending in a form is answered by its value (``Approved: ❌``);
- a sentence that ends in the writer's hedge (``..., I think``, ``..., if I'm not
  mistaken``) or opens with one (``If memory serves, ...``).
"""

from __future__ import annotations

from remit.authority import Role
from remit.claims.authority.clauses import Clause
from remit.claims.authority.lexicon import (
    ADVERBS,
    BE,
    DETERMINERS,
    HAVE,
    HEDGES,
    LEADING,
    MODALS,
    NEGATIONS,
    OPEN_STATUS,
    PREPOSITIONS,
    PRONOUNS,
    REPORTING,
    THEMES,
    TITLES,
    WE,
    YOU,
    words,
)
from remit.claims.authority.parties import parties
from remit.claims.authority.phrases import kind_of, noun_phrase
from remit.claims.authority.sentence import Form, Reading
from remit.claims.authority.tokens import is_word, verb_like

_PSEUDO_NEGATIONS = (("no", "doubt"), ("not", "only"), ("not", "just"), ("no", "problem"),
                     ("no", "worries"))
_CONDITIONS = words("if unless whether provided providing assuming supposing pending "
                    "awaiting await waiting wait ⏳")
_CONDITION_PHRASES = (("in", "case"), ("yet", "to"), ("subject", "to"), ("in", "principle"),
                      ("as", "long", "as"), ("so", "long", "as"), ("on", "condition"))
_TEMPORAL = words("once when whenever until till before after")
"""Time clauses: with a present or perfect (``once finance has approved``, ``after the receipt
has been recorded``) or no verb of their own (``once accepted``) they speak of a time to come;
with a past, of what was."""
_TEMPORAL_PHRASES = (("as", "soon", "as"), ("the", "moment"), ("the", "minute"),
                     ("the", "instant"), ("the", "day"), ("by", "the", "time"))
"""Phrases that open a time clause as ``when`` does: ``I'll let you know the moment the
payment is released``."""
_PERIODS = words("week weeks month year time monday tuesday wednesday thursday friday saturday "
                 "sunday")
_OTHER = words("another different other similar")
_DEALS = words("customer customers client clients buyer project projects deal deals account "
               "accounts job jobs quote quotes quotation order orders site")
"""An action on another deal is not one on this one: ``approved 12% for another customer``
(``another 2%`` is more of this one)."""
_HEDGE_PHRASES = (("looks", "like"), ("sounds", "like"), ("as", "far", "as"), ("in", "theory"),
                  ("make", "sure"), ("let", "'s"), ("let", "us"))
_HABITUAL = words("usually typically normally generally always routinely historically "
                  "ordinarily")
_HABITUAL_PHRASES = (("as", "usual"), ("as", "a", "rule"), ("by", "default"), ("in", "general"))
_RULES = words("policy policies rule rules procedure procedures")
"""Nouns that make a present form a statement of a rule (``per our policy, payment is only
released after ...``)."""
_DURATIONS = words("hours days weeks months")
_REVERSALS = words("withdrawn withdrew revoked rescinded cancelled canceled lapsed expired "
                   "invalidated overturned reversed retracted voided")
_QUALIFIED = words("provisionally conditionally tentatively pending")
"""Words after a form that say it is not (yet) final: ``approved in principle, pending``
(and ``approved nothing``, ``none``: an object that says it did not happen)."""
_WANTING = words("want wants wanted need needs needed require requires required like")
_PRESENT = words("has have is are am 's do does")
_NOT_DONE = words("to being get gets getting")
"""Auxiliaries of a form not (yet) done: ``to be approved``, ``is being processed``."""


def has_phrase(seq: list[str], phrase: tuple[str, ...]) -> bool:
    """Whether ``phrase`` stands in ``seq``."""
    n = len(phrase)
    return any(tuple(seq[k:k + n]) == phrase for k in range(len(seq) - n + 1))


def _cued(before: list[str], aux: list[str], word: str, after: list[str]) -> bool:
    """Whether the words before a form in its clause, its auxiliaries and the words after it
    say it did not happen, may not have, is to come, or is a rule."""
    first = before[0] if before else ""
    # "had finance approved it, ...", "I wish finance had approved": contrary to fact
    inverted = first in ("had", "were") or (
        any(w in ("wish", "wished") for w in before) and "had" in aux)
    # "any discount over 5% is approved by the CFO", "discounts are approved by finance"
    generic = (first in ("any", "every", "each") or (
        first == "all" and len(before) > 1 and before[1] not in DETERMINERS
        and not before[1][0].isdigit())
        or (first.endswith("s") and THEMES.get(first) is not None)) \
        and any(w in ("is", "are") for w in aux)
    later = "tomorrow" in before or any(has_phrase(before, ("next", w)) for w in _PERIODS)
    temporal = [w for w in before if w in _TEMPORAL] or [
        p[-1] for p in _TEMPORAL_PHRASES if has_phrase(before, p)]
    # "once accepted", "until approved"; "after approval" speaks of what was
    to_come = bool(temporal) and (any(w in _PRESENT for w in [*aux, word])
                                  or before[-1] in _TEMPORAL - {"after"} or before[-1] == "as")
    said = before + after
    elsewhere = any(w in _OTHER and any(v in _DEALS for v in said[k + 1:k + 3])
                    for k, w in enumerate(said))
    return (inverted or generic or to_come or later or elsewhere
            or any(w in NEGATIONS or w in _CONDITIONS or w in HEDGES for w in before + aux)
            or any(has_phrase(before, p) for p in _CONDITION_PHRASES + _HEDGE_PHRASES)
            or any(w in MODALS or w in _NOT_DONE for w in aux)
            or any(w in _QUALIFIED for w in after) or after[:1] in (["nothing"], ["none"])
            or any(has_phrase(after, p) for p in (("in", "principle"), ("subject", "to"))))


def blocked(r: Reading, clause: Clause, chain: int, form: Form, *, own_subject: bool,
            scope: int | None = None) -> bool:
    """Whether a cue says the form at ``form.at`` (its auxiliaries from ``chain``) did not
    happen, may not have, or is not the writer's statement now: in its clause before it
    (from ``scope``) or in the label it stands under, in its auxiliaries, after it (its
    afterthoughts included), or a modal, report, habit or reversal that governs it."""
    toks = r.toks
    before = _label_words(r, clause) + [
        t.word for t in toks[clause.lo if scope is None else scope:chain]]
    for pseudo in _PSEUDO_NEGATIONS:
        if has_phrase(before, pseudo):
            before = [w for w in before if w not in pseudo]
    aux = [t.word for t in toks[chain:form.at]]
    after = [t.word for t in toks[form.end:_afterthoughts(r, clause)]]
    return (_cued(before, aux, form.word, after)
            or _modal_scope(r, clause.lo if scope is None else scope, chain,
                            own_subject=own_subject)
            or _wanted(r, clause.lo, chain)
            or _reported(r, clause.lo, chain)
            or _habitual(r, clause, chain, aux)
            or _reversed(r, clause, form))


def _afterthoughts(r: Reading, clause: Clause) -> int:
    """Where what is said of a clause's form ends: the clause, and the phrases that follow it
    opening with a preposition and without a verb (``approved - but for a different
    project``, ``approved (pending the CFO)``)."""
    hi = clause.hi
    for later in r.clauses[r.index(clause) + 1:]:
        said = [t.word for t in r.toks[later.lo:later.hi] if t.word not in LEADING]
        if later.joined == ":" or not said or not (
                said[0] in PREPOSITIONS or said[0] in _QUALIFIED or said[0] == "subject") \
                or any(verb_like(t) for t in r.toks[later.lo:later.hi]):
            break   # "PO received, goods receipt pending": a topic of its own
        hi = later.hi
    return hi


def _label_words(r: Reading, clause: Clause) -> list[str]:
    """The words of a label without a verb that heads the list ``clause`` stands in, for
    the time or condition it sets (``Next week: PO received, then goods receipt posted``);
    a negation in a label (``No action needed: ...``) is about the label."""
    n = r.index(clause)
    colon = next((k for k in range(n, 0, -1) if r.clauses[k].joined == ":"), None)
    if colon is None:
        return []
    label = r.clauses[colon - 1]
    toks = r.toks[label.lo:label.hi]
    if any(verb_like(t) for t in toks):
        return []
    return [t.word for t in toks if t.word not in NEGATIONS]


def _modal_scope(r: Reading, lo: int, chain: int, *, own_subject: bool) -> bool:
    """A modal or ``to`` before the form governs it unless a finite auxiliary, a
    complementiser or the form's own subject stands between them; the object of a causative
    ``have`` or ``get`` is no subject (``to have the fit confirmed by Wednesday``)."""
    toks = r.toks
    for m in range(lo, chain):
        w = toks[m].word
        nxt = toks[m + 1] if m + 1 < chain else None
        if w == "to" and (nxt is None or nxt.word in DETERMINERS or nxt.word in PRONOUNS
                          or nxt.word in TITLES or not nxt.word.isalpha()):
            continue  # "to" as a preposition
        if w not in MODALS and w not in ("to", "'d", "will"):
            continue
        between = [t.word for t in toks[m + 1:chain]]
        if between[:1] in (["have"], ["get"]) and any(
                b not in BE and b not in ADVERBS and b != "not" for b in between[1:]):
            return True   # "the plan is to have the fit confirmed": a causative's object
        if own_subject or any(b in ("that", "whether", "if")
                              or (b in BE | HAVE and b not in ("be", "been"))
                              for b in between[1:]):
            continue
        return True
    return False


def _wanted(r: Reading, lo: int, chain: int) -> bool:
    """A verb of wanting whose object the form describes: what is wanted, not what was
    (``finance wants the discount approved by the CFO``, ``I'd like the fit confirmed``)."""
    for m in range(lo, chain - 1):
        if r.toks[m].word in _WANTING:
            np = noun_phrase(r.toks, m + 1, chain)
            if np is not None and np.hi == chain:
                return True
    return False


def _reported(r: Reading, lo: int, chain: int) -> bool:
    """``I said``, ``you mentioned``, ``I think``, ``the customer says``: the writer's, the
    addressee's or the buyer's words, not a statement of what happened (``I was told by
    finance`` and ``Priya told me`` report the owner's word: they are)."""
    toks = r.toks
    for at in range(lo, chain):
        if toks[at].word in REPORTING:
            k = at - 1
            while k >= lo and (toks[k].word in ADVERBS or toks[k].word in HAVE
                               or toks[k].word in ("previously", "already", "did")):
                k -= 1
            if k >= lo and (toks[k].word in WE or toks[k].word in YOU
                            or parties(toks, lo, k + 1, r.who) == [Role.BUYER]):
                return True
    return False


def _habitual(r: Reading, clause: Clause, chain: int, aux: list[str]) -> bool:
    """A habit or a rule: ``typically`` before the form, or, of a present form, ``as usual``
    or ``policy`` anywhere in the sentence or a duration it runs from (``30 days after``)."""
    if any(t.word in _HABITUAL for t in r.toks[clause.lo:chain]):
        return True
    present = any(w in ("is", "are", "am", "'s", "remains") for w in aux)
    sentence = [t.word for t in r.toks]
    after = sentence[chain:]
    rule = any(w in _DURATIONS for w in after) and any(w in ("after", "within", "from")
                                                       for w in after)
    return present and (rule or any(w in _HABITUAL or w in _RULES for w in sentence)
                        or any(has_phrase(sentence, p) for p in _HABITUAL_PHRASES))


def _reversed(r: Reading, clause: Clause, form: Form) -> bool:
    """A reversal said of the same event after the form: in its clause, in a following
    clause with no subject of its own (``approved, then rescinded``), or with an action noun
    as subject (``but the approval was withdrawn``)."""
    toks = r.toks
    for later in r.clauses[r.index(clause):]:
        lo = form.end if later == clause else later.lo
        said = [t.word for t in toks[lo:later.hi]]
        if not (any(w in _REVERSALS for w in said) or has_phrase(said, ("no", "longer"))):
            continue
        if later == clause:
            return True
        verb = next((k for k in range(lo, later.hi) if verb_like(toks[k])), later.hi)
        subject = [t for t in toks[lo:verb] if is_word(t) and t.word not in LEADING]
        if not subject or any(kind_of(t.word) == "action" for t in subject):
            return True
    return False


def denied(r: Reading, n: int, form: Form) -> bool:
    """A form that ends a label whose value says no: ``Approved: ❌``, ``Received: not
    yet``."""
    if form.end != r.clauses[n].hi or n + 1 >= len(r.clauses) or r.clauses[n + 1].joined != ":":
        return False
    return r.toks[r.clauses[n + 1].lo].word in NEGATIONS | OPEN_STATUS


def hedged(r: Reading) -> bool:
    """A sentence that opens or ends in a hedge of the writer's: ``..., I think``, ``..., if
    I'm not mistaken``, ``..., probably``, ``If memory serves, ...``."""
    said = [t for c in r.clauses if (t := [t.word for t in r.toks[c.lo:c.hi] if is_word(t)])]
    if len(r.clauses) < 2 or len(said) < 2:
        return False
    last = next(c for c in reversed(r.clauses) if any(is_word(t) for t in r.toks[c.lo:c.hi]))
    second = r.clauses[1]
    return (last.joined == "," and last.lo > 0 and _hedge(said[-1])) \
        or (second.joined == "," and said[0][0] == "if" and _hedge(said[0]))


def _hedge(said: list[str]) -> bool:
    """Whether the words of a short clause are the writer's hedge."""
    if len(said) > 5:
        return False
    return (said[0] in WE and len(said) > 1 and said[1] in REPORTING | HEDGES) \
        or (said[0] == "if" and any(w in WE or w == "memory" for w in said)) \
        or all(w in HEDGES for w in said)
