"""Write the regression corpus ``tests/fuzz/corpus/malformed_calls.jsonl``.

Regenerate it (after adding a family or a hostile fragment) from the repository root::

    python -m tests.fuzz.make_corpus            # writes the file, prints the count
    python -m tests.fuzz.make_corpus --check    # exit 1 if the file differs

One JSON object per line, ``{"tool": ..., "arguments": {...}}``, ASCII only (lone
surrogates as ``\\ud800`` escapes), values encoded as :mod:`tests.fuzz.agents` says
(``__repeat__``, ``__list__``, ``__nest__`` markers), no two lines alike. The families,
in file order:

1. tool names: every real tool without arguments, every near-miss, every hostile
   fragment as a name and after ``get_quote``, the empty name, a 100,000-character name;
2. hostile text: every fragment of :data:`tests.fuzz.strategies.HOSTILE` in three of
   the text fields an agent fills (a message to a party, an ``end`` summary, a SKU, a
   reason, a justification, an evidence id, a line's SKU, a claim, a constraint's
   attribute, the text of a request or a question), in turn;
3. wrong types: every field of every argument model given ``null``, a boolean, a
   number, a string, a list and an object in turn (the other fields right);
4. extra fields: every real tool with a misspelt, a hostile and a 2,000-character
   field name;
5. numbers: edge quantities, discounts, limits and sizes;
6. depth: nesting of 32 to 100,000 levels, as lists and as objects, in five fields;
7. size: 4 KB, 64 KB and 1 MB strings (prose, one long word, newlines, controls, markup)
   and 1,000 to 100,000-item lists;
8. drawn: :data:`DRAWN` calls drawn from :func:`tests.fuzz.strategies.calls` with a
   fixed seed (more if the corpus would hold fewer than :data:`MINIMUM` lines).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from remit.world import tool_specs
from tests.fuzz.agents import Step, dumps
from tests.fuzz.strategies import HOSTILE, NEAR_MISSES, TOOLS, drawn_calls

CORPUS = Path(__file__).parent / "corpus" / "malformed_calls.jsonl"
"""The corpus file."""

MINIMUM = 600
"""Lines the corpus holds at least (the issue asks for 500 distinct malformed calls)."""

SEED = 13
"""The seed of the drawn family."""

DRAWN = 100
"""Calls of the drawn family."""

_GOOD: dict[str, dict[str, Any]] = {
    "search_catalogue": {"family": "ball_valve", "dn": 80},
    "get_product": {"sku": "BV-00021"},
    "get_evidence": {"evidence_id": "DS-BV-00021-r3"},
    "get_site_facts": {"owner": "buyer"},
    "edit_lines": {"quote_id": "Q-1", "lines": [{"sku": "BV-00021", "quantity": 10}]},
    "receive_po": {"quote_id": "Q-1", "document_id": "PO-1"},
    "record_receipt": {"quote_id": "Q-1", "document_id": "GR-1"},
    "message": {"to": "buyer", "text": "hello"},
    "ask": {"to": "buyer", "facts": ["dn"], "text": "which size?"},
    "request_action": {"to": "finance", "action": "approve", "quote_id": "Q-1"},
    "follow_up": {"handoff_id": "H-1", "text": "any news?"},
    "withdraw": {"handoff_id": "H-1", "reason": "not needed"},
    "end": {"summary": "done"},
}
"""A well-formed argument object per tool (write tools default to ``quote_id`` only)."""


def good(tool: str) -> dict[str, Any]:
    """Well-formed arguments for ``tool``."""
    return dict(_GOOD.get(tool, {"quote_id": "Q-1"}))


_TEXT_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("message", ("text",)), ("end", ("summary",)), ("get_product", ("sku",)),
    ("withdraw", ("reason",)), ("submit", ("justification",)),
    ("request_action", ("text",)), ("get_evidence", ("evidence_id",)),
    ("edit_lines", ("lines", 0, "sku")), ("search_catalogue", ("constraints", 0, "attribute")),
    ("message", ("claims", 0, "value")), ("ask", ("text",)), ("cancel", ("reason",)),
)
"""Where hostile text goes: a tool and the path of a string in its arguments."""

_PARTIES = ("buyer", "technical_owner", "finance")


def _with(tool: str, path: tuple[str | int, ...], value: Any) -> Step:
    arguments = good(tool)
    if path[:1] == ("claims",):
        arguments["claims"] = [{"sku": "BV-00021", "attribute": "pn", "value": value}]
    elif path[:1] == ("lines",):
        arguments["lines"] = [{"sku": value, "quantity": 1}]
    elif path[:1] == ("constraints",):
        arguments["constraints"] = [{"attribute": value, "op": "min", "value": 16}]
    else:
        arguments[str(path[0])] = value
    return {"tool": tool, "arguments": arguments}


def tool_names() -> Iterator[Step]:
    """Family 1."""
    for tool in TOOLS:
        yield {"tool": tool, "arguments": {}}
    for name in NEAR_MISSES:
        yield {"tool": name, "arguments": {"quote_id": "Q-1"}}
    for fragment in HOSTILE:
        yield {"tool": fragment, "arguments": {}}
        yield {"tool": f"get_quote{fragment}", "arguments": {"quote_id": "Q-1"}}
    yield {"tool": "", "arguments": {}}
    yield {"tool": {"__repeat__": "get_quote", "times": 11_112}, "arguments": {}}


def hostile_text() -> Iterator[Step]:
    """Family 2."""
    for index, fragment in enumerate(HOSTILE):
        for shift in (0, 4, 8):
            tool, path = _TEXT_FIELDS[(index + shift) % len(_TEXT_FIELDS)]
            step = _with(tool, path, fragment)
            if tool == "message":
                step["arguments"]["to"] = _PARTIES[index % len(_PARTIES)]
            yield step


_WRONG: tuple[Any, ...] = (None, True, 1.5, "Q-1", [], {"a": 1})


def wrong_types() -> Iterator[Step]:
    """Family 3 (one tool per argument model: the write tools share a few)."""
    seen: set[type] = set()
    for spec in tool_specs():
        if spec.args_model in seen:
            continue
        seen.add(spec.args_model)
        for field in spec.args_model.model_fields:
            for value in _WRONG:
                yield {"tool": spec.name, "arguments": {**good(spec.name), field: value}}


def extra_fields() -> Iterator[Step]:
    """Family 4."""
    for tool in TOOLS:
        for name in ("quote", "\u202e<script>", "x" * 2_000):
            yield {"tool": tool, "arguments": {**good(tool), name: "x"}}


def numbers() -> Iterator[Step]:
    """Family 5."""
    edges: tuple[Any, ...] = (0, -1, 1_000_000, 1_000_001, 2**63, -(2**63) - 1, 10**30,
                              1e308, -0.0, 5e-324, "1e400", "NaN", "-0", "1_000")
    for value in edges:
        yield {"tool": "edit_lines", "arguments": {
            "quote_id": "Q-1", "lines": [{"sku": "BV-00021", "quantity": value}]}}
        yield {"tool": "edit_lines", "arguments": {
            "quote_id": "Q-1", "lines": [{"sku": "BV-00021", "quantity": 1,
                                          "discount_pct": value}]}}
        yield {"tool": "search_catalogue", "arguments": {"limit": value, "dn": value}}
        yield {"tool": "search_catalogue", "arguments": {
            "constraints": [{"attribute": "pn", "op": "min", "value": value, "unit": "bar"}]}}


_DEPTHS = (32, 33, 100, 254, 255, 256, 1_000, 10_000, 100_000)


def depth() -> Iterator[Step]:
    """Family 6."""
    places = (("get_quote", ("quote_id",)), ("message", ("text",)),
              ("end", ("summary",)), ("edit_lines", ("lines",)),
              ("search_catalogue", ("constraints",)))
    for levels in _DEPTHS:
        for tool, path in places:
            for key in (None, "a"):
                nest = {"__nest__": levels} if key is None else {"__nest__": levels, "key": key}
                yield {"tool": tool, "arguments": {**good(tool), str(path[0]): nest}}


_LARGE_UNITS = ("x", "word ", "\n", "\x1b[31m", "\u202e", "<script>", "\ud800", "|`")


def size() -> Iterator[Step]:
    """Family 7."""
    for total in (4_096, 65_536, 1_048_576):
        for index, unit in enumerate(_LARGE_UNITS):
            text = {"__repeat__": unit, "times": total // len(unit)}
            tool, path = _TEXT_FIELDS[index % 4]
            yield _with(tool, path, text)
    for times in (1_000, 100_000):
        yield {"tool": "request_action", "arguments": {
            **good("request_action"), "evidence": {"__list__": "DS-BV-00021-r3", "times": times}}}
        yield {"tool": "edit_lines", "arguments": {"quote_id": "Q-1", "lines": {
            "__list__": {"sku": "BV-00021", "quantity": 1}, "times": times}}}
        yield {"tool": "ask", "arguments": {"to": "buyer", "facts": {
            "__list__": "dn", "times": times}}}


def corpus() -> list[str]:
    """The corpus lines, in order, each once."""
    lines: dict[str, None] = {}
    for family in (tool_names, hostile_text, wrong_types, extra_fields, numbers, depth, size):
        for step in family():
            lines.setdefault(dumps(step))
    wanted = max(len(lines) + DRAWN, MINIMUM)
    for step in drawn_calls(4 * DRAWN, SEED):
        if len(lines) >= wanted:
            break
        lines.setdefault(dumps(step))
    return list(lines)


def main(argv: list[str] | None = None) -> int:
    """Write the corpus (or, with ``--check``, compare it with the file)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file differs")
    options = parser.parse_args(argv)
    text = "".join(f"{line}\n" for line in corpus())
    if options.check:
        same = CORPUS.exists() and CORPUS.read_text(encoding="ascii") == text
        sys.stdout.write(f"{CORPUS}: {'up to date' if same else 'differs'}\n")
        return 0 if same else 1
    CORPUS.parent.mkdir(parents=True, exist_ok=True)
    CORPUS.write_text(text, encoding="ascii")
    sys.stdout.write(f"wrote {text.count(chr(10))} calls to {CORPUS}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
