// Places and actions: spec/notation.md sections 2 and 3.
//
// A place is a small integer:
//   0..15   piles 1..16
//   16..19  the Ace foundations of ♠ ♥ ♦ ♣ (named by their base: A♠ ...)
//   20..23  the King foundations of ♠ ♥ ♦ ♣ (K♠ ...)
//   24      the hold (hoffmann-1892)

import { SUITS, ACE, KING, parseCard, suitOf, rankOf, NotationError } from './cards.js';

export const PILES = 16;
export const HOLD = 24;
export const PLACES = 25;
export const acePlace = (suit) => 16 + suit;
export const kingPlace = (suit) => 20 + suit;
export const isPile = (p) => p >= 0 && p < 16;
export const isFoundation = (p) => p >= 16 && p < 24;
export const isAceFoundation = (p) => p >= 16 && p < 20;
export const foundationSuit = (p) => (p - 16) % 4;

export function placeText(p) {
  if (isPile(p)) return `p${p + 1}`;
  if (isAceFoundation(p)) return `A${SUITS[p - 16]}`;
  if (isFoundation(p)) return `K${SUITS[p - 20]}`;
  if (p === HOLD) return 'hold';
  throw new Error(`no such place ${p}`);
}

/** Read a place in any accepted spelling (p7, P7, 7, A♠, AS, KH, R♠, hold); null if none. */
export function parsePlace(text) {
  const t = text.trim();
  const pile = /^[pP]?([1-9]|1[0-6])$/.exec(t);
  if (pile) return Number(pile[1]) - 1;
  if (t.toLowerCase() === 'hold') return HOLD;
  const c = parseCard(t);
  if (c === null) return null;
  if (rankOf(c) === ACE) return acePlace(suitOf(c));
  if (rankOf(c) === KING) return kingPlace(suitOf(c));
  return null; // Q♠ names no place
}

function readPlace(text, whole) {
  const p = parsePlace(text);
  if (p === null) throw new NotationError(`not a place: ${JSON.stringify(text)} in ${JSON.stringify(whole)}`);
  return p;
}

// An action is a plain object:
//   {type: 'move', from, to}  {type: 'reshuffle'}  {type: 'undo'}
//   {type: 'tap', place}      {type: 'drop', pile}

/** Read an action; throws NotationError when the text cannot be read (notation.md §3). */
export function parseAction(text) {
  if (typeof text !== 'string') throw new NotationError('an action must be a string');
  const t = text.trim();
  const words = t.split(/\s+/);
  const head = words[0].toLowerCase();
  if (words.length === 1 && head === 'reshuffle') return { type: 'reshuffle' };
  if (words.length === 1 && head === 'undo') return { type: 'undo' };
  if (head === 'tap' || head === 'drop') {
    if (words.length !== 2) throw new NotationError(`${head} needs one place: ${JSON.stringify(text)}`);
    const p = readPlace(words[1], text);
    if (head === 'tap') return { type: 'tap', place: p };
    if (p === HOLD) throw new NotationError(`a held card cannot be dropped: ${JSON.stringify(text)}`);
    return { type: 'drop', pile: p };
  }
  const parts = t.split('-');
  if (parts.length !== 2) throw new NotationError(`not an action: ${JSON.stringify(text)}`);
  const from = readPlace(parts[0], text);
  const to = readPlace(parts[1], text);
  if (from === HOLD) throw new NotationError(`a held card cannot be moved by hand: ${JSON.stringify(text)}`);
  return { type: 'move', from, to };
}

export function moveText(from, to) {
  return `${placeText(from)}-${placeText(to)}`;
}

export function actionText(a) {
  switch (a.type) {
    case 'move': return moveText(a.from, a.to);
    case 'reshuffle': return 'reshuffle';
    case 'undo': return 'undo';
    case 'tap': return `tap ${placeText(a.place)}`;
    case 'drop': return `drop ${placeText(a.pile)}`;
    default: throw new Error(`unknown action type ${a.type}`);
  }
}
