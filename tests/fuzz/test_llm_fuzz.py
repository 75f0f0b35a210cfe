"""The fuzz property through the LLM agent: what a model replies may not crash the run.

A fake chat-completions server on 127.0.0.1 (``tests/llm/fake_server.py``) plays
generated model replies, turn by turn: each fuzz call of
:func:`tests.fuzz.strategies.calls` written as a native tool call or as JSON in the
content (fenced or bare), with its arguments written as the model would (lone surrogates
as ``\\ud800`` escapes, nesting to 1,000 levels as brackets), plain-text replies of
hostile text (a message to the buyer), and arguments that are not JSON at all; then
``end``. ``remit run --agent openai:fake-model`` plays one trial against it, and the
fuzz property of :mod:`tests.fuzz.pipeline` must hold: the run completes, the trial is
stored, every report and terminal view is clean. A reply the agent cannot use is the
model's reply issue, never the run's failure (docs/agents.md).
"""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.agents import Step, decode, json_text
from tests.fuzz.pipeline import play
from tests.fuzz.strategies import calls, texts
from tests.llm.fake_server import ByTurn, FakeChatServer, Reply

SCENARIO = "discount-exception"
MODE = "dual_control"


def _reply(form: str, step: Step) -> Reply:
    """``step``'s call as a model would write it in ``form``."""
    name = decode(step["tool"])
    arguments = json_text(step["arguments"])
    if form == "native":
        return Reply(tool_calls=((name if isinstance(name, str) else "", arguments),))
    written = f'{{"name":{json_text(step["tool"])},"arguments":{arguments}}}'
    return Reply(content=f"```json\n{written}\n```" if form == "fenced" else written)


replies: st.SearchStrategy[Reply] = st.one_of(
    st.builds(_reply, st.sampled_from(["native", "fenced", "bare"]), calls()),
    st.builds(lambda text: Reply(content=decode(text)), texts),
    st.builds(lambda text: Reply(tool_calls=(("get_quote", decode(text)),)), texts),
)
"""One model reply: a fuzz call, natively or in the content; hostile text; arguments
that are hostile text instead of JSON."""


@settings(max_examples=8, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(script=st.lists(replies, min_size=1, max_size=4))
def test_no_model_reply_crashes_a_run_or_reaches_a_reader_raw(script: list[Reply]) -> None:
    with TemporaryDirectory() as name, FakeChatServer(ByTurn(script)) as server:
        played = play(Path(name), [[]], scenarios=(SCENARIO,), modes=(MODE,),
                      agent=("--agent", "openai:fake-model", "--base-url", server.url,
                             "--llm-retries", "0"),
                      env={"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": None})
    assert not played.findings, "\n".join(str(f) for f in played.findings)
    assert played.trials == 1
