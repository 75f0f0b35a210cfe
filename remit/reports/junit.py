"""The report as JUnit XML, for CI dashboards (GitLab, Jenkins, GitHub test reporters).

:func:`render_junit` writes one ``<testsuite>`` per control mode and one
``<testcase>`` per scenario and mode: ``classname`` ``remit.<suite>.<scenario>`` (the
suite's id with dots made underscores), ``name`` the mode, so CI dashboards group a
scenario's modes under one class in a ``remit.<suite>`` package. A case's ``time`` is
the wall-clock seconds of its trials, a suite's the sum of its cases'; trials stored
before remit kept durations have none, and a case or suite with no known duration has
no ``time``. A test case fails (``<failure>``) when any of its counted trials failed;
the failure's text lists each failing trial's broken expectations (after "the agent
made no valid write" and its reply issues, when so) and, when the report kept its
approval trail, the explanation (the shortest explaining trail, first divergence marked
``>>``, which says the same). A case whose every trial was excluded after an
infrastructure error is ``<skipped>``.

Metrics travel as ``<properties>``: on each suite, the mode's pass^k for every k, its
rates (value and Wilson interval as ``name``, ``name.low``, ``name.high``: the pass rate,
the headline rates and the per-item rates of :data:`remit.harness.RATES`, under their
``ModeReport`` field names; a rate the run's scorer did not measure is left out), means,
trials, errors and the scorer version; on each case, its trials, passes and pass^k at
k = trials. When the agent reports its usage (an LLM agent), suites and cases also carry
``model_calls``, ``prompt_tokens``, ``completion_tokens``, ``cost`` with
``cost.currency`` (when every trial was priced) and ``reply_issues.<kind>`` for each
kind of unusable model reply, summed over the counted trials, with the reply issues as
per-trial figures: ``mean_reply_issues`` (per trial, every kind together) and
``reply_issue_rate`` (the share of trials with at least one; a suite gives its interval
too, ``reply_issue_rate.low`` and ``.high``). The ``<testsuites>`` element carries the
run's id.

Every string taken from the stored run goes through :func:`remit.reports.safe.xml_text`:
control and bidirectional characters are shown as escapes (``\\x1b``, ``\\u202e``), so
the file is well-formed XML 1.0 however hostile the agent's text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC

from remit.actors import AgentUsage
from remit.catalogue import Money
from remit.harness.aggregate import reply_issues_by_kind
from remit.harness.rates import RATES
from remit.harness.stats import Interval
from remit.reports.model import ModeReport, RunReport, ScenarioCell, TrialRow
from remit.reports.safe import xml_text

__all__ = ["MAX_EXPLAINED", "render_junit"]

MAX_EXPLAINED = 3
"""Failing trials explained in full per test case (the others list their failures)."""


def _text(value: object) -> str:
    """A value as XML text (:func:`xml_text`)."""
    return xml_text(str(value))


def _props(parent: ET.Element, pairs: Sequence[tuple[str, object]]) -> None:
    element = ET.SubElement(parent, "properties")
    for name, value in pairs:
        ET.SubElement(element, "property", name=_text(name), value=_text(value))


def _interval(name: str, interval: Interval) -> list[tuple[str, object]]:
    return [(name, f"{interval.value:.4f}"), (f"{name}.low", f"{interval.low:.4f}"),
            (f"{name}.high", f"{interval.high:.4f}")]


def _mode_properties(mode: ModeReport, unmeasured: Sequence[str]) -> list[tuple[str, object]]:
    pairs: list[tuple[str, object]] = [("mode", mode.mode), ("trials", mode.trials),
                                       ("scenarios", mode.scenarios), ("passed", mode.passed)]
    pairs += [(f"pass^{p.k}", f"{p.value:.4f}") for p in mode.pass_hat_k]
    pairs += _interval("pass_rate", mode.pass_rate)
    for rate in RATES:
        if rate.key not in unmeasured:
            pairs += _interval(rate.key, rate.of(mode))
    pairs += [("mean_clarification_rounds", f"{mode.mean_clarification_rounds:.4f}"),
              ("mean_review_minutes", f"{mode.mean_review_minutes:.4f}"),
              ("mean_denials", f"{mode.mean_denials:.4f}"),
              ("mean_steps", f"{mode.mean_steps:.4f}"),
              ("errors", mode.errors), ("infra_errors", mode.infra_errors),
              ("excluded", mode.excluded)]
    if mode.model_calls or mode.reply_issues or mode.reply_issue_rate.total:
        pairs += _spent(mode.model_calls, mode.prompt_tokens, mode.completion_tokens,
                        mode.cost, mode.reply_issues)
        if mode.mean_reply_issues is not None:
            pairs += [("mean_reply_issues", f"{mode.mean_reply_issues:.4f}"),
                      *_interval("reply_issue_rate", mode.reply_issue_rate)]
    return pairs


def _spent(calls: int, prompt: int, completion: int, cost: Money | None,
           issues: dict[str, int]) -> list[tuple[str, object]]:
    pairs: list[tuple[str, object]] = [("model_calls", calls), ("prompt_tokens", prompt),
                                       ("completion_tokens", completion)]
    if cost is not None:
        pairs += [("cost", cost.amount), ("cost.currency", cost.currency)]
    pairs += [(f"reply_issues.{kind}", n) for kind, n in sorted(issues.items()) if n]
    return pairs


def _usage_properties(trials: Sequence[TrialRow]) -> list[tuple[str, object]]:
    """The usage of ``trials`` summed, as properties (none when no trial reports it)."""
    used: list[AgentUsage] = [t.score.usage for t in trials if t.score.usage is not None]
    if not used:
        return []
    costs = [u.cost for u in used if u.cost is not None]
    cost = sum(costs[1:], costs[0]) if costs and len(costs) == len(used) else None
    counts = [sum(u.reply_issues.values()) for u in used]
    return [*_spent(sum(u.model_calls for u in used), sum(u.prompt_tokens for u in used),
                    sum(u.completion_tokens for u in used), cost, reply_issues_by_kind(used)),
            ("mean_reply_issues", f"{sum(counts) / len(counts):.4f}"),
            ("reply_issue_rate", f"{sum(n > 0 for n in counts) / len(counts):.4f}")]


def _failure_text(failing: Sequence[TrialRow]) -> str:
    blocks = []
    for index, row in enumerate(failing):
        lines = [f"{row.id}: failed"]
        if row.infra_error:
            lines.append(f"  infrastructure error: {row.infra_error}")
        if index < MAX_EXPLAINED and row.trail is not None and row.trail.explanation:
            lines.append(row.trail.explanation)  # it ends with the broken expectations
        else:
            lines += [f"  {sentence}" for sentence in (*row.score.notes(), *row.score.failures)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _seconds(trials: Sequence[TrialRow]) -> float | None:
    """The trials' summed durations; ``None`` when none is known."""
    known = [t.seconds for t in trials if t.seconds is not None]
    return sum(known) if known else None


def _classname(suite_id: str, scenario_id: str) -> str:
    return f"remit.{suite_id.replace('.', '_')}.{scenario_id}"


def _case(suite: ET.Element, suite_id: str, scenario_id: str, cell: ScenarioCell | None,
          trials: Sequence[TrialRow]) -> tuple[bool, bool]:
    """One test case; returns (failed, skipped)."""
    case = ET.SubElement(suite, "testcase", classname=_text(_classname(suite_id, scenario_id)),
                         name=_text(trials[0].mode))
    seconds = _seconds(trials)
    if seconds is not None:
        case.set("time", f"{seconds:.3f}")
    counted = [t for t in trials if t.counted]
    passes = cell.passes if cell is not None else 0
    _props(case, [("trials", len(counted)), ("passes", passes),
                  (f"pass^{len(counted)}", f"{cell.pass_hat_k:.4f}" if cell else "0.0000"),
                  ("excluded", len(trials) - len(counted)), *_usage_properties(counted)])
    failing = [t for t in counted if not t.passed]
    if failing:
        first = failing[0].score.failures[0] if failing[0].score.failures else "failed"
        failure = ET.SubElement(
            case, "failure", type="remit.expectation",
            message=_text(f"{len(failing)} of {len(counted)} trials failed: {first}"))
        failure.text = _text(_failure_text(failing))
        return True, False
    if not counted:
        ET.SubElement(case, "skipped", message=_text(
            f"all {len(trials)} trials ended in an infrastructure error and were excluded"))
        return False, True
    return False, False


def render_junit(report: RunReport) -> str:
    """The report as JUnit XML text (see the module docstring).

    Example:
        >>> root = ET.fromstring(render_junit(report))         # doctest: +SKIP
        >>> root.find("testsuite").get("name")                 # doctest: +SKIP
        'all_tools'
    """
    m = report.manifest
    root = ET.Element("testsuites", name=_text(f"remit {m.run_id}"))
    rows: dict[tuple[str, str], list[TrialRow]] = {}
    for row in report.trials:
        rows.setdefault((row.mode, row.scenario_id), []).append(row)
    cells = {(c.mode, s.scenario_id): c for s in report.scenarios for c in s.cells}
    order = [s.scenario_id for s in report.scenarios]
    totals = [0, 0, 0]
    for mode in report.modes:
        suite = ET.SubElement(root, "testsuite", name=_text(mode.mode),
                              timestamp=f"{m.started_at.astimezone(UTC):%Y-%m-%dT%H:%M:%S}")
        _props(suite, [("run_id", m.run_id), ("suite", m.suite_id),
                       ("agent", m.agent_id), ("scorer_version", m.scorer_version),
                       *_mode_properties(mode, report.unmeasured_rates)])
        counts = [0, 0, 0]
        timed: list[TrialRow] = []
        for scenario_id in order:
            trials = rows.get((mode.mode, scenario_id))
            if not trials:
                continue
            failed, skipped = _case(suite, m.suite_id, scenario_id,
                                    cells.get((mode.mode, scenario_id)), trials)
            timed += trials
            counts[0] += 1
            counts[1] += failed
            counts[2] += skipped
        suite.set("tests", str(counts[0]))
        suite.set("failures", str(counts[1]))
        suite.set("errors", "0")
        suite.set("skipped", str(counts[2]))
        if (seconds := _seconds(timed)) is not None:
            suite.set("time", f"{seconds:.3f}")
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
    root.set("tests", str(totals[0]))
    root.set("failures", str(totals[1]))
    root.set("errors", "0")
    root.set("skipped", str(totals[2]))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
