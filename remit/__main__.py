"""``python -m remit``: the command line."""

from remit.cli import main

main()
