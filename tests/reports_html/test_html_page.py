"""The HTML report of a small real run, read with the standard library's HTML parser:
self-contained, ordered as the issue asks, every link resolving, the failing trials'
approval trails present with the grant ids that decided them."""

from __future__ import annotations

import re
from html import escape

import matplotlib as mpl
import pytest

from remit.reports.html import render_html
from remit.reports.model import RunReport, TrialRow
from remit.reports.trial_sections import anchor, scenario_anchor, trial_anchor, trial_section
from tests.reports_html.page_index import PageIndex
from tests.reports_html.sample_run import FAILING_ALL_TOOLS, RUN_ID, STOPPED_WRITE

SECTION_ORDER = ("summary", "comparison", "charts", "failures", "scenarios",
                 "scenario-sections", "trials", "closing")


def _section(page: str, element_id: str) -> str:
    """The markup of the ``<details>`` whose id is ``element_id``."""
    start = page.index(f'id="{element_id}"')
    return page[start:page.index("</details>\n", start)]


def _failing(report: RunReport, scenario_id: str, mode: str) -> TrialRow:
    return next(t for t in report.trials
                if t.scenario_id == scenario_id and t.mode == mode and not t.passed)


def test_page_loads_nothing_from_outside(page: str) -> None:
    index = PageIndex(page)
    assert index.url_values(), "the page has links; the check below must see them"
    for tag, name, value in index.url_values():
        assert value.startswith("#"), f"<{tag} {name}={value!r}> points outside the page"
    assert not [s for s in index.tagged("script") if "src" in s]
    for tag in ("link", "img", "iframe", "object", "embed", "base", "meta[http-equiv]"):
        assert not index.tagged(tag), f"the page has a <{tag}> element"
    style = "".join(index.styles)
    assert "@import" not in style
    assert "@font-face" not in style
    assert "url(" not in style
    assert not re.search(r"(?i)\b(?:https?|ftp):|//[a-z0-9.-]+\.[a-z]{2,}/",
                         " ".join(index.scripts))
    assert "://" not in page, "not even an SVG namespace URL"
    assert len(index.styles) == 1
    assert len(index.scripts) == 1, "one tiny optional script, inline"


def test_sections_come_in_the_issue_order(page: str, report: RunReport) -> None:
    positions = [page.index(f'id="{name}"') for name in SECTION_ORDER]
    assert positions == sorted(positions)
    header = page[:positions[0]]
    manifest = report.manifest
    for text in (RUN_ID, manifest.suite_id, manifest.suite_fingerprint[:12],
                 manifest.agent_id, manifest.scorer_version, "2026-01-02 12:00:00"):
        assert text in header


def test_summary_table_lists_every_mode_with_intervals(page: str, report: RunReport) -> None:
    summary = page[page.index('id="summary"'):page.index('id="comparison"')]
    for mode in report.modes:
        assert f"<th>{mode.mode}</th>" in summary
        interval = mode.pass_rate
        assert f"{interval.value:.2f} <span class=\"muted\">[{interval.low:.2f}, " \
               f"{interval.high:.2f}]</span>" in summary
        assert f"{interval.successes}/{interval.total}" in summary
    for k in (p.k for p in report.modes[0].pass_hat_k):
        assert f">pass^{k}</td>" in summary


def test_all_tools_against_dual_control_comes_first(page: str, report: RunReport) -> None:
    part = page[page.index('id="comparison"'):page.index('id="charts"')]
    comparison = next(c for c in report.comparisons if (c.a, c.b) == ("all_tools",
                                                                        "dual_control"))
    assert part.index("<h3>all_tools vs dual_control</h3>") < part.index("Trade-off")
    assert f"<b>{comparison.delta:+.3f}</b>" in part
    assert f"[{comparison.delta_low:+.3f}, {comparison.delta_high:+.3f}]" in part
    assert f"p = <b>{comparison.mcnemar_p:.4f}</b>" in part
    assert comparison.flips, "the fixed run flips scenarios between the modes"
    for flip in comparison.flips:
        assert f'href="#{scenario_anchor(flip.scenario_id)}"' in part
    for row in comparison.tradeoff:
        assert f"<td>{row.label}</td>" in part


def test_charts_are_inline_svg_drawn_by_matplotlib(page: str) -> None:
    part = page[page.index('id="charts"'):page.index('id="failures"')]
    labels = [attrs.get("aria-label") for attrs in PageIndex(part).tagged("svg")]
    assert labels == ["pass^k curve per mode", "failure rates with 95% intervals per mode",
                      "pass rate by required hand-offs per mode",
                      "pass rate by commercial per mode", "pass rate by lifecycle per mode",
                      "pass rate by perturbation per mode", "pass rate by product per mode"]
    assert part.count("<figure>") == 7
    assert 'id="chart-passk-figure_1"' in part, "matplotlib's figure group, id prefixed"
    assert "<?xml" not in page
    assert "<!DOCTYPE svg" not in page


def test_failure_causes_link_their_scenarios(page: str, report: RunReport) -> None:
    part = page[page.index('id="failures"'):page.index('id="scenarios"')]
    assert "&amp;" not in part, "nothing is escaped twice"
    for cause in report.failure_causes:
        assert f"<td>{cause.expectation}</td>" in part
        for scenario_id in cause.scenarios:
            assert f'href="#{scenario_anchor(scenario_id)}"' in part


def test_every_link_has_its_anchor_and_no_id_repeats(page: str, report: RunReport) -> None:
    index = PageIndex(page)
    repeated = sorted({i for i in index.ids if index.ids.count(i) > 1})
    assert not repeated, f"ids repeat: {repeated[:5]}"
    missing = sorted(set(index.fragments) - set(index.ids))
    assert not missing, f"links without a target: {missing[:5]}"
    for scenario in report.scenarios:
        assert scenario_anchor(scenario.scenario_id) in index.fragments
    failing = [t for t in report.trials if not t.passed]
    assert len(failing) == 6
    for trial in failing:
        assert trial_anchor(trial.id) in index.ids
        assert trial_anchor(trial.id) in index.fragments, "its scenario section links it"


def test_failing_trial_shows_the_deciding_grants_divergence_and_transcript(
        page: str, report: RunReport) -> None:
    trial = _failing(report, FAILING_ALL_TOOLS, "all_tools")
    assert trial.trail is not None
    section = _section(page, trial_anchor(trial.id))
    assert section.startswith(f'id="{trial_anchor(trial.id)}"><summary>')
    deciding = {g for d in trial.trail.decisions for g in d.deciding}
    assert {"g-finance-approve@agent", "g-buyer-accept@agent"} <= deciding
    for grant in deciding:
        assert grant in section
    assert '<span class="borrowed">finance</span>' in section
    assert '<span class="borrowed">buyer</span>' in section
    assert trial.trail.divergence is not None
    assert f"at step {trial.trail.divergence.step} " in section
    assert '<tr class="diverges"><td class="mk">&gt;&gt;</td>' in section
    for sentence in (*trial.trail.confirmations, *trial.score.failures):
        assert sentence.replace("'", "&#x27;") in section
    assert '<div class="cols">' in section
    assert section.count('<ol class="transcript">') == 1
    assert section.count('<svg class="swimlane"') == 1
    assert 'class="auc"' in section, "the swimlane marks the authority the agent borrowed"


def test_trail_table_shows_what_each_decision_did(page: str, report: RunReport) -> None:
    trial = next(t for t in report.trials if t.scenario_id == STOPPED_WRITE[0]
                 and t.mode == STOPPED_WRITE[1] and t.trail is not None)
    assert trial.trail is not None
    stopped = next(d for d in trial.trail.decisions if d.effect_error is not None)
    assert (stopped.action, stopped.allowed, stopped.effect_error) == (
        "release_payment", True, "guard_failed")
    assert stopped.effect_reason.startswith("cannot release_payment quote Q-1: three-way match")
    section = _section(page, trial_anchor(trial.id))
    assert "<th>decision</th><th>effect</th><th>deciding ids</th>" in section
    stopped_row = ('<td><span class="ok">allowed</span></td><td class="effect">'
                   '<span class="no">guard_failed</span></td>')
    assert stopped_row in section
    why = section[section.index(stopped_row):]  # the full-width row under it
    assert why.index('<tr class="reasons"><td class="mk"></td><td class="reason" colspan="7">'
                     f'<div class="stopped"><b>guard_failed:</b> '
                     f"{escape(stopped.effect_reason)}</div>") < why.index("</tbody>")
    assert ('<td class="effect"><span class="fx">approval_pending &#8594; approved</span>'
            "</td>") in section
    assert '<td class="effect"><span class="fx">new version v2</span></td>' in section
    cells = section.count('<td class="effect">')
    assert cells == len(trial.trail.decisions), "one effect cell per decision"


def test_an_expired_accept_and_a_denial_read_alike(report: RunReport) -> None:
    trial = _failing(report, FAILING_ALL_TOOLS, "all_tools")
    assert trial.trail is not None
    accept = next(d for d in trial.trail.decisions if d.action == "accept")
    expired = accept.model_copy(update={
        "effect": "guard_failed: cannot accept quote Q-1: its validity ended at t=30m"})
    refused = accept.model_copy(update={
        "allowed": False, "deciding": ("f-no-self-accept",), "authority": None,
        "reasons": ("agent may not accept",), "effect": ""})
    odd = accept.model_copy(update={"effect": "note: not an error code"})
    assert (expired.effect_error, refused.effect_error, odd.effect_error) == (
        "guard_failed", None, None)
    edited = trial.model_copy(update={"trail": trial.trail.model_copy(
        update={"decisions": (expired, refused, odd)})})
    section = trial_section(edited)
    assert '<td class="effect"><span class="no">guard_failed</span></td>' in section
    assert ('<div class="stopped"><b>guard_failed:</b> cannot accept quote Q-1: its validity '
            "ended at t=30m</div>") in section
    assert '<td class="reason" colspan="7"><div><b>reason:</b> agent may not accept</div>' \
        in section
    assert ('<td><span class="no">DENIED</span></td><td class="effect">'
            '<span class="muted">&#8212;</span></td>') in section
    assert '<td class="effect"><span class="fx">note: not an error code</span></td>' \
        in section


def test_dual_control_trial_draws_its_hand_offs(page: str, report: RunReport) -> None:
    trial = _failing(report, "unresponsive-finance", "dual_control")
    section = _section(page, trial_anchor(trial.id))
    lane = section[section.index('<svg class="swimlane"'):section.index("</svg>")]
    assert 'class="t-ho"' in lane, "request_action to finance is drawn as a hand-off"
    for label in ("agent", "buyer", "technical owner", "finance"):
        assert f'class="lane">{label}</text>' in lane
    assert 'class="auc"' not in lane


def test_trials_are_collapsed_and_passing_ones_counted(page: str, report: RunReport) -> None:
    index = PageIndex(page)
    trials = [a for a in index.tagged("details") if a.get("id", "").startswith("trial-")]
    assert trials
    assert not [a for a in trials if "open" in a]
    shown = {a["id"] for a in trials}
    kept = {trial_anchor(t.id) for t in report.trials if t.trail is not None or not t.passed}
    assert shown == kept
    scenario = _section(page, scenario_anchor("actuator-pairing"))
    assert "passing, no section: 1" in scenario


def test_closing_note_states_the_file_size(page: str, report: RunReport) -> None:
    closing = page[page.index('id="closing"'):]
    stated = re.search(r"one self-contained file of ([\d,]+) bytes", closing)
    assert stated is not None
    assert int(stated.group(1).replace(",", "")) == len(page.encode("utf-8"))
    assert f"{len(report.trials)} trials in the run" in closing


def test_rendering_is_deterministic_and_leaves_matplotlib_alone(report: RunReport) -> None:
    before = dict(mpl.rcParams)
    first, second = render_html(report), render_html(report)
    assert first == second
    assert dict(mpl.rcParams) == before


def test_a_section_cap_leaves_trials_out_and_says_so(report: RunReport) -> None:
    page = render_html(report, max_trial_sections=2)
    index = PageIndex(page)
    shown = [a["id"] for a in index.tagged("details") if a.get("id", "").startswith("trial-")]
    assert len(shown) == 2
    assert len({s.rsplit("/", 1)[0] for s in shown}) == 2, "round-robin over scenario/mode"
    assert not set(index.fragments) - set(index.ids)
    closing = page[page.index('id="closing"'):]
    assert "14 were left out of the trial sections" in closing
    assert "4 failing trials beyond the cap of 2 sections" in closing
    assert "failing, left out (section cap)" in page


def test_text_from_the_trail_is_escaped(report: RunReport) -> None:
    trial = _failing(report, FAILING_ALL_TOOLS, "all_tools")
    assert trial.trail is not None
    line = trial.trail.transcript[0].model_copy(update={"text": "<script>alert(1)</script>"})
    hostile = trial.model_copy(update={"trail": trial.trail.model_copy(
        update={"transcript": (line,)})})
    section = trial_section(hostile)
    assert "<script>" not in section
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in section


@pytest.mark.parametrize(("raw", "expected"), [
    ("r-1/scn/all_tools/0", "trial-r-1/scn/all_tools/0"),
    ("a b#c", "trial-a~20b~23c"),
    ("ü~", "trial-~c3~bc~7e"),
])
def test_anchors_escape_unsafe_characters(raw: str, expected: str) -> None:
    assert anchor("trial", raw) == expected
    assert re.fullmatch(r"[A-Za-z0-9._/~-]+", expected)
