"""A one-trial run whose trail holds a long denial reason, for the HTML layout tests.

The mode delegates finance's approval to the agent only up to a 5% discount; the
scenario asks for 8%, so the oracle's own approval is denied with the condition it
missed spelled out ("g-finance-approve@agent-delegated: delegated from finance only for
discount_pct <= 5; actual discount_pct=8; request it with ..."). It then asks finance,
follows up until finance approves, presents, and ends where it should ask the buyer to
accept: a failing trial. Run through the harness; times fixed as in the sample run.
"""

from __future__ import annotations

from decimal import Decimal

from remit.authority import Action, ControlMode, Role, default_map, delegate
from remit.harness import build_manifest
from remit.reports.build import build_report
from remit.reports.model import DecisionRow, RunReport, TrialRow
from remit.scenarios import Suite, scenario_by_id
from tests.reports.scripted import END, Rule, scripted_trial
from tests.reports_html.sample_run import ENDED, GENERATED, STARTED

DELEGATED: ControlMode = delegate(default_map(), Action.APPROVE, to=Role.AGENT,
                                  from_role=Role.FINANCE, attribute="discount_pct",
                                  limit=Decimal(5), name="agent-delegated")
"""All of dual-control, and finance's approval delegated to the agent up to 5%."""


def denial_report() -> RunReport:
    """The report of the one failing trial (see the module docstring)."""
    scenario = scenario_by_id("unresponsive-finance")
    suite = Suite(id="long-denial", scenarios=(scenario,))
    record = scripted_trial(scenario, DELEGATED,
                            Rule("request_action", (END,), action="accept", drop=True))
    manifest = build_manifest(run_id="r-20260101-090000-de1a11", suite=suite,
                              modes=[DELEGATED], agent_id="scripted", agent_config={},
                              trials=1, seed=0, started_at=STARTED, cwd="/")
    manifest = manifest.model_copy(update={"remit_version": "0.0.0", "git_commit": None,
                                            "git_dirty": None, "ended_at": ENDED})
    return build_report(manifest, [record], suite, generated_at=GENERATED,
                        modes={DELEGATED.name: DELEGATED}, resamples=200)


def long_denial(report: RunReport) -> tuple[TrialRow, DecisionRow, str]:
    """The failing trial, its denied approval and the denial's unmet condition."""
    trial = next(t for t in report.trials if not t.passed)
    assert trial.trail is not None
    denied = next(d for d in trial.trail.decisions if not d.allowed and d.unmet)
    return trial, denied, denied.unmet[0]
