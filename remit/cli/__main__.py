"""``python -m remit.cli``: the command line."""

from remit.cli import main

main()
