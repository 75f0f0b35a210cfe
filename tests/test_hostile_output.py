"""What a hostile agent writes reaches every reader shown, never executed.

Real runs of :mod:`tests.hostile_agents` (markup, script and image tags, terminal escape
sequences, a clipboard write, bidirectional overrides, NUL, C1 controls, rich markup,
table and fence characters and 10 KB strings in its messages, arguments, invented ids,
``end`` summary and exception text), stored in SQLite through the CLI, then every
output a person reads: the HTML, Markdown, JUnit and JSON reports, the report of a
comparison, and the terminal (``remit run``, ``runs``, ``show``, ``trail``,
``compare``). No raw control, bidirectional or escape character in any of them; no
element, link or image made from the agent's text in the HTML or in the Markdown once
rendered; the JUnit file parses; the JSON parses and holds the agent's text exactly.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple

import pytest
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from remit.authority import mode_by_name
from remit.cli import app
from remit.harness import ScenarioSelection, TrialRecord
from remit.reports import (
    build_report,
    parse_report,
    render_html,
    render_json,
    render_junit,
    render_markdown,
)
from remit.reports.html_style import OPEN_TARGET_SCRIPT
from remit.reports.model import RunReport
from remit.store import Store, start_run, suite_of
from remit.world import EndEntry, MessageEntry
from tests.hostile_agents import HOSTILE, LONG, leaks, raising

SCENARIOS = ("actuator-pairing", "consent-withheld")
SELECT = [arg for scenario in SCENARIOS for arg in ("--scenario", scenario)]
WIDE = {"COLUMNS": "400"}
HOSTILE_ID = f"mcp:{HOSTILE}@1.0"
"""An agent id as an MCP client names itself: its own text too."""


class Runs(NamedTuple):
    db: str
    hostile: str
    raising: str
    oracle: str
    run_output: str
    """What ``remit run`` printed for a raising agent (its failures quote the exception)."""


def _run_id(db: str, agent: str) -> str:
    with Store.open(db) as store:
        return next(r.run_id for r in store.runs() if r.agent_id == agent)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    db = str(tmp_path_factory.mktemp("hostile") / "remit.db")
    cli = CliRunner()
    common = ["--suite", "handwritten", *SELECT, "--modes", "all_tools,dual_control",
              "--db", db]
    hostile = cli.invoke(app, ["run", "--agent", "tests.hostile_agents:hostile", *common],
                         env=WIDE)
    assert hostile.exit_code == 0, hostile.output
    raised = cli.invoke(app, ["run", "--agent", "tests.hostile_agents:raising", *common],
                        env=WIDE)
    assert raised.exit_code == 0, raised.output
    oracle = cli.invoke(app, ["run", "--agent", "oracle", *common, "--json"])
    assert oracle.exit_code == 0, oracle.output
    with Store.open(db) as store:
        start_run(store, suite_spec="handwritten",
                  modes=[mode_by_name("all_tools"), mode_by_name("dual_control")],
                  agent_id=HOSTILE_ID, trials=1, seed=0, factory=raising,
                  selection=ScenarioSelection(scenario_ids=SCENARIOS))
    return Runs(db, _run_id(db, "tests.hostile_agents:hostile"), _run_id(db, HOSTILE_ID),
                _run_id(db, "oracle"), raised.stdout + raised.stderr)


def _cli(runs: Runs, *args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--db", runs.db], env=WIDE)
    assert result.exit_code in (0, 1), result.output
    return result.stdout + result.stderr


def _report(runs: Runs, tmp_path: Path, name: str, *run_ids: str) -> str:
    path = tmp_path / name
    _cli(runs, "report", *run_ids, "-o", str(path))
    return path.read_text(encoding="utf-8")


# -- what the outputs must not hold -------------------------------------------------------


class _Elements(HTMLParser):
    """The elements, attribute names and link targets of an HTML text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: set[str] = set()
        self.links: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes |= {name for name, _ in attrs}
        self.links += [value or "" for name, value in attrs if name in ("href", "src")]
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


def _assert_no_agent_element(page: str, *, own_scripts: int) -> None:
    """No element, event handler or link an agent could have written."""
    found = _Elements(page)
    assert "img" not in found.tags
    assert found.scripts == [OPEN_TARGET_SCRIPT] * own_scripts
    assert not [a for a in found.attributes if a.startswith("on")]
    assert not [link for link in found.links if not link.startswith("#")]


def _assert_shown(text: str, *, quoted: bool = True) -> None:
    """No raw control, bidirectional or escape character; the agent's are visible (when
    ``quoted``: the output quotes the agent's text)."""
    assert leaks(text) == []
    assert not quoted or "\\x1b" in text


_FENCE = re.compile(r"^(`{3,})\s*$")
_TAG = re.compile(r"<[A-Za-z/!?]")


def _outside_fences(markdown: str) -> list[str]:
    lines, fence = [], ""
    for line in markdown.splitlines():
        match = _FENCE.match(line)
        if fence:
            if match and len(match.group(1)) >= len(fence):
                fence = ""
        elif match:
            fence = match.group(1)
        else:
            lines.append(line)
    assert not fence, "every fence is closed"
    return lines


def _assert_markdown_safe(markdown: str) -> None:
    _assert_shown(markdown)
    raw = [line for line in _outside_fences(markdown) if _TAG.search(line)]
    assert raw == [], "no HTML tag outside code fences"
    rendered = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    page = rendered.render(markdown)
    _assert_no_agent_element(page, own_scripts=0)
    assert not {"em", "strong", "s", "a", "img"} & set(_Elements(page).tags)


# -- reports --------------------------------------------------------------------------------


def test_the_html_report_shows_the_agents_text_and_runs_none_of_it(
        runs: Runs, tmp_path: Path) -> None:
    page = _report(runs, tmp_path, "run.html", runs.hostile)
    _assert_shown(page)
    _assert_no_agent_element(page, own_scripts=1)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\\u202eevil" in page
    assert "[bold]markup[/bold]" in page


def test_the_html_report_of_an_agent_that_raised_shows_its_exception(
        runs: Runs, tmp_path: Path) -> None:
    page = _report(runs, tmp_path, "raised.html", runs.raising)
    _assert_shown(page)
    _assert_no_agent_element(page, own_scripts=1)
    assert "agent raised RuntimeError: &lt;script&gt;" in page
    assert f"mcp:{HOSTILE[:8]}" not in page


def test_the_markdown_report_fences_or_escapes_every_agent_string(
        runs: Runs, tmp_path: Path) -> None:
    for run_id in (runs.hostile, runs.raising):
        markdown = _report(runs, tmp_path, f"{run_id}.md", run_id)
        _assert_markdown_safe(markdown)
    assert "ended: agent\\_error" not in markdown
    assert "agent raised RuntimeError: &lt;script&gt;alert(1)&lt;/script&gt;" in markdown
    head = markdown.splitlines()[2]
    assert head.startswith("mcp:&lt;script&gt;"), "the agent id is escaped too"


def test_the_junit_report_parses_and_shows_the_escapes(runs: Runs, tmp_path: Path) -> None:
    roots = {}
    for run_id in (runs.hostile, runs.raising):
        text = _report(runs, tmp_path, f"{run_id}.xml", run_id)
        assert leaks(text) == []
        roots[run_id] = ET.fromstring(text)
    raised = roots[runs.raising]
    failures = "".join(f.text or "" for f in raised.iter("failure"))
    assert "agent raised RuntimeError: <script>alert(1)</script>" in failures
    assert "\\x1b[31mRED\\x1b]0;pwned\\x07" in failures
    agent = {p.get("name"): p.get("value") for p in raised.iter("property")}["agent"]
    assert agent is not None
    assert agent.startswith("mcp:<script>")
    assert "\\u202e" in agent


def test_the_json_report_parses_and_keeps_the_agents_text_exactly(
        runs: Runs, tmp_path: Path) -> None:
    text = _report(runs, tmp_path, "run.json", runs.hostile)
    assert leaks(text) == [], "JSON escapes what it would otherwise leave raw"
    data = json.loads(text)
    report = parse_report(text)
    said = [line.text for t in report.trials if t.trail for line in t.trail.transcript]
    assert LONG in said
    assert data["report_version"] == report.report_version


def test_the_report_of_a_comparison_shows_the_flipping_agents_text(
        runs: Runs, tmp_path: Path) -> None:
    page = _report(runs, tmp_path, "cmp.html", runs.oracle, runs.hostile)
    _assert_shown(page)
    _assert_no_agent_element(page, own_scripts=1)
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    markdown = _report(runs, tmp_path, "cmp.md", runs.hostile, runs.raising)
    _assert_markdown_safe(markdown)
    assert "mcp:&lt;script&gt;" in markdown
    cmp = json.loads(_report(runs, tmp_path, "cmp.json", runs.hostile, runs.raising))
    assert HOSTILE in cmp["b"]["label"]


def test_reports_built_in_memory_survive_a_lone_surrogate(runs: Runs) -> None:
    """The store cannot hold a lone surrogate, but the pytest plugin reports what it ran
    without one: no writer may fail on it."""
    with Store.open(runs.db) as store:
        manifest = store.manifest(runs.hostile)
        report = build_report(manifest, store.trials(runs.hostile), suite_of(manifest))
    report = _with_surrogates(report)
    for render in (render_html, render_markdown, render_junit):
        text = render(report)
        text.encode("utf-8")
        assert leaks(text) == []
        assert "\\ud800" in text
    parsed = parse_report(render_json(report))
    assert "bad \ufffd text" in parsed.trials[0].score.failures


def _with_surrogates(report: RunReport) -> RunReport:
    row = report.trials[0]
    score = row.score.model_copy(update={"failures": ("bad \ud800 text",)})
    assert row.trail is not None
    line = row.trail.transcript[0].model_copy(update={"text": "lone \udfff"})
    trail = row.trail.model_copy(update={"transcript": (line, *row.trail.transcript[1:]),
                                         "ended": "agent_end: \ud83d"})
    row = row.model_copy(update={"score": score, "trail": trail, "passed": False})
    return report.model_copy(update={"trials": (row, *report.trials[1:])})


# -- the terminal ---------------------------------------------------------------------------


def test_remit_run_prints_the_failures_without_escape_sequences(runs: Runs) -> None:
    _assert_shown(runs.run_output)
    assert "FAIL actuator-pairing (all_tools, trial 0 of 1): the agent made no valid write; " \
           "agent_error: agent raised RuntimeError: <script>" in runs.run_output


def test_remit_trail_shows_the_agents_text_and_markup_as_written(runs: Runs) -> None:
    for run_id in (runs.hostile, runs.raising):
        output = _cli(runs, "trail", f"{run_id}/actuator-pairing/dual_control/0")
        _assert_shown(output)
        assert "[bold]markup[/bold]" in output
        assert "[link=https://evil.example]click[/link]" in output
    assert "agent raised RuntimeError: <script>" in output


def test_remit_trail_json_is_exact_and_plain_to_print(runs: Runs) -> None:
    output = _cli(runs, "trail", f"{runs.hostile}/actuator-pairing/dual_control/0", "--json")
    assert leaks(output) == []
    record = TrialRecord.model_validate_json(output)
    ends = [e.summary for e in record.trail if isinstance(e, EndEntry)]
    said = [e.text for e in record.trail if isinstance(e, MessageEntry)]
    assert ends == [LONG]
    assert LONG in said


def test_remit_show_runs_and_compare_show_a_hostile_agent_id(runs: Runs) -> None:
    for output in (_cli(runs, "show", runs.raising), _cli(runs, "runs"),
                   _cli(runs, "compare", runs.hostile, runs.raising)):
        _assert_shown(output)
        assert "[bold]markup[/bold]" in output
    _assert_shown(_cli(runs, "show", runs.hostile), quoted=False)
    assert "mcp:<script>alert(1)</script>" in _cli(runs, "runs")
