// The position: everything on the table (spec/rules.md §1, spec/notation.md §5).

import {
  SUITS, ACE, KING, card, suitOf, rankOf, cardText, parseCard, NotationError,
} from './cards.js';

export class Position {
  constructor() {
    /** 16 piles, each an array of cards, bottom first. */
    this.piles = Array.from({ length: 16 }, () => []);
    /** Face-down cards at the bottom of each pile (closed deals). */
    this.hidden = new Array(16).fill(0);
    /** Rank shown by each suit's Ace foundation (1 = only its base Ace). */
    this.up = [ACE, ACE, ACE, ACE];
    /** Rank shown by each suit's King foundation (13 = only its base King). */
    this.down = [KING, KING, KING, KING];
    /** Rank of the card held between the rows, per suit; 0 = none (hoffmann-1892). */
    this.held = [0, 0, 0, 0];
    this.reshuffles = 3;
    this.moves = 0;
  }

  clone() {
    const p = new Position();
    p.piles = this.piles.map((pile) => pile.slice());
    p.hidden = this.hidden.slice();
    p.up = this.up.slice();
    p.down = this.down.slice();
    p.held = this.held.slice();
    p.reshuffles = this.reshuffles;
    p.moves = this.moves;
    return p;
  }

  /** Cards on the eight foundations: an Ace foundation showing r holds r, a King one 14 - r. */
  foundationCards() {
    let n = 0;
    for (let s = 0; s < 4; s++) n += this.up[s] + (14 - this.down[s]);
    return n;
  }

  /** The canonical one-line text (notation.md §5). */
  toText() {
    const up = this.up.map((r, s) => cardText(card(s, r))).join(',');
    const down = this.down.map((r, s) => cardText(card(s, r))).join(',');
    const piles = this.piles.map((pile, i) => pileText(pile, this.hidden[i])).join('/');
    let text = `up:${up} down:${down} piles:${piles} reshuffles:${this.reshuffles} moves:${this.moves}`;
    const held = this.heldCards();
    if (held.length) text += ` held:${held.map(cardText).join(',')}`;
    return text;
  }

  heldCards() {
    const out = [];
    for (let s = 0; s < 4; s++) if (this.held[s]) out.push(card(s, this.held[s]));
    return out;
  }

  /** Read the text form; throws NotationError on anything notation.md §5 refuses. */
  static parse(text) {
    if (typeof text !== 'string') throw new NotationError('a position must be a string');
    const fields = {};
    for (const item of text.trim().split(/\s+/)) {
      const colon = item.indexOf(':');
      if (colon < 0) throw new NotationError(`not a field: ${JSON.stringify(item)}`);
      const name = item.slice(0, colon);
      if (!FIELDS.includes(name)) throw new NotationError(`unknown field ${JSON.stringify(name)}`);
      if (name in fields) throw new NotationError(`field ${name} given twice`);
      fields[name] = item.slice(colon + 1);
    }
    for (const name of FIELDS) {
      if (name !== 'held' && !(name in fields)) throw new NotationError(`missing field ${name}`);
    }
    const p = new Position();
    p.up = readFoundations(fields.up, 'up');
    p.down = readFoundations(fields.down, 'down');
    const piles = fields.piles.split('/');
    if (piles.length !== 16) throw new NotationError(`${piles.length} piles, not 16`);
    piles.forEach((t, i) => {
      const [cards, hidden] = readPile(t, i + 1);
      p.piles[i] = cards;
      p.hidden[i] = hidden;
    });
    p.reshuffles = readCount(fields.reshuffles, 'reshuffles');
    p.moves = readCount(fields.moves, 'moves');
    if ('held' in fields) {
      if (fields.held === '') throw new NotationError('held: no card (leave the field out when none is held)');
      for (const t of fields.held.split(',')) {
        if (t === '') throw new NotationError(`held: an empty card between commas in ${JSON.stringify(fields.held)}`);
        const c = parseCard(t);
        if (c === null) throw new NotationError(`held: not a card: ${JSON.stringify(t)}`);
        const s = suitOf(c);
        if (p.held[s]) throw new NotationError(`two held cards of ${SUITS[s]}`);
        p.held[s] = rankOf(c);
      }
    }
    p.checkTable();
    return p;
  }

  /** Every card exactly twice, and held cards that fit both foundations of their suit. */
  checkTable() {
    const count = new Array(52).fill(0);
    for (const pile of this.piles) for (const c of pile) count[c]++;
    for (let s = 0; s < 4; s++) {
      for (let r = ACE; r <= this.up[s]; r++) count[card(s, r)]++;
      for (let r = this.down[s]; r <= KING; r++) count[card(s, r)]++;
      if (this.held[s]) count[card(s, this.held[s])]++;
    }
    const wrong = [];
    count.forEach((n, c) => { if (n !== 2) wrong.push(`${cardText(c)} ×${n}`); });
    if (wrong.length) throw new NotationError(`every card must be on the table twice: ${wrong.join(', ')}`);
    for (let s = 0; s < 4; s++) {
      const r = this.held[s];
      if (r && !(this.up[s] === r - 1 && this.down[s] === r + 1)) {
        throw new NotationError(`held ${cardText(card(s, r))} does not fit both foundations of its suit`);
      }
    }
  }
}

const FIELDS = ['up', 'down', 'piles', 'reshuffles', 'moves', 'held'];

function pileText(pile, hidden) {
  if (pile.length === 0) return '-';
  const words = pile.map(cardText);
  if (hidden === 0) return words.join(',');
  return `[${words.slice(0, hidden).join(',')}],${words.slice(hidden).join(',')}`;
}

function readFoundations(text, name) {
  const parts = text.split(',');
  if (parts.length !== 4) throw new NotationError(`${name}: ${parts.length} cards, not 4`);
  return parts.map((t, s) => {
    const c = parseCard(t);
    if (c === null) throw new NotationError(`${name}: not a card: ${JSON.stringify(t)}`);
    if (suitOf(c) !== s) throw new NotationError(`${name}: ${cardText(c)} in the place of ${SUITS[s]}`);
    return rankOf(c);
  });
}

function readPile(text, number) {
  if (text === '' || text === '-') return [[], 0];
  let hidden = 0;
  let rest = text;
  const cards = [];
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) throw new NotationError(`pile ${number}: [ without ]`);
    const inside = text.slice(1, close);
    if (inside === '') throw new NotationError(`pile ${number}: empty brackets`);
    for (const t of inside.split(',')) cards.push(readPileCard(t, number));
    hidden = cards.length;
    rest = text.slice(close + 1);
    if (rest === '') throw new NotationError(`pile ${number}: face-down cards with no face-up card above them`);
    if (!rest.startsWith(',')) throw new NotationError(`pile ${number}: a comma must follow ]`);
    rest = rest.slice(1);
  }
  if (rest.includes('[') || rest.includes(']')) throw new NotationError(`pile ${number}: misplaced bracket`);
  for (const t of rest.split(',')) cards.push(readPileCard(t, number));
  return [cards, hidden];
}

function readPileCard(t, number) {
  if (t === '') throw new NotationError(`pile ${number}: an empty card (two commas, or a comma at an end)`);
  const c = parseCard(t);
  if (c === null) throw new NotationError(`pile ${number}: not a card: ${JSON.stringify(t)}`);
  return c;
}

function readCount(text, name) {
  if (!/^[0-9]+$/.test(text)) throw new NotationError(`${name}: not a whole number: ${JSON.stringify(text)}`);
  return Number(text);
}
