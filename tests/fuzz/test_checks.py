"""The fuzz checks find what they define as unescaped, and nothing in escaped or clean
output (:mod:`tests.fuzz.checks`): a check that never fires, or fires on remit's own
reports, would make the fuzz property meaningless."""

from __future__ import annotations

from pathlib import Path

import pytest

from remit.actors import Observation, TrialInfo
from remit.reports.html_style import OPEN_TARGET_SCRIPT
from tests.fuzz.agents import ScriptedAgent, decode, tool_call
from tests.fuzz.checks import (
    check_html,
    check_json,
    check_junit,
    check_markdown,
    check_terminal,
    unsafe_characters,
)
from tests.fuzz.pipeline import play
from tests.fuzz.strategies import CLASS_NAMES, HOSTILE


def _rules(findings: list[object]) -> set[str]:
    return {getattr(f, "rule", "") for f in findings}


@pytest.mark.parametrize(("text", "rule"), [
    ("a\x00b", "control"), ("\x1b[31m", "control"), ("\r", "control"), ("\x7f", "control"),
    ("\x85", "control"), ("\x9b", "control"), ("\u202e", "bidi"), ("\u2066", "bidi"),
    ("\u200f", "bidi"), ("\u061c", "bidi"), ("\ud800", "surrogate"), (chr(0xDFFF), "surrogate"),
])
def test_unsafe_characters_are_found(text: str, rule: str) -> None:
    assert _rules(unsafe_characters("x", f"ok {text} ok")) == {rule}


@pytest.mark.parametrize("text", [
    "tab\tand\nnewline", "\u200b\u200d\ufeff", "\u2028\u2029", "\u0645\u0631\u062d\u0628\u0627",
    "\U0001f469\u200d\U0001f469\u200d\U0001f467", "e\u0301", "\\x1b[31m", "\\u202e", "\U0010ffff",
])
def test_text_that_is_only_text_is_no_finding(text: str) -> None:
    assert unsafe_characters("x", text) == []


@pytest.mark.parametrize(("page", "rule"), [
    ("<p><script>alert(1)</script></p>", "html-element"),
    ('<p><img src=x onerror="alert(1)"></p>', "html-element"),
    ("<svg onload=alert(1)></svg>", "html-attribute"),
    ('<a href=" javascript:alert(1)">x</a>', "html-attribute"),
    ("<p>&#x202e;</p>", "bidi"),
    ('<p title="&#x2066;x">x</p>', "bidi"),
    ("<p>\x1b[31m</p>", "control"),
])
def test_html_rules(page: str, rule: str) -> None:
    assert rule in _rules(check_html("page", page))


def test_escaped_html_and_the_reports_own_script_are_clean() -> None:
    page = (f"<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img onerror=x&gt; \\u202e</p>"
            f'<a href="#t~1">x</a><script>{OPEN_TARGET_SCRIPT}</script>')
    assert check_html("page", page) == []


@pytest.mark.parametrize(("document", "rule"), [
    ("ended: <script>alert(1)</script>", "markdown-html"),
    ("| a | b |\n| --- | --- |\n| <img src=x onerror=y> | 1 |", "markdown-html"),
    ("```\nsafe\n```\n<script>x</script>\n```\nmore\n```", "markdown-html"),
    ("````\n```\n````\n</details>", "markdown-html"),
    ("text `code` <b>", "markdown-html"),
    ("``one ` tick`` then <i>", "markdown-html"),
    ("not closed `<script>", "markdown-html"),
    ("see [x](javascript:alert(1))", "markdown-link"),
    ("![x](https://fuzz.invalid/p.png)", "markdown-link"),
    ("[y]: https://fuzz.invalid/", "markdown-link"),
    ("a &#x202e; b", "markdown-entity"),
    ("| a | b |\n| --- | --- |\n| x | y | z |", "markdown-table"),
    ("| a | b |\n| --- | --- |\n| x\\\\| y | z |", "markdown-table"),
    ("| a | b |\n| --- | --- |\n| x | y\nz |", "markdown-table"),
    ("ok \x1b[31m", "control"),
])
def test_markdown_rules(document: str, rule: str) -> None:
    assert rule in _rules(check_markdown("report.md", document))


@pytest.mark.parametrize("document", [
    "```\n<script>alert(1)</script>\n```",
    "~~~~\n```\n<img onerror=x>\n~~~~",
    "a `<script>` b ``x ` <y>`` c",
    "escaped \\<script> and &lt;b&gt; and p < 0.05",
    "| a | b |\n| --- | ---: |\n| x \\| y | `a\\|b` |",
    "- item <\n- 3 <4",
    "## Heading\n\nsee [the trial](#t-1)",
])
def test_code_escapes_and_plain_text_are_clean_markdown(document: str) -> None:
    assert check_markdown("report.md", document) == []


def test_junit_rules() -> None:
    assert "parse" in _rules(check_junit("j.xml", "<testsuites><testcase>\x1b</testcase>"
                                                   "</testsuites>"))
    assert "parse" in _rules(check_junit("j.xml", "<testsuites>\ufffe</testsuites>"))
    assert "junit-element" in _rules(check_junit("j.xml", "<testsuites><script/></testsuites>"))
    assert "bidi" in _rules(check_junit("j.xml", '<testsuites name="&#x202e;"/>'))
    assert check_junit("j.xml", '<testsuites><testsuite name="a &lt;b&gt;">'
                                '<testcase name="x"><failure message="\\x1b"/></testcase>'
                                "</testsuite></testsuites>") == []


def test_json_rules() -> None:
    assert _rules(check_json("r.json", '{"a": "\\ud800"}')) == {"json-surrogate"}
    assert _rules(check_json("r.json", '{"a": ')) == {"parse"}
    assert check_json("r.json", '{"a": "\\u001b[31m \\u202e \\ud83d\\ude00"}') == []


def test_rich_markup_probes() -> None:
    assert _rules(check_terminal("t", "summary: fz-bold")) == {"rich-markup"}
    assert check_terminal("t", "summary: [bold]fz-bold[/bold] [link=https://fuzz.invalid/]"
                               "fz-link[/link]") == []


def test_encoded_values_expand() -> None:
    assert decode({"__repeat__": "ab", "times": 3}) == "ababab"
    assert decode({"__list__": {"a": 1}, "times": 2}) == [{"a": 1}, {"a": 1}]
    assert decode({"__nest__": 2}) == [[0]]
    assert decode({"__nest__": 2, "key": "k", "leaf": "v"}) == {"k": {"k": "v"}}
    deep = tool_call({"tool": "get_quote", "arguments": {"q": {"__nest__": 1_000}}})
    assert deep.tool == "get_quote"  # built without validation, as agent code may


def test_hostile_class_names_are_legal() -> None:
    for name in CLASS_NAMES:
        assert type(name, (), {}).__name__ == name
    assert len(CLASS_NAMES) < len(HOSTILE)


def test_a_plain_agent_keeps_the_property(tmp_path: Path) -> None:
    """remit's own output, for an agent that sends only plain text, has no finding: the
    checks do not fire on the reports' and the terminal's own markup."""
    script = [{"tool": "get_quote", "arguments": {"quote_id": "Q-1"}},
              {"tool": "message", "arguments": {"to": "buyer", "text": "Which size, 80?"}},
              {"tool": "get_product", "arguments": {"sku": "BV-99999"}},
              {"tool": "approve", "arguments": {"quote_id": "Q-1"}},
              {"tool": "end", "arguments": {"summary": "Asked for the size; p < 0.05."}}]
    played = play(tmp_path, [script])
    assert played.findings == []
    assert played.trials == 4
    assert played.outputs == 15  # run, runs, 4 reports (and their files), 4 trails, show


def test_the_scripted_agent_plays_its_steps_then_ends() -> None:
    agent = ScriptedAgent(TrialInfo(scenario_id="s", mode="m", trial=0, seed=0),
                          [{"return": 7}, {"raise": "boom", "type": "Evil\u202e"}])
    observation = Observation(step=0, minute=0)
    assert agent.act(observation) == 7
    with pytest.raises(Exception, match="boom") as raised:
        agent.act(observation)
    assert type(raised.value).__name__ == "Evil\u202e"
    assert agent.act(observation).tool == "end"  # type: ignore[attr-defined]
    assert agent.ended
