"""Quote invariants under random sequences of triggers and edits (hypothesis stateful)."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from remit.authority.roles import Action
from remit.errors import GuardFailedError, InvalidTransitionError, QuoteEditError
from remit.quotes import (
    QuoteLine,
    QuoteState,
    allowed_from,
    edit_lines,
    fire,
    guard_failures,
    quote_machine,
)
from tests.quotes.strategies import ctx, good_ctx, line_sets, new_quote

_FIRED = [action for action in Action if action is not Action.EDIT_LINES]
_APPROVED_CONTENT = {
    QuoteState.APPROVED,
    QuoteState.PRESENTED,
    QuoteState.ACCEPTED,
    QuoteState.ORDERED,
    QuoteState.DELIVERED,
    QuoteState.INVOICED,
    QuoteState.PAYMENT_RELEASED,
}


class QuoteLifecycle(RuleBasedStateMachine):
    """Fire anything, with good or bare contexts, and check what must always hold."""

    def __init__(self) -> None:
        super().__init__()
        self.quote = new_quote()
        self.successes = 0

    def _footprint(self) -> tuple[object, ...]:
        q = self.quote
        return (q.state, len(q.versions), len(q.history), len(q.approvals), q.submission,
                q.fit_confirmation, q.purchase_order, q.receipt, q.invoice)  # fmt: skip

    @rule(action=st.sampled_from(_FIRED), good=st.booleans())
    def fire_trigger(self, action: Action, good: bool) -> None:
        context = good_ctx(self.quote, action) if good else ctx(action)
        before = self._footprint()
        valid_source = self.quote.state in allowed_from(action)
        expected_failures = guard_failures(self.quote, action, context) if valid_source else []
        reasons: list[str] = []
        try:
            record = fire(self.quote, action, context)
        except InvalidTransitionError:
            assert not valid_source
            assert self._footprint() == before
            return
        except GuardFailedError as error:
            reasons = error.reasons
        if reasons:
            assert reasons == expected_failures
            assert self._footprint() == before
        else:
            assert valid_source
            assert expected_failures == []
            assert record == self.quote.history[-1]
            self.successes += 1

    @rule(lines=line_sets())
    def edit(self, lines: tuple[QuoteLine, ...]) -> None:
        before = self._footprint()
        editable = self.quote.state in allowed_from(Action.EDIT_LINES)
        try:
            edit_lines(self.quote, lines, ctx(Action.EDIT_LINES))
        except InvalidTransitionError:
            assert not editable
            assert self._footprint() == before
        except QuoteEditError:
            assert self._footprint() == before
        else:
            assert editable
            assert self.quote.state == QuoteState.DRAFT
            self.successes += 1

    @invariant()
    def history_is_a_chain(self) -> None:
        history = self.quote.history
        assert len(history) == self.successes
        previous = QuoteState.DRAFT
        for record in history:
            assert record.from_state == previous
            previous = record.to_state
        assert self.quote.state == previous

    @invariant()
    def versions_are_numbered_and_immutable(self) -> None:
        assert [v.number for v in self.quote.versions] == list(
            range(1, len(self.quote.versions) + 1)
        )

    @invariant()
    def approvals_count_only_for_the_current_content(self) -> None:
        approval = self.quote.valid_approval()
        if approval is not None:
            assert approval.version_hash == self.quote.current_hash
        if self.quote.state in _APPROVED_CONTENT:
            assert approval is not None
        if self.quote.state == QuoteState.FIT_CONFIRMED:
            assert self.quote.valid_fit_confirmation() is not None

    @invariant()
    def the_shared_machine_holds_no_models(self) -> None:
        assert quote_machine().models == []


QuoteLifecycle.TestCase.settings = settings(
    derandomize=True, database=None, max_examples=60, stateful_step_count=40, deadline=None
)
TestQuoteLifecycle = QuoteLifecycle.TestCase
