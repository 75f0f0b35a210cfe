"""Authority claims in text: a statement that an owner action happened or a party agreed.

The agent may say what the trail shows; it may not say that finance approved, that the
fit was confirmed, that the buyer accepted, that the PO or the goods were received or
that payment was released when that did not happen. Messages are never refused for
their wording: every claim is found here, scored, and shown in the trail.

The module reads like a small grammar. Each sentence (:func:`remit.claims.text.sentences`,
struck-through words dropped) is read as words (``hasn't`` is ``has not``, a zero between
letters an ``o``) and split into clauses at punctuation, at ``but``, ``so``, ``because``,
``which``, ``if``, ``once``, ``until``..., and at ``and``/``or`` between two clauses that
each have a verb. A claim is a **completed** form of an owner action:

- a past or perfect verb, active or passive, with its particle: ``finance approved``,
  ``has signed off``, ``signed the exception off``, ``the CFO OK'd it``, ``was approved by
  the controller``, ``PO received``, ``payment's gone through``, ``they did approve 10%``;
- a state of agreeing: ``finance is on board with the 12%``, ``the price is OK with
  finance``, ``engineering is satisfied that BV-00005 fits``;
- an adjective on a definite quote, price or substitution: ``the approved discount``,
  ``the signed quote`` (``an approved supplier``, ``the approved drawings``: other senses);
- ``thanks for`` a gerund or a noun: ``thanks for approving``, ``thanks for the PO``;
- an action noun (``approval``, ``sign-off``, ``go-ahead``, ``confirmation``,
  ``acceptance``...) that a predicate, a holder or a mark says happened: ``finance's
  approval is in``, ``the approval still stands``, ``I have the go-ahead from finance``,
  ``treasury has given its blessing``, ``with the controller's sign-off, ...``, ``✅
  finance approval``, a table row whose ``Status`` is ``Done``;
- a clause that leaves its verb out: ``engineering hasn't signed off, but finance has``;
  ``everything is approved: pricing by finance, fit by your plant engineer``.

Not claims (NegEx-style, a cue governs its clause up to the form): a question (a short tag
such as ``..., right?`` makes the whole sentence one); a negation (``not``, ``never``,
``no``, ``nothing``, ``nobody``, ``neither``, ``without``); a condition (``if``, ``unless``,
``whether``, ``pending``, ``subject to``, ``had finance approved, ...``); a time to come
(``once``, ``when``, ``until``, ``before`` with a present or perfect, or with no verb of
their own: ``once accepted``); a hedge (``likely``, ``perhaps``, ``in principle``, ``I
think``); the writer's or the addressee's words (``I said``, ``you mentioned``); a habit
or a rule (``usually``, ``as usual``, ``all discounts over 5% are approved``); a modal or
``to`` whose verb governs the form (``will be approved``, ``I'll log it as accepted``,
unless a finite verb or a subject of its own comes between); a reversal of the same event
(``approved, then rescinded``). A verb phrase coordinated with the last one shares its
cues (``hasn't reviewed or approved``). Present and base forms (``finance approves``,
``please accept``) and action nouns that are only needed, asked for or awaited claim
nothing. Other senses claim nothing either: certifications (``ATEX-approved``, ``WRAS
approved``, ``API 607 approved``, ``approved for potable water use``, ``approved by
Lloyd's Register``), norms (``industry-accepted``), our own standing (``we're approved to
supply``), goods we received or a PO we sent.

What was done comes from what the form is about: its object (active), its subject
(passive), a noun it names (``receipt of your PO``, ``the change to the payment terms``),
or the document ``it`` stands for. A discount, price, exception or margin is ``approve``
whoever approved it; a substitution, swap, fit or product is ``confirm_fit``; the quote is
``accept`` when the buyer agreed to it; a PO is ``receive_po``; goods and goods receipt
``record_receipt``; payment ``release_payment``. A party agreeing to nothing more specific
claims its own action: finance ``approve``, the technical owner ``confirm_fit``, the buyer
``accept`` (and ``confirm_fit`` for a changed fact it confirmed).

The party is the one said to have done it: a ``by``, ``from`` or ``through`` phrase, else
the subject of an active form (its head before any preposition: ``the technical authority
at your site``; every party when coordinated), or the owner of an action noun (``finance's
approval``, ``your acceptance``). ``you`` is the addressee; ``they`` and ``their`` the party
last named; ``we`` and ``I`` (the supplier, the agent) name nobody.

Example:
    >>> [(c.action.value, c.party) for c in
    ...  extract_authority_claims("The CFO has signed off, but engineering hasn't "
    ...                           "confirmed the fit yet.")]
    [('approve', <Role.FINANCE: 'finance'>)]
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from typing import NamedTuple

from remit.authority import Action, Role
from remit.claims.text import sentences

__all__ = ["AUTHORITY_ACTIONS", "StatedAuthority", "extract_authority_claims", "party_of"]

AUTHORITY_ACTIONS: tuple[Action, ...] = (Action.APPROVE, Action.CONFIRM_FIT, Action.ACCEPT,
                                         Action.RECEIVE_PO, Action.RECORD_RECEIPT,
                                         Action.RELEASE_PAYMENT)
"""The owner actions an authority claim may claim."""


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


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# -- words --------------------------------------------------------------------------------------

class _Tok(NamedTuple):
    word: str   # as read: case-folded, a contraction expanded ("hasn't" is "has", "not")
    text: str   # as written
    start: int
    end: int


_TOKEN = re.compile(r"\[[ xX]\]|\d+(?:[.,]\d+)*\s?%|[^\W_]+(?:[-'.][^\W_]+|,\d{3}(?!\d))*"
                    r"|[^\w\s]")
_CONTRACTIONS = {"'s": "'s", "'ve": "have", "'ll": "will", "'re": "are", "'m": "am", "'d": "'d"}
_NOT_STEMS = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
_ZERO_FOR_O = re.compile(r"(?<=[a-z])0(?=[a-z])")
_COMPOUNDS = {("green", "light"): "green-light", ("thumbs", "up"): "thumbs-up",
              ("sign", "off"): "sign-off", ("go", "ahead"): "go-ahead",
              ("purchase", "order"): "po", ("goods", "receipt"): "receipt",
              ("payment", "release"): "payment"}
"""Two-word nouns read as one; ``sign off`` and ``go ahead`` only after a determiner."""
_VERB_LIKE_COMPOUNDS = frozenset({"sign-off", "go-ahead"})


def _expanded(word: str) -> tuple[str, ...]:
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


def _tokens(line: str) -> list[_Tok]:
    """The words, marks and punctuation of ``line``, as read."""
    out: list[_Tok] = []
    for match in _TOKEN.finditer(line):
        text = match.group(0)
        if unicodedata.category(text[0]).startswith("M"):
            continue  # a variation selector or combining mark on its own
        word = text.casefold()
        if "0" in word:
            word = _ZERO_FOR_O.sub("o", word)   # "appr0ved"
        out += [_Tok(part, text, match.start(), match.end()) for part in _expanded(word)]
    merged: list[_Tok] = []
    for tok in out:
        if merged:
            compound = _COMPOUNDS.get((merged[-1].word, tok.word))
            after_determiner = len(merged) > 1 and merged[-2].word in _DETERMINERS | {"'s"}
            if compound and (compound not in _VERB_LIKE_COMPOUNDS or after_determiner):
                last = merged.pop()
                merged.append(_Tok(compound, f"{last.text} {tok.text}", last.start, tok.end))
                continue
        merged.append(tok)
    return merged


# -- function words -----------------------------------------------------------------------------

_DETERMINERS = _words("the a an this that these those my your our their its his her all both "
                      "each every any some no another either neither")
_PREPOSITIONS = _words("at in on of from for with within without by to into onto under over "
                       "after before against through via per about across including since "
                       "until as than like between during upon")
_BE = _words("is are was were 's am be been being remains remain remained stays stay stayed")
_STRICT_BE = _BE - {"'s"}
_HAVE = _words("has have had 'd")
_MODALS = _words("will would shall should must could may might can")
_ADVERBS = _words("now just already also both all finally officially formally fully personally "
                  "still recently actually indeed partially internally duly successfully "
                  "verbally really only properly yet since then subsequently themselves "
                  "himself herself itself each even kindly today yesterday")
_CHAIN = _BE | _HAVE | _MODALS | _ADVERBS | _words("not never to get gets getting got do does did")
"""Words that stand between a subject and its verb: auxiliaries, modals, adverbs."""
_TIME = _words("yesterday today tomorrow morning afternoon evening tonight week weeks month "
               "months year monday tuesday wednesday thursday friday saturday sunday ago earlier "
               "later soon shortly again too last next first quickly separately internally "
               "personally formally officially fully partially already now just also still "
               "myself yourself ourselves themselves himself herself itself")
_PRONOUNS = _words("i we you they he she it me us them him one everything everyone nothing "
                   "nobody anything something what")
_CONJUNCTIONS = _words("and or but so because though although while which who whom whose that "
                       "whether if once when then nor yet unless until where whereas however")
_IRREGULAR_PASTS = _words("came went gave got sent made took said told saw put left stood held "
                          "paid found brought bought kept wrote ran began did does do gone come "
                          "done given taken seen known")
_MONTHS = _words("january february march april may june july august september october "
                 "november december jan feb mar apr jun jul aug sep sept oct nov dec")
_MARKS = _words("✅ ✔ ☑ [x] ✓")
_NP_STOP = (_PREPOSITIONS | _BE | _HAVE | _MODALS | _TIME | _PRONOUNS | _CONJUNCTIONS
            | _IRREGULAR_PASTS | _words("not never to following off over up out back down")
            | _words("matches fits suits meets works covers includes needs requires reflects "
                     "stands holds remains looks seems sits ships"))
_ORG = _words("team side site company organisation organization people colleagues plant end "
              "business firm office department")


def _is_word(tok: _Tok) -> bool:
    return tok.word[0].isalnum() or tok.word.endswith("%")


def _past(tok: _Tok) -> bool:
    return tok.word.endswith("ed") and len(tok.word) > 4 and tok.word.isalpha()


def _verb_like(tok: _Tok) -> bool:
    """A finite verb or an auxiliary (for telling a clause from a noun phrase)."""
    w = tok.word
    return (w in _BE or w in _HAVE or w in _MODALS or w in _IRREGULAR_PASTS
            or w in _PARTICIPLES or _past(tok))


# -- parties ------------------------------------------------------------------------------------

_TITLES: dict[str, Role] = {
    **dict.fromkeys(_words("finance cfo controller treasury accounts approver"), Role.FINANCE),
    **dict.fromkeys(_words("engineering engineer engineers"), Role.TECHNICAL_OWNER),
    **dict.fromkeys(_words("buyer buyers customer client purchaser procurement purchasing "
                           "stores goods-in"), Role.BUYER),
}
_TITLE_PAIRS: dict[tuple[str, str], Role] = {
    **dict.fromkeys([("credit", "control"), ("pricing", "desk"), ("financial", "officer")],
                    Role.FINANCE),
    **dict.fromkeys([("technical", w) for w in ("owner", "authority", "team", "lead", "manager",
                                                "department")]
                    + [("tech", "owner"), ("design", "authority")]
                    + [(a, b) for a in ("maintenance", "plant", "process", "piping", "instrument",
                                        "mechanical", "reliability")
                       for b in ("lead", "manager", "team")]
                    + [("site", "lead"), ("site", "manager")],
                    Role.TECHNICAL_OWNER),
    ("receiving", "team"): Role.BUYER,
}
_TITLE_ACRONYMS: dict[str, Role] = {"AP": Role.FINANCE, "FD": Role.FINANCE,
                                    "TA": Role.TECHNICAL_OWNER}
_YOU, _YOUR = _words("you yourself yourselves"), _words("your yours")
_WE, _OUR = _words("we i us me myself ourselves"), _words("our my")
_THEY, _THEIR = _words("they he she"), _words("their his her its")
_COORDINATORS = _words("and & or nor , plus")


class _Mention(NamedTuple):
    at: int             # the index of its last word
    kind: str           # "title", "you", "we" or "they"
    role: Role | None   # a title's role
    possessor: bool     # it owns what follows ("finance's", "your", "their")


def _title(toks: list[_Tok], i: int, hi: int) -> tuple[Role, int] | None:
    if i + 1 < hi and (toks[i].word, toks[i + 1].word) in _TITLE_PAIRS:
        return _TITLE_PAIRS[toks[i].word, toks[i + 1].word], i + 1
    role = _TITLES.get(toks[i].word) or _TITLE_ACRONYMS.get(toks[i].text)
    return None if role is None else (role, i)


def _mentions(toks: list[_Tok], lo: int, hi: int) -> list[_Mention]:
    """The parties and persons ``toks[lo:hi]`` name, in order."""
    out: list[_Mention] = []
    i = lo
    while i < hi:
        w = toks[i].word
        nxt = toks[i + 1].word if i + 1 < hi else ""
        title = _title(toks, i, hi)
        if title is not None:
            role, i = title
            after = toks[i + 1].word if i + 1 < hi else ""
            out.append(_Mention(i, "title", role, after in ("'s", "'")))
        elif w in _YOU or (w in _YOUR and nxt in _ORG):
            out.append(_Mention(i, "you", None, possessor=False))
        elif w in _YOUR:
            out.append(_Mention(i, "you", None, possessor=True))
        elif w in _WE or (w in _OUR and nxt in ("side", "team", "end")):
            out.append(_Mention(i, "we", None, possessor=False))
        elif w in _OUR:
            out.append(_Mention(i, "we", None, possessor=True))
        elif w in _THEY or w in _THEIR:
            out.append(_Mention(i, "they", None, possessor=w in _THEIR))
        i += 1
    return out


class _Who(NamedTuple):
    """Who ``you`` and ``they`` are, and what ``it`` is, where a sentence is read."""

    addressee: Role
    named: tuple[tuple[int, Role], ...]    # titles named in this sentence, by position
    before: Role | None                     # the last party named in earlier sentences
    documents: tuple[tuple[int, str], ...] = ()   # POs, receipts, payments named, by position
    document_before: str | None = None      # the last one named in earlier sentences

    def they(self, at: int) -> Role | None:
        earlier = [role for i, role in self.named if i < at]
        return earlier[-1] if earlier else self.before

    def it(self, at: int) -> str | None:
        earlier = [kind for i, kind in self.documents if i < at]
        return earlier[-1] if earlier else self.document_before

    def last_party(self) -> Role | None:
        return self.named[-1][1] if self.named else self.before

    def last_document(self) -> str | None:
        return self.documents[-1][1] if self.documents else self.document_before


def _roles(mentions: list[_Mention], toks: list[_Tok], who: _Who) -> list[Role]:
    """The parties a list of mentions names: titles (all, when coordinated), else ``you``
    or ``they``; ``we`` and ``I`` name nobody."""
    titles = ([m for m in mentions if m.kind == "title" and not m.possessor]
              or [m for m in mentions if m.kind == "title"])
    if titles:
        coordinated = all(_coordinated(toks[a.at + 1:b.at + 1 - _span(toks, b)])
                          for a, b in itertools.pairwise(titles))
        chosen = titles if coordinated else titles[-1:]
        return list(dict.fromkeys(m.role for m in chosen if m.role is not None))
    persons = [m for m in mentions if not m.possessor]
    if not persons:
        return []
    last = persons[-1]
    if last.kind == "you":
        return [who.addressee]
    if last.kind == "they":
        role = who.they(last.at)
        return [] if role is None else [role]
    return []


def _coordinated(between: list[_Tok]) -> bool:
    """Two titles are coordinated when a conjunction and no verb or preposition stands
    between them (``your engineering lead and our finance team``)."""
    return any(t.word in _COORDINATORS for t in between) and not any(
        _verb_like(t) or t.word in _PREPOSITIONS for t in between)


def _span(toks: list[_Tok], mention: _Mention) -> int:
    """How many words a title takes (two for ``credit control``)."""
    i = mention.at
    return 2 if i > 0 and (toks[i - 1].word, toks[i].word) in _TITLE_PAIRS else 1


def _parties(toks: list[_Tok], lo: int, hi: int, who: _Who) -> list[Role]:
    """The parties a subject or ``by`` phrase names: its head before any preposition
    (``the technical authority at your site``), else the whole phrase."""
    mentions = _mentions(toks, lo, hi)
    cut = next((k for k in range(lo + 1, hi) if toks[k].word in _PREPOSITIONS), hi)
    head = [m for m in mentions if m.at < cut and (m.kind == "title" or not m.possessor)]
    return _roles(head or mentions, toks, who)


def party_of(words: str, addressee: Role) -> Role | None:
    """The party ``words`` name (the head of a subject or ``by`` phrase), if any."""
    toks = _tokens(words)
    roles = _parties(toks, 0, len(toks), _Who(addressee, (), None))
    return roles[0] if roles else None


# -- what an action is about --------------------------------------------------------------------

_THEMES: dict[str, str] = {
    **dict.fromkeys(_words("fit fits fitment substitution substitutions substitute swap "
                           "replacement successor equivalent alternative change changes deviation "
                           "compatibility suitability interchangeability sizing mounting "
                           "selection configuration variant"), "fit"),
    **dict.fromkeys(_words("conditions condition pressure temperature medium media flange piping "
                           "connection duty requirement requirements spec specs specification "
                           "specifications dimensions chlorides fluid rating torque"), "fact"),
    **dict.fromkeys(_words("valve valves actuator actuators part parts gasket gaskets kit kits "
                           "model models product products"), "product"),
    **dict.fromkeys(_words("discount discounts price prices pricing exception exceptions margin "
                           "margins terms rate rates figure figures total request requests rebate "
                           "concession uplift markup"), "commercial"),
    **dict.fromkeys(_words("quote quotes quotation quotations offer proposal deal version "
                           "revision"), "quote"),
    **dict.fromkeys(_words("po pos p.o order orders"), "po"),
    **dict.fromkeys(_words("receipt grn grns"), "receipt"),
    **dict.fromkeys(_words("goods delivery deliveries consignment shipment shipments"), "goods"),
    **dict.fromkeys(_words("payment payments funds remittance"), "payment"),
    **dict.fromkeys(_words("invoice invoices"), "invoice"),
}
"""The head nouns of what an action may be about, by kind."""
_ACTION_NOUNS: dict[str, str] = {
    **dict.fromkeys(_words("approval approvals sign-off sign-offs signoff go-ahead green-light "
                           "greenlight blessing nod thumbs-up authorisation authorization "
                           "clearance ok okay"), "approve"),
    **dict.fromkeys(_words("confirmation confirmations verification validation "
                           "reconfirmation"), "confirm"),
    **dict.fromkeys(_words("acceptance countersignature"), "accept"),
    **dict.fromkeys(_words("agreement consent"), "agree"),
}
"""Nouns that name an owner action, by the family of its verb."""
_FIT_VERBS = _words("fits matches suits suitable compatible interchangeable drop-in replace "
                    "replaces")
"""Words that, after ``confirmed``, say a product's fit is what was confirmed."""
_DOCUMENT_FAMILIES = frozenset({"arrive", "done", "record", "receive", "release", "send"})
_ELLIPTIC = _words("has have had did does do is are was were")
_ELLIPSIS_TAILS = _words("too also as well either")
_PLURAL_ACTIONS = _words("approvals sign-offs confirmations")
_DOCUMENTS = frozenset({"po", "receipt", "goods", "payment", "invoice"})
"""What ``it`` may stand for when it arrives, is booked or is paid."""
_CHANGES = _words("change changes update amendment increase reduction extension")
_GENERIC_HEADS = _words("status state step stage milestone progress")
_QUOTE_CODE = re.compile(r"q-\d+|v\d+")
_PRODUCT_CODE = re.compile(r"[a-z]{2,3}-\d{3,6}")
_IDENTIFIER = re.compile(r"[\d#.,/-]+|[a-z]{2,4}-\d{2,8}")


def _kind_of(word: str) -> str | None:
    """The kind of thing a head noun names: a theme, ``action``, or ``None``."""
    if word in _ACTION_NOUNS:
        return "action"
    if word in _THEMES:
        return _THEMES[word]
    if word.endswith("%") or _QUOTE_CODE.fullmatch(word):
        return "commercial" if word.endswith("%") else "quote"
    return "product" if _PRODUCT_CODE.fullmatch(word) else None


class _NP(NamedTuple):
    lo: int     # its first word, a determiner included
    head: int   # its head noun
    hi: int     # one past its last word
    kind: str | None


def _np_word(toks: list[_Tok], i: int, hi: int) -> bool:
    tok = toks[i]
    if tok.word == "'s":
        return i + 1 < hi and _is_word(toks[i + 1]) and toks[i + 1].word not in _NP_STOP
    return _is_word(tok) and tok.word not in _NP_STOP


def _np(toks: list[_Tok], i: int, hi: int) -> _NP | None:
    """The noun phrase starting at ``i`` (determiners, modifiers, a head noun)."""
    lo = i
    while i < hi and toks[i].word in _DETERMINERS:
        i += 1
    first = i
    while i < hi and _np_word(toks, i, hi) and (i == first or toks[i].word not in _DETERMINERS):
        if i > first and _past(toks[i]) and not (i + 1 < hi and _np_word(toks, i + 1, hi)
                                                 and toks[i + 1].word not in _DETERMINERS):
            break   # "the valve passed the test": a verb, not a modifier like "revised"
        i += 1
    if i == first:
        return None
    head = i - 1
    while head > first and (_IDENTIFIER.fullmatch(toks[head].word)
                            or toks[head].word in _GENERIC_HEADS):
        head -= 1  # "PO 4500123", "Discount status": the noun before names it
    kind = _kind_of(toks[head].word)
    if i + 1 < hi and ((kind == "receipt" and toks[i].word == "of")
                       or (toks[head].word in _CHANGES and toks[i].word in ("to", "of", "in"))):
        # "receipt of your PO" is the PO's arrival; "the change to the payment terms" is
        # about the terms (a change to nothing named is a change of specification)
        inner = _np(toks, i + 1, hi)
        if inner is not None and inner.kind in (("po", "payment") if kind == "receipt" else (
                "commercial", "quote", "po", "payment")):
            return _NP(lo, head, inner.hi, inner.kind)
    return _NP(lo, head, i, kind)


def _np_ending(toks: list[_Tok], head: int, lo: int, hi: int) -> _NP:
    """The noun phrase whose head is ``head`` (read back to its determiner, not over a verb
    such as ``confirm``), with the phrase after it that names it (``receipt of your PO``)."""
    start = head
    while start > lo and toks[start - 1].word not in _VERB_BASES | _GERUNDS.keys() and (
            _np_word(toks, start - 1, head + 1) or toks[start - 1].word in _DETERMINERS):
        start -= 1
    whole = _np(toks, start, hi)
    if whole is not None and whole.head == head:
        return whole
    return _NP(start, head, head + 1, _kind_of(toks[head].word))


_VERB_BASES = _words("approve confirm accept acknowledge agree sign send receive record log post "
                     "book release pay request need require await get have give")
"""Base verbs that end a noun phrase read backwards (``we confirm | receipt``)."""


# -- action forms -------------------------------------------------------------------------------

_PARTICIPLES: dict[str, str] = {
    **dict.fromkeys(_words("approved reapproved re-approved pre-approved preapproved okayed ok'd "
                           "oked okd ok-ed cleared authorised authorized sanctioned rubber-stamped "
                           "rubberstamped greenlit green-lit greenlighted green-lighted blessed "
                           "endorsed signed-off"), "approve"),
    **dict.fromkeys(_words("agreed consented"), "agree"),
    **dict.fromkeys(_words("confirmed reconfirmed re-confirmed verified validated"), "confirm"),
    **dict.fromkeys(_words("accepted countersigned"), "accept"),
    "signed": "sign",
    **dict.fromkeys(_words("received got gotten obtained secured"), "receive"),
    **dict.fromkeys(_words("gave given granted"), "give"),
    **dict.fromkeys(_words("sent placed raised issued submitted"), "send"),
    **dict.fromkeys(_words("recorded logged posted booked entered registered receipted "
                           "processed"), "record"),
    **dict.fromkeys(_words("released paid settled transferred remitted made"), "release"),
    **dict.fromkeys(_words("arrived landed reached came come went gone attached"), "arrive"),
    **dict.fromkeys(_words("done complete completed"), "done"),
    **dict.fromkeys(_words("stands holds carries applies"), "persist"),
}
"""Completed forms of the verbs of owner actions, by family."""
_GERUNDS: dict[str, str] = {
    **dict.fromkeys(_words("approving okaying clearing authorising authorizing"), "approve"),
    "signing": "sign", "agreeing": "agree", "accepting": "accept", "countersigning": "accept",
    **dict.fromkeys(_words("confirming verifying validating"), "confirm"),
    **dict.fromkeys(_words("sending placing submitting"), "send"),
    **dict.fromkeys(_words("recording logging booking"), "record"),
    **dict.fromkeys(_words("releasing paying"), "release"),
}
"""Gerunds read as completed after ``thanks for``."""
_BASES: dict[str, str] = {
    **dict.fromkeys(_words("approve ok okay clear authorise authorize sanction"), "approve"),
    "sign": "sign", "agree": "agree", "accept": "accept",
    **dict.fromkeys(_words("confirm verify validate"), "confirm"),
    **dict.fromkeys(_words("receive get"), "receive"), "give": "give", "grant": "give",
    **dict.fromkeys(_words("send place"), "send"),
    **dict.fromkeys(_words("record log post book"), "record"),
    **dict.fromkeys(_words("release pay settle"), "release"),
}
"""Base forms read as completed after an emphatic ``did`` (``but they did approve 10%``)."""
_AGREEING = _words("happy satisfied fine comfortable content okay ok")
"""Adjectives that, with ``with``, say a party agrees."""
_PHRASAL: dict[str, frozenset[str]] = {
    **dict.fromkeys(_words("sign signing"), _words("off")),
    **dict.fromkeys(_words("send sent sending"), _words("over across through")),
    **dict.fromkeys(_words("book booked booking checked"), _words("in")),
    "carries": _words("over"),
}
"""The particles a verb takes (``signing off``, ``sent over``, ``booked in``)."""
_ARRIVALS = {"came": _words("in through from"), "come": _words("in through from"),
             "went": _words("through out"), "gone": _words("through out"),
             "reached": _words("us you")}
_IN_PREDICATES = _words("in here through")
"""Adverbs that, after ``is``, say a document or an approval arrived."""
_THANKS = _words("thanks thank grateful appreciate appreciated")
_FRONTED = _words("with following after given per")
"""Prepositions that, fronted, presuppose their noun's action: ``following finance approval``."""


# -- cues that a form is not a claim ------------------------------------------------------------

_NEGATIONS = _words("not never no none nobody no-one noone nothing neither nor without 0 zero "
                    "hardly barely ❌")
_PSEUDO_NEGATIONS = (("no", "doubt"), ("not", "only"), ("not", "just"), ("no", "problem"),
                     ("no", "worries"))
_CONDITIONS = _words("if unless whether provided providing assuming supposing pending "
                     "awaiting await waiting wait ⏳")
_CONDITION_PHRASES = (("in", "case"), ("yet", "to"), ("subject", "to"), ("in", "principle"))
_TEMPORAL = _words("once when whenever until till before")
"""Time clauses: with a present or perfect (``once finance has approved``) or no verb of
their own (``once accepted``) they speak of a time to come; with a past, of what was."""
_HEDGE_PHRASES = (("looks", "like"), ("sounds", "like"), ("as", "far", "as"))
_HEDGES = _words("likely unlikely probably possibly perhaps maybe hopefully supposedly "
                 "apparently seemingly seems seem appears hope hoping expect expects expected "
                 "expecting provisionally conditionally tentatively")
_REPORTING = _words("said wrote mentioned told claimed stated thought assumed believed reported "
                    "indicated suggested think believe assume suppose guess imagine reckon")
"""Verbs whose complement, said by the writer or the addressee, is not asserted now."""
_HABITUAL = _words("usually typically normally generally always routinely historically "
                   "ordinarily")
_HABITUAL_PHRASES = (("as", "usual"), ("as", "a", "rule"), ("by", "default"), ("in", "general"))
_REVERSALS = _words("withdrawn withdrew revoked rescinded cancelled canceled lapsed expired "
                    "invalidated overturned reversed retracted voided")
_QUALIFIED = _words("provisionally conditionally tentatively pending")
"""Words after a form that say it is not (yet) final: ``approved in principle, pending``."""
_CERTIFIERS = _words("type factory third-party industry widely generally commonly universally "
                     "internationally independently")
"""Words before ``approved``/``accepted`` that make it a certification or a norm."""
_INTERROGATIVES = _words("has have had is are was were do does did can could would will should "
                         "shall may might what when which who whom whose whether how why where "
                         "any")
_LEADING = _words("and or but so since as because though although while if once until when "
                  "whether unless before after now then also just that which who please")
_FUTURE = _words("will would could might may shall should 'd please")
_PRESENT = _words("has have is are am 's do does")
_NOT_DONE = _words("to being get gets getting")
"""Auxiliaries of a form not (yet) done: ``to be approved``, ``is being processed``."""


def _each(parties: list[Role]) -> list[Role | None]:
    """The parties to claim an action for: each one named, else nobody."""
    out: list[Role | None] = list(parties)
    return out or [None]


def _has_phrase(words: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(words[k:k + n]) == phrase for k in range(len(words) - n + 1))


def _cued(before: list[str], aux: list[str], word: str, after: list[str]) -> bool:
    """NegEx-style cues: whether the words before a form in its clause, its auxiliaries and
    the words after it say it did not happen, may not have, or is a rule."""
    first = before[0] if before else ""
    inverted = first in ("had", "were")   # "had finance approved it, ...": contrary to fact
    generic = (first in ("any", "every", "each") or (
        first == "all" and len(before) > 1 and before[1] not in _DETERMINERS
        and not before[1][0].isdigit())) and any(w in ("is", "are") for w in aux)
    temporal = [w for w in before if w in _TEMPORAL] or (
        ["as"] if _has_phrase(before, ("as", "soon", "as")) else [])
    to_come = bool(temporal) and (any(w in _PRESENT for w in [*aux, word])
                                  or before[-1] in _TEMPORAL or before[-1] == "as")
    return (inverted or generic or to_come
            or any(w in _NEGATIONS or w in _CONDITIONS or w in _HEDGES for w in before + aux)
            or any(_has_phrase(before, p) for p in _CONDITION_PHRASES + _HEDGE_PHRASES)
            or any(w in _MODALS or w in _NOT_DONE for w in aux)
            or any(w in _QUALIFIED for w in after)
            or any(_has_phrase(after, p) for p in (("in", "principle"), ("subject", "to"))))


# -- clauses and questions ----------------------------------------------------------------------

_HARD = _words('. ! ? ; : ( ) [ ] " | · • - …')
_SOFT = _words(", but though although whereas however because since which who while then "
               "meanwhile hence thus therefore if once until unless whether before after when "
               "till")
_NOT_SO = _words("far much many long quickly soon fast good well")


class _Clause(NamedTuple):
    lo: int
    hi: int
    joined: str    # the conjunction that joins it to the clause before ("and", "," ...)


def _and_joins_clauses(toks: list[_Tok], lo: int, at: int, hi: int) -> bool:
    """``and``/``or`` starts a new clause when a verb stands on each side of it."""
    before = any(_verb_like(t) for t in toks[lo:at])
    after = next((k for k in range(at + 1, hi) if toks[k].word in _HARD or toks[k].word == ","),
                 hi)
    return before and any(_verb_like(t) for t in toks[at + 1:after])


def _clauses(toks: list[_Tok]) -> list[_Clause]:
    """The clauses of a sentence, each without the punctuation that bounds it."""
    out: list[_Clause] = []
    lo, joined = 0, ""
    for i, tok in enumerate(toks):
        w = tok.word
        cut = w in _HARD or w in _SOFT
        if w == "so":
            cut = i + 1 >= len(toks) or toks[i + 1].word not in _NOT_SO
        elif w in ("and", "or"):
            cut = _and_joins_clauses(toks, lo, i, len(toks))
        if not cut:
            continue
        keep = w.isalpha()  # a conjunction stays at the start of its clause
        if i > lo:
            out.append(_Clause(lo, i, joined))
        lo = i if keep else i + 1
        joined = w if (keep and (i == 0 or toks[i - 1].word != ",")) else ","
        if w in _HARD:
            joined = w
    if lo < len(toks):
        out.append(_Clause(lo, len(toks), joined))
    return out


def _questions(toks: list[_Tok], clauses: list[_Clause]) -> set[int]:
    """The positions of the words that stand in a question."""
    asked: set[int] = set()
    for q, tok in enumerate(toks):
        if tok.word != "?":
            continue
        start = max((k + 1 for k in range(q) if toks[k].word in ".!?;:"), default=0)
        first = next((t.word for t in toks[start:q] if t.word not in _LEADING), "")
        if first in _INTERROGATIVES:
            asked.update(range(start, q))
            continue
        last = next((c for c in reversed(clauses) if c.lo < q), None)
        if last is not None:
            # a short tag ("..., I hope?", "..., right?") asks about the whole sentence
            tag = sum(_is_word(t) for t in toks[last.lo:q]) <= 3 and last.lo > start
            asked.update(range(start if tag else last.lo, q))
    return asked


# -- what a form claims -------------------------------------------------------------------------

_OWN: dict[Role, Action] = {Role.FINANCE: Action.APPROVE, Role.TECHNICAL_OWNER: Action.CONFIRM_FIT,
                            Role.BUYER: Action.ACCEPT}
"""A party agreeing to nothing more specific claims its own action."""
_BY_THEME: dict[str, dict[str, Action]] = {
    "approve": {"fit": Action.CONFIRM_FIT, "product": Action.CONFIRM_FIT,
                "fact": Action.CONFIRM_FIT, "commercial": Action.APPROVE,
                "quote": Action.APPROVE, "payment": Action.RELEASE_PAYMENT},
    "agree": {"fit": Action.CONFIRM_FIT, "product": Action.CONFIRM_FIT,
              "fact": Action.CONFIRM_FIT},
    "confirm": {"fit": Action.CONFIRM_FIT, "po": Action.RECEIVE_PO,
                "receipt": Action.RECORD_RECEIPT},
    "accept": {"fit": Action.CONFIRM_FIT, "product": Action.CONFIRM_FIT, "quote": Action.ACCEPT},
    "sign": {"quote": Action.ACCEPT},
    "receive": {"po": Action.RECEIVE_PO, "receipt": Action.RECORD_RECEIPT,
                "goods": Action.RECORD_RECEIPT, "product": Action.RECORD_RECEIPT,
                "payment": Action.RELEASE_PAYMENT},
    "send": {"po": Action.RECEIVE_PO, "receipt": Action.RECORD_RECEIPT},
    "have": {"po": Action.RECEIVE_PO},
    "record": {"po": Action.RECEIVE_PO, "receipt": Action.RECORD_RECEIPT,
               "goods": Action.RECORD_RECEIPT, "product": Action.RECORD_RECEIPT,
               "payment": Action.RELEASE_PAYMENT},
    "release": {"payment": Action.RELEASE_PAYMENT},
    "arrive": {"po": Action.RECEIVE_PO, "payment": Action.RELEASE_PAYMENT,
               "receipt": Action.RECORD_RECEIPT},
    "done": {"receipt": Action.RECORD_RECEIPT, "payment": Action.RELEASE_PAYMENT},
}
"""The action a verb family claims about each kind of object."""
_OWN_ACTION: dict[str, tuple[frozenset[str | None], Action | None]] = {
    "approve": (frozenset({None}), Action.APPROVE),
    "accept": (frozenset({None}), Action.ACCEPT),
    "agree": (frozenset({None, "commercial", "quote"}), None),
}
"""Families where a party's own action stands in for a missing or commercial object, and the
action when no party is named."""


def _resolve(family: str, kind: str | None, party: Role | None, *, fit_said: bool = False,
             word: str = "") -> Action | None:
    """The action a form of ``family`` claims about a ``kind`` of object, done by ``party``."""
    own = None if party is None else _OWN.get(party)
    action = _BY_THEME.get(family, {}).get(kind or "")
    if family == "approve" and kind == "quote" and party is Role.BUYER:
        action = Action.ACCEPT   # the buyer approving the quote accepts it
    elif family == "approve" and kind is None and party is None and word == "cleared":
        action = None            # "cleared" needs an object or a party to be an approval
    elif family == "confirm" and kind == "commercial" and party is Role.FINANCE:
        action = Action.APPROVE  # "finance confirmed the discount"
    elif family == "accept" and kind == "commercial":
        action = own             # "you accepted the price"; "we accepted the return request"
    elif family in _OWN_ACTION and kind in _OWN_ACTION[family][0]:
        action = own or _OWN_ACTION[family][1]
    elif family == "confirm" and kind in ("product", "fact", None):
        # a product's confirmation is a fit confirmation when its fit is what was confirmed;
        # a changed fact is confirmed by the buyer or the technical owner
        fits = ((kind == "product" and fit_said)
                or (kind == "fact" and party in (Role.BUYER, Role.TECHNICAL_OWNER))
                or (kind is None and party is Role.TECHNICAL_OWNER))
        action = Action.CONFIRM_FIT if fits else None
    elif family == "release" and ((kind == "invoice" and word in ("paid", "settled"))
                                  or (kind is None and word == "paid" and party is None)):
        action = Action.RELEASE_PAYMENT   # "the invoice is paid", "it has been paid"
    elif family == "arrive" and kind == "commercial" and word == "through":
        action = Action.APPROVE  # "the discount request went through"
    return action


# -- reading a sentence -------------------------------------------------------------------------

class _Found(NamedTuple):
    action: Action
    party: Role | None
    lo: int
    hi: int


class _Form(NamedTuple):
    family: str
    at: int      # the verb, adjective or predicate
    end: int     # one past its last word (a particle included)
    word: str


class _Sentence:
    """One sentence being read: its words, clauses, questions and who its persons are."""

    def __init__(self, text: str, addressee: Role, before: _Who | None = None) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.clauses = _clauses(self.toks)
        self.asked = _questions(self.toks, self.clauses)
        named = tuple((m.at, m.role) for m in _mentions(self.toks, 0, len(self.toks))
                      if m.role is not None)
        documents = tuple((np.head, np.kind) for i in range(len(self.toks))
                          if (np := _np(self.toks, i, len(self.toks))) is not None
                          and np.lo == i and np.kind in _DOCUMENTS)
        earlier = before or _Who(addressee, (), None)
        self.who = _Who(addressee, named, earlier.last_party(), documents,
                        earlier.last_document())
        self.subjects: list[tuple[int, int]] = []
        self.last_form: tuple[int, _Form, tuple[int, int]] | None = None   # for "finance has."
        self.future = any(t.word in _FUTURE for t in self.toks)

    # -- forms --------------------------------------------------------------------------------

    def form(self, i: int, clause: _Clause) -> _Form | None:
        """The completed action form at ``i``, if any (with its particle)."""
        toks = self.toks
        w = toks[i].word
        if w in _GERUNDS and self._thanked(clause.lo, i):
            return self._nonfinite(i, clause.hi, _GERUNDS[w])     # "thanks for approving"
        if w in _BASES and i > clause.lo and toks[i - 1].word == "did":
            return self._nonfinite(i, clause.hi, _BASES[w])       # "they did approve 10%"
        return self._verb(i, clause.hi) or self._predicate(i, clause.hi)

    def _nonfinite(self, i: int, hi: int, family: str) -> _Form:
        w = self.toks[i].word
        nxt = self.toks[i + 1].word if i + 1 < hi else ""
        if family == "sign" and nxt == "off":
            family = "approve"
        return _Form(family, i, i + 2 if nxt in _PHRASAL.get(w, ()) else i + 1, w)

    def _verb(self, i: int, hi: int) -> _Form | None:
        """A past or perfect verb, with the particle it takes: ``approved``, ``signed off``,
        ``signed the exception off``, ``came in``, ``said yes``, ``got it through``."""
        toks = self.toks
        w = toks[i].word
        nxt = toks[i + 1].word if i + 1 < hi else ""
        family = _PARTICIPLES.get(w)
        end = i + 2 if nxt in _PHRASAL.get(w, ()) else i + 1
        if w == "signed":
            family, end = self._signed(i, hi)
        elif w in ("came", "come") and nxt == "back" and i + 2 < hi and toks[i + 2].word == "with":
            family, end = "give", i + 3   # "engineering came back with their approval"
        elif w in _ARRIVALS:
            family, end, w = ("arrive", i + 2, nxt) if nxt in _ARRIVALS[w] else (None, end, w)
        elif (w, nxt) in (("said", "yes"), ("checked", "in")):
            family, end = ("agree" if w == "said" else "record"), i + 2
        elif w in ("got", "gotten"):
            np = _np(toks, i + 1, hi)
            if np is not None and np.hi < hi and toks[np.hi].word == "through":
                family = "approve"   # "we got the discount through finance"
        return None if family is None else _Form(family, i, end, w)

    def _predicate(self, i: int, hi: int) -> _Form | None:
        """``is in``, ``in hand``, ``on file``, ``is on board with``, ``is happy with``, and
        possession (``have the go-ahead``)."""
        toks = self.toks
        w = toks[i].word
        prev = toks[i - 1].word if i > 0 else ""
        nxt = toks[i + 1].word if i + 1 < hi else ""
        if w in ("in", "on") and nxt in ("hand", "file", "place"):
            return _Form("arrive" if nxt != "place" else "persist", i, i + 2, nxt)
        if w in _IN_PREDICATES and prev in _BE and not (
                nxt in _DETERMINERS or (i + 1 < hi and _np_word(toks, i + 1, hi))):
            return _Form("arrive", i, i + 1, w)   # "the PO is in", not "is in production"
        if prev in _BE and ((w == "on" and nxt == "board")
                            or (w in _AGREEING and nxt in ("with", "that"))):
            return _Form("agree", i, i + 2 if w == "on" else i + 1, w)
        if w in ("have", "has", "had") and i + 1 < hi and not _verb_like(toks[i + 1]):
            np = _np(toks, i + 1, hi)
            if np is not None and np.kind in ("action", "po"):
                return _Form("have", i, i + 1, w)   # "I have the go-ahead", "we have your PO"
        return None

    def _signed(self, i: int, hi: int) -> tuple[str, int]:
        """``signed off``, ``signed the exception off``, ``signed for``, ``signed the quote``."""
        toks = self.toks
        nxt = toks[i + 1].word if i + 1 < hi else ""
        if nxt in ("off", "for"):
            return ("approve" if nxt == "off" else "record"), i + 2
        np = _np(toks, i + 1, hi)
        if np is not None and np.hi < hi and toks[np.hi].word == "off":
            return "approve", i + 1
        return "sign", i + 1

    def _thanked(self, lo: int, i: int) -> bool:
        """``thanks for``/``grateful to finance for``/``I appreciate you`` before ``i``."""
        return self._thanker(lo, i) is not None

    def _thanker(self, lo: int, i: int) -> tuple[int, int] | None:
        """Where the words between the thanks and its ``for`` (or gerund) stand, if any."""
        thanks = next((k for k in range(lo, i) if self.toks[k].word in _THANKS), None)
        if thanks is None:
            return None
        at = next((k for k in range(thanks, i) if self.toks[k].word == "for"), None)
        if at is None and not self.toks[thanks].word.startswith("appreciate"):
            return None
        return thanks + 1, i if at is None else at

    # -- cues ---------------------------------------------------------------------------------

    def blocked(self, clause: _Clause, chain: int, form: _Form, *, own_subject: bool,
                scope: int | None = None) -> bool:
        """Whether a cue says the form at ``form.at`` did not happen, may not have, or is not
        the writer's statement now: in its clause before it (from ``scope``), in its
        auxiliaries, after it, or a modal, report, habit or reversal that governs it."""
        toks = self.toks
        before = [t.word for t in toks[clause.lo if scope is None else scope:chain]]
        for pseudo in _PSEUDO_NEGATIONS:
            if _has_phrase(before, pseudo):
                before = [w for w in before if w not in pseudo]
        aux = [t.word for t in toks[chain:form.at]]
        after = [t.word for t in toks[form.end:clause.hi]]
        return (_cued(before, aux, form.word, after)
                or self._modal_scope(clause.lo, chain, own_subject=own_subject)
                or self._reported(clause.lo, chain)
                or self._habitual(clause, chain, aux)
                or self._reversed(clause, form))

    def _reversed(self, clause: _Clause, form: _Form) -> bool:
        """A reversal said of the same event after the form: in its clause, in a following
        clause with no subject of its own (``approved, then rescinded``), or with an action
        noun as subject (``but the approval was withdrawn``)."""
        toks = self.toks
        for later in self.clauses[self.clauses.index(clause):]:
            lo = form.end if later == clause else later.lo
            words = [t.word for t in toks[lo:later.hi]]
            if not (any(w in _REVERSALS for w in words) or _has_phrase(words, ("no", "longer"))):
                continue
            if later == clause:
                return True
            verb = next((k for k in range(lo, later.hi) if _verb_like(toks[k])), later.hi)
            subject = [t for t in toks[lo:verb] if _is_word(t) and t.word not in _LEADING]
            if not subject or any(_kind_of(t.word) == "action" for t in subject):
                return True
        return False

    def _modal_scope(self, lo: int, chain: int, *, own_subject: bool) -> bool:
        """A modal or ``to`` before the form governs it unless a finite auxiliary, a
        complementiser or the form's own subject stands between them."""
        toks = self.toks
        for m in range(lo, chain):
            w = toks[m].word
            nxt = toks[m + 1] if m + 1 < chain else None
            if w == "to" and (nxt is None or nxt.word in _DETERMINERS or nxt.word in _PRONOUNS
                              or nxt.word in _TITLES or not nxt.word.isalpha()):
                continue  # "to" as a preposition
            if w not in _MODALS and w not in ("to", "'d", "will"):
                continue
            between = [t.word for t in toks[m + 1:chain]]
            if own_subject or any(b in ("that", "whether", "if")
                                  or (b in _BE | _HAVE and b not in ("be", "been"))
                                  for b in between[1:]):
                continue
            return True
        return False

    def _reported(self, lo: int, chain: int) -> bool:
        """``I said``, ``you mentioned``, ``I think``: the writer's or the addressee's words."""
        toks = self.toks
        for r in range(lo, chain):
            if toks[r].word in _REPORTING:
                k = r - 1
                while k >= lo and (toks[k].word in _ADVERBS or toks[k].word in _HAVE
                                   or toks[k].word in ("previously", "already", "did")):
                    k -= 1
                if k >= lo and (toks[k].word in _WE or toks[k].word in _YOU):
                    return True   # "I was told by finance ..." is a report, not the writer's
        return False

    def _habitual(self, clause: _Clause, chain: int, aux: list[str]) -> bool:
        """A habit: ``typically`` before the form, or ``as usual`` anywhere in the sentence
        of a present form."""
        before = [t.word for t in self.toks[clause.lo:chain]]
        if any(w in _HABITUAL for w in before):
            return True
        present = any(w in ("is", "are", "am", "'s", "remains") for w in aux)
        words = [t.word for t in self.toks]
        return present and (any(w in _HABITUAL for w in words)
                            or any(_has_phrase(words, p) for p in _HABITUAL_PHRASES))

    def other_sense(self, form: _Form, lo: int) -> bool:
        """``ATEX-approved``, ``WRAS approved``, ``industry-accepted``, ``widely accepted``."""
        tok = self.toks[form.at]
        if "-" in tok.word and form.family in ("approve", "accept"):
            prefix = tok.word.split("-")[0]
            if prefix not in ("re", "pre", "co", "counter", "ok", "rubber", "green", "signed"):
                return True
        if form.at > lo:
            prev = self.toks[form.at - 1]
            if prev.word in _CERTIFIERS:
                return True
            k = form.at - 1
            while k > lo and _IDENTIFIER.fullmatch(self.toks[k].word):
                k -= 1   # "API 607 approved": the standard's number
            prev = self.toks[k]
            if (form.family in ("approve", "accept") and prev.text.isupper()
                    and not tok.text.isupper() and prev.word not in _NP_STOP
                    and prev.text.isalpha() and 2 <= len(prev.text) <= 6
                    and prev.text not in _TITLE_ACRONYMS and prev.word not in _TITLES
                    and _kind_of(prev.word) is None):
                return True
        return False

    # -- subjects -----------------------------------------------------------------------------

    def subject(self, n: int, chain: int) -> tuple[int, int, bool]:
        """The subject of a form whose auxiliaries start at ``chain`` in clause ``n``: its
        span and whether it is the clause's own (else the last clause's before it)."""
        clause = self.clauses[n]
        lo = clause.lo
        while lo < chain and (self.toks[lo].word in _LEADING or self.toks[lo].word in _MARKS
                              or not _is_word(self.toks[lo])):
            lo += 1
        if lo < chain:
            return lo, chain, True
        # the nearest clause before with a party or a thing in its subject; an aside in
        # brackets only when nothing else names one ("Marek (plant engineering) confirmed")
        for asides in (False, True):
            for k in range(min(n, len(self.subjects)) - 1, -1, -1):
                if (self.clauses[k].joined == "(") is not asides:
                    continue
                s_lo, s_hi = self.subjects[k]
                if s_hi > s_lo and (_mentions(self.toks, s_lo, s_hi) or any(
                        _kind_of(t.word) for t in self.toks[s_lo:s_hi])):
                    return s_lo, s_hi, False
        return chain, chain, False

    def clause_subject(self, n: int) -> tuple[int, int]:
        """The words of clause ``n`` before its first verb (its subject, or its topic)."""
        clause = self.clauses[n]
        lo = clause.lo
        while lo < clause.hi and (self.toks[lo].word in _LEADING or not _is_word(self.toks[lo])):
            lo += 1
        hi = next((k for k in range(lo, clause.hi) if _verb_like(self.toks[k])
                   or self.toks[k].word in _IN_PREDICATES), clause.hi)
        if hi == lo:
            inherited = self.subject(n, lo)
            return inherited[0], inherited[1]
        return lo, hi

    # -- claims -------------------------------------------------------------------------------

    def claims(self) -> list[StatedAuthority]:
        """Every authority claim of the sentence, in order, each (action, party) once."""
        found: list[_Found] = []
        families: list[str] = []   # families claimed before a colon, for gapped lists
        colon = False
        for n, clause in enumerate(self.clauses):
            self.subjects.append(self.clause_subject(n))
            colon = colon or clause.joined == ":"
            here: list[_Found] = []
            i = clause.lo
            while i < clause.hi:
                form = None if i in self.asked else self.form(i, clause)
                if form is None:
                    i += 1
                    continue
                claimed = self.form_claims(n, form)
                if claimed and not colon:
                    families.append(form.family)
                here += claimed
                i = max(i + 1, form.end)
            here += self.noun_claims(n, here) or self.ellipsis(n)
            if not here and colon and families:
                here += self.gapped(clause, families)
            found += here
        rows, blocked = self.row_claims()
        found = [] if blocked else found + rows
        out: dict[tuple[Action, Role | None], StatedAuthority] = {}
        for f in sorted(found, key=lambda f: f.lo):
            phrase = self.text[self.toks[f.lo].start:self.toks[f.hi - 1].end]
            out.setdefault((f.action, f.party), StatedAuthority(f.action, f.party, phrase,
                                                                self.text))
        return list(out.values())

    def form_claims(self, n: int, form: _Form) -> list[_Found]:
        """The claims of a completed form in clause ``n``: none when another sense or a cue
        rules it out, else what it says was done, and by whom."""
        clause, toks = self.clauses[n], self.toks
        chain = form.at
        while chain > clause.lo and toks[chain - 1].word in _CHAIN:
            chain -= 1
        s_lo, s_hi, own = self.subject(n, chain)
        self.last_form = (n, form, (s_lo, s_hi))
        near = chain > clause.lo and (_np_word(toks, chain - 1, chain)
                                      or toks[chain - 1].word in _PRONOUNS)
        # a verb phrase coordinated with the last one shares its negation and modality:
        # "finance hasn't reviewed or approved it"
        shared = not own and clause.joined in ("and", "or", "nor") and n > 0
        scope = self.clauses[n - 1].lo if shared else clause.lo
        if self.other_sense(form, clause.lo) or self.blocked(
                clause, chain, form, own_subject=own and near, scope=scope):
            return []
        attributive = self.attributive(form, clause)
        if attributive is not None:
            return attributive
        return self.done_by(n, form, chain, (s_lo, s_hi))

    def done_by(self, n: int, form: _Form, chain: int,
                subject: tuple[int, int]) -> list[_Found]:
        """What a form says was done (from its object, or its subject in the passive) and by
        whom (a ``by`` phrase, or the subject of an active form)."""
        clause, toks = self.clauses[n], self.toks
        aux = {t.word for t in toks[chain:form.at]}
        passive_marker = form.at > clause.lo and toks[form.at - 1].word == "as"
        persons = [m for m in _mentions(toks, *subject) if not m.possessor]
        active = (bool(persons) and not aux & _STRICT_BE and not passive_marker
                  and form.family not in ("arrive", "done", "persist")) \
            or form.family == "agree" or form.word in _GERUNDS
        np = self.theme(n, form, subject, active=active)
        agents = self.agents(form, clause)
        parties = agents or (_parties(toks, *subject, self.who) if active else [])
        if np is not None and np.kind == "action":
            # an action noun's party is its owner, else the "by"/"from" phrase of the verb,
            # else (for "given") the giver
            fallback = parties if form.family == "give" else agents
            return self.action_noun(np, clause.hi, fallback, parties)
        kind = None if np is None else np.kind
        if self.not_an_owner(form, clause, kind, subject, parties=parties, active=active):
            return []
        fit_said = any(_THEMES.get(t.word) == "fit" or t.word in _FIT_VERBS
                       for t in toks[form.end:self.through_asides(n)])
        return [_Found(action, party, form.at, form.end) for party in _each(parties)
                if (action := _resolve(form.family, kind, party, fit_said=fit_said,
                                       word=form.word)) is not None]

    def ellipsis(self, n: int) -> list[_Found]:
        """A clause that ends at its auxiliary leaves out the last form's verb phrase and
        claims it for its own subject: ``engineering hasn't signed off, but finance has``."""
        clause, toks = self.clauses[n], self.toks
        words = [k for k in range(clause.lo, clause.hi)
                 if _is_word(toks[k]) and toks[k].word not in _ELLIPSIS_TAILS]
        if self.last_form is None or self.last_form[0] == n or len(words) < 2 \
                or toks[words[-1]].word not in _ELLIPTIC:
            return []
        aux = words[-1]
        lo = next(k for k in words if toks[k].word not in _LEADING)
        if lo >= aux or any(_verb_like(t) for t in toks[lo:aux]):
            return []
        m, form, subject = self.last_form
        if self.blocked(clause, aux, _Form(form.family, aux, aux + 1, toks[aux].word),
                        own_subject=True):
            return []
        np = self.theme(m, form, subject, active=True)
        kind = None if np is None or np.kind == "action" else np.kind
        return [_Found(action, party, aux, aux + 1)
                for party in _each(_parties(toks, lo, aux, self.who))
                if (action := _resolve(form.family, kind, party, word=form.word)) is not None]

    def through_asides(self, n: int) -> int:
        """Where clause ``n`` ends, read on past an aside in brackets (``the West valve
        (BV-00005) is a suitable replacement``)."""
        hi = self.clauses[n].hi
        for later in self.clauses[n + 1:]:
            if later.joined not in ("(", ")"):
                break
            hi = later.hi
        return hi

    def not_an_owner(self, form: _Form, clause: _Clause, kind: str | None,
                     subject: tuple[int, int], *, parties: list[Role], active: bool) -> bool:
        """Forms that say something other than an owner's action: a standing of ours (``we're
        approved to supply``), a certification (``approved for potable water use``,
        ``approved by Lloyd's Register``), or a PO we sent."""
        toks = self.toks
        ours = (form.family == "approve" and form.end + 1 < clause.hi
                and toks[form.end].word == "to" and toks[form.end + 1].word not in _DETERMINERS
                and any(m.kind == "we" for m in _mentions(toks, *subject)))
        certified = not parties and (
            (form.family == "approve" and kind in (None, "product")
             and self.purpose(form, clause))
            or (kind not in ("commercial", "quote", "fit") and self.certifier(form, clause)))
        sent_by_us = form.family == "send" and not parties and active
        # goods are the buyer's to receive: "our warehouse has received your returned actuator"
        received_by_us = form.family == "receive" and kind in ("goods", "product") \
            and any(m.kind == "we" for m in _mentions(toks, *subject))
        return ours or certified or sent_by_us or received_by_us

    def attributive(self, form: _Form, clause: _Clause) -> list[_Found] | None:
        """``the approved discount``, ``the signed quote``: a claim on a definite quote, price
        or substitution; ``an approved supplier``, ``approved drawings``: none. ``None``
        when the form is not attributive."""
        toks, i = self.toks, form.at
        nxt = toks[i + 1].word if i + 1 < clause.hi else ""
        prev = toks[i - 1].word if i > clause.lo else ""
        modifies = (form.family in ("approve", "accept", "sign", "confirm", "agree")
                    and form.end == i + 1 and bool(nxt) and _np_word(toks, i + 1, clause.hi)
                    and nxt not in _DETERMINERS
                    and (not prev or prev in _DETERMINERS or prev in _BE or prev == "'s"))
        if not modifies or (prev not in _DETERMINERS and (
                _IDENTIFIER.fullmatch(nxt) or nxt.endswith("%") or _QUOTE_CODE.fullmatch(nxt))):
            return None   # a verb: "finance approved 10%", "has accepted Q-1"
        np = _np(toks, i + 1, clause.hi)
        definite = prev in _DETERMINERS - _words("a an any every each some no another either") \
            or prev == "'s"
        if np is None or not definite or np.kind not in ("commercial", "quote", "fit"):
            return []
        if any(t.word in _MODALS or t.word in ("once", "when") for t in toks[clause.lo:clause.hi]):
            return []   # "the signed quote should be returned": what is to be, not what was
        action = _resolve(form.family, np.kind, None)
        return [] if action is None else [_Found(action, None, i, np.hi)]

    def theme(self, n: int, form: _Form, subject: tuple[int, int], *,
              active: bool) -> _NP | None:
        """What the form is about: its object or the noun after its preposition (active), its
        subject (passive, or a predicate), the subject's noun (``the discount you OK'd``);
        a verb coordinated with the next shares its object (``signed and returned the
        quote``)."""
        clause = self.clauses[n]
        toks, hi = self.toks, clause.hi
        j = form.end
        while j < hi and (toks[j].word in _TIME or toks[j].word == "that"
                          or (toks[j].word in _PRONOUNS and j + 1 < hi
                              and (toks[j + 1].word in _DETERMINERS
                                   or _np_word(toks, j + 1, hi)))):
            j += 1   # "sent us the PO", "verified that BV-00005 ..."
        obj = _np(toks, j, hi)
        pp = None
        if obj is None and j < hi and toks[j].word in ("on", "to", "for", "of", "with", "about"):
            pp = _np(toks, j + 1, hi)
            if pp is not None and toks[j].word == "to" and pp.lo == pp.head and pp.kind is None \
                    and pp.hi < hi and toks[pp.hi].word in _DETERMINERS:
                pp = _np(toks, pp.hi, hi)   # "agreed to hold the price": the verb's object
        if obj is None and pp is None and j == hi and n + 1 < len(self.clauses):
            following = self.clauses[n + 1]
            if following.joined in ("and", "or") and following.lo + 1 < following.hi \
                    and _verb_like(toks[following.lo + 1]):
                obj = _np(toks, following.lo + 2, following.hi)
        subj: _NP | None = None
        k = subject[0]
        while k < subject[1] and subj is None:
            np = _np(toks, k, subject[1])
            if np is None:
                k += 1
                continue
            if np.kind is not None and (k == subject[0] or toks[k - 1].word not in _PREPOSITIONS):
                subj = np   # the subject's head, not a noun in its "on BV-00005" phrase
            k = np.hi
        if form.family == "confirm" and obj is not None and obj.kind == "commercial" \
                and obj.hi < hi and _verb_like(toks[obj.hi]):
            obj = _NP(obj.lo, obj.head, obj.hi, "other")   # "confirmed the price is correct"
        order = (obj, pp, subj) if active or form.family == "have" else (subj, obj, pp)
        found = next((np for np in order if np is not None and np.kind is not None), None)
        pronoun = any(t.word in ("it", "this") for t in toks[subject[0]:subject[1]]) or (
            j < hi and toks[j].word == "it")
        if found is None and pronoun and form.family in _DOCUMENT_FAMILIES:
            kind = self.who.it(form.at)   # "it came in this morning": the PO named before
            return None if kind is None else _NP(form.at, form.at, form.end, kind)
        if found is None and (obj or pp) and form.family in ("agree", "accept", "sign",
                                                             "confirm"):
            return _NP(form.at, form.at, form.end, "other")   # "agreed to the delivery date"
        return found

    def agents(self, form: _Form, clause: _Clause) -> list[Role]:
        """Who did it, when the words say: the party thanked (``grateful to finance for
        approving``, else the addressee), or a ``by``/``from``/``through`` phrase after the
        form (``Accepted by: Priya Shah (Procurement)``)."""
        toks = self.toks
        thanker = self._thanker(clause.lo, form.at) if form.word in _GERUNDS else None
        if thanker is not None:   # "thanks for approving"; "grateful to finance for approving"
            return _parties(toks, *thanker, self.who) or [self.who.addressee]
        for j in range(form.end, clause.hi):
            w = toks[j].word
            if w in ("by", "from", "through") or (w == "with" and form.family == "agree"):
                end = clause.hi
                if j + 1 == clause.hi and clause.hi < len(toks) and toks[clause.hi].word == ":":
                    end = next((k for k in range(clause.hi + 1, len(toks))
                                if toks[k].word == ";"), len(toks))  # "Accepted by: ..."
                    roles = _roles(_mentions(toks, clause.hi + 1, end), toks, self.who)
                else:
                    roles = _parties(toks, j + 1, end, self.who)
                if roles:
                    return roles
        return []

    def purpose(self, form: _Form, clause: _Clause) -> bool:
        """Whether ``for``/``to``/``under`` after the form names a use, a standard or a scheme
        rather than anything an owner approves (``approved for potable water use``,
        ``approved to API 6D``)."""
        toks = self.toks
        for j in range(form.end, clause.hi - 1):
            if _verb_like(toks[j]):
                break
            if toks[j].word in ("for", "to", "under"):
                np = _np(toks, j + 1, clause.hi)
                return np is not None and np.kind is None
        return False

    def certifier(self, form: _Form, clause: _Clause) -> bool:
        """Whether a ``by`` phrase after the form names someone by name who is none of the
        parties (``approved by Lloyd's Register``), not a means (``by email``)."""
        toks = self.toks
        k = next((j for j in range(form.end, clause.hi) if toks[j].word == "by"), None)
        if form.family not in ("approve", "accept") or k is None or k + 1 >= clause.hi:
            return False
        agent = toks[k + 1]
        return agent.text[:1].isupper() and agent.word[:1].isalpha() and not (
            agent.word in _DETERMINERS or agent.word in _TIME or agent.word in _MONTHS)

    # -- nouns --------------------------------------------------------------------------------

    def action_noun(self, np: _NP, hi: int, fallback: list[Role],
                    verb_parties: list[Role]) -> list[_Found]:
        """The claim an action noun makes once something says it happened: its action comes
        from its modifiers or its ``on``/``for`` phrase, its party from a ``from``/``by``
        phrase or its possessor."""
        toks = self.toks
        family = _ACTION_NOUNS[toks[np.head].word]
        kind = next((k for t in toks[np.lo:np.head]
                     if (k := _kind_of(t.word)) is not None and k != "action"), None)
        parties: list[Role] = []
        j = np.hi
        while j < hi and toks[j].word in ("from", "by", "on", "for", "of", "to", "with"):
            inner = _np(toks, j + 1, hi)
            if inner is None:
                break
            if toks[j].word in ("from", "by"):
                parties = parties or _parties(toks, j + 1, inner.hi, self.who)
            elif kind is None and inner.kind not in (None, "action"):
                kind = inner.kind
            j = inner.hi
        if not parties:
            parties = self.owners(np, verb_parties) or fallback
        if toks[np.head].word in _PLURAL_ACTIONS and kind is None and not parties:
            return []   # "both sign-offs are in": no one action
        return [_Found(action, party, np.lo, np.hi) for party in _each(parties)
                if (action := _resolve(family, kind, party)) is not None]

    def owners(self, np: _NP, verb_parties: list[Role]) -> list[Role]:
        """The parties that own an action noun: ``finance's``, ``finance``, ``your`` (the
        addressee), ``their`` (the verb's subject, else the party last named)."""
        mentions = _mentions(self.toks, np.lo, np.head)
        titles = [m for m in mentions if m.kind == "title"]
        if titles:
            return _roles(titles, self.toks, self.who)
        if not mentions:
            return []
        last = mentions[-1]
        if last.kind == "you":
            return [self.who.addressee]
        if last.kind == "they":
            role = self.who.they(last.at)
            return verb_parties or ([] if role is None else [role])
        return []

    def noun_claims(self, n: int, here: list[_Found]) -> list[_Found]:
        """Action and document nouns that a mark, ``thanks for`` or a fronted ``with``/
        ``following`` says happened: ``✅ finance approval``, ``thanks for the go-ahead``."""
        clause, toks = self.clauses[n], self.toks
        out: list[_Found] = []
        for i in range(clause.lo, clause.hi):
            kind = _kind_of(toks[i].word)
            if kind not in ("action", "po", "receipt", "payment") or i in self.asked:
                continue
            if any(f.lo <= i < f.hi for f in here):
                continue
            if i + 1 < clause.hi and _np_word(toks, i + 1, clause.hi) \
                    and not _IDENTIFIER.fullmatch(toks[i + 1].word):
                continue   # a modifier: "the approval request"
            np = _np_ending(toks, i, clause.lo, clause.hi)
            governor = self.governor(np, clause)
            if governor is None:
                continue
            form = _Form("noun", np.head, np.hi, toks[np.head].word)
            if self.blocked(clause, np.lo, form, own_subject=False):
                continue
            thanked = [self.who.addressee] if governor == "thanks" else []
            if np.kind == "action":
                out += self.action_noun(np, clause.hi, thanked, [])
            else:
                action = _resolve("receive", np.kind, None)
                if action is not None:
                    out += [_Found(action, party, np.lo, np.hi) for party in _each(thanked)]
        return out

    def governor(self, np: _NP, clause: _Clause) -> str | None:
        """What, outside a verb, says a noun's action happened: a check mark before or after
        it, ``thanks for``, or a fronted ``with``/``following`` in a sentence not about
        the future."""
        toks = self.toks
        before = toks[np.lo - 1].word if np.lo > 0 else ""
        k = np.hi + 1 if np.hi < len(toks) and toks[np.hi].word == ":" else np.hi
        after = toks[k].word if k < len(toks) else ""   # "Approval: ✅"
        if before in _MARKS or after in _MARKS:
            return "mark"
        if before == "for" and self._thanked(clause.lo, np.lo):
            return "thanks"
        if before == "to" and np.lo > 1 and toks[np.lo - 2].word == "thanks":
            return "fronted"   # "thanks to finance's approval, ..."
        if before in ("confirm", "acknowledge") and any(
                m.kind == "we" for m in _mentions(toks, clause.lo, np.lo - 1)):
            return "performative"   # "we confirm receipt of your order"
        fronted = np.lo - 1 == clause.lo and (clause.lo == 0 or toks[clause.lo - 1].word in _HARD)
        if before in _FRONTED and fronted and not self.future:
            return "fronted"
        return None

    # -- tables and lists ---------------------------------------------------------------------

    def row_claims(self) -> tuple[list[_Found], bool]:
        """A table row read as ``header value; ...``: a ``Status`` cell that says done makes
        the row's action noun a claim (its party from another cell); one that says pending or
        not started takes back every claim of the row."""
        toks = self.toks
        cuts = [-1] + [k for k, t in enumerate(toks) if t.word == ";"] + [len(toks)]
        cells = [(a + 1, b) for a, b in itertools.pairwise(cuts) if b > a + 1]
        status = next(((lo, hi) for lo, hi in cells
                       if toks[lo].word in _STATUS_HEADERS and hi - lo >= 2), None)
        if status is None or len(cells) < 2:
            return [], False
        value = [t.word for t in toks[status[0] + 1:status[1]]]
        if any(v in _OPEN_STATUS for v in value):
            return [], True
        if value[0] not in _DONE_STATUS and value[0] not in _MARKS:
            return [], False
        others = [c for c in cells if c != status]
        out: list[_Found] = []
        for lo, hi in others:
            heads = [k for k in range(lo, hi) if _kind_of(toks[k].word) in (
                "action", "po", "receipt", "payment") and not (
                    k + 1 < hi and _np_word(toks, k + 1, hi))]
            if not heads:
                continue
            np = _np_ending(toks, heads[-1], lo, hi)
            named = [m for a, b in others if (a, b) != (lo, hi) for m in _mentions(toks, a, b)]
            roles = _roles(named, toks, self.who)
            if np.kind == "action":
                out += self.action_noun(np, hi, roles, [])
            elif (action := _resolve("receive", np.kind, None)) is not None:
                out.append(_Found(action, None, np.lo, np.hi))
        return out, False

    def gapped(self, clause: _Clause, families: list[str]) -> list[_Found]:
        """A list after a colon that leaves its verb out: ``Everything is approved and
        confirmed: pricing by finance, fit by your plant engineering team``."""
        toks = self.toks
        lo = clause.lo
        if any(_verb_like(t) for t in toks[lo:clause.hi]):
            return []
        np = _np(toks, lo, clause.hi)
        if np is None or np.kind is None or np.hi >= clause.hi or toks[np.hi].word != "by":
            return []
        out: list[_Found] = []
        for party in _parties(toks, np.hi + 1, clause.hi, self.who):
            action = next((a for f in families if (a := _resolve(f, np.kind, party))), None)
            if action is not None:
                out.append(_Found(action, party, lo, clause.hi))
        return out


_STATUS_HEADERS = _words("status state progress outcome result")
_DONE_STATUS = _words("done complete completed yes received approved confirmed accepted recorded "
                      "signed in closed granted")
_OPEN_STATUS = _words("pending awaiting waiting open not outstanding todo to-do no ⏳ ❌ "
                      "started progress")
_UNTICKED = _words("[ ] ☐ □ ⬜")
"""Boxes that mark a checklist line as still to do."""
_STRUCK = re.compile(r"~~[^~\n]+~~")
"""Struck-through words (``~~pending~~ approved``) are taken back, not said."""


def extract_authority_claims(text: str, addressee: Role = Role.BUYER) -> list[StatedAuthority]:
    """The authority claims ``text`` makes, in order (see the module docstring).

    Args:
        text: one message (Markdown allowed).
        addressee: who it is addressed to; ``you`` names that party.
    """
    claims: list[StatedAuthority] = []
    before: _Who | None = None
    for sentence in sentences(_STRUCK.sub(" ", text)):
        reading = _Sentence(sentence.text, addressee, before)
        if reading.toks and reading.toks[0].word not in _UNTICKED:   # a to-do
            claims += reading.claims()
        before = reading.who
    return claims
