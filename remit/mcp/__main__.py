"""``python -m remit.mcp``: serve one trial to an MCP client over stdio.

The same as ``remit mcp serve``: ``--scenario ID --mode MODE [--suite SPEC] [--db URL]
[--seed N]``. Stdout is the MCP channel, so everything this shell says goes to stderr:
a bad name is one ``error:`` line and exit status 2 before the server starts; the
verdict line (run id, passed or failed) is logged when the trial ends.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from remit.errors import RemitError
from remit.mcp.server import mcp_serve

__all__ = ["main"]

USER_ERROR = 2
INTERRUPTED = 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m remit.mcp",
        description="Serve one remit trial's agent tools to an MCP client over stdio.")
    parser.add_argument("--scenario", required=True, help="The scenario's id.")
    parser.add_argument("--mode", required=True,
                        help="Control mode: all_tools, dual_control, oracle_plan or a mode "
                             "file (.yaml/.json).")
    parser.add_argument("--suite", default=None,
                        help="Built-in suite (core, handwritten) or a directory of scenario "
                             "files (default: look the id up in handwritten, then core).")
    parser.add_argument("--db", default=None,
                        help="Database: a SQLite path or sqlite:///PATH, or "
                             "postgresql://USER@HOST/DB (default: $REMIT_DB, else ./remit.db).")
    parser.add_argument("--seed", type=int, default=0, help="Run seed (default: 0).")
    return parser


def _log_to_stderr() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("remit mcp: %(message)s"))
    logger = logging.getLogger("remit")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv``, then serve until the client disconnects; return the exit status."""
    args = _parser().parse_args(argv)
    try:
        mcp_serve(args.scenario, args.mode, suite_spec=args.suite, db=args.db, seed=args.seed)
    except (RemitError, ValueError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return USER_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("interrupted: the trial was not recorded\n")
        return INTERRUPTED
    return 0


if __name__ == "__main__":
    _log_to_stderr()  # here, not in main(): a caller of main() owns its logging
    sys.exit(main())
