"""Two processes saving one run race to save the same trials: neither fails, and each
returns what the store holds."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from remit.authority import mode_by_name
from remit.harness import TrialRecord
from remit.store import Store, resume_run, start_run
from remit.store.recording import result_from_store


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


def test_a_new_run_returns_what_the_store_holds_without_reading_it_back(
        tmp_path: Path) -> None:
    modes = [mode_by_name("all_tools"), mode_by_name("dual_control")]
    with Store.open(f"sqlite:///{tmp_path / 'new.db'}") as store:
        result = start_run(store, suite_spec="handwritten", modes=modes, agent_id="baseline",
                           trials=2, seed=4)
        (listing,) = store.runs()
        assert result == result_from_store(store, listing.run_id)
        assert store.manifest(listing.run_id).ended_at is not None
    assert len(result.trials) == 40  # 10 scenarios x 2 modes x 2 trials
    assert all(record.trail == () for record in result.trials)


class BeatenToIt(Store):
    """A store in which another process saves a new run's first trial just before this
    one does (a resume of the run started as soon as its id was shown)."""

    beaten = False

    def save_trials(self, run_id: str, records: Sequence[TrialRecord]) -> list[str]:
        if not self.beaten:
            self.beaten = True
            super().save_trials(run_id, records[:1])
        return super().save_trials(run_id, records)


def test_a_new_run_whose_trial_another_process_saved_reads_its_result_back(
        tmp_path: Path) -> None:
    with BeatenToIt.open(f"sqlite:///{tmp_path / 'beaten.db'}") as store:
        result = start_run(store, suite_spec="handwritten",
                           modes=[mode_by_name("dual_control")], agent_id="oracle",
                           trials=1, seed=0)
        (listing,) = store.runs()
        assert result == result_from_store(store, listing.run_id)
        assert store.manifest(listing.run_id).ended_at is not None
    assert store.beaten
    assert len(result.trials) == 10
