"""``remit run``'s progress (:class:`remit.cli.progress.RunProgress`): what it counts,
the live bar on a terminal and the one line off one, for any executor."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime

from remit.actors import OracleAgent, TrialInfo, reference_agent
from remit.authority import mode_by_name
from remit.cli.progress import RunProgress
from remit.errors import InfrastructureError
from remit.harness import RunManifest, build_manifest, builtin_suite, new_run_id, run
from remit.reports.safe import SafeConsole

_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@reference_agent
def _down_on_trial_0(info: TrialInfo) -> OracleAgent:
    """The oracle, except that trial 0 always meets an infrastructure error."""
    if info.trial == 0:
        raise InfrastructureError(f"the agent's server is away for {info.scenario_id}")
    return OracleAgent(info)


def _manifest() -> RunManifest:
    suite = builtin_suite("handwritten")
    started = datetime.now(UTC)
    return build_manifest(run_id=new_run_id(started), suite=suite,
                          modes=[mode_by_name("dual_control")], agent_id="flaky",
                          agent_config={}, trials=2, seed=0, started_at=started)


def test_progress_counts_done_failing_errors_and_in_flight() -> None:
    records = run(builtin_suite("handwritten").scenarios, [mode_by_name("dual_control")],
                  _down_on_trial_0, trials=2).trials
    out = io.StringIO()
    manifest = _manifest()
    with RunProgress(SafeConsole(file=out, force_terminal=True, width=200), capacity=4
                     ) as progress:
        progress.started(manifest, len(records))
        assert progress.in_flight == 4
        for record in records:
            progress.finished(record)
    errors = sum(1 for r in records if r.infra_error)
    failing = sum(1 for r in records if not r.infra_error and not r.scored.score.passed)
    assert (progress.done, progress.errors, progress.failing) == (20, errors, failing)
    assert errors == 10  # trial 0 of every scenario, without retries
    assert progress.in_flight == 0
    shown = " ".join(_ESCAPES.sub(" ", out.getvalue()).split())  # the bar's last frame
    assert f"{manifest.run_id} " in shown
    assert f"20/20 {failing} failing {errors} errors 0 in flight 0:00:0" in shown


def test_off_a_terminal_progress_is_one_line_at_the_end() -> None:
    out = io.StringIO()
    manifest = _manifest()
    with RunProgress(SafeConsole(file=out, force_terminal=False), capacity=1) as progress:
        progress.started(manifest, 0)
    [line] = out.getvalue().splitlines()
    assert line.startswith(f"{manifest.run_id}: 0 of 0 trials done in ")
    assert line.endswith("; 0 failing, 0 infrastructure errors")
