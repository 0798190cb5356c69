// Game codes and the deal: spec/deal.md (interpretation I-DEAL).

import { card, ACE, KING, NotationError } from './cards.js';
import { Position } from './position.js';

const MASK = (1n << 64n) - 1n;
const TWO64 = 1n << 64n;

/** Read a game code (deal.md §1); returns the seed as a Number (at most 26^7 - 1). */
export function parseCode(text) {
  if (typeof text !== 'string') throw new NotationError('a game code must be a string');
  const parts = text.trim().split('-');
  if (parts.length !== 3) throw new NotationError(`not a game code (three parts joined by hyphens): ${JSON.stringify(text)}`);
  const [format, family, letters] = parts;
  if (format !== 'CR1') throw new NotationError(`format ${JSON.stringify(format)} is not defined (only CR1)`);
  if (family !== 'N') throw new NotationError(`deal family ${JSON.stringify(family)} is not defined (only N)`);
  if (!/^[A-Z]{7}$/.test(letters)) throw new NotationError(`the seed part must be seven capital letters A-Z: ${JSON.stringify(letters)}`);
  let seed = 0;
  for (const ch of letters) seed = seed * 26 + (ch.charCodeAt(0) - 65);
  return seed;
}

/** The code of a seed: seven letters, leading As. */
export function codeText(seed) {
  let letters = '';
  let n = seed;
  for (let i = 0; i < 7; i++) {
    letters = String.fromCharCode(65 + (n % 26)) + letters;
    n = Math.floor(n / 26);
  }
  return `CR1-N-${letters}`;
}

/** SplitMix64 (deal.md §2), on BigInts kept to their low 64 bits. */
export class SplitMix64 {
  constructor(seed) {
    this.state = BigInt(seed) & MASK;
  }

  next() {
    this.state = (this.state + 0x9E3779B97F4A7C15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    return z ^ (z >> 31n);
  }

  /** A fair number in 0..n-1, rejecting the outputs that would bias it (deal.md §3). */
  below(n) {
    const bn = BigInt(n);
    const limit = TWO64 - (TWO64 % bn);
    for (;;) {
      const x = this.next();
      if (x < limit) return Number(x % bn);
    }
  }
}

/** The 96 pile cards before shuffling (deal.md §4). */
export function unshuffledDeck() {
  const deck = [];
  for (let s = 0; s < 4; s++) for (let r = 2; r <= 12; r++) deck.push(card(s, r));
  for (let s = 0; s < 4; s++) for (let r = ACE; r <= KING; r++) deck.push(card(s, r));
  return deck;
}

/** Fisher-Yates over the 96 cards (deal.md §5); `swaps`, if given, collects every j. */
export function shuffledDeck(seed, swaps = null) {
  const rng = new SplitMix64(seed);
  const deck = unshuffledDeck();
  for (let i = 95; i >= 1; i--) {
    const j = rng.below(i + 1);
    if (swaps) swaps.push(j);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/**
 * The dealt position of a code (deal.md §6): card k on top of pile (k mod 16) + 1.
 * `closed` turns the bottom five cards of each pile face down.
 */
export function dealPosition(seed, { reshuffles = 3, closed = false } = {}) {
  const deck = shuffledDeck(seed);
  const pos = new Position();
  deck.forEach((c, k) => pos.piles[k % 16].push(c));
  pos.hidden.fill(closed ? 5 : 0);
  pos.reshuffles = reshuffles;
  return pos;
}
