"""The HTML report's trial and scenario sections.

Which trials get a section (:func:`shown_trials`): failing trials first, then passing
trials whose approval trail the report kept, taken round-robin over (scenario, mode) up
to a cap, so a capped page still shows examples of every failing scenario and mode.
Each scenario section (:func:`scenario_sections`) lists its trials per mode: links to
those with a section, index ranges for the others. Each trial shown gets one collapsed
``<details>`` (:func:`trial_section`).

A trial section opens on the trial's verdict and ends with its approval trail:

- the score's facts (final state, end reason, steps, denials, the agent's writes that
  took effect (0 says the agent made no valid write), wrong variant final and shown,
  stated claims by kind and citations with how many are unsupported, hand-offs opened
  and abandoned, missing hand-offs; for an agent that reports its usage, its model
  calls, tokens, cost and unusable replies by kind; a fact the run's scorer did not
  measure reads "not measured") and, as sentences, every broken expectation, wrong
  variant (with the rules excluding it), unsupported stated claim, unsupported citation
  (apart), abandoned hand-off and missing hand-off;
- the divergence from the reference plan (:func:`remit.reports.divergence`: where the
  failure became inevitable), called out, and the shortest explaining trail
  (:func:`remit.reports.explain`) when the report carries it;
- the swimlane of the four parties (:func:`remit.reports.swimlane.swimlane_svg`);
- two columns (one below 900 px): the approval trail table (each decision with its
  step and minute, its role and actor and, for a write on another role's grant, whose
  authority it used; its effect: the transition made, the new version, or the code of
  the error that stopped an allowed write, in red like a denial; the grant or forbid
  ids that decided it; the diverging row marked ``>>``; under a decision, a full-width
  row with its unmet conditions and reasons, the stopped write's error message and the
  evidence cited) with the final confirmations under it, and the transcript beside it.
  The table's columns have fixed widths and long text wraps anywhere, so no reason ever
  needs a sideways scroll; nor does the explaining trail, whose long lines wrap with a
  hanging indent.

Anchors: a trial's section has the id ``trial-<run>/<scenario>/<mode>/<n>`` and a
scenario's ``scenario-<id>``, with every character outside ``A-Z a-z 0-9 . _ / -``
escaped as ``~`` and two hex digits per UTF-8 byte (:func:`anchor`), so the same string
is a valid id and a fragment that needs no percent-encoding.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from remit.harness.scoring import NO_VALID_WRITE, TrialScore, reply_issues_text
from remit.reports.model import ApprovalTrail, DecisionRow, RunReport, TranscriptLine, TrialRow
from remit.reports.safe import html_text
from remit.reports.swimlane import swimlane_svg

__all__ = [
    "anchor",
    "scenario_anchor",
    "scenario_sections",
    "shown_trials",
    "trial_anchor",
    "trial_section",
]

_OPEN_LIMIT = 40
"""Link lists longer than this are collapsed."""

_VERSION = re.compile(r"v[0-9]+")
"""An effect that is a new version of the quote (``v3``)."""

_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/-")


def anchor(prefix: str, raw: str) -> str:
    """``prefix-raw`` with unsafe characters escaped (see the module docstring).

    Example:
        >>> anchor("scenario", "fit check #2")
        'scenario-fit~20check~20~232'
    """
    out = [ch if ch in _SAFE else "".join(f"~{b:02x}" for b in ch.encode()) for ch in raw]
    return f"{prefix}-{''.join(out)}"


def scenario_anchor(scenario_id: str) -> str:
    """The id of a scenario's section."""
    return anchor("scenario", scenario_id)


def trial_anchor(trial_id: str) -> str:
    """The id of a trial's section (``trial_id`` is ``run/scenario/mode/n``)."""
    return anchor("trial", trial_id)


def _verdict(row: TrialRow) -> str:
    if row.infra_error is not None:
        return "infrastructure error"
    return "passed" if row.passed else "failed"


_NOT_MEASURED = "not measured"


def _yes(wrong: bool, skus: Sequence[str]) -> str:
    return f"yes ({', '.join(skus)})" if wrong else "no"


def _score_facts(score: TrialScore, unmeasured: Collection[str]) -> list[tuple[str, str]]:
    """What the trial's score counted; a count its scorer did not keep reads
    "not measured" (scorer 1 kept abandoned hand-offs but not those opened)."""
    def fact(key: str, value: str) -> str:
        return _NOT_MEASURED if key in unmeasured else value

    kinds = ", ".join(f"{kind} {total} ({bad})" for kind, total, bad in (
        ("attribute", score.attribute_claims, score.unsupported_attribute_claims),
        ("fit", score.fit_claims, score.unsupported_fit_claims),
        ("authority", score.authority_claims, score.unsupported_authority_claims)))
    handoffs = (("abandoned hand-offs", str(score.abandoned_handoffs))
                if "abandoned_per_handoff" in unmeasured else
                ("hand-offs opened (abandoned)",
                 f"{score.handoffs} ({score.abandoned_handoffs})"))
    return [
        ("wrong variant (final)", _yes(score.wrong_variant, score.wrong_skus)),
        ("wrong variant (shown)", fact("wrong_variant_shown_rate", _yes(
            score.wrong_variant_shown, score.wrong_shown_skus))),
        ("claims (unsupported)" if "unsupported_cited" in unmeasured  # citations too
         else "stated claims (unsupported)", f"{score.claims} ({score.unsupported_claims})"),
        ("by kind (unsupported)", fact("unsupported_attribute_claims", kinds)),
        ("citations (unsupported)", fact(
            "unsupported_cited", f"{score.cited_claims} ({score.unsupported_cited_claims})")),
        handoffs,
        ("missing hand-offs", fact("missing_handoff_rate", str(score.missing_handoffs))),
    ]


def _writes(writes: int | None) -> str:
    """The agent's writes that took effect: a count, ``0`` with :data:`NO_VALID_WRITE`,
    or "not measured" in a score kept before remit counted them."""
    if writes is None:
        return _NOT_MEASURED
    return f"0 ({NO_VALID_WRITE})" if writes == 0 else str(writes)


def _facts(row: TrialRow, unmeasured: Collection[str]) -> str:
    score = row.score
    pairs = [
        ("verdict", _verdict(row) + ("" if row.counted else " (not counted)")),
        ("seed", str(row.seed)),
        ("final state", score.final_state),
        ("ended", score.end_reason),
        ("agent steps", str(score.steps)),
        ("denials", str(score.denials)),
        ("agent writes that took effect", _writes(score.agent_writes)),
        ("clarification rounds", str(score.clarification_rounds)),
        ("review minutes", str(score.review_minutes)),
        *_score_facts(score, unmeasured),
    ]
    if row.infra_error:
        pairs.append(("infrastructure error", row.infra_error))
    usage = score.usage
    if usage is not None:
        issues = reply_issues_text(usage.reply_issues)
        pairs += [
            ("model calls", f"{usage.model_calls:,}"),
            ("tokens in / out", f"{usage.prompt_tokens:,} / {usage.completion_tokens:,}"),
            ("cost", "unpriced" if usage.cost is None
             else f"{usage.cost.amount:,.4f} {usage.cost.currency}"),
            ("reply issues", issues),
        ]
    cells = "".join(f"<div><dt>{html_text(k)}</dt><dd>{html_text(v)}</dd></div>" for k, v in pairs)
    return f'<dl class="facts">{cells}</dl>'


def _sentences(title: str, sentences: Sequence[str], css: str) -> str:
    if not sentences:
        return ""
    items = "".join(f"<li>{html_text(s)}</li>" for s in sentences)
    return f'<p class="sub">{html_text(title)}</p><ul class="{css}">{items}</ul>'


def _effect(row: DecisionRow) -> str:
    """What the write did: a transition, a new version, or the code of the error that
    stopped an allowed write, shown like a denial (its message is under the row)."""
    code = row.effect_error
    if code is not None:
        return f'<span class="no">{html_text(code)}</span>'
    if not row.effect:
        return '<span class="muted">&#8212;</span>'
    if _VERSION.fullmatch(row.effect):
        return f'<span class="fx">new version {row.effect}</span>'
    return f'<span class="fx">{html_text(row.effect).replace(" -&gt; ", " &#8594; ")}</span>'


def _why(row: DecisionRow) -> str:
    """Why a decision went as it did, for the full-width row under it: a denial's unmet
    conditions and its other reasons, the message of the error that stopped an allowed
    write, then the evidence cited ("" when there is none of these)."""
    unmet = [f'<div class="unmet"><b>unmet:</b> {html_text(u)}</div>' for u in row.unmet]
    reasons = [] if row.allowed else [
        f'<div><b>reason:</b> {html_text(r)}</div>' for r in row.reasons if r not in row.unmet]
    code = row.effect_error
    stopped = [] if code is None else [
        f'<div class="stopped"><b>{html_text(code)}:</b> {html_text(row.effect_reason)}</div>']
    evidence = [f'<div class="ev">evidence: {html_text(", ".join(row.evidence))}</div>'] \
        if row.evidence else []
    return "".join([*unmet, *reasons, *stopped, *evidence])


_COLUMNS = (("mk", ""), ("step", "step"), ("role", "role"), ("action", "action"),
            ("quote", "quote"), ("decision", "decision"), ("effect", "effect"),
            ("grants", "deciding ids"))
"""The trail table's columns: (class of its ``<col>``, heading). Their widths are fixed
by the style sheet, so long text wraps instead of widening the table."""


def _decision_row(row: DecisionRow) -> str:
    """A decision's row and, when there is a reason or evidence to show, a full-width row
    under it holding them (long denial reasons wrap there, never widening the table).

    The row reads: the step with its minute under it, the role with its actor and, when
    it acted on another role's grant, whose authority it used; the action (and the
    hand-off it answers), the quote's version, the decision, its effect, the deciding
    grant or forbid ids.
    """
    verdict = '<span class="ok">allowed</span>' if row.allowed else \
        '<span class="no">DENIED</span>'
    version = f"v{row.version} " if row.version is not None else ""
    borrowed = (f'<div class="under">under <span class="borrowed">{html_text(row.authority)}'
                "</span>'s authority</div>"
                if row.authority and row.authority != row.role else "")
    handoff = f'<div class="id">answers {html_text(row.handoff_id)}</div>' if row.handoff_id \
        else ""
    mark = "&gt;&gt;" if row.diverges else ""
    marked = ' class="diverges"' if row.diverges else ""
    main = (f'<tr{marked}><td class="mk">{mark}</td>'
            f'<td>{row.step}<div class="id">{row.minute}m</div></td>'
            f'<td>{html_text(row.role)}<div class="id">{html_text(row.actor_id)}</div>'
            f"{borrowed}</td>"
            f"<td>{html_text(row.action)}{handoff}</td>"
            f"<td>{html_text(row.quote_id)} {version}"
            f"<code>{html_text(row.version_hash)}</code></td>"
            f"<td>{verdict}</td>"
            f'<td class="effect">{_effect(row)}</td>'
            f'<td class="grants">{"<br>".join(html_text(g) for g in row.deciding) or "&#8212;"}'
            "</td></tr>")
    why = _why(row)
    if not why:
        return main
    under = ' class="reasons diverges"' if row.diverges else ' class="reasons"'
    return (f'{main}<tr{under}><td class="mk"></td>'
            f'<td class="reason" colspan="{len(_COLUMNS) - 1}">{why}</td></tr>')


def _decisions(trail: ApprovalTrail) -> str:
    if not trail.decisions:
        return '<p class="muted">No authority decision was taken in this trial.</p>'
    cols = "".join(f'<col class="c-{name}">' for name, _ in _COLUMNS)
    head = "".join(f"<th>{h}</th>" for _, h in _COLUMNS)
    body = "".join(_decision_row(d) for d in trail.decisions)
    return (f'<table class="trail"><colgroup>{cols}</colgroup><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def _transcript(lines: Sequence[TranscriptLine], diverged: int | None) -> str:
    if not lines:
        return '<p class="muted">No message was exchanged.</p>'
    items = []
    for line in lines:
        marked = diverged is not None and line.step == diverged
        css = ' class="diverges"' if marked else ""
        tool = "" if line.tool == "message" else \
            f' <span class="tool">{html_text(line.tool)}</span>'
        handoff = f' <span class="tool">{html_text(line.handoff_id)}</span>' if line.handoff_id \
            else ""
        items.append(
            f'<li{css}><div class="who">'
            f"{'&gt;&gt; ' if marked else ''}{line.step} &#183; {line.minute}m &#183; "
            f"<b>{html_text(line.sender)}</b> &#8594; {html_text(line.to)}{tool}{handoff}</div>"
            f'<div class="said">{html_text(line.text)}</div></li>')
    return f'<ol class="transcript">{"".join(items)}</ol>'


def _trail(row: TrialRow, trail: ApprovalTrail) -> str:
    parts = []
    if trail.divergence is not None:
        d = trail.divergence
        parts.append(f'<p class="divergence">&gt;&gt; The agent left the reference plan at '
                     f"step {d.step} (t={d.minute}m); the plan expected "
                     f"<code>{html_text(d.expected)}</code>.</p>")
    elif trail.divergence_note:
        parts.append('<p class="muted">No divergence marked: '
                     f"{html_text(trail.divergence_note)}.</p>")
    if trail.explanation:
        lines = "".join(f'<span class="ln">{html_text(line)}\n</span>'
                        for line in trail.explanation.splitlines())
        parts.append('<details class="explain"><summary>Shortest explaining trail</summary>'
                     f'<pre class="explain">{lines}</pre></details>')
    lane = swimlane_svg(trail, f"swimlane of {row.id}")
    if lane:
        parts.append(f'<p class="sub">Swimlane</p><div class="scroll">{lane}</div>')
    confirmations = "".join(f"<li>{html_text(c)}</li>" for c in trail.confirmations)
    diverged = trail.divergence.step if trail.divergence is not None else None
    parts.append(
        '<div class="cols"><div class="col">'
        f'<p class="sub">Approval trail ({len(trail.decisions)} decisions)</p>'
        f'<div class="scroll">{_decisions(trail)}</div>'
        f'<p class="sub">Final confirmations</p><ul class="confirm">{confirmations}</ul>'
        f'</div><div class="col"><p class="sub">Transcript ({len(trail.transcript)} messages)'
        f"</p>{_transcript(trail.transcript, diverged)}</div></div>")
    return "".join(parts)


def trial_section(row: TrialRow, *, scenario_link: bool = True,
                  unmeasured: Collection[str] = ()) -> str:
    """One trial's section: a collapsed ``<details>`` with the trial's anchor as its id.

    Args:
        row: the trial.
        scenario_link: link back to the scenario's section (off when the page has none).
        unmeasured: keys of the rates the run's scorer did not measure
            (``RunReport.unmeasured_rates``); the facts behind them read "not measured".
    """
    first = row.score.failures[0] if row.score.failures else (
        row.infra_error or ("passed" if row.passed else "failed"))
    css = "trial pass" if row.passed else "trial fail"
    sign = "&#10003;" if row.passed else "&#10007;"
    back = (f' &#183; <a href="#{scenario_anchor(row.scenario_id)}">scenario '
            f"{html_text(row.scenario_id)}</a>") if scenario_link else ""
    score = row.score
    body = [_facts(row, unmeasured),
            _sentences("Broken expectations", score.failures, "broke"),
            _sentences("Wrong variants", score.wrong_variants, "broke"),
            _sentences("Unsupported claims", score.unsupported, "broke"),
            _sentences("Unsupported citations", score.unsupported_cited, "broke"),
            _sentences("Abandoned hand-offs", score.abandoned, "broke"),
            _sentences("Missing hand-offs", score.missing, "broke")]
    if row.trail is not None:
        body.append(_trail(row, row.trail))
    else:
        body.append('<p class="muted">The approval trail of this trial was not kept in the '
                    "report (see the trail policy in the header).</p>")
    return (f'<details class="{css}" id="{trial_anchor(row.id)}"><summary>'
            f'<span class="sign">{sign}</span> <b>{html_text(row.scenario_id)}</b> &#183; '
            f"{html_text(row.mode)} &#183; trial {row.trial} &#8212; "
            f'<span class="first">{html_text(first)}</span></summary>'
            f'<div class="body"><p class="muted">{html_text(row.id)}{back}</p>'
            f'{"".join(body)}</div></details>\n')


# -- which trials get a section, and the scenario sections listing them -------------------


def _ranges(numbers: Sequence[int]) -> str:
    """``0-3, 5, 7-9`` from sorted trial indices."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}&#8211;{b}" for a, b in spans)


def _round_robin(trials: Sequence[TrialRow]) -> list[str]:
    """Trial ids taking one from each (scenario, mode) in turn, so that a cap keeps
    examples of every failing scenario rather than all trials of the first ones."""
    groups: dict[tuple[str, str], list[str]] = {}
    for t in trials:
        groups.setdefault((t.scenario_id, t.mode), []).append(t.id)
    order: list[str] = []
    depth = 0
    while len(order) < len(trials):
        order += [ids[depth] for ids in groups.values() if depth < len(ids)]
        depth += 1
    return order


def shown_trials(trials: Sequence[TrialRow], cap: int) -> set[str]:
    """Ids of the trials given a section: failing ones first, then passing ones whose
    trail the report kept, each taken round-robin over (scenario, mode), up to ``cap``.

    Args:
        trials: the report's trials, in run order.
        cap: the most sections.
    """
    failing = _round_robin([t for t in trials if not t.passed])
    kept = _round_robin([t for t in trials if t.passed and t.trail is not None])
    return set((failing + kept)[:max(0, cap)])


def _trial_links(trials: Sequence[TrialRow]) -> str:
    links = [f'<a href="#{trial_anchor(t.id)}">#{t.trial}</a>' for t in trials]
    if len(links) <= _OPEN_LIMIT:
        return ", ".join(links)
    return (f"<details><summary>{len(links)} trials</summary>"
            f'<p>{", ".join(links)}</p></details>')


def _mode_line(mode: str, trials: Sequence[TrialRow], shown: set[str]) -> str:
    passed = sum(t.passed for t in trials)
    parts = [f"<b>{html_text(mode)}</b>: {passed}/{len(trials)} passed"]
    failing = [t for t in trials if not t.passed and t.id in shown]
    examples = [t for t in trials if t.passed and t.id in shown]
    if failing:
        parts.append(f'failing: <span class="no">{_trial_links(failing)}</span>')
    if examples:
        parts.append(f"passing, with trail: {_trial_links(examples)}")
    hidden_pass = [t.trial for t in trials if t.passed and t.id not in shown]
    hidden_fail = [t.trial for t in trials if not t.passed and t.id not in shown]
    if hidden_pass:
        parts.append(f'<span class="muted">passing, no section: {_ranges(hidden_pass)}</span>')
    if hidden_fail:
        parts.append(f'<span class="no">failing, left out (section cap): '
                     f"{_ranges(hidden_fail)}</span>")
    return "<li>" + "; ".join(parts) + "</li>"


def scenario_sections(report: RunReport, shown: set[str]) -> str:
    """One collapsed ``<details>`` per scenario, listing its trials per mode: links to
    the trials in ``shown``, ranges of the others (passing, or failing left out).

    Args:
        report: the report.
        shown: ids of the trials that have a section (:func:`shown_trials`).
    """
    by_scenario: dict[str, dict[str, list[TrialRow]]] = {}
    for t in report.trials:
        by_scenario.setdefault(t.scenario_id, {}).setdefault(t.mode, []).append(t)
    parts = []
    for s in report.scenarios:
        modes = by_scenario.get(s.scenario_id, {})
        counts = " &#183; ".join(f"{html_text(c.mode)} {c.passes}/{c.trials}" for c in s.cells)
        failing = any(c.passes < c.trials for c in s.cells)
        tags = ", ".join(f"{html_text(k)}={html_text(v)}" for k, v in sorted(s.tags.items()))
        flips = "".join(f"<li>flips: {html_text(f.a)} {f.outcome_a} &#8594; {html_text(f.b)} "
                        f"{f.outcome_b}</li>" for f in s.flips)
        lines = "".join(_mode_line(m, ts, shown) for m, ts in modes.items())
        parts.append(
            f'<details class="scenario" id="{scenario_anchor(s.scenario_id)}"><summary>'
            f'<span class="{"no" if failing else "ok"}">{"&#10007;" if failing else "&#10003;"}'
            f"</span> <b>{html_text(s.scenario_id)}</b> {html_text(s.title)} &#8212; {counts}"
            f'</summary><div class="body">'
            + (f'<p class="muted">tags: {tags}</p>' if tags else "")
            + f"<ul>{flips}{lines}</ul></div></details>\n")
    return (f'<section id="scenario-sections"><h2>Scenario sections</h2>{"".join(parts)}'
            "</section>")
