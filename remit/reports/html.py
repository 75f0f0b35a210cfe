"""The run report as one self-contained HTML page.

:func:`render_html` turns a :class:`~remit.reports.model.RunReport` into a single file
that loads nothing: the style sheet is inline, the charts are inline SVG drawn by
matplotlib (:mod:`remit.reports.charts`), the swimlanes are inline SVG
(:mod:`remit.reports.swimlane`), and the page reads fully without JavaScript (sections
are ``<details>``; one tiny inline script only opens the section a link points at).

Page order: the header with the manifest and the report's notes; the summary per mode
(the headline rates, then the per-item rates in a compact table); the comparisons
(all-tools against dual-control first) with the trade-off view and its per-item rates; the
charts; the failure causes; the per-scenario table; one section per scenario listing
its trials; one section per trial shown; and a closing note with the counts, the trials
left out and the file's own size.

Large runs stay readable: the summary comes first, every scenario and trial section is
collapsed, long link lists sit in collapsed ``<details>``, and trial sections are given
only to failing trials and to the trials whose approval trail the report kept (failing
ones first, at most ``max_trial_sections``, taken round-robin over scenario and mode so
that a cap keeps examples of every failing scenario); the closing note says how many
trials have no section. Links point only at sections that exist.

Every string taken from the stored run (the agent's messages, summaries, arguments and
exception texts above all) is written through :func:`remit.reports.safe.html_text`:
escaped, its control and bidirectional characters shown as escapes (``\\u202e``).

Example:
    >>> from pathlib import Path
    >>> Path("report.html").write_text(render_html(report), encoding="utf-8")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from remit.harness.compare import Comparison
from remit.harness.rates import RATES
from remit.harness.stats import Interval
from remit.reports.charts import (
    CHART_STYLE,
    facet_chart,
    handoffs_chart,
    mode_colours,
    pass_hat_k_chart,
    rates_chart,
)
from remit.reports.comparison import side_rows
from remit.reports.html_style import OPEN_TARGET_SCRIPT, STYLE
from remit.reports.model import (
    ComparisonReport,
    FacetRow,
    FlipTrails,
    ModeComparison,
    ModeReport,
    RunReport,
    TradeoffRow,
    TrialRow,
)
from remit.reports.safe import html_text
from remit.reports.swimlane import SWIMLANE_LEGEND, SWIMLANE_STYLE
from remit.reports.trial_sections import (
    scenario_anchor,
    scenario_sections,
    shown_trials,
    trial_anchor,
    trial_section,
)

__all__ = ["DEFAULT_MAX_TRIAL_SECTIONS", "html_pieces", "render_comparison_html", "render_html"]

DEFAULT_MAX_TRIAL_SECTIONS = 1_000
"""Trial sections a page holds at most; beyond it, trials are counted, not shown."""

_OPEN_LIMIT = 40
"""Lists longer than this are collapsed."""

_MAX_K_ROWS = 10
"""pass^k rows the summary lists before it picks a selection of k."""

_SIZE_MARK = "\x00size\x00"

_NOT_MEASURED = '<span class="muted">not measured</span>'
"""The cell of a rate the run's scorer did not measure."""

_PREFERRED = ("all_tools", "dual_control")


def _rate(interval_value: float, low: float, high: float) -> str:
    return f'{interval_value:.2f} <span class="muted">[{low:.2f}, {high:.2f}]</span>'


def _table(head: Sequence[str], rows: Iterable[Sequence[str]], css: str = "") -> str:
    """A table from already-escaped cells; cells starting with a digit are numeric."""
    def cell(tag: str, value: str) -> str:
        numeric = value[:1].isdigit() or (value[:1] in "+-" and value[1:2].isdigit())
        klass = ' class="num"' if numeric else ""
        return f"<{tag}{klass}>{value}</{tag}>"
    header = "".join(cell("th", h) for h in head)
    body = "".join("<tr>" + "".join(cell("td", c) for c in row) + "</tr>" for row in rows)
    klass = f' class="{css}"' if css else ""
    return f"<table{klass}><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"


def _collapsed(items: Sequence[str], label: str, css: str = "links") -> str:
    """A list, collapsed in a ``<details>`` when it is long."""
    listing = f'<ul class="{css}">{"".join(f"<li>{i}</li>" for i in items)}</ul>'
    if len(items) <= _OPEN_LIMIT:
        return listing
    return f"<details><summary>{html_text(label)} ({len(items)})</summary>{listing}</details>"


def _scenario_link(scenario_id: str) -> str:
    return f'<a href="#{scenario_anchor(scenario_id)}">{html_text(scenario_id)}</a>'


# -- header and summary ---------------------------------------------------------------------


def _header(report: RunReport) -> str:
    m = report.manifest
    commit = (m.git_commit[:12] if m.git_commit else "unknown") + (
        " (dirty)" if m.git_dirty else "")
    rows = [
        ("run", m.run_id), ("suite", f"{m.suite_id} (fingerprint {m.suite_fingerprint[:12]})"),
        ("agent", f"{m.agent_id} (config {m.agent_config_hash[:12]})"),
        ("modes", ", ".join(f"{x.name} ({x.fingerprint[:12]})" for x in m.modes)),
        ("trials per scenario and mode", str(m.trials)), ("seed", str(m.seed)),
        ("error treatment", f"{m.error_treatment.retries} retries, then "
                            f"{m.error_treatment.on_exhausted}"),
        ("remit", f"{m.remit_version}, scorer {m.scorer_version}, commit {commit}"),
        ("persona config", m.persona_config_hash[:12]),
        ("started", f"{m.started_at:%Y-%m-%d %H:%M:%S %Z}"),
        ("ended", f"{m.ended_at:%Y-%m-%d %H:%M:%S %Z}" if m.ended_at else "unfinished"),
        ("report", f"version {report.report_version}, generated "
                   f"{report.generated_at:%Y-%m-%d %H:%M:%S %Z}"),
    ]
    table = "".join(f"<tr><th>{html_text(k)}</th><td>{html_text(v)}</td></tr>" for k, v in rows)
    notes = "".join(f"<li>{html_text(n)}</li>" for n in report.notes)
    toc = "".join(f'<a href="#{a}">{t}</a>' for a, t in (
        ("summary", "Summary"), ("comparison", "Comparison"), ("charts", "Charts"),
        ("failures", "Failure causes"), ("scenarios", "Scenarios"), ("trials", "Trials"),
        ("closing", "Closing note")))
    return (f"<header><h1>remit report: run {html_text(m.run_id)}</h1>"
            f'<nav class="toc">{toc}</nav>'
            f'<table class="manifest">{table}</table>'
            + (f'<ul class="notes">{notes}</ul>' if notes else "") + "</header>")


def _selected(ks: Sequence[int]) -> list[int]:
    """The k values the summary table lists: all of them when few, else 1-4, the powers
    of two and the largest (the chart draws every k)."""
    if len(ks) <= _MAX_K_ROWS:
        return list(ks)
    top = ks[-1]
    powers = {2 ** i for i in range(top.bit_length()) if 2 ** i <= top}
    return sorted({k for k in ks if k <= 4 or k in powers or k == top})


def _with_counts(i: Interval) -> str:
    return f'{_rate(i.value, i.low, i.high)} <span class="muted">{i.successes}/{i.total}</span>'


def _per_item(i: Interval) -> str:
    """A per-item rate, compact: the value and its counts, or a dash without items."""
    if not i.total:
        return '<span class="muted">&#8212; (none)</span>'
    return f'{i.value:.2f} <span class="muted">{i.successes}/{i.total}</span>'


def _summary(modes: Sequence[ModeReport], unmeasured: Sequence[str]) -> str:
    ks = sorted({p.k for m in modes for p in m.pass_hat_k})
    rows: list[list[str]] = [["trials (scenarios)", *(f"{m.trials} ({m.scenarios})"
                                                      for m in modes)],
                             ["passed", *(f"{m.passed}" for m in modes)]]
    for k in _selected(ks):
        values = [{p.k: p.value for p in m.pass_hat_k}.get(k) for m in modes]
        rows.append([f"pass^{k}", *("&#8212;" if v is None else f"{v:.3f}" for v in values)])
    rows.append(["pass rate", *(_with_counts(m.pass_rate) for m in modes)])
    for r in RATES:
        if not r.per_item:
            rows.append([html_text(r.label), *(_NOT_MEASURED if r.key in unmeasured
                                            else _with_counts(r.of(m)) for m in modes)])
    rows += [
        ["mean clarification rounds", *(f"{m.mean_clarification_rounds:.2f}" for m in modes)],
        ["mean review minutes", *(f"{m.mean_review_minutes:.1f}" for m in modes)],
        ["mean denials", *(f"{m.mean_denials:.2f}" for m in modes)],
        ["mean agent steps", *(f"{m.mean_steps:.1f}" for m in modes)],
        ["agent errors", *(str(m.errors) for m in modes)],
        ["infrastructure errors (excluded)", *(f"{m.infra_errors} ({m.excluded})"
                                               for m in modes)],
    ]
    used = any(m.model_calls or m.reply_issue_rate.total for m in modes)
    if used:
        rows += [
            ["model calls", *(f"{m.model_calls:,}" for m in modes)],
            ["tokens in / out", *(f"{m.prompt_tokens:,} / {m.completion_tokens:,}"
                                  for m in modes)],
            ["cost", *("&#8212;" if m.cost is None
                       else html_text(f"{m.cost.amount:,.4f} {m.cost.currency}") for m in modes)],
            ["reply issues per trial", *("&#8212;" if m.mean_reply_issues is None
                                         else f"{m.mean_reply_issues:.2f}" for m in modes)],
            ["reply issue (trials)", *(_with_counts(m.reply_issue_rate)
                                       if m.reply_issue_rate.total else "&#8212;"
                                       for m in modes)],
        ]
    kinds = sorted({kind for m in modes for kind in m.reply_issues})
    rows += [[f"reply issues: {html_text(kind)}",
              *(str(m.reply_issues.get(kind, 0)) for m in modes)] for kind in kinds]
    issues = (" Reply issues count the model replies a well-behaved model would not send "
              "(a truncated or unparseable reply, an unknown tool, bad arguments...), over "
              "the counted trials whose agent reported its usage: per trial, the share of "
              "trials with one, and by kind, summed.") if used or kinds else ""
    items = [[html_text(r.label), *(_NOT_MEASURED if r.key in unmeasured else _per_item(r.of(m))
                                 for m in modes)] for r in RATES if r.per_item]
    head = [html_text(m.mode) for m in modes]
    return ('<section id="summary"><h2>Summary per mode</h2>'
            + _table(["metric", *head], rows, "summary")
            + '<p class="muted">Rates carry Wilson 95% intervals and count trials: a trial '
              "with several wrong SKUs, unsupported claims or hand-offs counts once. A wrong "
              "variant is final when the version offered last has it, shown when any "
              "version offered did; a hand-off is missing when the goal needed an owner "
              "action the agent never requested; no valid write counts the trials in which "
              "no write of the agent took effect. pass^k is the chance that k trials of a "
              f"scenario all pass, averaged over scenarios.{issues}</p>"
              '<p class="sub">Per item</p>'
            + _table(["rate", *head], items, "items")
            + '<p class="muted">Pooled over the counted trials: unsupported (or abandoned) / '
              "items of that kind; the intervals are in the JSON report.</p></section>")


# -- comparisons ----------------------------------------------------------------------------


def _ordered(comparisons: Sequence[ModeComparison]) -> list[ModeComparison]:
    def key(c: ModeComparison) -> int:
        return 0 if {c.a, c.b} == set(_PREFERRED) else 1
    return sorted(comparisons, key=key)


def _verdict(c: ModeComparison | Comparison) -> str:
    """The pass^1 delta, its interval and McNemar's p, in one paragraph."""
    a, b = (html_text(c.a), html_text(c.b)) if isinstance(c, ModeComparison) else \
        (html_text(c.a.label), html_text(c.b.label))
    return (f'<p class="verdict">pass^1 delta ({b} &#8722; {a}) over {c.n_paired} paired '
            f"scenarios: <b>{c.delta:+.3f}</b>, {c.confidence:.0%} paired bootstrap interval "
            f"[{c.delta_low:+.3f}, {c.delta_high:+.3f}]; McNemar exact p = "
            f"<b>{c.mcnemar_p:.4f}</b>. Scenarios passing only in {b}: {c.b01}; only in "
            f"{a}: {c.b10}.</p>")


def _tradeoff(a: str, b: str, rows: Sequence[TradeoffRow], difference: str = "") -> str:
    """The trade-off table of escaped side labels ``a`` and ``b`` (its difference column
    headed ``difference``, default b &#8722; a in labels), with the per-item rates in a
    second table."""
    head = ["metric", a, b, difference or f"{b} &#8722; {a}", "95% paired interval", "p",
            "better"]
    tradeoff = _table(head, (_tradeoff_cells(r) for r in rows if not r.per_item), "tradeoff")
    items = [[*_tradeoff_cells(r), "" if r.paired_scenarios is None else str(r.paired_scenarios)]
             for r in rows if r.per_item]
    if items:
        tradeoff += ('<p class="sub">Per item</p>'
                     + _table([*head, "paired scenarios"], items, "tradeoff-items")
                     + '<p class="muted">Each side\'s items pooled; the interval resamples '
                       "scenarios, keeping each scenario's items together.</p>")
    return tradeoff


def _comparison(c: ModeComparison) -> str:
    a, b = html_text(c.a), html_text(c.b)
    verdict = _verdict(c)
    tradeoff = _tradeoff(a, b, c.tradeoff)
    flips = [f"{_scenario_link(f.scenario_id)}: {a} {f.outcome_a} &#8594; {b} {f.outcome_b}"
             for f in c.flips]
    parts = [f"<h3>{a} vs {b}</h3>", verdict, '<p class="sub">Trade-off</p>', tradeoff,
             f'<p class="sub">Flips ({len(flips)})</p>',
             _collapsed(flips, "scenarios whose outcome flips") if flips
             else '<p class="muted">No scenario flips.</p>']
    if c.missing:
        parts.append(_collapsed([html_text(x) for x in c.missing], "not paired"))
    parts += [f'<p class="no">Warning: {html_text(w)}</p>' for w in c.warnings]
    return "".join(parts)


def _tradeoff_cells(r: TradeoffRow) -> list[str]:
    return [html_text(r.label), f"{r.value_a:.3f}", f"{r.value_b:.3f}", f"{r.difference:+.3f}",
            "" if r.low is None or r.high is None else f"[{r.low:+.3f}, {r.high:+.3f}]",
            "" if r.p_value is None else f"{r.p_value:.4f}",
            f'<span class="better">{html_text(r.better)}</span>' if r.better
            else ('<span class="muted">no clear difference</span>' if r.p_value is not None
                  else "")]


def _comparisons(report: RunReport) -> str:
    body = "".join(_comparison(c) for c in _ordered(report.comparisons)) or \
        '<p class="muted">Only one mode was run: nothing to compare.</p>'
    return f'<section id="comparison"><h2>Comparison and trade-off</h2>{body}</section>'


# -- charts, failures, scenarios ------------------------------------------------------------


def _figure(svg: str, caption: str) -> str:
    return f"<figure><figcaption>{html_text(caption)}</figcaption>{svg}</figure>" if svg else ""


def _charts(report: RunReport) -> str:
    names = [m.mode for m in report.modes]
    colours = mode_colours(names)
    figures = [
        _figure(pass_hat_k_chart(report.modes, colours), "pass^k curve per mode"),
        _figure(rates_chart(report.modes, colours, report.unmeasured_rates),
                "Share of trials with a wrong variant (final, shown), an unsupported claim, "
                "an abandoned or a missing hand-off (95% intervals)"),
        _figure(handoffs_chart(report.breakdown.handoffs, names, colours),
                f"Success by number of required hand-offs (from "
                f"{report.breakdown.handoffs_source})"),
    ]
    facets: dict[str, list[FacetRow]] = {}
    for row in report.breakdown.facets:
        facets.setdefault(row.facet, []).append(row)
    figures += [_figure(facet_chart(f, rows, names, colours, i), f"Pass rate by {f}")
                for i, (f, rows) in enumerate(facets.items())]
    missing = "" if report.breakdown.facets or report.breakdown.handoffs else (
        '<p class="muted">No per-group breakdown: the suite was not given or its scenarios '
        "carry no tags.</p>")
    return (f'<section id="charts"><h2>Charts</h2>{missing}<div class="charts">'
            f'{"".join(figures)}</div></section>')


def _failures(report: RunReport) -> str:
    if not report.failure_causes:
        return '<section id="failures"><h2>Failure causes</h2><p>No trial failed.</p></section>'
    rows = []
    for cause in report.failure_causes:
        links = [_scenario_link(s) for s in cause.scenarios]
        shown = ", ".join(links) if len(links) <= 8 else (
            ", ".join(links[:8]) + _collapsed(links[8:], "more scenarios"))
        rows.append([html_text(cause.expectation),
                     html_text(cause.rule) if cause.rule else "&#8212;",
                     str(cause.trials),
                     ", ".join(f"{html_text(c.mode)}: {c.count}" for c in cause.by_mode),
                     shown, f'<span class="muted">{html_text(cause.example)}</span>'])
    return ('<section id="failures"><h2>Failure causes</h2>'
            + _table(["expectation", "rule", "trials", "by mode", "scenarios", "example"],
                     rows) + "</section>")


def _scenario_table(report: RunReport) -> str:
    names = [m.mode for m in report.modes]
    rows = []
    for s in report.scenarios:
        cells = {c.mode: c for c in s.cells}
        per_mode = [f'<span class="{"ok" if c.passes == c.trials else "no"}">'
                    f"{c.passes}/{c.trials}</span>" if c else "&#8212;"
                    for c in (cells.get(n) for n in names)]
        flips = "; ".join(f"{html_text(f.a)} {f.outcome_a} &#8594; {html_text(f.b)} {f.outcome_b}"
                          for f in s.flips)
        tags = ", ".join(f"{html_text(k)}={html_text(v)}" for k, v in sorted(s.tags.items()))
        rows.append([_scenario_link(s.scenario_id), html_text(s.title), *per_mode, flips,
                     f'<span class="muted">{tags}</span>'])
    table = _table(["scenario", "title", *(f"{html_text(n)} passed" for n in names), "flips",
                    "tags"], rows, "scenarios")
    if len(rows) > 4 * _OPEN_LIMIT:
        table = f"<details><summary>All {len(rows)} scenarios</summary>{table}</details>"
    return f'<section id="scenarios"><h2>Scenarios ({len(rows)})</h2>{table}</section>'


# -- scenario and trial sections ------------------------------------------------------------


def _trial_sections(report: RunReport, shown: set[str]) -> list[str]:
    """The trial sections, as the pieces of one part of the page (a large run's
    sections are megabytes: they are never joined into a string of their own)."""
    rows = [t for t in report.trials if t.id in shown]
    failing = sum(not t.passed for t in rows)
    intro = (f"<p>{len(rows)} of {len(report.trials)} trials have a section here "
             f"({failing} failing, {len(rows) - failing} passing with their trail kept); "
             "each is collapsed: open it for the approval trail, the transcript and the "
             f"swimlane.</p>{SWIMLANE_LEGEND}")
    scenarios = {s.scenario_id for s in report.scenarios}
    return ['<section id="trials"><h2>Trials</h2>', intro,
            *(trial_section(t, scenario_link=t.scenario_id in scenarios,
                            unmeasured=report.unmeasured_rates) for t in rows),
            "</section>"]


def _closing(report: RunReport, shown: set[str], cap: int) -> str:
    total = len(report.trials)
    without = [t for t in report.trials if t.id not in shown]
    failing_out = sum(not t.passed for t in without)
    capped = (f" and {failing_out} failing trials beyond the cap of {cap} sections"
              if failing_out else "")
    return (f'<footer id="closing" class="closing"><h2>Closing note</h2>'
            f"<p>{total} trials in the run; {len(shown)} have a section; "
            f"{len(without)} were left out of the trial sections: "
            f"{len(without) - failing_out} passing trials (counted in every number above)"
            f"{capped}." + (" Any trial can be shown in the terminal with <code>remit trail "
                            "RUN/SCENARIO/MODE/TRIAL</code>." if without else "")
            + f"</p><p>{html_text('; '.join(report.notes))}</p>"
            f"<p>This page is one self-contained file of {_SIZE_MARK} (UTF-8); it loads "
            "nothing from the network and reads without JavaScript.</p></footer>")


def _lines(parts: Sequence[str | list[str]]) -> list[str]:
    """The pieces of ``parts`` joined by newlines (a list is a part in pieces)."""
    pieces: list[str] = []
    for index, part in enumerate(parts):
        if index:
            pieces.append("\n")
        if isinstance(part, list):
            pieces += part
        else:
            pieces.append(part)
    return pieces


def _with_size(pieces: list[str]) -> list[str]:
    """``pieces`` with the size of the page they make, in bytes when encoded as UTF-8,
    written where the size mark is.

    The page is counted once, piece by piece, never joined or encoded whole: a large
    run's page is megabytes.
    """
    marks = sum(piece.count(_SIZE_MARK) for piece in pieces)
    rest = sum(len(piece) if piece.isascii() else len(piece.encode("utf-8"))
               for piece in pieces) - marks * len(_SIZE_MARK.encode("utf-8"))
    text = "?"
    for _ in range(8):
        size = rest + marks * len(text.encode("utf-8"))
        stated = f"{size:,} bytes ({size / 1_000_000:.2f} MB)"
        if stated == text:
            break
        text = stated
    return [piece.replace(_SIZE_MARK, text) if _SIZE_MARK in piece else piece
            for piece in pieces]


def html_pieces(report: RunReport, *,
                max_trial_sections: int = DEFAULT_MAX_TRIAL_SECTIONS) -> list[str]:
    """The page of :func:`render_html` in pieces, to be written one after another (the
    page of a large run is never held whole)."""
    shown = shown_trials(report.trials, max_trial_sections)
    return _with_size(_lines([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>remit report {html_text(report.manifest.run_id)}</title>"
        f"<style>{STYLE}{CHART_STYLE}{SWIMLANE_STYLE}</style></head><body>",
        _header(report), _summary(report.modes, report.unmeasured_rates),
        _comparisons(report), _charts(report),
        _failures(report), _scenario_table(report), scenario_sections(report, shown),
        _trial_sections(report, shown), _closing(report, shown, max_trial_sections),
        f"<script>{OPEN_TARGET_SCRIPT}</script></body></html>\n",
    ]))


def render_html(report: RunReport, *,
                max_trial_sections: int = DEFAULT_MAX_TRIAL_SECTIONS) -> str:
    """The report as one self-contained HTML page (see the module docstring).

    Args:
        report: the run's report (:func:`remit.reports.build_report`).
        max_trial_sections: the most trial sections the page holds; failing trials
            come first, then passing trials whose trail the report kept.

    Returns:
        The page; write it with ``encoding="utf-8"`` (the closing note states the size
        of those bytes). The same report always gives the same text.
    """
    return "".join(html_pieces(report, max_trial_sections=max_trial_sections))


# -- the report of a comparison ------------------------------------------------------------


def _trial_link(row: TrialRow) -> str:
    return f'<a href="#{trial_anchor(row.id)}">{html_text(row.id)}</a>'


def _comparison_header(report: ComparisonReport) -> str:
    c = report.comparison
    a, b = html_text(c.a.label), html_text(c.b.label)
    rows = "".join(f"<tr><th>{html_text(field)}</th><td>{html_text(va)}</td>"
                   f"<td>{html_text(vb)}</td></tr>" for field, va, vb in side_rows(report))
    warnings = "".join(f"<li>{html_text(w)}</li>" for w in c.warnings)
    toc = "".join(f'<a href="#{anchor}">{title}</a>' for anchor, title in (
        ("metrics", "Metrics"), ("flips", "Flips"), ("trials", "Trails"),
        ("closing", "Closing note")))
    return (f"<header><h1>remit comparison: {html_text(c.title)}</h1>"
            f'<nav class="toc">{toc}</nav>'
            f'<table class="manifest"><thead><tr><th></th><th>a: {a}</th><th>b: {b}</th>'
            f"</tr></thead><tbody>{rows}</tbody></table>"
            + (f'<ul class="notes">{warnings}</ul>' if warnings else "") + "</header>")


def _flip_row(f: FlipTrails) -> list[str]:
    def outcome(value: str) -> str:
        return f'<span class="{"ok" if value == "pass" else "no"}">{value}</span>'
    return [f"<b>{html_text(f.scenario_id)}</b>", html_text(f.title), outcome(f.outcome_a),
            outcome(f.outcome_b), _trial_link(f.trial_a), _trial_link(f.trial_b)]


def _comparison_flips(report: ComparisonReport) -> str:
    c = report.comparison
    a, b = html_text(c.a.label), html_text(c.b.label)
    body = _table(["scenario", "title", a, b, f"trail on {a}", f"trail on {b}"],
                  (_flip_row(f) for f in report.flips), "flips") if report.flips else \
        '<p class="muted">No scenario flips.</p>'
    missing = [f"{html_text(m.scenario_id)}: missing on {a if m.missing_on == 'a' else b} "
               f"({html_text(m.reason.replace('_', ' '))})" for m in c.missing]
    unpaired = (f'<p class="sub">Not paired ({len(missing)})</p>'
                + _collapsed(missing, "scenarios not paired")) if missing else ""
    return (f'<section id="flips"><h2>Flips ({len(report.flips)})</h2>'
            "<p>Scenarios that pass on one side and fail on the other (a scenario passes "
            "when all its trials passed). Each links to a trial of each side below: on the "
            f"failing side its first failing trial.</p>{body}{unpaired}</section>")


def _comparison_trials(report: ComparisonReport) -> str:
    c = report.comparison
    sections = []
    for f in report.flips:
        title = f" &#8212; {html_text(f.title)}" if f.title else ""
        sections.append(f"<h3>{html_text(f.scenario_id)}{title}</h3>")
        for name, side, outcome, row in (("a", c.a, f.outcome_a, f.trial_a),
                                         ("b", c.b, f.outcome_b, f.trial_b)):
            sections.append(f'<p class="sub">{name}: {html_text(side.label)}: scenario '
                            f'<span class="{"ok" if outcome == "pass" else "no"}">{outcome}'
                            "</span></p>"
                            + trial_section(row, scenario_link=False, unmeasured=side.unmeasured))
    return (f'<section id="trials"><h2>Trails of the flipping scenarios</h2>'
            f"<p>{2 * len(report.flips)} trials, two per flip; each is collapsed: open it for "
            f"the approval trail, the transcript and the swimlane.</p>{SWIMLANE_LEGEND}"
            f"{''.join(sections)}</section>")


def render_comparison_html(report: ComparisonReport) -> str:
    """The report of a comparison (``remit report RUN1 RUN2 -o cmp.html``) as one
    self-contained page: the title saying what is compared, both sides' facts and the
    warnings; the pass^1 verdict and the trade-off (each metric on both sides, the
    paired difference, its interval and p, the better side by its label); the flips,
    each linked to a trial section of each side; those trial sections (as in
    :func:`render_html`: facts, swimlane, approval trail, transcript); a closing note.
    Everything taken from stored text is escaped.

    Returns:
        The page; write it with ``encoding="utf-8"``. The same report always gives the
        same text.
    """
    c = report.comparison
    a, b = html_text(c.a.label), html_text(c.b.label)
    metrics = ('<section id="metrics"><h2>Metrics</h2>' + _verdict(c)
               + _tradeoff(f"a: {a}", f"b: {b}", report.tradeoff, "b &#8722; a")
               + '<p class="muted">Differences are b &#8722; a; the interval is a 95% paired '
                 "bootstrap over scenarios, p the paired test (McNemar's exact test for "
                 "pass^1, a sign-flip randomization test otherwise); the better side is "
                 "named only where p &lt; 0.05 (higher pass^k, lower everything else).</p>"
                 "</section>")
    closing = (f'<footer id="closing" class="closing"><h2>Closing note</h2>'
               f"<p>Generated {report.generated_at:%Y-%m-%d %H:%M:%S %Z}. Any trial can be "
               "shown in the terminal with <code>remit trail RUN/SCENARIO/MODE/TRIAL</code>; "
               "each run's own report (<code>remit report RUN -o run.html</code>) holds its "
               f"other trials.</p><p>This page is one self-contained file of {_SIZE_MARK} "
               "(UTF-8); it loads nothing from the network and reads without JavaScript."
               "</p></footer>")
    parts = [
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>remit comparison {html_text(c.title)}</title>"
        f"<style>{STYLE}{SWIMLANE_STYLE}</style></head><body>",
        _comparison_header(report), metrics, _comparison_flips(report),
        _comparison_trials(report), closing,
        f"<script>{OPEN_TARGET_SCRIPT}</script></body></html>\n",
    ]
    return "".join(_with_size(_lines(parts)))
