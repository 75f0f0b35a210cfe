"""How long is the LLM agent's prompt, and how much of it can a server's cache reuse?

Run: ``python benchmarks/bench_prompt_sizes.py``. For the ``full`` and ``compact``
variants in ``content-json`` and ``native`` format, on the dual-control briefing of the
reference quote, prints the size of what the agent is told before the buyer's opening
(the system message and the trial's briefing; in native format, also the tool
definitions the server's chat template writes into the prompt), then the share of the
first request's text that the previous trial's first request already had, for the next
trial in another mode and in the same mode.

No tokenizer is bundled or downloaded. Two approximations are printed: characters / 4
(the common rule of thumb for English with OpenAI-style tokenizers) and the number of
pieces the pre-tokenizing pattern of cl100k-style BPE tokenizers splits the text into
(each piece is at least one token, and common English words are exactly one: a lower
bound that runs a few percent under real counts for prose and JSON).
"""

from __future__ import annotations

import json
import re

from remit.actors.llm import PromptVariant, ToolCallFormat, prompt_text, tool_definitions
from remit.actors.protocol import Briefing
from remit.authority import builtin_modes
from remit.harness.orchestrator import briefing_for
from remit.scenarios.builtin import scenario_by_id

PIECES = re.compile(r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]{1,3}"
                    r"| ?[^\sA-Za-z0-9]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
"""cl100k's pre-tokenizing pattern, for ASCII text (letters and digits as ASCII)."""

FORMATS = (ToolCallFormat.CONTENT_JSON, ToolCallFormat.NATIVE)


def first_request(briefing: Briefing, fmt: ToolCallFormat, variant: PromptVariant) -> str:
    """What the agent is told before the buyer's opening, tools included, as one text."""
    tools = "" if fmt is ToolCallFormat.CONTENT_JSON else json.dumps(
        tool_definitions(briefing.tools, variant), separators=(",", ":"))
    system, _, trial = prompt_text(briefing, fmt, variant).partition("# This conversation")
    # Chat templates such as Qwen's write native tools right after the system message.
    return system + tools + "# This conversation" + trial


def size(text: str) -> str:
    """Characters, words, characters / 4, and cl100k-style pieces."""
    return (f"{len(text):>6} chars {len(text.split()):>5} words "
            f"~{round(len(text) / 4):>5} tokens (chars/4) {len(PIECES.findall(text)):>5} pieces")


def shared(a: str, b: str) -> str:
    """The share of ``b`` that starts like ``a``."""
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                  min(len(a), len(b)))
    return f"{common / len(b):.0%}"


def main() -> None:
    """Print the table."""
    modes = builtin_modes()
    here, other = scenario_by_id("discount-exception"), scenario_by_id("actuator-pairing")
    dual = briefing_for(here, modes["dual_control"])
    for variant in PromptVariant:
        for fmt in FORMATS:
            text = first_request(dual, fmt, variant)
            print(f"{variant.value:>7} {fmt.value:<12} {size(text)}")
    print("\nshare of it (up to the buyer's opening) that a prompt cache holds after a trial "
          "in")
    for variant in PromptVariant:
        for fmt in FORMATS:
            text = first_request(dual, fmt, variant)
            other_mode = first_request(briefing_for(here, modes["all_tools"]), fmt, variant)
            same_mode = first_request(briefing_for(other, modes["dual_control"]), fmt, variant)
            print(f"{variant.value:>7} {fmt.value:<12} another mode: {shared(other_mode, text)}"
                  f"   the same mode: {shared(same_mode, text)}")


if __name__ == "__main__":
    main()
