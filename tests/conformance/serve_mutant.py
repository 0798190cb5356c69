"""The reference engine over stdio with one faulty engine's patch applied for the whole process.

``python tests/conformance/serve_mutant.py NAME`` serves like ``crescent-ref serve`` but with the
mutant NAME of mutants.py broken in: what differential play and the runner's stdio tests drive.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutants import ALL_BY_NAME

from crescent_ref import serve


def main(argv: list[str]) -> int:
    """Serve with the named mutant's patch; exit 2 naming the known mutants for an unknown name."""
    if len(argv) != 1 or argv[0] not in ALL_BY_NAME:
        print(f"usage: serve_mutant.py NAME; known: {', '.join(ALL_BY_NAME)}", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        for target, new in ALL_BY_NAME[argv[0]].patches:
            stack.enter_context(mock.patch(target, new))
        return serve.main()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
