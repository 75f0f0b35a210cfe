"""Who is named: titles and team names mapped to the owner roles, ``you``, ``they`` and
``we``, coordination, and who ``you``, ``they`` and ``it`` stand for where a sentence is read.

Titles and team names map to roles (the CFO, the controller, credit control, accounts are
finance; plant or site engineering, the technical authority are the technical owner;
procurement, purchasing, the customer are the buyer). ``you`` is the addressee, ``your
team`` too; ``they``, ``him`` and ``their`` the party last named; ``we`` and ``I`` (the
supplier, the agent) name nobody. Coordinated parties are each named (``both you and your
plant engineer``); otherwise the last title of a phrase is its head.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

from remit.authority import Role
from remit.claims.authority.lexicon import (
    COORDINATORS,
    ORG,
    OUR,
    PREPOSITIONS,
    THEIR,
    THEY,
    TITLE_ACRONYMS,
    TITLE_PAIRS,
    TITLES,
    WE,
    YOU,
    YOUR,
)
from remit.claims.authority.tokens import Tok, tokens, verb_like


class Mention(NamedTuple):
    """A party or person named in a sentence."""

    at: int             # the index of its last word
    kind: str           # "title", "you", "we" or "they"
    role: Role | None   # a title's role
    possessor: bool     # it owns what follows ("finance's", "your", "their")


class Who(NamedTuple):
    """Who ``you`` and ``they`` are, and what ``it`` is, where a sentence is read."""

    addressee: Role
    named: tuple[tuple[int, Role], ...]    # titles named in this sentence, by position
    before: Role | None                     # the last party named in earlier sentences
    documents: tuple[tuple[int, str], ...] = ()   # POs, receipts, payments named, by position
    document_before: str | None = None      # the last one named in earlier sentences

    def they(self, at: int) -> Role | None:
        """The party ``they`` at ``at`` stands for: the last one named before it."""
        earlier = [role for i, role in self.named if i < at]
        return earlier[-1] if earlier else self.before

    def it(self, at: int) -> str | None:
        """The kind of document ``it`` at ``at`` stands for."""
        earlier = [kind for i, kind in self.documents if i < at]
        return earlier[-1] if earlier else self.document_before

    def last_party(self) -> Role | None:
        """The last party named, for the sentences that follow."""
        return self.named[-1][1] if self.named else self.before

    def last_document(self) -> str | None:
        """The last document named, for the sentences that follow."""
        return self.documents[-1][1] if self.documents else self.document_before


def title(toks: list[Tok], i: int, hi: int) -> tuple[Role, int] | None:
    """The role of a title starting at ``i``, and the index of its last word."""
    if i + 1 < hi and (toks[i].word, toks[i + 1].word) in TITLE_PAIRS:
        return TITLE_PAIRS[toks[i].word, toks[i + 1].word], i + 1
    role = TITLES.get(toks[i].word) or TITLE_ACRONYMS.get(toks[i].text)
    return None if role is None else (role, i)


def mentions(toks: list[Tok], lo: int, hi: int) -> list[Mention]:
    """The parties and persons ``toks[lo:hi]`` name, in order."""
    out: list[Mention] = []
    i = lo
    while i < hi:
        w = toks[i].word
        nxt = toks[i + 1].word if i + 1 < hi else ""
        named = title(toks, i, hi)
        if named is not None:
            role, i = named
            after = toks[i + 1].word if i + 1 < hi else ""
            out.append(Mention(i, "title", role, after in ("'s", "'")))
        elif w in YOU or (w in YOUR and nxt in ORG and not any(
                title(toks, k, hi) for k in range(i + 1, min(i + 3, hi)))):
            out.append(Mention(i, "you", None, possessor=False))   # "you", "your team"
        elif w in YOUR:
            out.append(Mention(i, "you", None, possessor=True))
        elif w in WE or (w in OUR and nxt in ORG):
            out.append(Mention(i, "we", None, possessor=False))
        elif w in OUR:
            out.append(Mention(i, "we", None, possessor=True))
        elif w in THEY or w in THEIR:
            out.append(Mention(i, "they", None, possessor=w in THEIR))
        i += 1
    return out


def roles(named: list[Mention], toks: list[Tok], who: Who) -> list[Role]:
    """The parties a list of mentions names: every one when they are coordinated (``both
    you and your plant engineer``), else the last title, else ``you`` or ``they``; ``we``
    and ``I`` name nobody."""
    heads = ([m for m in named if not m.possessor and m.kind != "we"]
             or [m for m in named if m.kind == "title"])
    if len(heads) > 1 and all(_coordinated(toks[a.at + 1:b.at + 1 - _span(toks, b)])
                              for a, b in itertools.pairwise(heads)):
        chosen = heads
    else:
        chosen = [m for m in heads if m.kind == "title"][-1:] or heads[-1:]
    out: list[Role] = []
    for m in chosen:
        role = (m.role if m.kind == "title" else who.addressee if m.kind == "you"
                else who.they(m.at) if m.kind == "they" else None)
        if role is not None and role not in out:
            out.append(role)
    return out


def _coordinated(between: list[Tok]) -> bool:
    """Two mentions are coordinated when a conjunction and no verb or preposition stands
    between them (``your engineering lead and our finance team``)."""
    return any(t.word in COORDINATORS for t in between) and not any(
        verb_like(t) or t.word in PREPOSITIONS for t in between)


def _span(toks: list[Tok], mention: Mention) -> int:
    """How many words a title takes (two for ``credit control``)."""
    i = mention.at
    return 2 if i > 0 and (toks[i - 1].word, toks[i].word) in TITLE_PAIRS else 1


def parties(toks: list[Tok], lo: int, hi: int, who: Who) -> list[Role]:
    """The parties a subject or ``by`` phrase names: its head before any preposition
    (``the technical authority at your site``), else the whole phrase."""
    named = mentions(toks, lo, hi)
    cut = next((k for k in range(lo + 1, hi) if toks[k].word in PREPOSITIONS), hi)
    head = [m for m in named if m.at < cut and (m.kind == "title" or not m.possessor)]
    return roles(head or named, toks, who)


def party_of(words: str, addressee: Role) -> Role | None:
    """The party ``words`` name (the head of a subject or ``by`` phrase), if any.

    Args:
        words: a subject or agent phrase (``"the CFO"``, ``"your plant engineer"``).
        addressee: who the text is addressed to; ``you`` names that party.
    """
    toks = tokens(words)
    named = parties(toks, 0, len(toks), Who(addressee, (), None))
    return named[0] if named else None


def owners(toks: list[Tok], lo: int, head: int, who: Who,
           verb_parties: list[Role] | None = None) -> list[Role]:
    """The parties that own an action noun whose phrase runs ``lo:head``: ``finance's``,
    ``finance``, ``your`` (the addressee), ``their`` (the verb's subject, else the party last
    named)."""
    named = mentions(toks, lo, head)
    titles = [m for m in named if m.kind == "title"]
    if titles:
        return roles(titles, toks, who)
    if not named:
        return []
    last = named[-1]
    if last.kind == "you":
        return [who.addressee]
    if last.kind == "they":
        role = who.they(last.at)
        return verb_parties or ([] if role is None else [role])
    return []
