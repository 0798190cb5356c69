// Cards: spec/notation.md section 1.
//
// A card is a small integer: suit * 13 + (rank - 1), suits in the order ♠ ♥ ♦ ♣ (0..3),
// ranks Ace = 1 ... King = 13. The two copies of a card are indistinguishable, so one number
// names both.

export const SUITS = ['♠', '♥', '♦', '♣'];
export const RANKS = [null, 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
export const ACE = 1;
export const KING = 13;

export const card = (suit, rank) => suit * 13 + rank - 1;
export const suitOf = (c) => Math.floor(c / 13);
export const rankOf = (c) => (c % 13) + 1;

/** Canonical text: rank then suit symbol, `10♥`, `Q♠`. */
export function cardText(c) {
  return RANKS[rankOf(c)] + SUITS[suitOf(c)];
}

// Accepted spellings (notation.md §1): T for 10, V for Jack, R for King (Raja); suits as
// symbols, letters S H D C, or the outline symbols. Letters in either case.
const RANK_WORDS = {
  A: 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9, '10': 10, T: 10,
  J: 11, V: 11, Q: 12, K: 13, R: 13,
};
const SUIT_WORDS = {
  '♠': 0, '♥': 1, '♦': 2, '♣': 3,
  S: 0, H: 1, D: 2, C: 3,
  '♤': 0, '♡': 1, '♢': 2, '♧': 3,
};

/** Read a card in any accepted spelling; returns the card number or null. Spellings once read are
 *  remembered (a position text repeats the same few dozen words). */
export function parseCard(text) {
  if (typeof text !== 'string') return null;
  const known = READ.get(text);
  if (known !== undefined) return known;
  const c = readSpelling(text);
  if (READ.size < 4096) READ.set(text, c);
  return c;
}

const READ = new Map();

function readSpelling(text) {
  const chars = Array.from(text); // the suit symbols are single code points
  if (chars.length < 2) return null;
  const suitWord = chars[chars.length - 1].toUpperCase();
  const rankWord = chars.slice(0, -1).join('').toUpperCase();
  if (!Object.hasOwn(RANK_WORDS, rankWord) || !Object.hasOwn(SUIT_WORDS, suitWord)) return null;
  return card(SUIT_WORDS[suitWord], RANK_WORDS[rankWord]);
}

/** Like parseCard, but throws a NotationError naming the text. */
export function readCard(text) {
  const c = parseCard(text);
  if (c === null) throw new NotationError(`not a card: ${JSON.stringify(text)}`);
  return c;
}

/** An input text that cannot be read at all (not a rule refusal). */
export class NotationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'NotationError';
  }
}
