"""An exact solver for Crescent on the reference engine: ``solve(game, budget)`` answers
``winnable`` (with a line that wins), ``not winnable`` or ``unknown``. See docs/solver.md."""

from crescent_ref.solver.search import Answer, Budget, Verdict, replay, solve

__all__ = ["Answer", "Budget", "Verdict", "replay", "solve"]
