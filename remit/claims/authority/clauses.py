"""Clauses and questions: where a sentence splits, and which of its words are asked.

A sentence splits into clauses at punctuation, at ``but``, ``so``, ``because``, ``which``,
``if``, ``once``, ``until``..., and at ``and``/``or`` between two clauses that each have a
verb. ``so far`` and ``I've since`` do not split. A clause keeps the conjunction that opens
it. A question mark asks its whole sentence when the sentence opens with an auxiliary or a
question word (``Has finance approved?``), else its last clause, or the whole sentence after
a short tag (``..., right?``).
"""

from __future__ import annotations

from typing import NamedTuple

from remit.claims.authority.lexicon import HAVE, LEADING, words
from remit.claims.authority.tokens import Tok, is_word, verb_like

HARD = words('. ! ? ; : ( ) [ ] " | · • - …')
"""Punctuation that always ends a clause."""
_SOFT = words(", but though although whereas however because since which who while then "
              "meanwhile hence thus therefore if once until unless whether before after when "
              "till")
_NOT_SO = words("far much many long quickly soon fast good well")
_INTERROGATIVES = words("has have had is are was were do does did can could would will should "
                        "shall may might what when which who whom whose whether how why where "
                        "any")


class Clause(NamedTuple):
    """A clause of a sentence."""

    lo: int
    hi: int
    joined: str    # the conjunction that joins it to the clause before ("and", "," ...)


def _and_joins_clauses(toks: list[Tok], lo: int, at: int, hi: int) -> bool:
    """``and``/``or`` starts a new clause when a verb stands on each side of it."""
    before = any(verb_like(t) for t in toks[lo:at])
    after = next((k for k in range(at + 1, hi) if toks[k].word in HARD or toks[k].word == ","),
                 hi)
    return before and any(verb_like(t) for t in toks[at + 1:after])


def clauses(toks: list[Tok]) -> list[Clause]:
    """The clauses of a sentence, each without the punctuation that bounds it."""
    out: list[Clause] = []
    lo, joined = 0, ""
    for i, tok in enumerate(toks):
        w = tok.word
        cut = w in HARD or w in _SOFT
        if w == "so":
            cut = i + 1 >= len(toks) or toks[i + 1].word not in _NOT_SO
        elif w == "since" and i > 0 and toks[i - 1].word in HAVE:
            cut = False   # "I've since updated": an adverb
        elif w in ("and", "or"):
            cut = _and_joins_clauses(toks, lo, i, len(toks))
        if not cut:
            continue
        keep = w.isalpha()  # a conjunction stays at the start of its clause
        if i > lo:
            out.append(Clause(lo, i, joined))
        lo = i if keep else i + 1
        joined = w if (keep and (i == 0 or toks[i - 1].word != ",")) else ","
        if w in HARD:
            joined = w
    if lo < len(toks):
        out.append(Clause(lo, len(toks), joined))
    return out


def questions(toks: list[Tok], split: list[Clause]) -> set[int]:
    """The positions of the words that stand in a question."""
    asked: set[int] = set()
    for q, tok in enumerate(toks):
        if tok.word != "?":
            continue
        start = max((k + 1 for k in range(q) if toks[k].word in ".!?;:"), default=0)
        first = next((t.word for t in toks[start:q] if t.word not in LEADING), "")
        if first in _INTERROGATIVES:
            asked.update(range(start, q))
            continue
        last = next((c for c in reversed(split) if c.lo < q), None)
        if last is not None:
            # a short tag ("..., I hope?", "..., right?") asks about the whole sentence
            tag = sum(is_word(t) for t in toks[last.lo:q]) <= 3 and last.lo > start
            asked.update(range(start if tag else last.lo, q))
    return asked
