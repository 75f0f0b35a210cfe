"""Terminal rendering of run results (rich). Renderers take plain result objects.

Every string taken from a stored run is shown, never executed: in tables and titles it
goes through :func:`remit.reports.safe.term_text` (control and bidirectional characters
as escapes, rich markup escaped), and the lines meant for ``print(..., markup=False)``
through :func:`remit.reports.safe.visible`. The command line prints them on a
:class:`remit.reports.safe.SafeConsole`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import NamedTuple

from rich.console import JustifyMethod
from rich.table import Table

from remit.harness import (
    NO_VALID_WRITE,
    RATES,
    Comparison,
    ModeSummary,
    RunManifest,
    TrialRecord,
    TrialScore,
)
from remit.harness.compare import model_calls_source
from remit.harness.selection import CLI_OPTIONS, PLUGIN_OPTIONS, describe
from remit.harness.stats import Interval
from remit.reports.model import ApprovalTrail, TradeoffRow
from remit.reports.safe import term_text, visible
from remit.store import RunListing
from remit.world import (
    DecisionEntry,
    ErrorEntry,
    HandoffEntry,
    MessageEntry,
    ToolCallEntry,
    ToolGroup,
    TrailEntry,
    TransitionEntry,
    tool_specs,
)

__all__ = [
    "FailureGroup",
    "approval_lines",
    "approval_table",
    "comparison_lines",
    "comparison_table",
    "describe_entry",
    "failure_groups",
    "manifest_table",
    "mode_table",
    "runs_table",
    "score_lines",
    "trail_table",
]


class FailureGroup(NamedTuple):
    """The failing trials of one scenario in one mode that broke the same expectations.

    Attributes:
        scenario_id: the scenario.
        mode: the control mode.
        trials: the failing trials' indices, ascending.
        of: how many trials of that scenario the mode ran.
        failures: the expectations that broke, as the scorer worded them.
        no_valid_write: in these trials the agent made no write that took effect.
    """

    scenario_id: str
    mode: str
    trials: tuple[int, ...]
    of: int
    failures: tuple[str, ...]
    no_valid_write: bool = False

    def describe(self) -> str:
        """One line: ``scenario (mode, trials 0, 2 of 4): failure; failure``, or
        ``(mode, all 4 trials)`` when every trial failed alike; the failures follow
        :data:`NO_VALID_WRITE` when the agent made no write that took effect."""
        if len(self.trials) == self.of > 1:
            which = f"all {self.of} trials"
        else:
            noun = "trial" if len(self.trials) == 1 else "trials"
            which = f"{noun} {', '.join(str(t) for t in self.trials)} of {self.of}"
        said = [NO_VALID_WRITE] if self.no_valid_write else []
        return visible(f"{self.scenario_id} ({self.mode}, {which}): "
                       f"{'; '.join([*said, *self.failures])}")


def failure_groups(trials: Sequence[TrialRecord]) -> list[FailureGroup]:
    """Failing trials grouped by scenario, mode, the expectations they broke and whether
    the agent made no valid write, in the order the groups first appear: k identical
    failures read as one line, not k. A trial that ended in an infrastructure error shows
    as one with an ``infra_error`` failure, whatever the run's error treatment."""
    ran: dict[tuple[str, str], int] = {}
    grouped: dict[tuple[str, str, tuple[str, ...], bool], list[int]] = {}
    for record in trials:
        scored = record.scored
        ran[scored.scenario_id, scored.mode] = ran.get((scored.scenario_id, scored.mode), 0) + 1
        if scored.score.passed:
            continue
        key = (scored.scenario_id, scored.mode, tuple(scored.score.failures),
               scored.score.no_valid_write is True)
        grouped.setdefault(key, []).append(scored.trial)
    return [FailureGroup(scenario, mode, tuple(sorted(indices)), ran[scenario, mode], failures,
                         no_write)
            for (scenario, mode, failures, no_write), indices in grouped.items()]


def score_lines(score: TrialScore) -> list[str]:
    """What a trial's score says beyond its trail, one line each: every sentence the
    scorer counted against it (``scored: ...``), that the agent made no valid write and
    its reply issues by kind, when so (:meth:`~remit.harness.TrialScore.notes`), then
    each broken expectation (``expectation broke: ...``)."""
    lines = [f"scored: {sentence}" for sentence in (
        *score.wrong_variants, *score.unsupported, *score.unsupported_cited, *score.abandoned,
        *score.missing)]
    lines += score.notes()
    lines += [f"expectation broke: {failure}" for failure in score.failures]
    return [visible(line) for line in lines]


def _rate(interval: Interval) -> str:
    return f"{interval.value:.2f} [{interval.low:.2f}, {interval.high:.2f}]"


def _per_item(interval: Interval) -> str:
    """A per-item rate, compact: ``0.10 (2/20)``, or ``-`` when there was no item."""
    if not interval.total:
        return "-"
    return f"{interval.value:.2f} ({interval.successes}/{interval.total})"


_NOT_MEASURED = "n/a"
"""The cell of a rate the run's scorer did not measure."""

_MEANS: tuple[tuple[str, Callable[[ModeSummary], str]], ...] = (
    ("clarification rounds", lambda s: f"{s.mean_clarification_rounds:.1f}"),
    ("review minutes", lambda s: f"{s.mean_review_minutes:.0f}"),
    ("denials", lambda s: f"{s.mean_denials:.1f}"),
    ("steps", lambda s: f"{s.mean_steps:.1f}"),
    ("agent errors", lambda s: str(s.errors)),
)


def mode_table(summaries: Mapping[str, ModeSummary], title: str = "Per-mode results", *,
               unmeasured: Collection[str] = ()) -> Table:
    """One column per control mode, one row per metric: pass^k for every k, the headline
    rates (shares of trials) with Wilson 95% intervals, the conversation's costs (means
    per trial), then, below a rule, the per-item rates compactly (``value (part/whole)``:
    per stated claim, per claim of each kind, per citation, per hand-off opened); when an
    agent reports its usage (an LLM agent), below another rule: model calls, tokens,
    cost, reply issues per trial, the share of trials with a reply issue (with its
    interval), and each kind of reply issue summed.

    Args:
        summaries: the modes' summaries, in column order.
        title: the table's title.
        unmeasured: keys of rates the run's scorer did not measure
            (:func:`remit.harness.unmeasured`); their cells read ``n/a``.
    """
    table = Table(title=term_text(title))
    table.add_column("metric", style="bold")
    for name in summaries:
        table.add_column(term_text(name), justify="right")
    ks = sorted({k for s in summaries.values() for k in s.pass_hat_k})
    for k in ks:
        table.add_row(f"pass^{k}", *(
            f"{s.pass_hat_k[k]:.2f}" if k in s.pass_hat_k else "-" for s in summaries.values()))
    table.add_row("trials", *(f"{s.trials} ({s.scenarios} scenarios)"
                              for s in summaries.values()))
    for rate in RATES:
        if not rate.per_item:
            table.add_row(rate.label, *(_NOT_MEASURED if rate.key in unmeasured
                                        else _rate(rate.of(s)) for s in summaries.values()))
    for label, cell in _MEANS:
        table.add_row(label, *(cell(s) for s in summaries.values()))
    table.add_section()
    for rate in RATES:
        if rate.per_item:
            table.add_row(rate.label, *(_NOT_MEASURED if rate.key in unmeasured
                                        else _per_item(rate.of(s)) for s in summaries.values()))
    if any(s.model_calls or s.reply_issue_rate.total for s in summaries.values()):
        table.add_section()
        for label, cell in _USAGE_ROWS:
            table.add_row(label, *(cell(s) for s in summaries.values()))
        kinds = sorted({kind for s in summaries.values() for kind in s.reply_issues})
        for kind in kinds:
            table.add_row(f"reply issues: {term_text(kind)}",
                          *(str(s.reply_issues.get(kind, 0)) if s.reply_issue_rate.total
                            else "-" for s in summaries.values()))
    return table


_USAGE_ROWS: tuple[tuple[str, Callable[[ModeSummary], str]], ...] = (
    ("model calls", lambda s: f"{s.model_calls:,}"),
    ("tokens in / out", lambda s: f"{s.prompt_tokens:,} / {s.completion_tokens:,}"),
    ("cost", lambda s: "-" if s.cost is None else str(s.cost)),
    ("reply issues per trial", lambda s: "-" if s.mean_reply_issues is None
     else f"{s.mean_reply_issues:.2f}"),
    ("reply issue (trials)", lambda s: _rate(s.reply_issue_rate) if s.reply_issue_rate.total
     else "-"),
)
"""The usage rows, shown when an agent reports its usage (``-`` in a mode whose agent
reported none)."""


def runs_table(listings: Sequence[RunListing]) -> Table:
    """One row per stored run, newest first."""
    table = Table(title="Runs")
    table.add_column("run", no_wrap=True)
    for column in ("suite", "agent", "modes", "trials", "passed", "started", "status"):
        # Names are copied into commands: fold them onto more lines rather than cut them.
        table.add_column(column, justify="right" if column in ("trials", "passed") else "left",
                         overflow="fold" if column in ("suite", "agent", "modes") else "ellipsis")
    for run in listings:
        table.add_row(term_text(run.run_id), term_text(run.suite_id), term_text(run.agent_id),
                      term_text(", ".join(run.modes)), str(run.trials), str(run.passed),
                      f"{run.started_at:%Y-%m-%d %H:%M}",
                      "finished" if run.ended_at is not None else "unfinished")
    return table


def _agent_code(manifest: RunManifest) -> str:
    """The agent's code identity in one line: import path and code hash prefix (and the
    configuration it declares, if any); ``unknown`` for runs that did not record it."""
    identity = manifest.agent
    if identity is None:
        return "unknown (recorded before remit kept it)"
    if manifest.agent_id.startswith("mcp:"):
        client = ", ".join(f"{k}={v}" for k, v in sorted(identity.declared_config.items()))
        return f"an MCP client; its code is not remit's to see ({client or 'unnamed'})"
    path = identity.import_path or "an unnamed factory (a lambda or local function)"
    code = f"code {identity.code_hash[:12]}" if identity.code_hash else "source unreadable"
    declared = ""
    if identity.declared_config:
        declared = ", declares " + ", ".join(f"{k}={v}" for k, v in
                                             sorted(identity.declared_config.items()))
    return f"{path} ({code}{declared})"


def manifest_table(manifest: RunManifest) -> Table:
    """The run's provenance, one field per row."""
    table = Table(title=term_text(f"Run {manifest.run_id}"), show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    commit = manifest.git_commit[:12] if manifest.git_commit else "unknown"
    dirty = {True: " (dirty)", False: "", None: ""}[manifest.git_dirty]
    rows: list[tuple[str, str]] = [
        ("suite", f"{manifest.suite_id} ({manifest.suite_fingerprint[:12]})"),
        ("agent", f"{manifest.agent_id} (config {manifest.agent_config_hash[:12]})"),
        ("modes", ", ".join(f"{m.name} ({m.fingerprint[:12]})" for m in manifest.modes)),
        ("trials x seed", f"{manifest.trials} x seed {manifest.seed}"),
        ("errors", f"{manifest.error_treatment.retries} retries, then "
                   f"{manifest.error_treatment.on_exhausted}"),
        ("remit", f"{manifest.remit_version}, scorer {manifest.scorer_version}, "
                  f"commit {commit}{dirty}"),
        ("time", f"{manifest.started_at:%Y-%m-%d %H:%M:%S} -> "
                 + (f"{manifest.ended_at:%H:%M:%S}" if manifest.ended_at else "unfinished")),
    ]
    source = model_calls_source(manifest)
    if source is not None:
        rows.insert(2, ("model calls", source))
    if manifest.agent is not None:
        rows.insert(2, ("agent code", _agent_code(manifest)))
    if manifest.selection is not None:
        chosen = manifest.selection
        options = PLUGIN_OPTIONS if manifest.metadata.get("source") == "pytest" else CLI_OPTIONS
        rows.insert(1, ("selection", f"{chosen.selected} of {chosen.total} scenarios: "
                                     f"{describe(chosen, options)}"))
    for field, value in rows:
        table.add_row(field, term_text(value))
    return table


def trail_table(record: TrialRecord) -> Table:
    """A trial's trail, numbered: time, actor, what happened, and why."""
    scored = record.scored
    verdict = "passed" if scored.score.passed else "failed"
    table = Table(title=term_text(f"{scored.scenario_id} [{scored.mode}] trial {scored.trial}: "
                                  f"{verdict}"))
    for column in ("#", "t", "actor", "event", "detail"):
        table.add_column(column)
    for index, entry in enumerate(record.trail, start=1):
        if isinstance(entry, ToolCallEntry) and entry.tool not in _READS:
            continue  # a write's decision and a message's text follow as their own entries
        actor, event, detail = describe_entry(entry)
        table.add_row(str(index), f"{entry.minute}m", term_text(actor), term_text(event),
                      term_text(detail))
    return table


_READS = frozenset(spec.name for spec in tool_specs() if spec.group is ToolGroup.READ)


def describe_entry(entry: TrailEntry) -> tuple[str, str, str]:  # noqa: PLR0911 - one per kind
    """(actor, event, detail) of one trail entry, for people."""
    if isinstance(entry, ToolCallEntry):
        args = ", ".join(f"{k}={v!r}" for k, v in entry.arguments.items())
        return entry.actor.value, f"calls {entry.tool}", args
    if isinstance(entry, MessageEntry):
        return entry.sender.value, f"{entry.tool} -> {entry.to.value}", entry.text
    if isinstance(entry, DecisionEntry):
        verdict = "allowed" if entry.allowed else "DENIED"
        return (entry.role.value, f"{entry.action.value}: {verdict}",
                " ".join(entry.reasons) or ", ".join(entry.grant_ids))
    if isinstance(entry, TransitionEntry):
        return (entry.role.value, f"{entry.action.value}",
                f"{entry.from_state} -> {entry.to_state} (v{entry.version})")
    if isinstance(entry, HandoffEntry):
        who = entry.owner.value if entry.event in ("completed", "declined") else \
            entry.requester.value
        return who, f"hand-off {entry.handoff_id} {entry.event}", \
            f"{entry.action.value}{': ' + entry.reason if entry.reason else ''}"
    if isinstance(entry, ErrorEntry):
        return entry.actor.value, f"error {entry.code}", entry.message
    return "-", f"end ({entry.reason})", entry.summary


def approval_table(trail: ApprovalTrail, title: str = "Approval trail") -> Table:
    """Every authority decision of a trial, one row each: when, who, what on which quote
    version, the decision and what decided it, the authority used, unmet conditions,
    evidence and hand-off, and what the write did. ``>>`` marks the first step that
    departs from the reference plan."""
    table = Table(title=term_text(f"{title} ({len(trail.decisions)} decisions)"))
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("", "left"), ("step", "right"), ("t", "right"), ("by", "left"), ("action", "left"),
        ("quote", "left"), ("decision", "left"), ("authority, conditions, evidence", "left"),
        ("effect", "left"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for row in trail.decisions:
        version = f"v{row.version} " if row.version is not None else ""
        decided = term_text(", ".join(row.deciding))
        verdict = (f"[green]allowed[/] {decided}" if row.allowed
                   else f"[bold red]DENIED[/] {decided}")
        notes = []
        if row.allowed and row.authority and row.authority != row.role:
            notes.append(f"under {row.authority}'s authority")
        notes += [f"unmet: {u}" for u in row.unmet]
        if not row.allowed and not row.unmet:
            notes += list(row.reasons)
        if row.evidence:
            notes.append(f"evidence: {', '.join(row.evidence)}")
        if row.handoff_id:
            notes.append(f"answers {row.handoff_id}")
        table.add_row(">>" if row.diverges else "", str(row.step), f"{row.minute}m",
                      term_text(row.role), term_text(row.action),
                      term_text(f"{row.quote_id} {version}{row.version_hash}"), verdict,
                      term_text("; ".join(notes)), term_text(row.effect))
    return table


def approval_lines(trail: ApprovalTrail) -> list[str]:
    """The approval trail's sentences: the final confirmations, where the agent left the
    reference plan (or why no step is marked), and how the trial ended."""
    lines = [f"confirmed: {sentence}" for sentence in trail.confirmations]
    if trail.divergence is not None:
        d = trail.divergence
        lines.append(f">> the agent left the reference plan at step {d.step} (t={d.minute}m); "
                     f"the plan expected {d.expected}")
    elif trail.divergence_note:
        lines.append(f"divergence: {trail.divergence_note}")
    lines.append(f"ended: {trail.ended}")
    return [visible(line) for line in lines]


def comparison_table(comparison: Comparison,
                     tradeoff: Sequence[TradeoffRow] = ()) -> Table:
    """Two sides of a comparison, titled by what is compared (``Comparison.title``), a
    column per side named by its label, one row per metric: each side's value (headline
    rates with their Wilson intervals, per-item rates compactly below a rule) or, given
    the trade-off rows, each side's value and the paired difference with its interval, p
    and the label of the side it favours (see :func:`remit.reports.tradeoff.tradeoff_table`).
    Rates a side's scorer did not measure have no row."""
    a, b = comparison.a, comparison.b
    table = Table(title=term_text(comparison.title))
    table.add_column("metric", style="bold")
    table.add_column(term_text(a.label), justify="right")
    table.add_column(term_text(b.label), justify="right")
    skipped = set(a.unmeasured) | set(b.unmeasured)
    if not tradeoff:
        table.add_row("pass^1", f"{comparison.pass1_a:.2f}", f"{comparison.pass1_b:.2f}")
        headline = [r for r in RATES if not r.per_item and r.key not in skipped]
        for rate in headline:
            table.add_row(rate.label, _rate(rate.of(a.summary)), _rate(rate.of(b.summary)))
        table.add_row("review minutes", f"{a.summary.mean_review_minutes:.0f}",
                      f"{b.summary.mean_review_minutes:.0f}")
        table.add_row("denials", f"{a.summary.mean_denials:.1f}",
                      f"{b.summary.mean_denials:.1f}")
        if a.summary.mean_reply_issues is not None and b.summary.mean_reply_issues is not None:
            table.add_row("reply issue (trials)", _rate(a.summary.reply_issue_rate),
                          _rate(b.summary.reply_issue_rate))
            table.add_row("reply issues per trial", f"{a.summary.mean_reply_issues:.2f}",
                          f"{b.summary.mean_reply_issues:.2f}")
        table.add_section()
        for rate in RATES:
            if rate.per_item and rate.key not in skipped:
                table.add_row(rate.label, _per_item(rate.of(a.summary)),
                              _per_item(rate.of(b.summary)))
        return table
    table.caption = ("diff: right - left; 95% paired bootstrap interval over scenarios (a "
                     "per-item rate pools each side's items and resamples scenarios); "
                     "better only if p < 0.05")
    for name in ("diff", "interval", "p"):
        table.add_column(name, justify="right")
    table.add_column("better")
    for index, row in enumerate(tradeoff):
        if index and row.per_item and not tradeoff[index - 1].per_item:
            table.add_section()  # the per-item rates below a rule, as in the mode table
        paired = "" if row.low is None or row.high is None else \
            f"[{row.low:+.2f}, {row.high:+.2f}]"
        table.add_row(term_text(row.label), f"{row.value_a:.2f}", f"{row.value_b:.2f}",
                      f"{row.difference:+.2f}", paired,
                      "" if row.p_value is None else f"{row.p_value:.4f}",
                      term_text(row.better or ""))
    return table


def comparison_lines(comparison: Comparison) -> list[str]:
    """The comparison's verdict in sentences: delta, interval, p, flips, warnings."""
    lines = [f"delta pass^1 ({comparison.b.label} - {comparison.a.label}): "
             f"{comparison.delta:+.3f}, 95% paired bootstrap [{comparison.delta_low:+.3f}, "
             f"{comparison.delta_high:+.3f}]; McNemar exact p = {comparison.mcnemar_p:.4f} "
             f"(passes only in {comparison.b.label}: {comparison.b01}, only in "
             f"{comparison.a.label}: {comparison.b10})"]
    for flip in comparison.flips:
        lines.append(f"  flip: {flip.scenario_id}: {flip.from_} -> {flip.to}")
    for missing in comparison.missing:
        lines.append(f"  not paired: {missing.model_dump_json()}")
    lines += [f"WARNING: {warning}" for warning in comparison.warnings]
    return [visible(line) for line in lines]
