"""Children a test stops with Ctrl-C get SIGINT at its default, whatever the test process inherited.

A shell starts a background job with SIGINT ignored, and an ignored signal stays ignored across exec:
under ``.ci/run``'s nox sessions (run at once, in the background) or ``nohup ... &``, a child would
otherwise never see the test's Ctrl-C, and Python keeps an ignored SIGINT ignored (exit 0, not 130)."""

from __future__ import annotations

import signal


def sigint_default() -> None:
    """For ``subprocess.Popen(preexec_fn=...)``: the child starts with SIGINT at its default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
