"""Fit claims in text: a product meets a requirement of the site.

"BV-00008 is fine for your 12 bar line" claims that fit rule C3 passes for BV-00008 at
12 bar; the 12 bar is the site's design pressure, never the valve's PN. A sentence
makes a fit claim when a **requirement** of one rule stands with a **fit word** that
governs it (``suitable``, ``fine for``, ``meets``, ``covers``, ``handles``,
``compatible``, ``mates``, ``won't be an issue``, ✅...):

- C3: a pressure that belongs to the site (``your 12 bar``, ``design pressure of
  174 psi``), or the design pressure named without a number (the site's fact is meant);
- C4: a medium or process temperature, likewise;
- C5: a piping standard (``your NPT piping``) or the site's piping;
- C6: chlorides or a medium (``sea water``, ``brine``, ``your hot water circuit``,
  ``your process medium``);
- C7: a certificate the site requires (``the 3.1 your site requires``,
  ``all your site needs``);
- C1: the site's existing actuator (``mates with your F07 actuator``) or an actuator and
  a valve mounted together;
- C2: an actuator with enough torque for a valve (``has ample torque for``, ``will
  operate``).

A requirement without a fit word is an echo of the site's facts (``your design
pressure is 12 bar``) and claims nothing; so does one whose fit word is negated or in a
question, a plan or a condition (``not OK for``, ``before I tell you it is OK``). A fit
word with ``that`` or ``it`` and no requirement of its own (``You mentioned 200 psi.
BV-00008 is PN16, so it covers that.``) takes the last requirement the message named.

The claim binds to the product the clause is about, as attribute claims do
(:mod:`remit.claims.attributes`), every product of a plural subject (``both are PN10,
which covers your 8 bar``); C1 and C2 between two products bind to the actuator,
``with`` the valve.

Example:
    >>> [(c.sku, c.rule, c.requirement, c.unit) for c in
    ...  extract_fit_claims("BV-00008 is fine for your 12 bar line.")]
    [('BV-00008', 'C3', 12.0, 'bar')]
"""

from __future__ import annotations

import re
from typing import NamedTuple

from remit.catalogue import Family, Quantity, RuleId
from remit.claims.amounts import amounts
from remit.claims.cues import FOR_SITE, SITE_CONDITIONS, product_anchors, requirement_amount
from remit.claims.mentions import Focus, Mention, family_of
from remit.claims.text import sentences
from remit.claims.vocabulary import codes_in, keywords_in

__all__ = ["FitReader", "StatedFit", "extract_fit_claims"]


class StatedFit(NamedTuple):
    """A fit the text claims.

    Attributes:
        sku: the product said to fit (the actuator, for C1 and C2 between two products).
        rule: the fit rule claimed to pass.
        requirement: the requirement as stated (a number in ``unit``, or a code such as
            ``NPT``, ``F07``, ``3.1``, ``sea water``); ``None`` when the text names the
            requirement without a value (the site's own fact is meant).
        unit: the unit of a numeric requirement, as written.
        with_sku: the valve, for C1 and C2 between an actuator and a valve.
        sentence: the sentence it was read from.
    """

    sku: str
    rule: RuleId
    requirement: float | str | None = None
    unit: str | None = None
    with_sku: str | None = None
    sentence: str = ""


_FIT_WORD = re.compile(
    r"\b(?:suitable|suited|suit(?:s|ing|ed)?|fits?|fitting|fine|good|ok|okay|right\s+(?:for|choice)"
    r"|appropriate|carr(?:y|ies)\s+over|reus\w+|go(?:es)?\s+(?:straight\s+)?into|drops?\s+into"
    r"|screws?\s+into|fits?\s+into|will\s+(?:connect|screw|thread)"
    r"|compatible|compatibility|match(?:es|ed|ing)?|mates?|mating|meets?|meeting|satisf(?:y|ies)"
    r"|exceeds?|exceeding|covers?|covered|covering|handles?|handling|cope[sd]?|withstands?"
    r"|rated\s+(?:\w+\s+)?(?:for|above|beyond)|above|beyond|within|works?|working\s+with"
    r"|safe|resists?|(?:is\s+)?the\s+(?:one|pick|choice|option)\s+for"
    r"|resistant|corrosion[\s-]resistant|able\s+to|can\s+(?:take|handle|run)|sufficient|enough"
    r"|adequate|ample|plenty|margin|headroom|clears?|comfortabl[ey]|easily|ships?\s+with"
    r"|comes?\s+with|supplied\s+with|complian(?:t|ce)|compl(?:y|ies)|qualif(?:y|ies|ied)|ideal"
    r"|perfect(?:ly)?|no\s+(?:problem|issue|concern)s?|spot\s+on|bolts?|mounts?|mounting"
    r"|direct[\s-]mount|drop-in|sized|lines?\s+up|aligns?|takes|accepts|same\s+as|thread(?:s)?\s+"
    r"(?:straight\s+)?into|passes|ticks?|good\s+to\s+go|serves?|do\s+the\s+job|up\s+to\s+the\s+job"
    r"|will\s+(?:do|work|handle|cope|operate|drive|turn|hold|take)|operates?|drives?|holds?"
    r"|what\s+you\s+need|connects?|connected|take|inside|no\s+trouble|gives?\s+you"
    r"|go(?:es)?\s+(?:straight\s+)?on|resistance|covered"
    r"|all\s+(?:your|the)\s+site\s+needs|as\s+(?:your|the)\s+site\s+(?:requires|needs|asks)"
    r"|(?:won'?t|will\s+not|shouldn'?t|should\s+not)\s+be\s+(?:an?\s+)?(?:problem|issue"
    r"|concern))\b|\u2705|\u2714|\u2713|\u2611",
    re.IGNORECASE)
_NOT_A_PROBLEM = re.compile(r"(?:won'?t|will\s+not|shouldn'?t|should\s+not)\s+be|no\s+"
                            r"(?:problem|issue|concern)", re.IGNORECASE)
_NEGATED_FIT = re.compile(
    r"(?:\b(?:not|never|no|isn't|aren't|wasn't|won't|doesn't|don't|cannot|can't|nor|n't"
    r"|without|fails?\s+to|unable\s+to|too\s+\w+\s+for|only)\b|[\u274c\u2717\u2718\u2716])"
    r"\W*(?:\w+\W+){0,2}$",
    re.IGNORECASE)
_UNTIL = re.compile(r"\b(?:until|till|once\s+I|before\s+I|pending)\b", re.IGNORECASE)
"""A fit said to hold only after something still to happen is not yet claimed."""
_SHORT_OF = re.compile(
    r"\b(?:below|under|beneath|short\s+of|less\s+than|lower\s+than|too\s+(?:low|high|small"
    r"|weak|hot)\s+for|not\s+enough\s+for|insufficient\s+for)\s+(?:the\s+|your\s+|ur\s+)?"
    r"(?:\w+\s+){0,2}$",
    re.IGNORECASE)
"""Words right before a requirement that say the product falls short of it
(``PN25, below your 30 bar``): the sentence reports a misfit, it claims no fit."""
_HYPOTHETICAL = re.compile(
    r"^\W*(?:if|whether|unless|once|should|in\s+case|assuming)\b|\b(?:(?:can't|cannot|can\s+not"
    r"|couldn't|not\s+able\s+to|unable\s+to)\s+(?:yet\s+)?(?:confirm|say|tell|guarantee|promise)"
    r"|not\s+(?:yet\s+)?(?:sure|certain)|unsure|uncertain|don't\s+know|hard\s+to\s+say"
    r"|difficult\s+to\s+say"
    r"|too\s+early\s+to\s+say|before|until|whether|to\s+(?:confirm|check|verify|see)"
    r"\s+(?:that|if|whether)"
    r"|check(?:ing)?\s+(?:if|whether)|confirm(?:ing)?\s+(?:if|whether)|verify(?:ing)?"
    r"|double[\s-]check|make\s+sure|to\s+see\s+(?:if|whether)|need\s+to\s+know|let\s+me\s+know"
    r"|would\s+need|might|may)\b",
    re.IGNORECASE)
_PRESSURE_NAME = re.compile(
    r"\b(?:your|ur|the\s+site's|site|line|system|design|operating|process)\s+"
    r"(?:\w+\s+)?(?:design\s+|operating\s+|working\s+|line\s+|system\s+|process\s+)?"
    r"pressure\b|\bdesign\s+pressure\b",
    re.IGNORECASE)
_TEMPERATURE_NAME = re.compile(
    r"\b(?:your|ur|the\s+site's|medium|media|process|operating|service|fluid)\s+"
    r"(?:\w+\s+)?(?:medium\s+|process\s+|operating\s+|service\s+)?temp(?:erature|\.)?s?\b",
    re.IGNORECASE)
_CHLORIDES = re.compile(
    r"\b(?:chlorides?|chloride[\s-](?:bearing|rich|laden)|high[\s-]chloride|sea[\s-]?water"
    r"|salt[\s-]?water|brine|brackish(?:\s+water)?|saline|marine|offshore|salty"
    r"|chlorinated)\b",
    re.IGNORECASE)
_MEDIUM = re.compile(
    r"\b(?:your|ur|the)\s+(?:\w+\s+)?(?P<medium>medium|media|fluid|process\s+stream"
    r"|service\s+fluid)\b(?!\s+(?:temp|pressure))"
    r"|\b(?:your|ur)\s+(?P<named>(?:hot\s+|cold\s+|cooling\s+|potable\s+)?(?:water|oil|steam"
    r"|condensate|glycol))(?:\s+(?:circuit|line|system|service))?\b(?!\s+(?:temp|pressure))",
    re.IGNORECASE)


_THE_CONDITION = re.compile(
    r"(?<!\w)(?<!its\s)(?<!seat's\s)(?<!valve's\s)(?<!rated\s)(?<!max\s)(?<!maximum\s)"
    r"(?<!nominal\s)(?:(?:the|both)\s+)?(?:design\s+|operating\s+|working\s+|line\s+"
    r"|medium\s+|process\s+)?(?P<kind>pressure|temperature|temp)s?\b"
    r"(?!\s+(?:rating|ratings|class|limit|limits|range|drop|loss|side|seal|margin|headroom)"
    r"|-wise)",
    re.IGNORECASE)
"""``meets the pressure``, ``the pressure and temperature are covered``: the site's
condition named by its kind (not the product's ``pressure rating``)."""


def _condition(sentence: str, kind: str) -> int | None:
    """Where ``sentence`` names the site's ``kind`` of condition after a fit verb."""
    for match in _THE_CONDITION.finditer(sentence):
        if kind.startswith(match["kind"].casefold()) and not re.search(
                r"(?:\d\s*[^\s\d]{0,4}|\brated(?:\s+for)?)\s*$", sentence[:match.start()],
                re.IGNORECASE):  # "rated for 16 psi working pressure": the product's
            return match.start("kind")
    return None
_PIPING = re.compile(
    r"\b(?:piping|pipework|pipe\s*work|pipes?|pipeline|lines?|fittings?|system|threads?|ports?"
    r"|connections?|existing|site|plant|installation|flanges?|like\s+yours|of\s+yours)\b",
    re.IGNORECASE)
_SITE_PIPING = re.compile(
    r"\b(?:your|ur|the\s+site's|the\s+existing|site)\s+(?:existing\s+)?(?:piping|pipework|pipes"
    r"|lines?|threads|fittings|pipeline)\b",
    re.IGNORECASE)
_EXISTING_ACTUATOR = re.compile(
    r"\b(?:your|ur|the\s+existing|existing|current|installed|present|old|site's?|same)\s+"
    r"(?:existing\s+|current\s+|installed\s+|F\d{2}\s+)*(?:actuators?|operators?|gearbox|drive)\b"
    r"|\bactuators?\s+(?:you\s+(?:already\s+)?(?:have|own|use)|on\s+site|already\s+installed"
    r"|in\s+place)\b",
    re.IGNORECASE)
_EXISTING_VALVES = re.compile(
    r"\b(?:your|ur|the\s+site's|existing|installed|current)\s+(?:existing\s+|installed\s+)?"
    r"(?:ball\s+)?valves?\b", re.IGNORECASE)
_REQUIRED = re.compile(
    r"\b(?:requires?|required|requirement|requirements|needs?|needed|demands?|demanded"
    r"|asks?\s+for|asked\s+for|specified|specifies|calls?\s+for|mandatory|insist\w*)\b",
    re.IGNORECASE)
_QA = re.compile(r"\b(?:your|ur|the\s+site's)\s+(?:QA|quality(?:\s+(?:assurance|team|department"
                 r"|dept|requirements?))?|inspector|inspection)\b", re.IGNORECASE)
"""The site's quality assurance: what it asks of paperwork is the required certificate."""
_CERTIFICATE = re.compile(r"\b(?:cert(?:ificate|ification)?s?|EN\s*10204|MTC|MTR|3\.1|2\.1"
                          r"|paperwork|documentation|declaration)\b", re.IGNORECASE)
_TORQUE = re.compile(
    r"\b(?:torque|enough|sufficient|adequate|ample|plenty|margin|headroom|1\.25|25\s?%"
    r"|safety\s+factor|sized|oversized|undersized|power|strong\s+enough|break[\s-]?(?:away|out)"
    r"|drive|drives|operate|operates|turn|turns|handle|handles|actuate|actuates|move"
    r"|breaking\s+(?:away|out))\b",
    re.IGNORECASE)
_MOUNT = re.compile(
    r"\b(?:mount\w*|mates?|mating|bolts?|flanges?|interface|pad|ISO\s*5211|F\d{2}|couples?"
    r"|coupling|direct[\s-]mount|go(?:es)?\s+(?:straight\s+)?on|sits\s+on|lines?\s+up|aligns?"
    r"|takes?|accepts?)\b",
    re.IGNORECASE)
"""Words that speak of mounting an actuator on a valve (C1)."""
_GENERIC_FIT = re.compile(r"\b(?:fits?|fitting|match\w*|compatible|drop-in|partner|pairs?"
                          r"|goes\s+with|works?\s+with)\b", re.IGNORECASE)
"""Words of fit in general: C1 when nothing speaks of torque."""
_ANAPHOR = re.compile(r"\b(?:that|this|it|those|these|them|all|both|each|the\s+(?:design\s+)?"
                      r"(?:pressure|temperature|temp|requirements?|conditions?|duty))\b",
                      re.IGNORECASE)
_ANAPHOR_BEFORE = re.compile(r"\b(?:both|all\s+(?:three|of\s+them)|that|this|those|these)\s+"
                             r"(?:are|is|were|was|will\s+be)\s+(?:\w+\s+)?$", re.IGNORECASE)
_ELLIPSIS = re.compile(r"[;,]\s*(?:but\s+|whereas\s+|while\s+)?(?P<sku>[A-Za-z]{2,3}-\d{3,6})"
                       r"\s+(?:does|is|will|can|would)\W*$", re.IGNORECASE)


def _ellipsis(sentence: str, mentions: tuple[Mention, ...],
              requirements: list[_Requirement]) -> list[StatedFit]:
    """``BV-00006 doesn't meet your 3.1 requirement; BV-00004 does.``: the product after
    the negated fit is claimed to meet what the other does not."""
    match = _ELLIPSIS.search(sentence)
    if match is None or not requirements:
        return []
    head = sentence[:match.start()]
    if not _NEGATED_FIT.search(head[:(_FIT_WORD.search(head) or match).start()]):
        return []
    sku = match["sku"].upper()
    return [StatedFit(sku, r.rule, r.requirement, r.unit, sentence=sentence)
            for r in requirements if r.position < match.start()]
_CLAUSE_END = re.compile(r";|\s+-\s+|,\s+(?:but|while|whereas)\s+|\s+but\s+|\.\s")


class _Requirement(NamedTuple):
    position: int
    rule: RuleId
    requirement: float | str | None = None
    unit: str | None = None


def _clause_bounds(sentence: str, position: int) -> tuple[int, int]:
    if _ROW.match(sentence):
        return 0, len(sentence)  # a table row ("Pressure; Your site 12 bar; ...; OK") is one
    starts = [m.end() for m in _CLAUSE_END.finditer(sentence, 0, position)]
    ends = [m.start() for m in _CLAUSE_END.finditer(sentence, position)]
    return (starts[-1] if starts else 0), (ends[0] if ends else len(sentence))


_ROW = re.compile(r"^[^;.!?]{1,60}(?:;\s[^;.!?]{1,60}){2,}$")
"""A table row read as ``header value; header value; ...``."""


def _requirements(sentence: str, mentions: tuple[Mention, ...]) -> list[_Requirement]:
    """Every requirement of the site the sentence names, with where it stands."""
    found: list[_Requirement] = []
    anchors = product_anchors(sentence, mentions, keywords_in(sentence))
    for amount in amounts(sentence):
        quantity = amount.measure.quantity if amount.measure is not None else None
        if quantity not in (Quantity.PRESSURE, Quantity.TEMPERATURE):
            continue
        if requirement_amount(sentence, amount, anchors):
            assert amount.unit is not None
            rule: RuleId = "C3" if quantity is Quantity.PRESSURE else "C4"
            found.append(_Requirement(amount.start, rule, amount.value, amount.unit))
    rules = {r.rule for r in found}
    for rule, name, kind in (("C3", _PRESSURE_NAME, "pressure"),
                             ("C4", _TEMPERATURE_NAME, "temperature")):
        if rule not in rules:
            named = name.search(sentence)
            position = named.start() if named else _condition(sentence, kind)
            if position is not None:
                found.append(_Requirement(position, rule))
    chlorides = list(_CHLORIDES.finditer(sentence))
    found += [_Requirement(m.start(), "C6", m.group(0).casefold()) for m in chlorides]
    if not chlorides and not any(r.rule == "C4" for r in found):
        # "your medium at 470 K is fine": a temperature of the medium, not its chemistry
        found += [_Requirement(m.start(), "C6", (m["named"] or "").casefold() or None)
                  for m in _MEDIUM.finditer(sentence)]
    codes = codes_in(sentence)
    ends = [c for c in codes if c.code in ("NPT", "BSPP", "BSPT", "EN1092-1") and (
        (_PIPING.search(sentence[c.start:c.end + 30])
         and (re.search(r"\b(?:your|ur|the|existing|site|plant|installation|current|for\s+an?)\s+"
                        r"(?:[\w\"'./-]+\s+)?$", sentence[max(0, c.start - 30):c.start],
                        re.IGNORECASE)
             or re.search(r"\b(?:like|of)\s+yours\b", sentence[c.end:c.end + 30],
                          re.IGNORECASE)))
        or re.search(r"\b(?:piping|pipework|line|lines|connections?|your\s+site|site)\s*[:=]?\s*$",
                     sentence[max(0, c.start - 20):c.start], re.IGNORECASE)
        or FOR_SITE.search(sentence[max(0, c.start - 30):c.start])
        or SITE_CONDITIONS.search(sentence[:c.start]))]
    if ends:
        found.append(_Requirement(ends[0].start, "C5", ends[0].code))
    elif match := _SITE_PIPING.search(sentence):
        found.append(_Requirement(match.start(), "C5"))
    grades = [c for c in codes if c.code in ("3.1", "2.1")]
    offered = re.search(r"\b(?:comes?|ships?|supplied|delivered)\s+with\b", sentence,
                        re.IGNORECASE)
    if grades and offered and (found or _QA.search(sentence)) and not _REQUIRED.search(sentence):
        # "meets your 6 bar ..., suits the sea water ... and comes with 3.1 certificates":
        # among the site's requirements, the certificate is one too
        found.append(_Requirement(offered.start(), "C7", grades[0].code))
    elif _CERTIFICATE.search(sentence) and _REQUIRED.search(sentence):
        required = _REQUIRED.search(sentence)
        assert required is not None
        # the grade nearest the word that requires it is the one required
        grade = min(grades, key=lambda c: abs(c.start - required.start()), default=None)
        bare = re.search(r"\b([23]\.1)\b", sentence)
        code = grade.code if grade else (bare.group(1) if bare else None)
        found.append(_Requirement(required.start(), "C7", code))
    return found


def _governing(sentence: str, position: int) -> re.Match[str] | None:
    """The fit word that governs the requirement at ``position``: the nearest before it in
    its clause, else the first after it in its clause."""
    start, end = _clause_bounds(sentence, position)
    words = list(_FIT_WORD.finditer(sentence, start, end))
    before = [m for m in words if m.start() < position]
    if before:
        return before[-1]
    return words[0] if words else None


def _anaphoric(sentence: str, position: int) -> re.Match[str] | None:
    """A fit word later in the sentence that takes the requirement back with ``that`` or
    ``it`` (``Your site asks for a 2.1; BV-00019 more than covers that``)."""
    for word in _FIT_WORD.finditer(sentence, position):
        if _ANAPHOR.match(sentence[word.end():].lstrip()):
            return word
    return None


def _stated(sentence: str, word: re.Match[str]) -> bool:
    """The fit word states a fit: not negated, not asked, not a plan or a condition."""
    start, _ = _clause_bounds(sentence, word.start())
    head = sentence[start:word.start()]
    if _NEGATED_FIT.search(head) and not _NOT_A_PROBLEM.match(word.group(0)):
        return False
    sentence_head = sentence[:word.start()]
    if _HYPOTHETICAL.search(sentence_head) or _UNTIL.search(sentence[word.end():]):
        return False
    tail = sentence[word.start():]
    clause_end = _clause_bounds(sentence, word.start())[1]
    return not sentence[start:clause_end].rstrip().endswith("?") and not (
        tail.rstrip().endswith("?") and re.match(r"^\W*(?:is|are|does|do|can|will|would|has)\b",
                                                 sentence[start:], re.IGNORECASE))


def _subjects(sentence: str, mentions: tuple[Mention, ...], position: int, focus: str | None,
              families: frozenset[Family] | None = None) -> list[str]:
    """The products a fit word at ``position`` is claimed of (of ``families``, if given)."""
    def fits(sku: str) -> bool:
        return families is None or family_of(sku) in families

    before = [m for m in mentions if m.start < position and not m.secondary
              and any(fits(s) for s in m.skus)]
    if before:
        nearest = [before[-1]]
        # "Both BV-00004 and BV-00006 are fine for ...": every product of the coordination
        for mention in reversed(before[:-1]):
            if not re.fullmatch(r"\s*(?:,|&|and|or)\s*(?:the\s+)?", sentence[mention.end:
                                                                            nearest[0].start],
                                re.IGNORECASE):
                break
            nearest.insert(0, mention)
        return [s for m in nearest for s in m.skus if fits(s)]
    after = [m for m in mentions if m.start >= position and not m.secondary
             and any(fits(s) for s in m.skus)]
    if after:
        return [s for s in after[0].skus if fits(s)]
    if focus is not None and fits(focus):
        return [focus]
    return []


def _pairs(sentence: str, mentions: tuple[Mention, ...], focus: str | None,
           last: dict[Family, str]) -> list[StatedFit]:
    """C1 and C2 between an actuator and a valve, or C1 against the site's actuator."""
    named = [s for m in mentions for s in m.skus]
    actuators = [s for s in named if family_of(s) is Family.ACTUATOR]
    valves = [s for s in named if family_of(s) is Family.BALL_VALVE]
    claims: list[StatedFit] = []
    existing = _EXISTING_ACTUATOR.search(sentence)
    installed = _EXISTING_VALVES.search(sentence)
    if installed is not None and actuators and not valves:
        # "AC-00002 will bolt onto the F07 top flange of your installed valves"
        word = _FIT_WORD.search(sentence)
        flange = re.search(r"\bF\s?-?(0[3-9]|1\d|2\d)\b", sentence)
        if word is not None and _stated(sentence, word) and _MOUNT.search(sentence):
            claims += [StatedFit(actuator, "C1", f"F{flange.group(1)}" if flange else None,
                                 sentence=sentence) for actuator in actuators[:1]]
        return claims
    if existing is not None and not actuators:
        word = _FIT_WORD.search(sentence) or re.search(r"\bsame\s+(?:top\s+)?flange\b|\bkeep\b",
                                                       sentence, re.IGNORECASE)
        subjects = _subjects(sentence, mentions, word.start() if word else len(sentence), focus,
                             frozenset({Family.BALL_VALVE}))
        if subjects and word is not None and (
                _MOUNT.search(sentence) or _GENERIC_FIT.search(sentence)
                or re.search(r"\bsame\b", sentence, re.IGNORECASE)):
            if _FIT_WORD.fullmatch(word.group(0)) and not _stated(sentence, word):
                return claims
            flange = re.search(r"\bF\s?-?(0[3-9]|1\d|2\d)\b", sentence)
            claims += [StatedFit(valve, "C1", f"F{flange.group(1)}" if flange else None,
                                 sentence=sentence) for valve in subjects]
        return claims
    actuators, valves = _pair_parties(sentence, actuators, valves, focus, last)
    if not (actuators and valves):
        return claims
    word = _FIT_WORD.search(sentence) or _TORQUE.search(sentence)
    if word is None or not _stated(sentence, word):
        return claims
    # one actuator for several valves, or several actuators for one valve: each pair
    pairs = ([(actuators[0], v) for v in dict.fromkeys(valves)] if len(actuators) == 1 else
             [(a, valves[0]) for a in dict.fromkeys(actuators)])
    torque = _TORQUE.search(sentence) is not None
    for actuator, valve in pairs:
        if torque:
            claims.append(StatedFit(actuator, "C2", with_sku=valve, sentence=sentence))
        if _MOUNT.search(sentence) or (not torque and _GENERIC_FIT.search(sentence)):
            claims.append(StatedFit(actuator, "C1", with_sku=valve, sentence=sentence))
    return claims


def _pair_parties(sentence: str, actuators: list[str], valves: list[str], focus: str | None,
                  last: dict[Family, str]) -> tuple[list[str], list[str]]:
    """The actuators and valves a sentence pairs: those it names, else those a reference
    (``the actuator``, ``its valve``), the focus or a package's list item means."""
    if not actuators and re.search(r"\b(?:the\s+|its\s+|both\s+(?:the\s+)?valve\s+and\s+)?"
                                   r"actuator\b|\btorque\b.*\bbreak[\s-]?(?:away|out)\b",
                                   sentence, re.IGNORECASE):
        # "Torque: 100 Nm vs 50 Nm breakaway" compares the last actuator with the valve
        actuators = [a for a in (last.get(Family.ACTUATOR),) if a]
    if not valves and re.search(r"\b(?:the|its|both)\s+valve\b|\bbreakaway\b", sentence,
                                re.IGNORECASE):
        valves = [v for v in (last.get(Family.BALL_VALVE),) if v]
    if not valves and actuators and focus is not None and family_of(focus) is Family.BALL_VALVE:
        valves = [focus]  # "**Actuation:** F07 pad, compatible with AC-00002" under a valve
    if not actuators and valves and focus is not None and family_of(focus) is Family.ACTUATOR:
        actuators = [focus]  # "Pairs with BV-00009: the flanges match" under an actuator
    if not (actuators or valves) and _PAIR_LABEL.match(sentence):
        # "- Mounting: direct, F07 to F07" in a package that named both
        actuators = [a for a in (last.get(Family.ACTUATOR),) if a]
        valves = [v for v in (last.get(Family.BALL_VALVE),) if v]
    return actuators, valves


_PAIR_LABEL = re.compile(r"^\W*(?:mounting|mount|torque(?:\s+margin|\s+check)?|flanges?"
                         r"|interface|fit(?:\s+check)?|compatibility)\s*:", re.IGNORECASE)
"""A list item about the package's actuator on its valve."""


_VALVE_OR_KIT = frozenset({Family.BALL_VALVE, Family.GASKET_KIT})
_RULE_FAMILY: dict[str, frozenset[Family]] = {
    "C3": _VALVE_OR_KIT, "C4": frozenset({Family.BALL_VALVE}), "C5": _VALVE_OR_KIT,
    "C6": _VALVE_OR_KIT, "C7": frozenset({Family.BALL_VALVE})}
"""The families that can meet each requirement rule (a seat's temperature, a body's
chemistry, a valve's certificate); C1 and C2 pair an actuator with a valve."""


_CHECK_TOPICS: dict[RuleId, str] = {
    "C3": r"pressure(?:\s+rating)?", "C4": r"temp(?:erature)?(?:\s+rating)?",
    "C5": r"(?:end\s+)?(?:ends|connections?|threads?|piping)",
    "C6": r"(?:medium|media|chlorides?|corrosion|service)",
    "C7": r"(?:cert(?:ificate)?s?|certification|paperwork|documentation)"}
_MARK = r"(?:ok|okay|yes|pass(?:es)?|fine|\u2705|\u2714|\u2713|\u2611)"
_CHECKS = {rule: re.compile(rf"(?:^|;|\u2705|\u2714|\u2713|\u2611)\s*(?:[\w-]+:\s*)?"
                            rf"(?P<mark>{_MARK}\s*)?{topic}\s*[:=\u2013-]?\s*"
                            rf"(?(mark)|{_MARK})(?=\s*(?:;|$|\())", re.IGNORECASE)
           for rule, topic in _CHECK_TOPICS.items()}
"""A checklist row that ticks a kind of requirement without restating it (``Pressure
OK``, ``\u2705 Temperature``): the requirement the message named for that rule is meant."""


class FitReader:
    """Reads one message's fit claims sentence by sentence (module docstring); remembers the
    last requirement named, for a later ``covers that``."""

    def __init__(self) -> None:
        self.claims: list[StatedFit] = []
        self._last: list[_Requirement] = []
        self._named: dict[RuleId, _Requirement] = {}

    def read(self, sentence: str, mentions: tuple[Mention, ...], focus: str | None,
             last: dict[Family, str] | None = None) -> list[StatedFit]:
        """The fit claims of one sentence, given the products it mentions and the focus."""
        claims: list[StatedFit] = []
        requirements = [self._named[r.rule]._replace(position=r.position)
                        if r.requirement is None and r.rule in self._named else r
                        for r in _requirements(sentence, mentions)]
        stated_rules = {r.rule for r in requirements}
        for rule, check in _CHECKS.items():
            named = self._named.get(rule)
            if rule not in stated_rules and named is not None and (
                    ticked := check.search(sentence)):
                requirements.append(named._replace(position=ticked.end()))
        for requirement in requirements:
            word = _governing(sentence, requirement.position) or _anaphoric(
                sentence, requirement.position)
            if word is None or not _stated(sentence, word):
                continue
            if _SHORT_OF.search(sentence[max(0, requirement.position - 40):
                                         requirement.position]):
                continue
            families = _RULE_FAMILY.get(requirement.rule)
            subjects = _subjects(sentence, mentions, word.start(), focus, families)
            if not subjects and families is not None and Family.BALL_VALVE in (last or {}):
                # "✅ Temperature: PEEK seat vs your 200 °C" under a package: the valve
                subjects = [(last or {})[Family.BALL_VALVE]]
            for sku in subjects:
                claims.append(StatedFit(sku, requirement.rule, requirement.requirement,
                                        requirement.unit, sentence=sentence))
        if not requirements and self._last:
            word = _FIT_WORD.search(sentence)
            if (word is not None and (_ANAPHOR.search(sentence[word.end():word.end() + 16])
                                      or _ANAPHOR_BEFORE.search(sentence[:word.start()]))
                    and _stated(sentence, word)):
                # "You mentioned 200 psi. BV-00008 ... covers that." ("meets all three")
                plural = re.search(r"\b(?:all|both|them|those|these|three|two|each)\b",
                                   sentence[word.end():word.end() + 16], re.IGNORECASE)
                taken = self._last if plural else self._last[-1:]
                for sku in _subjects(sentence, mentions, word.start(), focus):
                    claims += [StatedFit(sku, r.rule, r.requirement, r.unit, sentence=sentence)
                               for r in taken]
        if requirements:
            self._last = requirements
            self._named.update((r.rule, r) for r in requirements if r.requirement is not None)
        claims += _ellipsis(sentence, mentions, requirements)
        claims += _pairs(sentence, mentions, focus, last or {})
        unique = list(dict.fromkeys(claims))
        self.claims += unique
        return unique


def extract_fit_claims(text: str) -> list[StatedFit]:
    """The fit claims ``text`` states, in order (see the module docstring)."""
    focus = Focus()
    reader = FitReader()
    for sentence in sentences(text):
        reading = focus.read(sentence.text, item=sentence.item)
        reader.read(sentence.text, reading.mentions, reading.focus, dict(focus.last))
    return reader.claims
