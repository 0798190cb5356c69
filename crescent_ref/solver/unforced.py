"""Autoplay as a choice: the one-suit rules in profiles with autoplay, played without it.

``suits.py``, ``last.py`` and ``two.py`` prove a position dead when some suit cannot be won alone.
Their claim needs a profile without autoplay: in the one-suit position more cards of the suit lie
on top, and autoplay could send one of them home where the real line kept it as a target. This
module lifts that restriction by relaxing the rules once more.

**The relaxation.** ``relaxed(profile)`` is the profile with autoplay off and every other
parameter kept. Call a game under it *unforced*: the same moves, only nothing goes home by itself.

**Claim.** If a position ``P`` can be won under a profile with autoplay, it can be won unforced.
Write a winning line out with each card that autoplay sent home as a move of its own, in the order
autoplay made them. Autoplay only sends a pile's top card to a foundation that takes it, which is a
legal move by the same rules (autoplay adds no kind of move, it only makes some moves by
themselves), so each of these moves is legal unforced, in the same position. By induction along
the line the unforced game passes through the same positions and ends won. The status rule does
not end the unforced game earlier either: wherever the line goes on, its next action is a legal
move (or a reshuffle that is left), so the game is not stuck under either ``stuck_when``.

So a position proved not winnable unforced is not winnable under the profile. The one-suit rules
are proved for profiles without autoplay, so they hold unforced: with autoplay, the solve asks them
about ``P``'s one-suit positions under ``relaxed(profile)`` (their own searches, keys, safe moves
and dead rules all under it), and a suit lost alone unforced proves ``P`` dead. The positions such a
search meets and exhausts are proved not winnable unforced, hence under the profile too, which is
why they may join the solve's set of positions proved lost (``Search.lost``): a key there names a
position lost unforced, and the same cards in the same places are lost with autoplay as well.

The relaxation is looser than the profile: it proves only what holds even when autoplay waits.
Checked against the exhaustive brute force on small positions under the autoplay profiles
(tests/solver/test_solver_unforced.py).
"""

from __future__ import annotations

import dataclasses
import functools

from crescent_ref.profiles import Profile
from crescent_ref.solver import fast

SUFFIX = "~unforced"  # the relaxed profile's name: never a profile of spec/profiles.yaml


ENABLED = True  # False: the one-suit rules stay off with autoplay, as before (benchmarks/bench_proofs.py)


def relaxed(profile: Profile) -> Profile:
    """``profile`` with autoplay off (``profile`` itself when it has none, or when not ENABLED)."""
    return _relaxed(profile) if ENABLED and profile.autoplay else profile


@functools.lru_cache(maxsize=64)
def _relaxed(profile: Profile) -> Profile:
    return dataclasses.replace(profile, name=profile.name + SUFFIX, autoplay=False)


def core(profile: Profile, compiled: fast.Core | None) -> fast.Core | None:
    """The compiled core of ``relaxed(profile)`` when the solve runs on the compiled core, else None."""
    if compiled is None:
        return None
    rules = relaxed(profile)
    return compiled if rules is profile else fast.core_for(rules, fast.COMPILED)
