"""remit's examples: scenarios written as pytest tests (run them with ``pytest examples/``).

A package, so that ``--remit-agent examples.test_my_agent:MyAgent`` and the marker's
``agent="examples.test_my_agent:MyAgent"`` can import the example agent.
"""
