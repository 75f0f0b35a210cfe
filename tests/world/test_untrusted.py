"""The inbound boundary's functions (:mod:`remit.world.untrusted`): cleaning, limits,
quotes; ``test_world_boundary.py`` drives them through :meth:`World.call`."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import JsonValue, TypeAdapter

from remit.world.untrusted import (
    MAX_ARGUMENT_DEPTH,
    MAX_ITEMS,
    MAX_STRING_CHARS,
    _Scan,  # the full scan: the reference of the fast path
    check_arguments,
    clean,
    clean_text,
    cut_long_values,
    describe_exception,
    long_strings,
    quote,
    read_arguments,
    shorten,
    tool_name,
)
from tests.untrusted_agents import LONE, nested

MEGA = "M" * 1_000_000




def test_clean_replaces_lone_surrogates_everywhere_and_nothing_else() -> None:
    value: JsonValue = {f"k{LONE}": [f"a{LONE}", {"b": "\udfff"}, 1, 2.5, None, True],
                        "ok": "ünïcode 😀"}
    assert clean(value) == {"k\ufffd": ["a\ufffd", {"b": "\ufffd"}, 1, 2.5, None, True],
                            "ok": "ünïcode 😀"}
    assert clean_text("plain") == "plain"


def test_clean_does_not_recurse() -> None:
    deep: JsonValue = "leaf"
    for _ in range(100_000):
        deep = [deep]
    cleaned = clean(deep)
    for _ in range(100_000):
        assert isinstance(cleaned, list)
        cleaned = cleaned[0]
    assert cleaned == "leaf"


@pytest.mark.parametrize(("arguments", "problem"), [
    (nested(MAX_ARGUMENT_DEPTH + 1), "arguments nest deeper than 32 levels (at a.a.a.a.a.a.a.a.…)"),
    ({"s": "x" * (MAX_STRING_CHARS + 1)}, "the string at s has 8193 characters, more than "
                                           "the limit of 8192"),
    ({"y" * (MAX_STRING_CHARS + 1): 1}, "a key at the top level has 8193 characters, more "
                                        "than the limit of 8192"),
    ({"many": list(range(MAX_ITEMS + 1))}, "the list at many has 1001 items, more than the "
                                           "limit of 1000"),
    ({f"k{i}": "v" * 8000 for i in range(9)}, "arguments take more than 65536 characters "
                                              "as JSON, the limit; send less"),
    ({"n": 10 ** 150}, "the integer at n has about 151 digits, more than the limit of 100"),
    ({"lines": [{"sku": {1, 2}}]}, "the value at lines.0.sku is of type set, which is not "
                                   "JSON; send strings, numbers, booleans, null, lists and "
                                   "objects"),
    ({"o": {1: "x"}}, "a key at o is of type int; JSON object keys are strings"),
    (["not", "an", "object"], "arguments must be a JSON object, not of type list"),
])
def test_each_limit_is_named_with_where_it_breaks(arguments: object, problem: str) -> None:
    assert check_arguments(arguments) == ({}, problem)


def test_arguments_at_the_limits_pass_cleaned() -> None:
    arguments: dict[str, JsonValue] = {
        "deep": nested(MAX_ARGUMENT_DEPTH - 1), "s": "x" * MAX_STRING_CHARS,
        "many": [0] * MAX_ITEMS, "n": 10 ** 99, f"k{LONE}": [f"v{LONE}"]}
    expected = {key: value for key, value in arguments.items() if key != f"k{LONE}"}
    assert check_arguments(arguments) == ({**expected, "k\ufffd": ["v\ufffd"]}, None)


def test_quotes_are_short_and_say_the_length() -> None:
    assert quote("BV-1") == "'BV-1'"
    assert quote(MEGA) == f"{'M' * 80!r}… (1000000 chars)"
    assert quote(f"x{LONE}") == "'x\\ud800'"
    assert len(quote(["a" * 1000] * 1000)) < 120
    assert quote(10 ** 5000) == "<an integer of about 5001 digits>"
    assert shorten("abc", 2) == "ab… (3 chars)"
    assert tool_name("t" * 1000) == "t" * 128 + "… (1000 chars)"


def test_an_exception_that_cannot_print_itself_is_still_described() -> None:
    class Broken(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no")

    assert describe_exception(Broken()) == ("Broken: (its message cannot be shown: "
                                            "RuntimeError)")
    long = describe_exception(ValueError(f"{LONE}" + "!" * 5000))
    assert long.startswith("ValueError: \ufffd!!!")
    assert long.endswith("… (5013 chars)")


def test_long_values_are_cut_from_any_message() -> None:
    sku = "S" * 500
    message = f"unknown SKU sku={sku!r}; or {sku} again"
    cut = cut_long_values(message, long_strings({"lines": [{"sku": sku}], "k": "short"}))
    assert cut == (f"unknown SKU sku={'S' * 80!r}… (500 chars); or {'S' * 80}… (500 chars) "
                   "again")


_TEXT = st.one_of(
    st.lists(st.sampled_from(["a", "é", "\ud800", "\udfff", "😀"]), max_size=5).map("".join),
    st.sampled_from(["v" * 80, "v" * 81]))  # at and past the length an error message quotes
_PLAIN_KEYS = st.sampled_from(["sku", "quote_id", "lines", "text", "é", "k" * 81])
_PLAIN = st.recursive(  # what agents send: the fast path takes it
    st.one_of(st.none(), st.booleans(), st.floats(), st.integers(), _TEXT),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(_PLAIN_KEYS, children, max_size=4)),
    max_leaves=12)
_ODD = st.recursive(  # near or past a limit, or not plain: the scan decides
    st.one_of(_PLAIN, st.integers(min_value=10 ** 98, max_value=10 ** 101),
              st.sampled_from(["x" * MAX_STRING_CHARS, "x" * (MAX_STRING_CHARS + 1)])),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.lists(children, max_size=4).map(tuple),
        st.dictionaries(st.one_of(_PLAIN_KEYS, st.sampled_from(
            [f"k{LONE}", "\udfff", "y" * 9000]), st.integers(0, 2)), children, max_size=4),
        st.builds(lambda n, v: [v] * n, st.sampled_from([MAX_ITEMS, MAX_ITEMS + 1]),
                  children),
        st.builds(nested, st.sampled_from([7, 8, 9, MAX_ARGUMENT_DEPTH]))),
    max_leaves=12)


_AT_THE_LIMIT: dict[str, JsonValue] = {
    **{f"k{i}": "v" * 8190 for i in range(7)}, "k7": "v" * 8140}
"""Exactly MAX_ARGUMENTS_CHARS as the scan counts: 2 + 8 for the object, 5 per key,
2 + length per string."""


@settings(derandomize=True, database=None, max_examples=300, deadline=None)
@given(arguments=st.one_of(st.dictionaries(_PLAIN_KEYS, _PLAIN, max_size=6),
                           st.dictionaries(_PLAIN_KEYS, _ODD, max_size=6), _ODD))
@example(arguments={f"k{i}": "v" * 8000 for i in range(9)})  # too many characters in all
@example(arguments=_AT_THE_LIMIT)
@example(arguments={**_AT_THE_LIMIT, "k7": "v" * 8141})  # one character past it
@example(arguments=dict([("a\ud800", 1), ("a\udfff", 2)]))  # two keys that clean alike
def test_the_fast_path_answers_as_the_scan(arguments: object) -> None:
    """Plain arguments within the limits are copied without the full scan; the copy,
    key order included, and any limit broken are the scan's."""
    found = check_arguments(arguments)
    scanned = _Scan().run(arguments)
    assert found == scanned
    assert json.dumps(found, default=repr) == json.dumps(scanned, default=repr)
    read = read_arguments(arguments)
    assert read[:3] == (*scanned, long_strings(scanned[0]))
    if read.plain:  # then the copy is what validating it as JSON gives, types and all
        validated = TypeAdapter(dict[str, JsonValue]).validate_python(read.arguments)
        assert json.dumps(validated) == json.dumps(read.arguments)
        assert _types(validated) == _types(read.arguments)


def _types(value: object) -> object:
    """``value`` with every leaf replaced by its exact type."""
    if isinstance(value, dict):
        return {key: _types(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_types(child) for child in value]
    return type(value)
