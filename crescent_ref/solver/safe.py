"""Safe moves: a move the solver may play at once, dropping every other choice at that node.

Only one kind of move is proved safe here. In Crescent a card on a pile is a *target*: its suit's
neighbours may be built on it. Moving it to a foundation takes that target away, and taking a
card off a pile also changes what later reshuffles bring up. So a foundation move is not safe in
general, and we prune only where both effects are ruled out.

**The rule.** In a profile without give-backs and without autoplay, a pile's top card ``c`` (suit
``s``, rank ``r``) that a foundation ``F`` takes may go there at once when

(a) every card that could be built on ``c`` (both copies of each of ``c``'s pile neighbours) is on
    a foundation already, and
(b) ``c``'s pile holds more cards than there are reshuffles left.

**What (a) means.** A foundation holds one copy of each rank it has. If ``r`` is neither Ace nor
King, (a) puts a copy of ``r + 1`` on the Ace foundation (so ``r`` is there too) and a copy of
``r − 1`` on the King foundation (so ``r`` is there too): both copies of ``r`` would be on the
foundations, yet ``c`` is on a pile. So ``c`` is an Ace or a King, and (a) makes it the last card
its foundation needs: a King with the Ace foundation showing the Queen, or an Ace with the King
foundation showing the 2 (with the wrap the suit's other foundation is complete too).

**Proof that the move is safe.** Let P be the position and P' the one after ``c`` goes to ``F``.
We show: any line that wins from P can be followed from P', so P' is won whenever P is. Follow the
line step by step, keeping the invariant "P' is P with ``c`` taken off its pile and put on ``F``"
(face-down counts and the move counter aside; they decide nothing).

1. ``c`` itself can only ever go to ``F``: not onto a pile (its neighbours are all on foundations,
   and without give-backs they never come back), not to the other foundation ``G`` of its suit
   (``G``'s base is the other Ace or King, so ``G`` never takes ``c``'s rank), not to the hold
   (that needs both foundations to take it). When the line moves ``c`` to ``F``, P' does nothing
   and the two positions become equal.
2. No card is ever built on ``c`` (by (a)). So every pile top of P other than ``c`` is also a pile
   top of P', and every pile move of P other than one of ``c`` is legal in P' (a pile is never
   taller in P' than in P, so the pile limit agrees) and keeps the invariant.
3. Foundation moves. Only suit ``s`` differs, and there ``F`` takes nothing but ``c`` in P (the
   twin of ``c`` is ``G``'s base) and nothing at all in P'; ``G`` is the same in both. ``F`` and
   ``G`` never meet (a King-side ``G`` never shows a King above the Queen on ``F``; symmetrically
   for an Ace ``c``), so no card crosses between them, in P or in P'; and no card of ``s`` fits
   both foundations, so nothing of ``s`` goes to the hold. Other suits are the same in P and P'.
4. Reshuffles. A reshuffle moves each pile's bottom card to its top. Deleting ``c`` from a pile
   commutes with that, unless ``c`` is itself the bottom card of a pile of two or more. Cards
   are only ever added on top, so the cards below ``c`` only become fewer, by one per reshuffle;
   by (b) there are fewer reshuffles left than cards in its pile, so ``c`` is never rotated.
5. Game over. P' is lost while P is not only when ``c`` is P's one movable pile card and no
   reshuffle is left; then every line from P can slide cards between meeting foundations (which
   changes no pile top and frees no card a meeting suit did not free already) and play ``c``,
   reaching P's status of P': lost. So such a P wins nothing, and a winning line never meets it.
6. Without autoplay nothing else moves by itself (autoplay scans the piles in order, and ``c``
   on a pile changes which cards it takes: excluded).

So a winning line from P yields one from P'. The rule is checked against the unpruned search on
many small positions in tests/test_solver.py; docs/solver.md restates it.
"""

from __future__ import annotations

from crescent_ref.actions import PILES, UP, Action
from crescent_ref.cards import KING
from crescent_ref.movegen import tables
from crescent_ref.position import Position
from crescent_ref.profiles import Profile


def applies(profile: Profile) -> bool:
    """The profile is one the proof covers: no give-backs, no autoplay."""
    return not profile.give_backs and not profile.autoplay


def on_foundations(pos: Position, card: int) -> int:
    """How many copies of ``card`` lie on the foundations."""
    suit, rank = divmod(card, 13)
    rank += 1
    return (rank <= pos.up[suit]) + (rank >= pos.down[suit])


def safe_move(profile: Profile, pos: Position, moves: list[Action]) -> Action | None:
    """The first of ``moves`` (the position's pile moves) that the rule above proves safe."""
    if not applies(profile):
        return None
    near = tables(profile).near
    for move in moves:
        if move.dst < UP or move.dst >= UP + 8 or move.src >= PILES:
            continue
        pile = pos.piles[move.src]
        if len(pile) > pos.reshuffles and all(on_foundations(pos, n) == 2 for n in near[pile[-1]]):
            return move
    return None


def last_card(pos: Position, card: int) -> bool:
    """``card`` is the last card one of its suit's foundations needs (what the rule implies)."""
    suit, rank = divmod(card, 13)
    return (rank + 1 == KING and pos.up[suit] == KING - 1) or (rank == 0 and pos.down[suit] == 2)
