"""The fuzz property: nothing an agent sends may crash a run or reach a reader raw.

For each generated script (:data:`tests.fuzz.strategies.scripts`: malformed tool calls,
hostile text in every field, deep and huge arguments, ``end`` summaries and exceptions
with hostile text, an ``act`` returning no tool call) the scripted agent of
:mod:`tests.fuzz.agents` plays a real run, ``remit run`` through typer's ``CliRunner``,
of two handwritten scenarios in all-tools and dual-control into a SQLite file; then
``remit report`` writes HTML, Markdown, JSON and JUnit, and ``remit trail`` shows every
trial and ``remit show`` the run (:func:`tests.fuzz.pipeline.play`). The property:

- the run completes: no command raises, hangs or exits nonzero;
- every trial is stored: the store holds all four;
- every report renders and parses, and no agent text appears unescaped in it or on the
  terminal, as :mod:`tests.fuzz.checks` defines it: no raw control, bidi or surrogate
  character in HTML (raw or as displayed), Markdown, JUnit or terminal output; no
  ``<script>`` but the report's own, no ``<img>`` and no event-handler attribute in the
  HTML; no raw HTML, active link, table-breaking ``|`` or decoded control outside code
  in the Markdown; a JUnit file that parses with only JUnit elements; a JSON report that
  parses, holds no lone surrogate and follows its schema; rich markup in agent text
  shown, not applied.

Hypothesis shrinks a failing script to a minimal one; the assertion lists every finding.
"""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, given, settings

from tests.fuzz.agents import Step
from tests.fuzz.pipeline import MODES, SCENARIOS, play
from tests.fuzz.strategies import scripts


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(script=scripts)
def test_no_script_crashes_a_run_or_reaches_a_reader_raw(script: list[Step]) -> None:
    with TemporaryDirectory() as tmp:
        played = play(Path(tmp), [script])
    assert not played.findings, "\n".join(str(f) for f in played.findings)
    assert played.trials == len(SCENARIOS) * len(MODES)
