"""How people name the catalogue's attributes and codes, and the buyer's requirements.

Three vocabularies, each a list of spellings (regular expressions, matched without
regard to case) with what they mean:

- :data:`KEYWORDS`: words that name a governed attribute (``pressure rating``, ``PN``,
  ``seat``, ``max temp``, ``top flange``...), each with the attributes it may mean; the
  one the SKU's family carries is taken.
- :data:`CODES`: the codes of closed vocabularies in every spelling (``316 stainless``,
  ``Teflon``, ``BSP parallel``, ``spring-return``, ``raised face``...), each with the
  code it spells and the attribute it is a value of, per family.
- :data:`REQUIREMENT_WORDS`: words that make a number the *site's* requirement rather
  than a product value (``design pressure``, ``your``, ``medium``, ``line``...).

Example:
    >>> [(c.attribute(Family.BALL_VALVE), c.code) for c in codes_in("a PTFE (Teflon) seat")]
    [('seat', 'PTFE')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from remit.catalogue import Family

__all__ = ["CODES", "KEYWORDS", "REQUIREMENT_WORDS", "Code", "CodeSpelling", "Keyword",
           "codes_in", "keywords_in"]

_V, _A, _G = Family.BALL_VALVE, Family.ACTUATOR, Family.GASKET_KIT


class Keyword(NamedTuple):
    """A word that names an attribute, where it stands, and what it may mean."""

    start: int
    end: int
    attributes: tuple[str, ...]
    text: str


class CodeSpelling(NamedTuple):
    """One spelling of a code: the pattern, the code, and its attribute per family."""

    pattern: str
    code: str
    attributes: Mapping[Family, str]


class Code(NamedTuple):
    """A code found in a sentence."""

    start: int
    end: int
    code: str
    attributes: Mapping[Family, str]

    def attribute(self, family: Family | None) -> str | None:
        """The attribute this code is a value of for ``family`` (any family if ``None``)."""
        if family is None:
            return next(iter(self.attributes.values()), None)
        return self.attributes.get(family)


KEYWORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"(?:nominal\s+|rated\s+|max(?:imum|\.)?\s+(?:allowable\s+|working\s+|operating\s+)?"
     r"|allowable\s+|working\s+)?pressure\s+(?:rating|class|rated)", ("pn",)),
    (r"nominal\s+pressure|rated\s+pressure|max(?:imum|\.)?\s+(?:allowable\s+)?"
     r"(?:working\s+|operating\s+)?pressure|MAWP|(?<!design\s)(?<!operating\s)"
     r"(?<!your\s)working\s+pressure|pressure\s+limit", ("pn",)),
    (r"PN(?:\s+rating|\s+class)?", ("pn",)),
    (r"nominal\s+(?:size|diameter|bore)|DN|size", ("dn",)),
    (r"body(?:\s+material)?|housing(?:\s+material)?|body\s+construction", ("body_material",)),
    (r"seat(?:s|ing)?(?:\s+material)?|soft\s+seats?", ("seat",)),
    (r"(?:seat\s+)?(?:max(?:imum|\.)?\s+)?(?:service\s+|operating\s+|working\s+)?"
     r"temp(?:erature|\.)?\s+(?:rating|limit|range|max(?:imum)?|class)"
     r"|(?:seat\s+)?max(?:imum|\.)?\s+(?:service\s+|operating\s+|working\s+)?temp(?:erature|\.)?"
     r"|(?:upper\s+)?temp(?:erature|\.)?\s+limit|rated\s+temp(?:erature|\.)?"
     r"|seat\s+(?:temp(?:erature|\.)?\s+)?(?:rating|limit)|temp(?:erature|\.)?",
     ("seat_max_temp",)),
    (r"(?:ISO\s*5211\s+)?(?:top|mounting|actuator\s+mounting)\s+(?:flange|pad|interface)"
     r"|ISO\s*5211(?:\s+(?:flange|mounting|pad|interface))?|drive\s+flange",
     ("iso5211_flange",)),
    (r"break[\s-]?(?:away|out)(?:\s+torque)?|to\s+break\s+(?:away|out|free)|opening\s+torque"
     r"|operating\s+torque",
     ("breakaway_torque",)),
    (r"(?:rated\s+)?output\s+torque|rated\s+torque|torque\s+output", ("output_torque",)),
    (r"torque", ("breakaway_torque", "output_torque")),
    (r"(?:EN\s*10204\s+)?(?:inspection\s+|material\s+|mill\s+)?(?:certificate|cert(?:ification)?"
     r"|certs?|MTC|MTR)(?:\s+type)?|EN\s*10204", ("certificate",)),
    (r"face[\s-]to[\s-]face(?:\s+(?:length|dimension))?|F2F|(?:overall|installation|end[\s-]to"
     r"[\s-]end|laying)\s+length|length", ("face_to_face",)),
    (r"end\s+connections?|ends|connections?|end\s+type|threads?|port\s+connections?",
     ("end_connection",)),
    (r"actuator\s+type|type\s+of\s+actuator|actuation", ("actuator_type",)),
    (r"(?:air\s+|power\s+|electrical\s+)?supply(?:\s+voltage)?|voltage|power", ("supply",)),
    (r"(?:flange\s+)?facing|face\s+type", ("facing",)),
    (r"(?:gasket\s+)?material|gasket", ("material", "body_material")),
)
"""Attribute names in text, each with the attributes it may mean (longest match wins)."""

_KEYWORD = re.compile(
    "|".join(f"(?P<k{i}>(?<![\\w-])(?:{pattern})(?![\\w]))"
             for i, (pattern, _) in enumerate(KEYWORDS)),
    re.IGNORECASE)


def keywords_in(sentence: str) -> list[Keyword]:
    """Every attribute keyword in ``sentence``, longest first where they overlap."""
    found = []
    for match in _KEYWORD.finditer(sentence):
        index = int(next(k for k, v in match.groupdict().items() if v is not None)[1:])
        found.append(Keyword(match.start(), match.end(), KEYWORDS[index][1], match.group(0)))
    return found


def _each(family_attribute: Mapping[Family, str]) -> Mapping[Family, str]:
    return MappingProxyType(dict(family_attribute))


_BODY = _each({_V: "body_material"})
_SEAT_OR_GASKET = _each({_V: "seat", _G: "material"})
_END = _each({_V: "end_connection"})
_FLANGE = _each({_V: "iso5211_flange", _A: "iso5211_flange"})
_CERT = _each({_V: "certificate"})
_TYPE = _each({_A: "actuator_type"})
_SUPPLY = _each({_A: "supply"})
_FACING = _each({_G: "facing"})
_GASKET = _each({_G: "material"})

_CERT_BEFORE = (r"(?:EN\s*10204\s+(?:type\s+)?|type\s+|cert(?:ificate)?s?\.?\s*(?:[:=-]|is|are)?\s*"
                r"(?:an?\s+)?(?:EN\s*10204\s+)?(?:type\s+)?)")
_CERT_AFTER = (r"(?=\s*(?:\w+\s+){0,2}(?:cert|certificate|certs|MTC|MTR|inspection|material\s+cert"
               r"|mill\s+cert|documentation|paperwork|declaration|report|docs?\b))")

CODES: tuple[CodeSpelling, ...] = (
    CodeSpelling(r"(?:stainless\s+steel\s+|stainless\s+|SS\s?|AISI\s+|grade\s+|CF8M\s*/\s*)?"
                 r"316L?(?:\s*(?:stainless(?:\s+steel)?|SS|s/s))?|CF8M|stainless(?:\s+steel)?",
                 "316", _BODY),
    CodeSpelling(r"(?:ASTM\s+)?(?:A216\s+)?WCB(?:\s+(?:cast\s+)?(?:carbon\s+)?steel)?"
                 r"|(?:cast\s+)?carbon[\s-]steel|cast\s+steel", "WCB", _BODY),
    CodeSpelling(r"R?PTFE(?:\s*\(\s*Teflon\s*\))?|Teflon", "PTFE", _SEAT_OR_GASKET),
    CodeSpelling(r"PEEK", "PEEK", _each({_V: "seat"})),
    CodeSpelling(r"[FM]?NPT(?:\s+(?:female|male))?|(?:female|male)\s+NPT", "NPT", _END),
    CodeSpelling(r"BSPP|BSP(?:\s+parallel)?|G[\s-]thread(?:ed)?|parallel\s+BSP", "BSPP", _END),
    CodeSpelling(r"BSPT|BSP\s+taper(?:ed)?", "BSPT", _END),
    CodeSpelling(r"EN\s?1092(?:-1)?(?:\s+(?:flanges?|flanged))?|DIN\s+flanges?|flanged"
                 r"(?:\s+ends?)?|flange\s+ends", "EN1092-1", _END),
    CodeSpelling(r"F\s?-?(?:0[3-9]|1[0-9]|2[0-9])", "F", _FLANGE),
    CodeSpelling(_CERT_BEFORE + r"3\.1(?:\s*\(?B\)?)?" + "|3\\.1" + _CERT_AFTER
                 + r"|(?<=with\sa\s)3\.1|(?<=with\san\s)3\.1", "3.1", _CERT),
    CodeSpelling(_CERT_BEFORE + r"2\.1|2\.1" + _CERT_AFTER + r"|(?<=with\sa\s)2\.1", "2.1",
                 _CERT),
    CodeSpelling(_CERT_BEFORE + r"3\.2|3\.2" + _CERT_AFTER, "3.2", _CERT),
    CodeSpelling(_CERT_BEFORE + r"2\.2|2\.2" + _CERT_AFTER, "2.2", _CERT),
    CodeSpelling(r"(?:pneumatic\s+)?spring[\s-]return(?:\s+pneumatic)?|single[\s-]acting"
                 r"|pneumatic[_\s]sr|pneumatic\s*\(\s*SR\s*\)", "pneumatic_sr", _TYPE),
    CodeSpelling(r"(?:pneumatic\s+)?double[\s-]acting(?:\s+pneumatic)?|pneumatic[_\s]da"
                 r"|pneumatic\s*\(\s*DA\s*\)", "pneumatic_da", _TYPE),
    CodeSpelling(r"electric(?:al(?:ly)?)?(?:\s+(?:actuator|actuated|drive|motor))?"
                 r"|motori[sz]ed|motor[\s-]operated", "electric", _TYPE),
    CodeSpelling(r"pneumatic", "pneumatic", _TYPE),
    CodeSpelling(r"24\s?V(?:olts?)?\s?DC|24\s?VDC|24\s?V\s?d\.?c\.?", "24 VDC", _SUPPLY),
    CodeSpelling(r"230\s?V(?:olts?)?\s?AC|230\s?VAC|230\s?V\s?a\.?c\.?", "230 VAC", _SUPPLY),
    CodeSpelling(r"6\s?bar(?:g|\s?\(g\))?\s+(?:instrument\s+|compressed\s+|plant\s+)?air"
                 r"(?:\s+supply)?", "6 bar air", _SUPPLY),
    CodeSpelling(r"raised[\s-]fac(?:e|ed|es|ing)|RF|face\s+is\s+raised", "RF", _FACING),
    CodeSpelling(r"(?:flat|full)[\s-]fac(?:e|ed|es|ing)|FF|face\s+is\s+flat", "FF", _FACING),
    CodeSpelling(r"graphite(?:\s*/\s*316|\s+316|_316|\s+with\s+316(?:\s+insert)?)?"
                 r"|316\s*/\s*graphite", "graphite_316", _GASKET),
    CodeSpelling(r"EPDM", "EPDM", _GASKET),
)
"""Every spelling of every code, most specific first."""

_CODE = re.compile(
    "|".join(f"(?P<c{i}>(?<![\\w.])(?:{spelling.pattern})(?![\\w]|\\.\\d))"
             for i, spelling in enumerate(CODES)),
    re.IGNORECASE)


def codes_in(sentence: str) -> list[Code]:
    """Every code in ``sentence``, in order (the first spelling that matches wins)."""
    found = []
    for match in _CODE.finditer(sentence):
        index = int(next(k for k, v in match.groupdict().items() if v is not None)[1:])
        spelling = CODES[index]
        code = spelling.code
        if code == "F":
            code = "F" + re.sub(r"\D", "", match.group(0)).zfill(2)
        found.append(Code(match.start(), match.end(), code, spelling.attributes))
    return found


REQUIREMENT_WORDS = re.compile(
    r"\b(?:design|operating|process|your\s+service|line|system|site|plant|medium|media"
    r"|fluid|application|duty|required|requirement|requirements|specified|your|ur"
    r"|buyer's|customer's|client's|site's|conditions?|max(?:imum)?\s+(?:line|system"
    r"|process)|at\s+temperatures?|steam|oil|water|brine|you\s+(?:mentioned|gave|need|needs"
    r"|specified|stated|quoted|said|run|operate|have)|min(?:imum)?\s+(?:actuator\s+)?"
    r"(?:output|torque)|need\s+(?:more\s+than|at\s+least)|you'll\s+need)\b",
    re.IGNORECASE)
"""Words that make a nearby number a requirement of the site (or of a sizing rule:
``minimum actuator output of 97.5 N·m``), not a product's value."""
