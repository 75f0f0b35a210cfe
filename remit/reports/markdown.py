"""The report as Markdown, readable in a code review (GitHub-flavoured tables).

:func:`render_markdown` writes, in order: the notes, the manifest, the per-mode table
(pass^k for every k, the headline rates with Wilson 95% intervals, the means, errors;
for an agent that reports its usage, model calls, tokens, cost, reply issues per trial,
the share of trials with one, and reply issues by kind) with the per-item rates in a
compact table under it, each mode comparison (pass^1 delta with its paired bootstrap
interval and McNemar p, the flips, the trade-off table and its per-item rates), the
breakdown by subtask group and by required hand-offs, the failure causes, the
per-scenario table, and the approval trails of failing trials (what broke, the trial's
wrong variants, unsupported claims, unsupported citations, abandoned and missing
hand-offs, numbered steps, each with its effect; ``>>`` marks the first divergence from
the reference plan; that the agent made no valid write, when it made none; a trial's
model usage and reply issues when its agent reports them; the transcript follows). A
rate the run's scorer did not measure reads ``n/a``. Long sections are capped
(:data:`MAX_SCENARIO_ROWS`, :data:`MAX_TRAILS`...) with a note saying how much was left
out; the JSON report holds everything.

Every string taken from the stored run (the agent's text above all: its messages, its
``end`` summary, the ids and SKUs it invented, its exception texts, the claims the scorer
quotes) is written through :func:`remit.reports.safe.md_text`, or inside a fenced block
through :func:`remit.reports.safe.md_block`, so it renders as written and adds no HTML,
link, image or table cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC

from remit.actors import AgentUsage
from remit.catalogue import Money
from remit.harness import NO_VALID_WRITE, reply_issues_text
from remit.harness.rates import RATES
from remit.harness.stats import Interval
from remit.reports.comparison import side_rows
from remit.reports.model import (
    ApprovalTrail,
    BreakdownCell,
    ComparisonReport,
    ModeComparison,
    RunReport,
    TradeoffRow,
    TrialRow,
)
from remit.reports.safe import md_block, md_code, md_text, visible

__all__ = ["MAX_CURVE_POINTS", "MAX_FLIPS", "MAX_SCENARIO_ROWS", "MAX_TRAILS",
           "render_comparison_markdown", "render_markdown"]

MAX_TRAILS = 20
"""Approval trails shown (one per failing scenario and mode first)."""

MAX_SCENARIO_ROWS = 200
"""Rows of the per-scenario table; failing scenarios come first when it is capped."""

MAX_FLIPS = 30
"""Flipping scenarios listed per comparison."""

MAX_CURVE_POINTS = 10
"""Points of the pass^k curve shown per mode (the first four, then evenly spaced)."""

_MAX_TRANSCRIPT = 40
_TEXT_CHARS = 160


def _table(header: Sequence[str], rows: Iterable[Sequence[object]],
           right: Sequence[int] = ()) -> list[str]:
    """A table of cells that are Markdown already: numbers, remit's own words, and
    stored text through :func:`md_text` (which escapes ``|``)."""
    align = ["---:" if i in right else "---" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


_NOT_MEASURED = "n/a"
"""The cell of a rate the run's scorer did not measure."""


def _rate(interval: Interval) -> str:
    return f"{interval.value:.2f} [{interval.low:.2f}, {interval.high:.2f}]"


def _per_item(interval: Interval) -> str:
    """A per-item rate, compact: ``0.10 (2/20)``, or ``-`` when there was no item."""
    if not interval.total:
        return "-"
    return f"{interval.value:.2f} ({interval.successes}/{interval.total})"


def _clip(text: str, limit: int = _TEXT_CHARS) -> str:
    """``text`` on one line (its controls shown first: white space such as CR is shown,
    not folded), cut to ``limit`` characters."""
    text = " ".join(visible(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _money(money: Money) -> str:
    """Model costs are often fractions of a cent: four decimals, not two."""
    return f"{money.amount:,.4f} {md_text(money.currency)}"


def _usage(usage: AgentUsage) -> list[str]:
    """A trial's spending and its unusable model replies, as list items."""
    cost = "unpriced" if usage.cost is None else _money(usage.cost)
    return [f"- model: {_count(usage.model_calls, 'call')}, tokens in / out "
            f"{usage.prompt_tokens:,} / {usage.completion_tokens:,}, cost {cost}",
            f"- reply issues: {md_text(reply_issues_text(usage.reply_issues))}"]


# -- sections ------------------------------------------------------------------------------


def _manifest(report: RunReport) -> list[str]:
    m = report.manifest
    commit = m.git_commit[:12] if m.git_commit else "unknown"
    dirty = " (dirty)" if m.git_dirty else ""
    ended = f"{m.ended_at:%Y-%m-%d %H:%M:%S}" if m.ended_at else "unfinished"
    rows = [
        ("run", md_text(m.run_id)),
        ("suite", md_text(f"{m.suite_id} ({m.suite_fingerprint[:12]})")),
        ("agent", md_text(f"{m.agent_id} (config {m.agent_config_hash[:12]})")),
        ("modes", md_text(", ".join(f"{x.name} ({x.fingerprint[:12]})" for x in m.modes))),
        ("trials x seed", f"{m.trials} x seed {m.seed}"),
        ("errors", f"{m.error_treatment.retries} retries, then {m.error_treatment.on_exhausted}"),
        ("remit", md_text(f"{m.remit_version}, scorer {m.scorer_version}, commit "
                          f"{commit}{dirty}")),
        ("time", f"{m.started_at:%Y-%m-%d %H:%M:%S} -> {ended} UTC"),
    ]
    return ["## Manifest", "", *_table(("field", "value"), rows)]


def _modes(report: RunReport) -> list[str]:
    modes = report.modes
    every = sorted({p.k for m in modes for p in m.pass_hat_k})
    ks = _curve_points(every)
    rows: list[list[str]] = []
    for k in ks:
        rows.append([f"pass^{k}", *(next((f"{p.value:.2f}" for p in m.pass_hat_k if p.k == k),
                                         "-") for m in modes)])
    skip = set(report.unmeasured_rates)
    rows += [
        ["trials", *(f"{m.trials} ({m.scenarios} scenarios)" for m in modes)],
        ["pass rate", *(_rate(m.pass_rate) for m in modes)],
    ]
    rows += [[r.label, *(_NOT_MEASURED if r.key in skip else _rate(r.of(m)) for m in modes)]
             for r in RATES if not r.per_item]
    rows += [
        ["clarification rounds", *(f"{m.mean_clarification_rounds:.1f}" for m in modes)],
        ["review minutes", *(f"{m.mean_review_minutes:.0f}" for m in modes)],
        ["denials", *(f"{m.mean_denials:.1f}" for m in modes)],
        ["steps", *(f"{m.mean_steps:.1f}" for m in modes)],
        ["agent errors", *(str(m.errors) for m in modes)],
        ["infra errors (excluded)", *(f"{m.infra_errors} ({m.excluded})" for m in modes)],
    ]
    used = any(m.model_calls or m.reply_issue_rate.total for m in modes)
    if used:
        rows += [
            ["model calls", *(f"{m.model_calls:,}" for m in modes)],
            ["tokens in / out", *(f"{m.prompt_tokens:,} / {m.completion_tokens:,}"
                                  for m in modes)],
            ["cost", *("-" if m.cost is None else _money(m.cost) for m in modes)],
            ["reply issues per trial", *("-" if m.mean_reply_issues is None
                                         else f"{m.mean_reply_issues:.2f}" for m in modes)],
            ["reply issue (trials)", *(_rate(m.reply_issue_rate) if m.reply_issue_rate.total
                                       else "-" for m in modes)],
        ]
    kinds = sorted({kind for m in modes for kind in m.reply_issues})
    rows += [[f"reply issues: {md_text(kind)}", *(str(m.reply_issues.get(kind, 0)) for m in modes)]
             for kind in kinds]
    shown = "" if ks == every else (f" pass^k is shown at k = {', '.join(map(str, ks))} of "
                                    f"1..{every[-1]}; the JSON report holds every k.")
    issues = (" Reply issues count the model replies a well-behaved model would not send, "
              "over the counted trials whose agent reported its usage: per trial, the share "
              "of trials with one, and by kind, summed.") if used or kinds else ""
    unmeasured = f" {_NOT_MEASURED}: not measured by this run's scorer." if skip else ""
    items = [[r.label, *(_NOT_MEASURED if r.key in skip else _per_item(r.of(m))
                         for m in modes)] for r in RATES if r.per_item]
    right = range(1, len(modes) + 1)
    return ["## Per-mode results", "",
            f"Rates carry Wilson 95% intervals and are shares of trials: {_READING} Means "
            f"are per trial.{shown}{issues}{unmeasured}", "",
            *_table(("metric", *(md_text(m.mode) for m in modes)), rows, right=right), "",
            "Per item, pooled over the counted trials: unsupported (or abandoned) / items, "
            "`-` when there was none; the intervals are in the JSON report.", "",
            *_table(("per item", *(md_text(m.mode) for m in modes)), items, right=right)]


_READING = ("a trial with several wrong SKUs, unsupported claims or hand-offs counts once; "
            "a wrong variant is final when the version offered last has it and shown when "
            "any version offered did; a hand-off is missing when the goal needed an owner "
            "action the agent never requested; no valid write counts the trials in which "
            "no write of the agent took effect.")
"""How the headline rates read, under the per-mode table."""


def _curve_points(ks: Sequence[int]) -> list[int]:
    """At most :data:`MAX_CURVE_POINTS` ks: the first few, then evenly spaced, the last."""
    if len(ks) <= MAX_CURVE_POINTS:
        return list(ks)
    head = list(ks[:4])
    rest = ks[4:]
    step = (len(rest) - 1) / (MAX_CURVE_POINTS - 5)
    return head + sorted({rest[round(i * step)] for i in range(MAX_CURVE_POINTS - 4)})


def _comparison(c: ModeComparison) -> list[str]:
    a, b = md_text(c.a), md_text(c.b)
    lines = [f"### {b} vs {a}", "",
             f"- pass^1: {a} {c.pass1_a:.2f}, {b} {c.pass1_b:.2f} over "
             f"{_count(c.n_paired, 'paired scenario')}",
             f"- delta ({b} - {a}): {c.delta:+.3f}, {c.confidence:.0%} paired bootstrap "
             f"[{c.delta_low:+.3f}, {c.delta_high:+.3f}]; McNemar exact p = {c.mcnemar_p:.4f}",
             f"- scenarios passing only in {b}: {c.b01}; only in {a}: {c.b10}"]
    for flip in c.flips[:MAX_FLIPS]:
        lines.append(f"  - flip: {md_code(flip.scenario_id)}: {flip.outcome_a} -> "
                     f"{flip.outcome_b}")
    if len(c.flips) > MAX_FLIPS:
        lines.append(f"  - ... and {len(c.flips) - MAX_FLIPS} more flips (see the JSON report)")
    lines += [f"- not paired: {md_text(m)}" for m in c.missing]
    lines += [f"- **warning**: {md_text(w)}" for w in c.warnings]
    return [*lines, "", *_tradeoff(a, b, c.tradeoff)]


def _tradeoff(a: str, b: str, tradeoff: Sequence[TradeoffRow], *,
              difference: str = "") -> list[str]:
    """The trade-off of sides ``a`` and ``b`` (their labels, as Markdown): a sentence
    naming what each side is better on, the table (its difference column headed
    ``difference``, default ``b - a`` in labels), and the per-item rates in a second
    table."""
    wins = [(label, [md_text(t.label) for t in tradeoff if t.favours == side])
            for label, side in ((b, "b"), (a, "a"))]
    verdict = "; ".join(f"{label} is better on {', '.join(metrics)}"
                        for label, metrics in wins if metrics) or "no clear difference"
    head = ("metric", a, b, difference or f"{b} - {a}", "95% paired interval", "p", "better")
    lines = [f"Trade-off: {verdict} (better: higher pass^k, lower everything else; "
             "named only where the paired test gives p < 0.05).",
             "",
             *_table(head, [_tradeoff_row(t) for t in tradeoff if not t.per_item],
                     right=(1, 2, 3))]
    items = [(*_tradeoff_row(t), "" if t.paired_scenarios is None else t.paired_scenarios)
             for t in tradeoff if t.per_item]
    if items:
        lines += ["", "Per item (each side's items pooled; the interval resamples "
                      "scenarios, keeping each scenario's items together):", "",
                  *_table((*head, "paired scenarios"), items, right=(1, 2, 3, 7))]
    return lines


def _tradeoff_row(t: TradeoffRow) -> tuple[str, ...]:
    return (md_text(t.label), f"{t.value_a:.2f}", f"{t.value_b:.2f}", f"{t.difference:+.2f}",
            _interval(t.low, t.high), "" if t.p_value is None else f"{t.p_value:.4f}",
            md_text(t.better) if t.better
            else ("-" if t.p_value is None else "no clear difference"))


def _interval(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f"[{low:+.2f}, {high:+.2f}]"


def _comparisons(report: RunReport) -> list[str]:
    if not report.comparisons:
        return ["## Mode comparison", "", "Only one mode was compared: nothing to pair."]
    lines = ["## Mode comparison", ""]
    for c in report.comparisons:
        lines += [*_comparison(c), ""]
    return lines[:-1]


def _cells(modes: Sequence[str], cells: Sequence[BreakdownCell]) -> list[str]:
    by_mode = {c.mode: c for c in cells}
    return [f"{by_mode[m].passed}/{by_mode[m].trials} ({by_mode[m].pass_rate.value:.2f})"
            if m in by_mode else "-" for m in modes]


def _breakdown(report: RunReport) -> list[str]:
    modes = [m.mode for m in report.modes]
    heads = [md_text(m) for m in modes]
    right = range(2, len(modes) + 2)
    b = report.breakdown
    lines = ["## Breakdown", ""]
    if b.handoffs_source == "unavailable":
        return [*lines, "Unavailable: no suite was given, so tags and plans are unknown."]
    facets = list(dict.fromkeys(r.facet for r in b.facets))
    if not facets:
        lines += ["No scenario carries tags (handwritten scenarios): no per-group breakdown.",
                  ""]
    for facet in facets:
        rows = [(md_text(r.value), r.scenarios, *_cells(modes, r.cells))
                for r in b.facets if r.facet == facet]
        lines += [f"### By {md_text(facet)}", "",
                  *_table((md_text(facet), "scenarios", *heads), rows, right), ""]
    source = ("the scenarios' tags" if b.handoffs_source == "tags"
              else "the owner steps of the reference plans")
    rows = [(r.handoffs, r.scenarios, *_cells(modes, r.cells)) for r in b.handoffs]
    lines += ["### Success by required hand-offs", "",
              f"Passed/trials (pass rate) by the number of owner actions the scenario needs, "
              f"from {source}.", "",
              *_table(("hand-offs", "scenarios", *heads), rows, right)]
    return lines


def _failure_causes(report: RunReport) -> list[str]:
    if not report.failure_causes:
        return ["## Failure causes", "", "No trial failed."]
    modes = [m.mode for m in report.modes]
    rows = []
    for cause in report.failure_causes:
        counts = {c.mode: c.count for c in cause.by_mode}
        first = md_text(", ".join(cause.scenarios[:3]))
        more = f" (+{len(cause.scenarios) - 3})" if len(cause.scenarios) > 3 else ""
        rows.append((md_text(cause.expectation), md_text(cause.rule or "-"), cause.trials,
                     *(counts.get(m, 0) for m in modes), f"{first}{more}",
                     md_text(_clip(cause.example, 120))))
    return ["## Failure causes", "",
            "Failing trials grouped by the broken expectation and the fit rule it names.", "",
            *_table(("expectation", "rule", "trials", *(md_text(m) for m in modes), "scenarios",
                     "example"), rows, right=range(2, len(modes) + 3))]


def _scenarios(report: RunReport) -> list[str]:
    modes = [m.mode for m in report.modes]
    rows = list(report.scenarios)
    capped = len(rows) > MAX_SCENARIO_ROWS
    if capped:
        failing = [r for r in rows if any(c.passes < c.trials for c in r.cells)]
        passing = [r for r in rows if r not in failing]
        rows = (failing + passing)[:MAX_SCENARIO_ROWS]
    table = []
    for row in rows:
        cells = {c.mode: c for c in row.cells}
        flips = "; ".join(f"{md_text(f.a)} {f.outcome_a} -> {md_text(f.b)} {f.outcome_b}"
                          for f in row.flips)
        table.append((md_text(row.scenario_id), *(
            f"{cells[m].passes}/{cells[m].trials}" + ("" if cells[m].pass_hat_k else " x")
            if m in cells else "-" for m in modes), flips))
    lines = ["## Per-scenario results", "",
             "Passes/trials per mode; `x` marks a scenario that is not reliable "
             "(pass^k = 0 at k = trials).", "",
             *_table(("scenario", *(md_text(m) for m in modes), "flips"), table,
                     right=range(1, len(modes) + 1))]
    if capped:
        lines += ["", f"({len(report.scenarios) - MAX_SCENARIO_ROWS} more scenarios left "
                      "out; failing scenarios are listed first; see the JSON report)"]
    return lines


# -- approval trails -----------------------------------------------------------------------


def _decision_lines(trail: ApprovalTrail) -> list[str]:
    lines: list[str] = []
    marked = False
    found = trail.divergence
    for d in trail.decisions:
        if found is not None and not marked and d.step > found.step:
            lines += [f">> {found.step:02d} [t={found.minute:>3}m] agent departs from the plan",
                      f"      plan expected: {found.expected}"]
            marked = True
        mark = ">>" if d.diverges and not marked else "  "
        version = f" v{d.version}" if d.version is not None else ""
        verdict = "allowed" if d.allowed else "DENIED"
        by = f" by {', '.join(d.deciding)}" if d.deciding else \
            ("" if d.allowed else " (no grant)")
        under = f" under {d.authority}'s authority" if d.authority and d.authority != d.role \
            else ""
        answered = f", answers {d.handoff_id}" if d.handoff_id else ""
        effect = f"; {_clip(d.effect, 80)}" if d.effect else ""
        lines.append(f"{mark} {d.step:02d} [t={d.minute:>3}m] {d.actor_id} ({d.role}) "
                     f"{d.action} {d.quote_id}{version} ({d.version_hash}): "
                     f"{verdict}{by}{under}{answered}{effect}")
        if d.diverges and not marked and found is not None:
            lines.append(f"      plan expected: {found.expected}")
            marked = True
        lines += [f"      unmet: {u}" for u in d.unmet]
        if not d.allowed and not d.unmet:
            lines += [f"      reason: {_clip(r)}" for r in d.reasons[:2]]
        if d.evidence:
            lines.append(f"      evidence: {', '.join(d.evidence)}")
    if found is not None and not marked:
        lines += [f">> {found.step:02d} [t={found.minute:>3}m] agent departs from the plan",
                  f"      plan expected: {found.expected}"]
    return lines or ["   (no authority decision)"]


def _sentences(title: str, sentences: Sequence[str]) -> list[str]:
    """A titled sub-list of a trial's sentences (at most eight), or nothing."""
    if not sentences:
        return []
    lines = [f"- {title}:", *(f"  - {md_text(_clip(s, 200))}" for s in sentences[:8])]
    if len(sentences) > 8:
        lines.append(f"  - ... and {len(sentences) - 8} more")
    return lines


def _trail(number: int, row: TrialRow, trail: ApprovalTrail) -> list[str]:
    verdict = "passed" if row.passed else "failed"
    lines = [f"### {number}. {md_code(row.id)}: {verdict}", ""]
    lines += [f"- broke: {md_text(_clip(f, 200))}" for f in row.score.failures[:8]]
    if len(row.score.failures) > 8:
        lines.append(f"- ... and {len(row.score.failures) - 8} more")
    score = row.score
    lines += _sentences("wrong variants", score.wrong_variants)
    lines += _sentences("unsupported claims", score.unsupported)
    lines += _sentences("unsupported citations", score.unsupported_cited)
    lines += _sentences("abandoned hand-offs", score.abandoned)
    lines += _sentences("missing hand-offs", score.missing)
    lines += [f"- {md_text(c)}" for c in trail.confirmations]
    if trail.divergence is not None:
        lines.append(f"- left the reference plan at step {trail.divergence.step:02d} "
                     f"(plan expected {md_text(trail.divergence.expected)})")
    elif trail.divergence_note:
        lines.append(f"- {md_text(trail.divergence_note)}")
    lines.append(f"- ended: {md_text(_clip(trail.ended, 200))}")
    if score.no_valid_write:
        lines.append(f"- {NO_VALID_WRITE}")
    if row.score.usage is not None:
        lines += _usage(row.score.usage)
    lines += ["", "Decisions:", "", *md_block(_decision_lines(trail))]
    transcript = [f"{t.step:02d} [t={t.minute:>3}m] {t.sender} -> {t.to} ({t.tool}): "
                  f"{_clip(t.text)}" for t in trail.transcript]
    if len(transcript) > _MAX_TRANSCRIPT:
        left = len(transcript) - _MAX_TRANSCRIPT
        transcript = [*transcript[:_MAX_TRANSCRIPT], f"... {_count(left, 'more message')}"]
    lines += ["", "Transcript:", "", *md_block(transcript or ["(no message)"])]
    return lines


def _shown(report: RunReport) -> list[tuple[TrialRow, ApprovalTrail]]:
    failing = [(t, t.trail) for t in report.trials if not t.passed and t.trail is not None]
    first: dict[tuple[str, str], tuple[TrialRow, ApprovalTrail]] = {}
    for row, trail in failing:
        first.setdefault((row.scenario_id, row.mode), (row, trail))
    chosen = list(first.values())
    taken = {row.id for row, _ in chosen}
    chosen += [(row, trail) for row, trail in failing if row.id not in taken]
    return chosen[:MAX_TRAILS]


def _trails(report: RunReport) -> list[str]:
    lines = ["## Approval trails of failing trials", ""]
    failing = sum(not t.passed for t in report.trials)
    if not failing:
        return [*lines, "No trial failed."]
    shown = _shown(report)
    if not shown:
        return [*lines, f"{_count(failing, 'trial')} failed, but the report keeps no "
                        f"approval trail (trail policy {report.trail_policy!r})."]
    with_trail = sum(not t.passed and t.trail is not None for t in report.trials)
    if with_trail > len(shown):
        lines += [f"Showing {len(shown)} of {with_trail} failing trials with a trail (one "
                  "per scenario and mode first); the JSON report holds them all.", ""]
    for number, (row, trail) in enumerate(shown, start=1):
        lines += [*_trail(number, row, trail), ""]
    return lines[:-1]


def render_markdown(report: RunReport) -> str:
    """The report as Markdown (see the module docstring for the sections).

    Example:
        >>> text = render_markdown(build_report(manifest, records, suite))  # doctest: +SKIP
        >>> text.splitlines()[0]                                             # doctest: +SKIP
        '# remit report: run r-20261129-155149-46373e'
    """
    m = report.manifest
    head = [f"# remit report: run {md_text(m.run_id)}", "",
            f"{md_text(m.agent_id)} on suite {md_text(m.suite_id)}, modes "
            f"{md_text(', '.join(x.mode for x in report.modes))}; {m.trials} trials per "
            f"scenario and mode. Report version {md_text(report.report_version)}, generated "
            f"{report.generated_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC.", ""]
    head += [f"> {md_text(note)}" for note in report.notes]
    sections = [_manifest(report), _modes(report), _comparisons(report),
                _breakdown(report), _failure_causes(report), _scenarios(report),
                _trails(report)]
    lines = head
    for section in sections:
        lines += ["", *section]
    return "\n".join(lines) + "\n"


# -- the report of a comparison ------------------------------------------------------------


def render_comparison_markdown(report: ComparisonReport) -> str:
    """The report of a comparison (``remit report RUN1 RUN2 -o cmp.md``) as Markdown: the
    title saying what is compared, the warnings, both sides' facts, the pass^1 verdict,
    the trade-off (each metric on both sides, the paired difference, its interval and p,
    the better side), every flip with the ``remit trail`` command of each side's trial,
    and the scenarios left unpaired. Sides are named by their labels throughout.

    Example:
        >>> text = render_comparison_markdown(report)                  # doctest: +SKIP
        >>> text.splitlines()[0]                                       # doctest: +SKIP
        '# remit comparison: runs r-A (baseline) vs r-B (oracle), mode dual_control, ...'
    """
    c = report.comparison
    a, b = md_text(c.a.label), md_text(c.b.label)
    lines = [f"# remit comparison: {md_text(c.title)}", "",
             f"Side a is {a}, side b is {b}; differences are b - a. Generated "
             f"{report.generated_at.astimezone(UTC):%Y-%m-%d %H:%M} UTC.", ""]
    lines += [f"> **warning**: {md_text(w)}" for w in c.warnings]
    sides = [(field, md_text(va), md_text(vb)) for field, va, vb in side_rows(report)]
    lines += ([""] if c.warnings else []) + [
              "## Sides", "", *_table(("", f"a: {a}", f"b: {b}"), sides),
              "", "## Metrics", "",
              f"- pass^1: {a} {c.pass1_a:.2f}, {b} {c.pass1_b:.2f} over "
              f"{_count(c.n_paired, 'paired scenario')}",
              f"- delta ({b} - {a}): {c.delta:+.3f}, {c.confidence:.0%} paired bootstrap "
              f"[{c.delta_low:+.3f}, {c.delta_high:+.3f}]; McNemar exact p = {c.mcnemar_p:.4f}",
              f"- scenarios passing only in {b}: {c.b01}; only in {a}: {c.b10}", "",
              *_tradeoff(a, b, report.tradeoff, difference="b - a"), "",
              f"## Flips ({len(report.flips)})", ""]
    if report.flips:
        rows = [(md_code(f.scenario_id, cell=True), f.outcome_a, f.outcome_b,
                 md_code(f"remit trail {f.trial_a.id}", cell=True),
                 md_code(f"remit trail {f.trial_b.id}", cell=True))
                for f in report.flips]
        lines += ["Scenarios that pass on one side and fail on the other (a scenario passes "
                  "when all its trials passed); each side's trail is one command away (on "
                  "the failing side, its first failing trial).", "",
                  *_table(("scenario", a, b, f"trail on {a}", f"trail on {b}"), rows)]
    else:
        lines.append("No scenario flips.")
    if c.missing:
        lines += ["", f"## Not paired ({len(c.missing)})", ""]
        lines += [f"- {md_code(m.scenario_id)}: missing on {a if m.missing_on == 'a' else b} "
                  f"({md_text(m.reason.replace('_', ' '))})" for m in c.missing]
    return "\n".join(lines) + "\n"
