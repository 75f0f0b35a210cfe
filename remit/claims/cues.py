"""Sentence-level cues: questions, clauses, negation, conditions, and whether a number
or a code belongs to the site rather than to the product.

A claim is read only from a clause that states: not a question (:func:`asks`), not
negated (:func:`negated`: ``no more than`` is a comparison, not a negation), not a
condition, plan or reported speech (:func:`hypothetical`: an ``if``-clause ends at its
comma). A number is the site's requirement, never the product's value
(:func:`requirement_amount`), when a requirement word (``your``, ``design``,
``medium``...) stands before it, or a capability word (``handles``, ``fine for``) without
a limit word (``rated to``, ``up to``), or a requirement noun follows it (``12 bar design
pressure``), or it opens its clause as a condition (``At 20 bar, ...``). A code is the
site's (:func:`requirement_code`) in ``your NPT piping`` or ``your existing F07
actuator``.

Example:
    >>> negated("it is no more than"), negated("it is not")
    (False, True)
"""

from __future__ import annotations

import re

from remit.claims.amounts import Amount
from remit.claims.mentions import Mention
from remit.claims.vocabulary import REQUIREMENT_WORDS, Keyword

__all__ = ["CAPABILITY", "CONDITION", "FOR_SITE", "GENERIC", "LIMIT", "REQUIREMENT_AFTER",
           "SITE_CONDITIONS", "asks", "clause_start", "hypothetical", "negated",
           "product_anchors", "requirement_amount", "requirement_code"]


_QUESTION_START = re.compile(
    r"^\W*(?:is|are|was|were|does|do|did|can|could|would|will|should|shall|has|have|had"
    r"|what|which|who|whom|whose|when|where|why|how|may|might|am|isn't|aren't|doesn't"
    r"|don't|won't|wouldn't|couldn't|shouldn't|hasn't|haven't)\b",
    re.IGNORECASE)
_CLAUSE = re.compile(r"\s+-\s+|;\s*|:\s+(?=\w)|,\s+(?:but|and|so|or)\s+|\s+but\s+|\s*\((?=\w)")
_NEGATION = re.compile(
    r"\b(?:not|never|no|none|neither|nor|without|isn't|aren't|wasn't|weren't|doesn't|don't"
    r"|didn't|won't|cannot|can't|lacks?|lacking|n't|instead\s+of|rather\s+than)\b"
    r"|[\u274c\u2717\u2718\u2716\u26d4\U0001f6ab]",
    re.IGNORECASE)
GENERIC = re.compile(
    r"\b(?:generally|typically|usually|normally|in\s+general|as\s+a\s+rule|standard"
    r"\s+practice|most|many|some|all|any|every|each)\b"
    r"|^\W*(?:(?:PTFE|PEEK|EPDM|graphite|stainless(?:\s+steel)?|carbon\s+steel|WCB|316|NPT"
    r"|BSPP?)(?:\s+\w+s)?\s+(?:is|are|can|will|tends?|has|have|handles?|copes?|gives?)\b"
    r"|(?:ball\s+)?valves|seats|actuators|gaskets|(?:soft|metal)\s+seats)\b",
    re.IGNORECASE)
_HYPOTHETICAL = re.compile(
    r"^\W*(?:if|whether|unless|once|in\s+case|assuming|suppose|should(?!\s+be\b)|when\s+you)\b"
    r"|\b(?:check(?:ing)?|verify(?:ing)?|confirm(?:ing)?|see)\s+(?:whether|if)\b"
    r"|\b(?:you\s+(?:mentioned|said|wrote|asked\s+for|need|needed|want|wanted|requested"
    r"|specified|stated|quoted|gave)|as\s+you\s+(?:said|mentioned|noted))\b",
    re.IGNORECASE)
CAPABILITY = re.compile(
    r"\b(?:handles?|handling|cope[sd]?\s+with|coping\s+with|withstands?|suitable|suited|fine"
    r"|ok|okay|safe|works?(?!\s+out)|rated\s+above|meets?|exceeds?|covers?|clears?|ample|plenty"
    r"|more\s+than\s+enough|enough|sufficient|adequate|margin|headroom|comfortably|within"
    r"|(?:will|would|'ll)\s+do\s+for"
    r"|able\s+to|can\s+(?:take|handle|run|operate)|compatible|matches|satisf(?:y|ies))\b",
    re.IGNORECASE)
"""Words that make the number after them a requirement the product is said to meet
(``handles 150 °C``, ``fine for 12 bar``): a fit claim, never the product's value."""


_IF_CLAUSE = re.compile(r"^\W*(?:if|unless|once|when|whenever|in\s+case|provided|assuming"
                        r"|should)\b[^,]*,", re.IGNORECASE)
_MAYBE = re.compile(r"\b(?:could|might|may)\s+(?:well\s+)?be\b|\bdepending\s+on\b", re.IGNORECASE)


def hypothetical(head: str) -> bool:
    """Whether the words before a value in its clause put it in a condition, a plan or
    reported speech (an ``if``-clause ends at its comma: what follows is stated)."""
    opening = _IF_CLAUSE.match(head)
    if opening is not None:
        head = head[opening.end():]
    return _HYPOTHETICAL.search(head) is not None or _MAYBE.search(head) is not None


def asks(sentence: str, clause_start: int, position: int) -> bool:
    """Whether the clause around ``position`` asks rather than states: it ends with a
    question mark, or it opens with a question word in a sentence that ends with one."""
    ends = [m.start() for m in _CLAUSE.finditer(sentence, position)]
    clause = sentence[clause_start:ends[0] if ends else len(sentence)]
    if clause.rstrip().endswith("?"):
        return True
    return (_QUESTION_START.match(clause) is not None
            and sentence.rstrip().rstrip("\"')*").endswith("?"))


_COMPARISON = re.compile(r"\b(?:no|not)\s+(?:more|less|higher|lower|greater|fewer)\s+than\b"
                         r"|\bnot\s+(?:exceeding|below|above|under|over)\b"
                         r"|\bno\s+(?:doubt|problem|issue)\b", re.IGNORECASE)


def negated(text: str) -> bool:
    """Whether ``text`` (the words before a value in its clause) negates it (``no more
    than`` is a comparison, not a negation)."""
    return _NEGATION.search(_COMPARISON.sub(" ", text)) is not None


def clause_start(sentence: str, position: int) -> int:
    starts = [m.end() for m in _CLAUSE.finditer(sentence, 0, position)]
    return starts[-1] if starts else 0


LIMIT = re.compile(
    r"\b(?:(?:rated|good|fine|ok|okay|suitable|handles?|cope[sd]?|works?|usable|limited|goes)"
    r"\s+(?:up\s+)?to|up\s+to|max(?:imum|\.)?|limit(?:ed)?\s+(?:of|at|to)|rated\s+(?:at|for)"
    r"|tops?\s+out\s+at|anything\s+(?:between|from|up\s+to)|between|from|good\s+for"
    r"|works?\s+out\s+(?:to|at)|comes?\s+(?:out\s+)?to|amounts?\s+to|equates?\s+to"
    r"|equivalent\s+to|equals?)\W*(?:more\s+than|about|around|approx"
    r"\.?|approximately|roughly|~)?\W*$",
    re.IGNORECASE)
"""Words that make the number after them the product's own limit (``rated to``, ``good
for``, ``up to``), even beside a capability word."""
CONDITION = re.compile(r"^\W*(?:at|@|for)\W*$|\b(?:when|while|if|whenever)\b[^,]*\bat\W*$"
                        r"|\bfor\s+(?:a|an|the)\s+(?:\w+\s+)?(?:temperature|pressure)\s+(?:of\s+)?$",
                        re.IGNORECASE)


def product_anchors(sentence: str, mentions: tuple[Mention, ...] | list[Mention],
             keywords: list[Keyword]) -> tuple[int, ...]:
    """Where the product's own words end: its mentions, and attribute keywords that are
    not the site's (``design pressure``, ``your medium temperature`` are requirements)."""
    own = [k.end for k in keywords
           if not REQUIREMENT_WORDS.search(sentence[max(0, k.start - 24):k.end])]
    return tuple([m.end for m in mentions] + own)


REQUIREMENT_AFTER = re.compile(
    r"^[\s)]*(?:\w+\s+)?(?:design|operating|working|process|service|line|system|medium"
    r"|media|fluid|steam|oil|water|application|duty|requirement|spec|conditions?|positions?"
    r"|header|branch|nozzle)\b",
    re.IGNORECASE)


def _requirement_clause(sentence: str, position: int) -> int:
    """Where the clause around ``position`` starts, a parenthesis not ending it (``your line
    (8 bar, 140 °C)``: the figures in brackets are still the line's)."""
    starts = [m.end() for m in _CLAUSE.finditer(sentence, 0, position)
              if not m.group(0).strip().startswith("(")]
    return starts[-1] if starts else 0


def requirement_amount(sentence: str, amount: Amount, anchors: tuple[int, ...] = ()) -> bool:
    """Whether ``amount`` is the site's requirement (or a condition) rather than a product
    value.

    It is when, between the last anchor before it (a product mention or an attribute
    keyword, ``anchors`` holds their end positions) and the amount, a requirement word
    (``your``, ``design``, ``medium``...) or a capability word (``handles``, ``fine
    for``...) stands, unless the words right before it state a limit (``rated to``,
    ``good up to``, ``max``); or when a requirement word follows it (``12 bar design
    pressure``, ``a 150 °C medium``); or when it opens the clause as a condition
    (``At 20 bar, ...``).
    """
    start = max([_requirement_clause(sentence, amount.start), amount.start - 40,
                 *(a for a in anchors if a <= amount.start)])
    before = sentence[start:amount.start]
    after = sentence[amount.end:amount.end + 24]
    if CONDITION.search(sentence[clause_start(sentence, amount.start):amount.start]):
        return True
    if SITE_CONDITIONS.search(sentence[max(0, amount.start - 60):amount.start]):
        return True  # "the glycol loop (110 °C, 9 bar)", "a line at 160 °C"
    limit = LIMIT.search(before) is not None
    if REQUIREMENT_WORDS.search(before):
        return True  # "your design pressure up to 16 bar": the site's, limit words or not
    if CAPABILITY.search(before) and not limit and amount.low is None:
        return True
    if re.search(r"\b(?:rated|rating)\b", before, re.IGNORECASE):
        return False  # "rated for 16 psi working pressure": the product's own rating
    return REQUIREMENT_AFTER.match(after) is not None


SITE_CONDITIONS = re.compile(
    r"\b(?:your|ur|the\s+site's|the|for\s+an?)\s+(?:[\w-]+\s+){0,2}(?:line|site|service"
    r"|application|conditions|requirements|needs|duty|datasheet|spec|loop|circuit|system"
    r"|header|bypass|process)\s*\([^)]*$"
    r"|\b(?:line|loop|circuit|service|system|medium|fluid|water|steam|oil|runs?|running"
    r"|operates|operating)\s+at\s*$"
    r"|\b(?:for\s+you|every\s+box|all\s+(?:the\s+)?boxes|your\s+(?:conditions|requirements"
    r"|spec|duty))\s*:[^.;]*$"
    r"|\byour\s+(?:[^.;:()]{0,15},\s*){1,5}(?:[^.;:()]{0,15}\s+and\s+)?$",
    re.IGNORECASE)
"""Text that ends in a list of the site's conditions, so the figure or code after it is
the site's: ``your line (8 bar, 140 °C, NPT``, ``the glycol loop (110 °C``, ``a line at``,
``ticks every box for you: 16 bar, EN 1092-1``, ``your 16 bar, 150 °C and``."""
FOR_SITE = re.compile(r"\b(?:ok|okay|fine|good|suitable|right|safe)\s+for\s+(?:[\w\u00b0]+\s*"
                      r"[/,]\s*){0,3}$", re.IGNORECASE)
"""``ok for 10bar / 120C / npt``: a code after a fit word is the site's requirement."""
_SITE_CODE_BEFORE = re.compile(
    r"\b(?:your|the\s+site's|site|existing|current|installed|present|our\s+customer's"
    r"|their)\b(?:\s+\w+){0,2}?[\s(]*$"
    r"|\b(?:your|the)\s+(?:\w+\s+){0,2}(?:asks?\s+for|requires?|needs?|demands?|specifies"
    r"|calls\s+for|insists\s+on)\s+(?:an?\s+|the\s+)?(?:EN\s*10204\s+)?$", re.IGNORECASE)
_SITE_CODE_AFTER = re.compile(
    r"^[\s)]*(?:\w+\s+){0,1}(?:piping|pipework|pipe\s*work|pipes|pipeline|lines?|system"
    r"|installation|plant|site|network|requirement|spec(?:ification)?"
    r"|(?:is|are)\s+(?:required|needed|specified))\b"
    r"|^[\s\w-]{0,30}\bof\s+(?:your|the\s+site's|the\s+existing|the\s+installed)\b",
    re.IGNORECASE)


def requirement_code(sentence: str, start: int, end: int, anchors: tuple[int, ...] = ()) -> bool:
    """Whether the code at ``start:end`` is the site's (``your NPT piping``, ``your
    existing F07 actuator``, ``the 3.1 certificate your site requires``), not the
    product's."""
    window = max([0, start - 40, *(a for a in anchors if a <= start)])
    if _SITE_CODE_BEFORE.search(sentence[window:start]):
        return True
    if FOR_SITE.search(sentence[window:start]):
        return True  # "ok for 10bar / 120C / npt": the site's piping
    return _SITE_CODE_AFTER.match(sentence[end:end + 40]) is not None

