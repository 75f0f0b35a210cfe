"""Tallies: every figure a summary reads is one, and summaries from tallies are the
summaries of the records."""

from __future__ import annotations

import typing

import pytest

from remit.harness import (
    RATES,
    TrialRecord,
    TrialScore,
    result_of,
    summaries_of,
    tally_records,
)
from remit.harness.tally import COUNTED, FIGURES, NULLABLE, figures
from remit.scenarios import builtin_scenarios
from tests.store.sample import varied_records_of


@pytest.fixture(scope="module")
def records() -> list[TrialRecord]:
    return varied_records_of(builtin_scenarios()[:3])


def test_every_rate_reads_figures() -> None:
    for rate in RATES:
        assert rate.part in FIGURES
        assert rate.whole is None or rate.whole in FIGURES
        if not rate.per_item:
            assert rate.part in COUNTED
        else:  # a per-item part is never missing, so its whole is summed over every trial
            assert rate.part not in NULLABLE


def test_figures_read_the_score(records: list[TrialRecord]) -> None:
    for record in records:
        score = record.scored.score
        read = figures(score)
        assert list(read) == list(FIGURES)
        for name, value in read.items():
            if name in TrialScore.model_fields:
                assert value == int(getattr(score, name))
        assert (read["no_valid_write"] is None) == (score.no_valid_write is None)
    none_measured = [r for r in records if r.scored.score.agent_writes is None]
    assert none_measured  # the sample has scores without the agent's writes


@pytest.mark.parametrize("exclude", [True, False])
def test_summaries_from_tallies_are_those_of_the_records(
        records: list[TrialRecord], exclude: bool) -> None:
    modes = list(dict.fromkeys(r.scored.mode for r in records))[::-1]
    expected = result_of(records, modes, exclude_infra_errors=exclude).summaries
    assert summaries_of(tally_records(records), modes, exclude_infra_errors=exclude) == expected
    assert list(expected) == modes


def test_tally_fields_are_whole_numbers() -> None:
    hints = typing.get_type_hints(TrialScore)
    for name in FIGURES:
        if name in hints:
            assert hints[name] in (int, bool, int | None)
