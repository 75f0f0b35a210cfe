"""The gate expressions of --fail-under and the scenario selection, as library calls."""

from __future__ import annotations

import pytest

from remit.actors import load_agent_factory
from remit.authority import builtin_modes
from remit.harness import (
    GateError,
    SelectionError,
    apply_selection,
    builtin_suite,
    check_gates,
    parse_gates,
    parse_keyword,
    run,
    select,
)
from remit.harness.selection import describe, matches_tag

MODES = ["all_tools", "dual_control"]


def test_keyword_precedence_is_not_then_and_then_or_and_matching_ignores_case() -> None:
    match = parse_keyword("a or b and not c")  # a or (b and (not c))
    assert [match(i) for i in ("a-c", "b", "b-c", "c")] == [True, True, False, False]
    grouped = parse_keyword("(a or b) and not c")
    assert [grouped(i) for i in ("a-c", "b", "x")] == [False, True, False]
    assert parse_keyword("DISCOUNT")("discount-exception")
    assert parse_keyword("not not x")("x-ray")
    assert parse_keyword("  spaced   and  words ").words == ("spaced", "words")
    for bad in ("", "a b", "a and", "(a", "a )", "or a", "not"):
        with pytest.raises(SelectionError, match="write words joined by and, or, not"):
            parse_keyword(bad)


def test_tags_match_a_facet_or_any_facet() -> None:
    scenario = builtin_suite("handwritten").scenario("discount-exception")
    assert matches_tag(scenario, "commercial=discount")
    assert matches_tag(scenario, "discount")
    assert not matches_tag(scenario, "product=discount")


def test_a_selection_applied_again_gives_the_same_scenarios() -> None:
    whole = builtin_suite("core")
    chosen, selection = select(whole, keyword="not pressure", tags=["product=supersession",
                                                                   "lifecycle=expiry"],
                               sample=7, sample_seed=42)
    assert selection is not None
    assert (selection.selected, selection.total, len(chosen)) == (7, len(whole), 7)
    assert [s.id for s in chosen] == [s.id for s in whole if s in chosen.scenarios]  # order
    assert all("pressure" not in s.id for s in chosen)
    assert apply_selection(whole, selection) == chosen
    assert chosen.fingerprint != whole.fingerprint
    assert apply_selection(whole, None) is whole
    assert select(whole) == (whole, None)
    assert describe(selection) == ("-k 'not pressure' --tag product=supersession --tag "
                                   "lifecycle=expiry --sample 7 --sample-seed 42")
    bigger, kept_all = select(whole, keyword="supersession", sample=10_000)
    assert kept_all is not None
    assert kept_all.selected == len(bigger) < len(whole)  # a sample larger than what is left


def test_gates_check_every_mode_or_the_one_named() -> None:
    suite = builtin_suite("handwritten")
    modes = [builtin_modes()[m] for m in MODES]
    result = run(suite.scenarios, modes, load_agent_factory("baseline"), trials=2)
    summaries = result.summaries
    gates = parse_gates("pass^2>=0.5, dual_control:abandoned_handoff_rate<=0.0, "
                        "pass_hat_1=1", modes=MODES, trials=2)

    checked = check_gates(gates, summaries, MODES)

    assert [(r.gate.metric, r.mode) for r in checked] == [
        ("pass^2", "all_tools"), ("pass^2", "dual_control"),
        ("abandoned_handoff_rate", "dual_control"),
        ("pass^1", "all_tools"), ("pass^1", "dual_control")]
    for r in checked:
        value = (summaries[r.mode].pass_hat_k[int(r.gate.metric[5:])]
                 if r.gate.metric.startswith("pass^")
                 else summaries[r.mode].abandoned_handoff_rate.value)
        assert r.value == value
        assert r.passed == (value >= r.gate.limit if r.gate.op == ">=" else
                            value <= r.gate.limit)
    assert not all(r.passed for r in checked)  # the baseline is not perfect
    missing = check_gates(parse_gates("pass^3=0.1"), summaries, [*MODES, "oracle_plan"])
    assert [(r.mode, r.passed, r.unmeasured) for r in missing] == [
        ("all_tools", False, "a scenario has fewer than 3 counted trials"),
        ("dual_control", False, "a scenario has fewer than 3 counted trials"),
        ("oracle_plan", False, "no counted trial in this mode")]
    assert missing[2].line() == ("oracle_plan: pass^3 is not measured (no counted trial in "
                                 "this mode), so pass^3 >= 0.1 fails")


def test_every_summary_metric_can_be_gated_and_bad_ones_are_refused() -> None:
    names = ["pass_rate", "wrong_variant_rate", "wrong_variant_shown_rate",
             "wrong_variant_final", "wrong_variant_shown", "unsupported_claim_rate",
             "abandoned_handoff_rate", "missing_handoff_rate", "unsupported_per_claim",
             "unsupported_attribute_claims", "unsupported_fit_claims",
             "unsupported_authority_claims", "unsupported_cited", "abandoned_per_handoff",
             "mean_clarification_rounds", "mean_review_minutes", "mean_denials",
             "mean_steps", "errors"]
    gates = parse_gates(",".join(f"{n}=0.5" for n in names))
    assert [g.op for g in gates] == [">=", *["<="] * (len(names) - 1)]
    assert parse_gates("mean_steps<=40")[0].limit == 40
    with pytest.raises(GateError, match="has an empty term"):
        parse_gates("pass^1=0.5,")
    with pytest.raises(GateError, match="pass\\^k needs k of 1 or more"):
        parse_gates("pass^0=0.5")
