"""``python -m remit.scenarios``: the size of the composition space and its rejections.

(``python -m remit.scenarios.compose`` would re-run a module the package has already
imported, which ``runpy`` warns about; this entry point avoids that.)
"""

from __future__ import annotations

import sys

from remit.scenarios.compose import combinations, rejection_counts, space_size


def main() -> None:
    """Write the space's size and the validator's rejection counts to standard output."""
    lines = [f"composition space: {space_size()} valid combinations of {len(combinations())}"]
    lines += [f"  rejected {count:5d}  {reason.value}"
              for reason, count in rejection_counts().items()]
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
