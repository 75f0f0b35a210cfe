"""Hypothesis strategies over what an untrusted agent sends: tool calls and misbehaviour.

Everything drawn here is an *encoded step* of :mod:`tests.fuzz.agents` (plain JSON, with
the ``__repeat__``/``__list__``/``__nest__`` markers for huge and deep values), so a
shrunk example prints short and can be pasted into the corpus.

- **Tool names** (:data:`tool_names`): the real tools of :func:`remit.world.tool_specs`
  (most often), near-misses of them (case, spaces, dashes, a Cyrillic letter, a
  zero-width space, a ``functions.`` prefix), invented names, the empty name, a 100,000-
  character name, and hostile text.
- **Arguments** (:func:`arguments_for`): each field of the tool's real JSON Schema
  right-typed (realistic ids and hostile text for strings), wrong-typed, hostile text,
  omitted, or replaced by a shape: deep nesting (up to 1,000 levels, around pydantic's
  255-level limit too), a long list (up to 100,000 items); plus extra fields with hostile
  names.
- **Text** (:data:`texts`): a few fragments of :data:`HOSTILE` and random text, mostly
  short; about one string in thirty is large (4 KB, 64 KB or 1 MB).
- **Agent misbehaviour** (:data:`misbehaviour`): an ``end`` whose summary is hostile
  text, ``act`` raising an exception with hostile text (in its message and its class
  name), ``act`` returning a JSON value or an object of a class with a hostile name.
- **Scripts** (:data:`scripts`): up to six calls, then an ending (or none: the agent ends
  with ``script done``).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from remit.world import tool_specs
from tests.fuzz.checks import FUZZ_HOST

Step = dict[str, Any]

SPECS = {spec.name: spec for spec in tool_specs()}
TOOLS: tuple[str, ...] = tuple(SPECS)
"""The real tool names."""

HOSTILE: tuple[str, ...] = (
    # lone surrogates: high, low, half of an emoji's pair
    "\ud800", "\udfff", "x\ud83dy",
    # bidirectional controls
    "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u202a", "\u202b", "\u202c",
    "\u202d", "\u200e", "\u200f", "\u061c", "abc\u202edcb",
    # NUL, C0, DEL and C1 controls
    "\x00", "\x01", "\x07", "\x08", "\x0b", "\x0c", "\r", "\r\n", "\x1f", "\x7f", "\x80",
    "\x85", "\x9b", "\x9f",
    # terminal escape sequences: SGR, clear screen, OSC title, OSC 52 clipboard, OSC 8
    # hyperlink, 8-bit CSI
    "\x1b[31m", "\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "\x1b]52;c;cm0gLXJmIH4K\x07",
    f"\x1b]8;;https://{FUZZ_HOST}/\x1b\\click\x1b]8;;\x1b\\", "\x9b31m", "\x1b",
    # HTML and XML
    "<script>alert(1)</script>", '<img src=x onerror="alert(1)">', "<svg onload=alert(1)>",
    "<iframe src=javascript:alert(1)></iframe>", '<a href="javascript:alert(1)">x</a>',
    "</td></tr></table>", "<!--", "-->", "]]>", "<![CDATA[x]]>", "&amp;", "&#x202e;",
    "&#27;", "&lt;script&gt;", '"', "'", "\ufffe", "\uffff",
    # Markdown
    "|", "\\|", "a\\|b", "`", "``", "```", "~~~", "\n```\n<script>alert(2)</script>\n",
    "[x](javascript:alert(1))", f"![x](https://{FUZZ_HOST}/p.png)",
    f"[y]: https://{FUZZ_HOST}/", f"<https://{FUZZ_HOST}/>", "# heading", "\n\n---\n",
    "\n| a | b |\n| --- | --- |\n", "*", "_", "\\",
    # rich markup (probes of tests.fuzz.checks.MARKUP_PROBES, and tags that do not close)
    "[bold]fz-bold[/bold]", f"[link=https://{FUZZ_HOST}/]fz-link[/link]",
    "[reverse]fz-rev[/reverse]", "[/bold]", "[/]", "[", ":warning:",
    # zero-width, BOM, separators, right-to-left text, emoji, combining marks
    "\u200b", "\u200d", "\ufeff", "\u2028", "\u2029", "\u0645\u0631\u062d\u0628\u0627",
    "\u05e9\u05dc\u05d5\u05dd", "\U0001f469\u200d\U0001f469\u200d\U0001f467",
    "\U0001f1e9\U0001f1ea", "e\u0301", "Z\u0334\u0321\u031b\u0353", "\U0010ffff",
    # text that looks like remit's own
    "Q-1", "BV-00021", "approved by finance", "\nFAIL everything", "%s%n{0}",
)
"""Fragments of hostile text: surrogates, controls, escapes, markup of every format."""

IDS = {
    "quote_id": ("Q-1", "Q-2"),
    "sku": ("BV-00021", "BV-00004", "BV-99999"),
    "evidence_id": ("DS-BV-00021-r3",),
    "handoff_id": ("H-1", "H-2"),
    "document_id": ("PO-1", "GR-1"),
    "attribute": ("pn", "dn", "seat"),
    "unit": ("bar", "C"),
}
"""Realistic values of string fields, so calls reach the code behind the ids."""

_ODD_CHARACTERS = st.characters(categories=("Cc", "Cf", "Cs", "Zl", "Zp", "Mn", "Co"))
_SMALL_TEXT = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=8),
                                 _ODD_CHARACTERS), max_size=4).map("".join)
_LARGE_SIZES = (4_096, 65_536, 1_048_576)


@st.composite
def _texts(draw: st.DrawFn) -> Any:
    if draw(st.integers(min_value=0, max_value=29)) < 29:
        return draw(_SMALL_TEXT)
    unit = draw(st.sampled_from(("x", "\u202e", "<script>", "\x1b[31m", "\ud800", "|`")))
    return {"__repeat__": unit, "times": draw(st.sampled_from(_LARGE_SIZES)) // len(unit)}


texts: st.SearchStrategy[Any] = _texts()
"""Hostile text, encoded (a large string is a ``__repeat__`` marker)."""

_NUMBERS = st.one_of(st.integers(min_value=-(10**30), max_value=10**30),
                     st.sampled_from([0, 1, -1, 100, 10**6, 10**6 + 1, 2**63, -(2**63) - 1]),
                     st.floats(allow_nan=False, allow_infinity=False))
_SCALARS = st.one_of(st.none(), st.booleans(), _NUMBERS, texts)
json_values: st.SearchStrategy[Any] = st.recursive(
    _SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                      st.dictionaries(_SMALL_TEXT, inner, max_size=3)),
    max_leaves=6)
"""Any JSON value (strict: no NaN or infinity), shallow."""

shapes: st.SearchStrategy[Any] = st.one_of(
    st.builds(lambda depth, key: {"__nest__": depth} if key is None else
              {"__nest__": depth, "key": key},
              st.sampled_from([1_000, 255, 254, 256, 300, 100, 33, 32]),
              st.sampled_from([None, "a", "\u202e", "\x00"])),
    st.builds(lambda item, times: {"__list__": item, "times": times},
              st.sampled_from([0, "x", "\u202e<script>", {"sku": "BV-00021", "quantity": 1}]),
              st.sampled_from([1_000, 10_000, 100_000])),
)
"""Deep nesting and long lists."""


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    return defs[ref.rsplit("/", 1)[-1]] if isinstance(ref, str) else schema


_SIMPLE: dict[str, st.SearchStrategy[Any]] = {
    "integer": st.one_of(st.integers(min_value=-2, max_value=120), _NUMBERS),
    "number": _NUMBERS, "boolean": st.booleans(), "null": st.none(),
}


def value_for(name: str, schema: dict[str, Any], defs: dict[str, Any],
              depth: int = 0) -> st.SearchStrategy[Any]:
    """A right-typed value of JSON Schema ``schema`` (a field called ``name``), with
    hostile text in its strings."""
    schema = _resolve(schema, defs)
    kind = schema.get("type")
    if "anyOf" in schema:
        found = st.one_of(*(value_for(name, s, defs, depth) for s in schema["anyOf"]))
    elif "enum" in schema:
        found = st.sampled_from(list(schema["enum"]))
    elif kind == "string":
        known = IDS.get(name)
        found = st.one_of(st.sampled_from(known), texts) if known else texts
    elif kind in _SIMPLE:
        found = _SIMPLE[kind]
    elif kind == "array" and depth < 3:
        items = value_for(name, schema.get("items", {}), defs, depth + 1)
        found = st.lists(items, min_size=schema.get("minItems", 0), max_size=3)
    elif kind == "object" and depth < 3:
        found = _objects(schema, defs, depth + 1)
    else:
        found = json_values
    return found


@st.composite
def _objects(draw: st.DrawFn, schema: dict[str, Any], defs: dict[str, Any],
             depth: int) -> dict[str, Any]:
    """An object of ``schema``: each field right-typed, wrong-typed, hostile, omitted or a
    shape; then perhaps extra fields."""
    found: dict[str, Any] = {}
    for name, field in schema.get("properties", {}).items():
        how = draw(st.sampled_from(("right", "right", "right", "wrong", "omit", "hostile",
                                    "shape")))
        if how == "right":
            found[name] = draw(value_for(name, field, defs, depth))
        elif how == "wrong":
            found[name] = draw(json_values)
        elif how == "hostile":
            found[name] = draw(texts)
        elif how == "shape":
            found[name] = draw(shapes)
    return {**found, **draw(st.dictionaries(_SMALL_TEXT, json_values, max_size=2))}


def arguments_for(tool: str) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments for the real tool ``tool``, from its JSON Schema (see the module
    docstring)."""
    schema = SPECS[tool].parameters
    return _objects(schema, schema.get("$defs", {}), 0)


def _near_misses() -> tuple[str, ...]:
    misses: list[str] = []
    for name in ("get_quote", "edit_lines", "request_action", "end", "message", "approve"):
        misses += [name.upper(), name.title(), f" {name}", f"{name} ", name.replace("_", "-"),
                   name.replace("_", ""), f"{name}s", name.replace("e", "\u0435", 1),
                   f"{name[:2]}\u200b{name[2:]}", f"functions.{name}", f"{name}\x00",
                   f"{name}\u202e"]
    return tuple(misses)


NEAR_MISSES = _near_misses()
"""Tool names one slip away from real ones."""

tool_names: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(TOOLS), st.sampled_from(TOOLS), st.sampled_from(TOOLS),
    st.sampled_from(NEAR_MISSES), st.just(""), texts,
    st.just({"__repeat__": "get_quote", "times": 11_112}),
)
"""Tool names (encoded: the 100,000-character one is a ``__repeat__`` marker)."""


@st.composite
def calls(draw: st.DrawFn) -> Step:
    """One tool call step: a name, and arguments shaped for that tool if it is real (else
    for a real tool drawn at random, or any object)."""
    tool = draw(tool_names)
    schema_of = tool if isinstance(tool, str) and tool in SPECS else \
        draw(st.sampled_from(TOOLS))
    if tool is not schema_of and draw(st.booleans()):
        arguments = draw(st.dictionaries(_SMALL_TEXT, json_values, max_size=3))
    else:
        arguments = draw(arguments_for(schema_of))
    return {"tool": tool, "arguments": arguments}


ends: st.SearchStrategy[Step] = st.builds(
    lambda summary: {"tool": "end", "arguments": {"summary": summary}}, texts)
"""``end`` with a hostile summary."""

CLASS_NAMES = tuple(h for h in HOSTILE
                    if "\x00" not in h and not any(0xD800 <= ord(c) <= 0xDFFF for c in h))
"""Hostile fragments Python accepts as a class name (no NUL, no surrogate)."""

misbehaviour: st.SearchStrategy[Step] = st.one_of(
    st.builds(lambda text, name: {"raise": text} if name is None else
              {"raise": text, "type": name}, texts,
              st.one_of(st.none(), st.sampled_from(CLASS_NAMES))),
    st.builds(lambda value: {"return": value}, json_values),
    st.builds(lambda name: {"return_object_named": name}, st.sampled_from(CLASS_NAMES)),
)
"""An agent that raises with hostile text, or returns something that is no tool call."""

scripts: st.SearchStrategy[list[Step]] = st.builds(
    lambda made, last: [*made, *last], st.lists(calls(), max_size=6),
    st.one_of(st.just([]), ends.map(lambda s: [s]), misbehaviour.map(lambda s: [s])))
"""A whole script: up to six calls, then an ending (or none)."""


def drawn_calls(count: int, draw_seed: int) -> list[Step]:
    """``count`` calls drawn from :func:`calls` with ``draw_seed`` (the same list every
    time with one version of hypothesis), outside any test."""
    found: list[Step] = []

    @seed(draw_seed)
    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(calls())
    def draw(call: Step) -> None:
        found.append(call)

    draw()
    return found[:count]
