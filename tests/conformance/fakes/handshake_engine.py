"""A stdio implementation with a handshake of the test's choosing: ``python handshake_engine.py 'JSON'``.

It answers ``start`` with the JSON given (a version 1 handshake, bad deviations, ...) and every other
request as ``crescent-ref serve`` does.
"""

from __future__ import annotations

import json
import sys

from crescent_ref.serve import Server


def main() -> int:
    """Serve with the given handshake reply."""
    hello = json.loads(sys.argv[1])
    server = Server()
    for line in sys.stdin:
        request = json.loads(line)
        reply = hello if request.get("cmd") == "start" else server.handle(request)
        if reply is None:
            break
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
