// The rules of play: spec/rules.md §5-§11, §14, §15, with the reason order of §16
// (spec/reasons.yaml, I-REASON-ORDER). Functions here take a Position and the parameters of a
// profile (src/profiles.js) and know nothing of undo, taps or the protocol (src/game.js).

import { ACE, KING, card, suitOf, rankOf } from './cards.js';
import {
  PILES, PLACES, HOLD, acePlace, kingPlace, isPile, isFoundation, isAceFoundation,
  foundationSuit, moveText,
} from './notation.js';

// ---------------------------------------------------------------------------------------------
// Foundations

/** Does the foundation at place f take a card of rank r of its suit next (§1, §8, §10.2)? */
export function foundationTakes(pos, f, r) {
  const s = foundationSuit(f);
  const h = pos.held[s];
  if (isAceFoundation(f)) {
    if (h) return r === h || r === h + 1; // the held card goes first (I-HOFFMANN-HOLD)
    return pos.up[s] < KING && r === pos.up[s] + 1;
  }
  if (h) return r === h || r === h - 1;
  return pos.down[s] > ACE && r === pos.down[s] - 1;
}

/** A card of rank r fits both foundations of suit s: Ace shows r-1, King r+1 (§8.5). */
export function fitsBoth(pos, s, r) {
  return pos.up[s] === r - 1 && pos.down[s] === r + 1;
}

/** The top card a foundation shows. */
export function foundationTop(pos, f) {
  const s = foundationSuit(f);
  return card(s, isAceFoundation(f) ? pos.up[s] : pos.down[s]);
}

/** The foundation shows only its base Ace or King. */
export function foundationAtBase(pos, f) {
  const s = foundationSuit(f);
  return isAceFoundation(f) ? pos.up[s] === ACE : pos.down[s] === KING;
}

/**
 * The two foundations of suit s meet: the King one shows one rank more than the Ace one (§9.1).
 * They never count as meeting while a card of the suit is held: no card may then leave them
 * (rules.md §10.6, §15.2).
 */
export function foundationsMeet(pos, s) {
  return !pos.held[s] && pos.down[s] === pos.up[s] + 1;
}

/** Neighbours on the piles: same suit, ranks one apart, King-Ace too with the wrap (§6). */
export function pileNeighbours(a, b, wrap) {
  if (suitOf(a) !== suitOf(b)) return false;
  const d = Math.abs(rankOf(a) - rankOf(b));
  return d === 1 || (wrap && d === 12);
}

/** The card a move from place p would take, or null when there is none. */
export function topCard(pos, p) {
  if (isPile(p)) {
    const pile = pos.piles[p];
    return pile.length ? pile[pile.length - 1] : null;
  }
  if (isFoundation(p)) return foundationTop(pos, p);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Judging a move (§16, "a move from S to D"), leaving out `game-over`, which the game checks.

/** null when the move from src to dst is legal, else the reason code of its refusal. */
export function judgeMove(pos, P, src, dst) {
  if (isPile(src) && pos.piles[src].length === 0) return 'empty-source';
  if (src === dst) return 'same-place';
  if (isFoundation(src)) {
    if (foundationAtBase(pos, src)) return 'base-locked';
    if (isPile(dst) && !P.give_backs) return 'foundation-final';
    if (isFoundation(dst) && !P.between_foundations) return 'foundation-final';
    if (dst === HOLD) return 'foundation-final';
    // While a card of the suit is held, no card leaves either foundation of that suit, whatever
    // the destination: no give-back, no crossing (rules.md §10.6, §16, I-HOFFMANN-HOLD).
    if (pos.held[foundationSuit(src)]) return 'foundation-final';
  }
  const c = topCard(pos, src);
  const s = suitOf(c);
  const r = rankOf(c);
  if (isPile(dst)) {
    const pile = pos.piles[dst];
    if (pile.length === 0) return 'empty-pile';
    if (P.pile_limit !== null && pile.length >= P.pile_limit) return 'pile-full';
    const t = pile[pile.length - 1];
    if (suitOf(t) !== s) return 'wrong-suit';
    if (!pileNeighbours(c, t, P.pile_wrap)) return 'wrong-rank';
    return null;
  }
  if (dst === HOLD) {
    if (!P.hold_double_fit) return 'hold-unavailable';
    if (pos.held[s] || !fitsBoth(pos, s, r)) return 'not-double-fit';
    return null;
  }
  // dst is a foundation
  if (foundationSuit(dst) !== s) return 'wrong-suit';
  if (!foundationTakes(pos, dst, r)) return 'out-of-sequence';
  if (P.hold_double_fit && isPile(src) && !pos.held[s] && fitsBoth(pos, s, r)) return 'must-hold';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Carrying out a move (already judged legal). Does not count it: the caller decides.

export function applyMove(pos, src, dst) {
  // take
  let c;
  if (isPile(src)) {
    const pile = pos.piles[src];
    c = pile.pop();
    // A face-down card that becomes the top turns face up (I-CLOSED-TURNUP).
    if (pos.hidden[src] > 0 && pos.hidden[src] >= pile.length) pos.hidden[src] = Math.max(pile.length - 1, 0);
  } else {
    const s = foundationSuit(src);
    c = foundationTop(pos, src);
    if (isAceFoundation(src)) pos.up[s] -= 1;
    else pos.down[s] += 1;
  }
  // put
  const s = suitOf(c);
  const r = rankOf(c);
  if (isPile(dst)) {
    pos.piles[dst].push(c);
  } else if (dst === HOLD) {
    pos.held[s] = r;
  } else {
    const h = pos.held[s];
    if (isAceFoundation(dst)) pos.up[s] = r;
    else pos.down[s] = r;
    if (h) {
      // The held card is settled by this card (I-HOFFMANN-HOLD): it went on dst first, or,
      // for its twin, one copy went on each foundation.
      if (r === h) {
        pos.up[s] = h;
        pos.down[s] = h;
      }
      pos.held[s] = 0;
    }
  }
  return c;
}

// ---------------------------------------------------------------------------------------------
// Reshuffle (§11)

export function applyReshuffle(pos) {
  for (let i = 0; i < PILES; i++) {
    const pile = pos.piles[i];
    if (pile.length < 2) continue;
    pile.push(pile.shift());
    if (pos.hidden[i] > 0) pos.hidden[i] -= 1; // the bottom card was face down; it is up on top now
  }
  pos.reshuffles -= 1;
}

// ---------------------------------------------------------------------------------------------
// Legal moves, autoplay, status

/** Every legal card move, as [src, dst] pairs: from piles and foundations to every place. */
export function legalMoves(pos, P) {
  const out = [];
  for (let src = 0; src < 24; src++) {
    for (let dst = 0; dst < PLACES; dst++) {
      if (judgeMove(pos, P, src, dst) === null) out.push([src, dst]);
    }
  }
  return out;
}

/** The places that would accept the card on src now. */
export function acceptingPlaces(pos, P, src) {
  const out = [];
  for (let dst = 0; dst < PLACES; dst++) if (judgeMove(pos, P, src, dst) === null) out.push(dst);
  return out;
}

/** The card on src (a pile or a foundation) can go somewhere now: a pile, a foundation, the hold (§15.2). */
function cardCanMove(pos, P, src) {
  for (let dst = 0; dst < PLACES; dst++) if (judgeMove(pos, P, src, dst) === null) return true;
  return false;
}

/** Status of the position (§15, I-STUCK). */
export function status(pos, P) {
  let won = true;
  for (let s = 0; s < 4; s++) {
    if (pos.up[s] !== KING || pos.down[s] !== ACE || pos.held[s]) { won = false; break; }
  }
  if (won) return 'won';
  for (let src = 0; src < PILES; src++) {
    const pile = pos.piles[src];
    if (pile.length === 0) continue;
    if (P.between_foundations && foundationsMeet(pos, suitOf(pile[pile.length - 1]))) return 'playing';
    if (cardCanMove(pos, P, src)) return 'playing';
  }
  // stuck_when 'no-move' (the app, 000/003): a move off a foundation counts too (a slide, a give-back)
  if (P.stuck_when === 'no-move') {
    for (let src = PILES; src < 24; src++) if (cardCanMove(pos, P, src)) return 'playing';
  }
  return pos.reshuffles > 0 ? 'waiting' : 'lost';
}

/**
 * 001's autoplay (§14, I-AUTOPLAY-SCOPE): repeatedly, the first pile (1 to 16) whose top card is
 * taken next by exactly one foundation of its suit and may go on no other pile sends it there.
 * Returns the moves made, as canonical text. Does not count them.
 */
export function autoplay(pos, P) {
  const made = [];
  for (;;) {
    let moved = false;
    for (let src = 0; src < PILES && !moved; src++) {
      const pile = pos.piles[src];
      if (pile.length === 0) continue;
      const c = pile[pile.length - 1];
      const s = suitOf(c);
      const r = rankOf(c);
      const toAce = foundationTakes(pos, acePlace(s), r);
      const toKing = foundationTakes(pos, kingPlace(s), r);
      if (toAce === toKing) continue; // none, or both ("you pick")
      const dst = toAce ? acePlace(s) : kingPlace(s);
      if (judgeMove(pos, P, src, dst) !== null) continue;
      let fitsPile = false;
      for (let p = 0; p < PILES; p++) {
        if (p !== src && judgeMove(pos, P, src, p) === null) { fitsPile = true; break; }
      }
      if (fitsPile) continue;
      applyMove(pos, src, dst);
      made.push(moveText(src, dst));
      moved = true;
    }
    if (!moved) return made;
  }
}
