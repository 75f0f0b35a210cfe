"""Record the committed cassette: one handwritten scenario played by a scripted model.

The fake server's model replays the oracle's calls for the trial (reply ``k`` is the
oracle's ``k``-th call), so the recorded run is a complete, passing conversation. The
cassette and the trail it produced are committed under ``tests/llm/cassettes/``; CI
replays the cassette without a server and checks the trail byte for byte.

Record again (after a change to the prompt, the tools or the world) with::

    .venv/bin/python -m tests.llm.record_cassette
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from remit.actors import Agent, Briefing, Observation, OracleAgent, TrialInfo, reference_agent
from remit.actors.llm import CacheMode, llm_agent_factory
from remit.authority import builtin_modes
from remit.harness import TrialRecord, run_async
from remit.scenarios.builtin import scenario_by_id
from remit.world import ToolCall
from tests.llm.fake_server import ByTurn, FakeChatServer, of_call
from tests.llm.play import config

CASSETTES = Path(__file__).parent / "cassettes"
SCENARIO = "discount-exception"
MODE = "dual_control"
RUN_SEED = 0


class _Recording:
    """Plays the oracle and keeps its calls."""

    def __init__(self, agent: Agent, calls: list[ToolCall]) -> None:
        self.agent = agent
        self.calls = calls

    def start(self, briefing: Briefing) -> None:
        self.agent.start(briefing)

    def act(self, observation: Observation) -> ToolCall:
        call = self.agent.act(observation)
        self.calls.append(call)
        return call


def run_trial(factory: object) -> TrialRecord:
    """The one trial of the cassette (trial 0, run seed 0), with ``factory``'s agent."""
    records = asyncio.run(run_async([scenario_by_id(SCENARIO)], [builtin_modes()[MODE]],
                                    factory, seed=RUN_SEED))  # type: ignore[arg-type]
    return records[0]


def oracle_calls() -> tuple[list[ToolCall], TrialRecord]:
    """The oracle's calls in the trial, and its record."""
    calls: list[ToolCall] = []

    @reference_agent
    def factory(info: TrialInfo) -> _Recording:
        return _Recording(OracleAgent(info), calls)

    return calls, run_trial(factory)


def trail_json(record: TrialRecord) -> str:
    """A trial's trail as stable JSON text."""
    entries = [entry.model_dump(mode="json") for entry in record.trail]
    return json.dumps(entries, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def trail_path(directory: Path) -> Path:
    """Where the expected trail is kept, beside the cassette."""
    return directory / SCENARIO / MODE / "0.trail.json"


def record(directory: Path) -> TrialRecord:
    """Record the cassette and the expected trail under ``directory``; return the record."""
    calls, _ = oracle_calls()
    with FakeChatServer(ByTurn([of_call(c) for c in calls])) as server:
        factory = llm_agent_factory(config(server.url, cache_mode=CacheMode.RECORD,
                                           cassette_dir=directory))
        result = run_trial(factory)
    trail_path(directory).write_text(trail_json(result), encoding="utf-8")
    return result


if __name__ == "__main__":
    record(CASSETTES)
