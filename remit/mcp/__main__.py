"""``python -m remit.mcp``: serve a run to an MCP client over stdio or streamable HTTP.

The same as ``remit mcp serve``: ``[--suite SPEC] [--modes MODES | --mode MODE]
[--trials N] [--seed S] [--scenario ID]... [-k EXPR] [--tag TAG]... [--db URL]
[--http HOST:PORT [--allow-remote]]``. Stdout is the MCP channel (over stdio), so
everything this shell says goes to stderr: a bad option is one ``error:`` line and exit
status 2 before the server starts; each trial's verdict line, and the run's line with
its id, are said as they come.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from remit.errors import RemitError
from remit.mcp.server import mcp_serve
from remit.world.untrusted import visible

__all__ = ["main"]

USER_ERROR = 2
INTERRUPTED = 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m remit.mcp",
        description="Serve a remit run's agent tools to an MCP client, trial after trial.")
    parser.add_argument("--suite", default=None,
                        help="Built-in suite (core, handwritten) or a directory of scenario "
                             "files (default: look the first --scenario up in handwritten, "
                             "then core; core without one).")
    parser.add_argument("--modes", "--mode", dest="modes", default=None,
                        help="Comma-separated control modes: all_tools, dual_control, "
                             "oracle_plan or mode files (.yaml/.json) (default: "
                             "all_tools,dual_control).")
    parser.add_argument("--trials", type=int, default=1,
                        help="Trials per scenario and mode (default: 1).")
    parser.add_argument("--seed", type=int, default=0, help="Run seed (default: 0).")
    parser.add_argument("--scenario", action="append", default=[], metavar="ID",
                        help="Serve only this scenario (repeatable).")
    parser.add_argument("-k", "--keyword", default=None, metavar="EXPR",
                        help="Serve the scenarios whose ids match: words with and, or, not.")
    parser.add_argument("--tag", action="append", default=[], metavar="TAG",
                        help="Serve the scenarios carrying this tag (repeatable: any).")
    parser.add_argument("--db", default=None,
                        help="Database: a SQLite path or sqlite:///PATH, or "
                             "postgresql://USER@HOST/DB (default: $REMIT_DB, else ./remit.db).")
    parser.add_argument("--http", default=None, metavar="HOST:PORT",
                        help="Serve over streamable HTTP at http://HOST:PORT/mcp instead of "
                             "stdio (loopback only unless --allow-remote; port 0: any).")
    parser.add_argument("--allow-remote", action="store_true",
                        help="With --http: accept a non-loopback host (no authentication).")
    return parser


class _VisibleFormatter(logging.Formatter):
    """Log lines carry a client's name and its texts: shown, never executed."""

    def format(self, record: logging.LogRecord) -> str:
        return visible(super().format(record))


def _log_to_stderr() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_VisibleFormatter("remit mcp: %(message)s"))
    logger = logging.getLogger("remit")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv``, then serve until the session ends; return the exit status."""
    args = _parser().parse_args(argv)
    try:
        mcp_serve(suite_spec=args.suite, modes=args.modes, scenarios=args.scenario,
                  keyword=args.keyword, tags=args.tag, trials=args.trials, seed=args.seed,
                  db=args.db, http=args.http, allow_remote=args.allow_remote)
    except (RemitError, ValueError, OSError) as exc:
        sys.stderr.write(f"error: {visible(str(exc))}\n")
        return USER_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("interrupted before the session began: nothing was recorded\n")
        return INTERRUPTED
    return 0


if __name__ == "__main__":
    _log_to_stderr()  # here, not in main(): a caller of main() owns its logging
    sys.exit(main())
