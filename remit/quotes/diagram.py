"""A Mermaid ``stateDiagram-v2`` of the quote state machine, for docs and reports.

The diagram comes from ``transitions``' own ``GraphMachine(graph_engine="mermaid")``,
built from the same :data:`~remit.quotes.states.TRANSITIONS` table as the hot-path
machine but separately from it: drawing never touches the machine that moves quotes.
The Mermaid engine is pure Python, so neither graphviz nor pygraphviz is needed.

Example:
    >>> print(mermaid_diagram().splitlines()[3])
    stateDiagram-v2
"""

from __future__ import annotations

from transitions.extensions.diagrams import GraphMachine

from remit.quotes.states import TRANSITIONS, QuoteState

__all__ = ["mermaid_diagram"]


def mermaid_diagram(title: str = "Quote") -> str:
    """The quote state machine as Mermaid ``stateDiagram-v2`` text.

    Every state and every trigger of the transition table appears; the initial state
    ``draft`` is marked with ``[*] --> draft``. Guards are not drawn.

    Args:
        title: the diagram's title (front matter).
    """
    machine = GraphMachine(
        states=[state.value for state in QuoteState],
        initial=QuoteState.DRAFT.value,
        transitions=[
            {
                "trigger": spec.trigger.value,
                "source": [state.value for state in spec.sources],
                "dest": spec.dest.value,
            }
            for spec in TRANSITIONS
        ],
        auto_transitions=False,
        graph_engine="mermaid",
        title=title,
    )
    source = machine.get_combined_graph(title=title).draw(None)
    if source is None:  # pragma: no cover - the mermaid engine always returns its text
        raise RuntimeError("transitions' mermaid engine returned no diagram text")
    return source
