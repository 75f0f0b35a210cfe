"""Two processes resuming one run race to save the same trials: neither fails."""

from __future__ import annotations

from pathlib import Path

from remit.authority import mode_by_name
from remit.store import Store, resume_run, start_run


class LateToSee(Store):
    """A store whose first ``completed`` answer predates another process's saves: the
    race of two resumes that both read the run before either saved a trial."""

    seen = False

    def completed(self, run_id: str) -> set[tuple[str, str, int]]:
        if not self.seen:
            self.seen = True
            return set()
        return super().completed(run_id)


def test_a_resume_that_finds_its_trials_already_saved_completes_the_run(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'race.db'}"
    with Store.open(url) as store:
        whole = start_run(store, suite_spec="handwritten", modes=[mode_by_name("dual_control")],
                          agent_id="oracle", trials=1, seed=0)
        (listing,) = store.runs()
    run_id = listing.run_id
    with LateToSee.open(url) as late:
        again = resume_run(late, run_id)  # every save finds its trial already there

    with Store.open(url) as store:
        stored = store.trials(run_id)
        finished = store.manifest(run_id).ended_at
    assert len(stored) == len(whole.trials) == 10  # every trial once, none duplicated
    assert again.summaries == whole.summaries
    assert finished is not None
