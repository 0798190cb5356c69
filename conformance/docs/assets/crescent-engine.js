// crescent-js 0.1.0 for the browser, built by implementations/crescent-js/tools/bundle.js
// from src/cards.js, src/notation.js, src/position.js, src/data.js, src/profiles.js, src/deal.js, src/rules.js, src/game.js, src/messages.js and data/. Do not edit: rebuild.
(() => {
'use strict';
const modules = {};
modules['cards.js'] = (() => {
// Cards: spec/notation.md section 1.
//
// A card is a small integer: suit * 13 + (rank - 1), suits in the order ♠ ♥ ♦ ♣ (0..3),
// ranks Ace = 1 ... King = 13. The two copies of a card are indistinguishable, so one number
// names both.

const SUITS = ['♠', '♥', '♦', '♣'];
const RANKS = [null, 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const ACE = 1;
const KING = 13;

const card = (suit, rank) => suit * 13 + rank - 1;
const suitOf = (c) => Math.floor(c / 13);
const rankOf = (c) => (c % 13) + 1;

/** Canonical text: rank then suit symbol, `10♥`, `Q♠`. */
function cardText(c) {
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
function parseCard(text) {
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
function readCard(text) {
  const c = parseCard(text);
  if (c === null) throw new NotationError(`not a card: ${JSON.stringify(text)}`);
  return c;
}

/** An input text that cannot be read at all (not a rule refusal). */
class NotationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'NotationError';
  }
}
return { SUITS, RANKS, ACE, KING, card, suitOf, rankOf, cardText, parseCard, readCard, NotationError };
})();

modules['notation.js'] = (() => {
// Places and actions: spec/notation.md sections 2 and 3.
//
// A place is a small integer:
//   0..15   piles 1..16
//   16..19  the Ace foundations of ♠ ♥ ♦ ♣ (named by their base: A♠ ...)
//   20..23  the King foundations of ♠ ♥ ♦ ♣ (K♠ ...)
//   24      the hold (hoffmann-1892)

const { SUITS, ACE, KING, parseCard, suitOf, rankOf, NotationError } = modules['cards.js'];

const PILES = 16;
const HOLD = 24;
const PLACES = 25;
const acePlace = (suit) => 16 + suit;
const kingPlace = (suit) => 20 + suit;
const isPile = (p) => p >= 0 && p < 16;
const isFoundation = (p) => p >= 16 && p < 24;
const isAceFoundation = (p) => p >= 16 && p < 20;
const foundationSuit = (p) => (p - 16) % 4;

function placeText(p) {
  if (isPile(p)) return `p${p + 1}`;
  if (isAceFoundation(p)) return `A${SUITS[p - 16]}`;
  if (isFoundation(p)) return `K${SUITS[p - 20]}`;
  if (p === HOLD) return 'hold';
  throw new Error(`no such place ${p}`);
}

/** Read a place in any accepted spelling (p7, P7, 7, A♠, AS, KH, R♠, hold); null if none. */
function parsePlace(text) {
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
function parseAction(text) {
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

function moveText(from, to) {
  return `${placeText(from)}-${placeText(to)}`;
}

function actionText(a) {
  switch (a.type) {
    case 'move': return moveText(a.from, a.to);
    case 'reshuffle': return 'reshuffle';
    case 'undo': return 'undo';
    case 'tap': return `tap ${placeText(a.place)}`;
    case 'drop': return `drop ${placeText(a.pile)}`;
    default: throw new Error(`unknown action type ${a.type}`);
  }
}
return { PILES, HOLD, PLACES, acePlace, kingPlace, isPile, isFoundation, isAceFoundation, foundationSuit, placeText, parsePlace, parseAction, moveText, actionText };
})();

modules['position.js'] = (() => {
// The position: everything on the table (spec/rules.md §1, spec/notation.md §5).

const { SUITS, ACE, KING, card, suitOf, rankOf, cardText, parseCard, NotationError } = modules['cards.js'];

class Position {
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
return { Position };
})();

modules['data.js'] = (() => {
const PROFILES_DATA = {"version":1,"parameters":["pile_wrap","pile_limit","reshuffles","between_foundations","give_backs","autoplay","autoplay_order","autoplay_when","drop_both_fit","deal","hold_double_fit","undo_limit","undo_cleared_by_reshuffle","stuck_when"],"profiles":{"app":{"summary":"The app described by 000 (Indonesian) and 003 (Chinese).","parameters":{"pile_wrap":true,"pile_limit":13,"reshuffles":3,"between_foundations":true,"give_backs":false,"autoplay":false,"autoplay_order":"ascending","autoplay_when":"every-action","drop_both_fit":"ace","deal":"open","hold_double_fit":false,"undo_limit":100,"undo_cleared_by_reshuffle":true,"stuck_when":"no-move"}},"open":{"summary":"The site game of 001 (English), \"Open Crescent\".","parameters":{"pile_wrap":true,"pile_limit":null,"reshuffles":3,"between_foundations":false,"give_backs":false,"autoplay":true,"autoplay_order":"ascending","autoplay_when":"every-action","drop_both_fit":"ace","deal":"open","hold_double_fit":false,"undo_limit":0,"undo_cleared_by_reshuffle":true,"stuck_when":"no-pile-move"}},"hoffmann-1892":{"summary":"Professor Hoffmann's rules of 1892, as 001's comparison table gives them.","parameters":{"pile_wrap":false,"pile_limit":null,"reshuffles":3,"between_foundations":false,"give_backs":false,"autoplay":false,"autoplay_order":"ascending","autoplay_when":"every-action","drop_both_fit":"ace","deal":"open","hold_double_fit":true,"undo_limit":0,"undo_cleared_by_reshuffle":true,"stuck_when":"no-pile-move"}},"morehead-1949":{"summary":"Morehead and Mott-Smith's rules of 1949, as 001's comparison table gives them.","parameters":{"pile_wrap":true,"pile_limit":null,"reshuffles":3,"between_foundations":true,"give_backs":false,"autoplay":false,"autoplay_order":"ascending","autoplay_when":"every-action","drop_both_fit":"ace","deal":"closed","hold_double_fit":false,"undo_limit":0,"undo_cleared_by_reshuffle":true,"stuck_when":"no-pile-move"}}},"variants":{"four":{"summary":"Crescent Four, one more reshuffle.","parameters":{"reshuffles":4}},"six":{"summary":"Six reshuffles, an easier online setting.","parameters":{"reshuffles":6}},"nine":{"summary":"Nine reshuffles, an easier online setting.","parameters":{"reshuffles":9}},"closed":{"summary":"Closed Crescent, only top cards dealt face up.","parameters":{"deal":"closed"}},"reversal":{"summary":"Cards may move between the two foundations of a suit once they meet; base cards stay.","parameters":{"between_foundations":true}},"give-backs":{"summary":"The top card of a foundation may return to a pile.","parameters":{"give_backs":true}}}};
const REASONS_DATA = {"version":1,"reasons":[{"code":"game-over","en":"The game is over; only undo is possible.","id":"Permainan sudah berakhir; hanya bisa mengurungkan langkah.","zh":"本局已结束，只能撤销。"},{"code":"undo-unavailable","en":"This game has no undo.","id":"Permainan ini tidak punya fitur urungkan.","zh":"此玩法不提供撤销。"},{"code":"nothing-to-undo","en":"There is no move to undo.","id":"Tidak ada langkah untuk diurungkan.","zh":"没有可撤销的操作。"},{"code":"no-reshuffles","en":"No reshuffles left.","id":"Tidak ada pembagian ulang","zh":"无剩余重新发牌次数"},{"code":"empty-source","en":"There is no card there to move.","id":"Tidak ada kartu untuk dipindahkan di sana.","zh":"那里没有可移动的牌。"},{"code":"same-place","en":"Choose a different destination.","id":"Pilih tujuan yang berbeda.","zh":"请选择另一个目标位置。"},{"code":"base-locked","en":"The foundation's base card is locked.","id":"Dasar fondasi terkunci","zh":"基础牌堆的底牌已锁定"},{"code":"foundation-final","en":"Cards on a foundation stay there.","id":"Kartu di fondasi tidak bisa dipindahkan ke sana.","zh":"基础牌堆上的牌不能移到那里。"},{"code":"empty-pile","en":"Nothing can be placed on an empty pile.","id":"Tidak dapat meletakkan di tumpukan kosong","zh":"无法放到空牌堆上"},{"code":"pile-full","en":"This pile is full; choose another destination.","id":"Tumpukan ini penuh; pilih tujuan lain","zh":"此牌堆已满，请选择其他目标位置"},{"code":"hold-unavailable","en":"This game has no place between the foundation rows.","id":"Permainan ini tidak punya tempat di antara baris fondasi.","zh":"此玩法在两行基础牌堆之间没有暂放位置。"},{"code":"wrong-suit","en":"Must be the same suit.","id":"Harus berjenis sama","zh":"必须为相同花色"},{"code":"wrong-rank","en":"Must be one rank higher or lower.","id":"Harus berperingkat lebih tinggi atau lebih rendah","zh":"牌面等级必须高一级或低一级"},{"code":"out-of-sequence","en":"This foundation takes only the next card of its sequence.","id":"Fondasi ini hanya menerima kartu berikutnya dalam urutannya.","zh":"此基础牌堆只接受顺序中的下一张牌。"},{"code":"not-double-fit","en":"Only a card that fits both foundations waits between the rows.","id":"Hanya kartu yang cocok untuk kedua fondasi yang menunggu di antara baris.","zh":"只有同时适合两个基础牌堆的牌才能暂放在两行之间。"},{"code":"must-hold","en":"This card fits both foundations; it waits between the rows until the next card decides.","id":"Kartu ini cocok untuk kedua fondasi; ia menunggu di antara baris sampai kartu berikutnya menentukan.","zh":"这张牌同时适合两个基础牌堆，须暂放在两行之间，由下一张牌决定去向。"},{"code":"no-foundation","en":"No foundation takes this card.","id":"Tidak ada fondasi yang menerima kartu ini.","zh":"没有基础牌堆能接收这张牌。"}]};
return { PROFILES_DATA, REASONS_DATA };
})();

modules['profiles.js'] = (() => {
// Profiles are data: data/profiles.json is a copy of spec/profiles.yaml's values, made by
// tools/sync-spec.js and checked against the spec by test/data.test.js. Nothing about a profile
// is hard-coded in the rules.

const { PROFILES_DATA: DATA } = modules['data.js'];

const BASE_PROFILES = Object.keys(DATA.profiles);
const VARIANTS = Object.keys(DATA.variants);

/** Thrown for a profile name that names no base profile or an unknown variant. */
class ProfileError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ProfileError';
  }
}

/**
 * The parameters of "base+variant+...": the base profile's values, then each variant's in turn,
 * left to right, each setting only the parameters it names (rules.md §3).
 */
function resolveProfile(name) {
  if (typeof name !== 'string' || name === '') throw new ProfileError('no profile named');
  const [base, ...variants] = name.split('+');
  if (!(base in DATA.profiles)) throw new ProfileError(`unknown base profile ${JSON.stringify(base)}`);
  const params = { ...DATA.profiles[base].parameters };
  for (const v of variants) {
    if (!(v in DATA.variants)) throw new ProfileError(`unknown variant ${JSON.stringify(v)}`);
    Object.assign(params, DATA.variants[v].parameters);
  }
  return Object.freeze({ name, base, variants, ...params });
}
return { BASE_PROFILES, VARIANTS, ProfileError, resolveProfile };
})();

modules['deal.js'] = (() => {
// Game codes and the deal: spec/deal.md (interpretation I-DEAL).

const { card, ACE, KING, NotationError } = modules['cards.js'];
const { Position } = modules['position.js'];

const MASK = (1n << 64n) - 1n;
const TWO64 = 1n << 64n;

/** Read a game code (deal.md §1); returns the seed as a Number (at most 26^7 - 1). */
function parseCode(text) {
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
function codeText(seed) {
  let letters = '';
  let n = seed;
  for (let i = 0; i < 7; i++) {
    letters = String.fromCharCode(65 + (n % 26)) + letters;
    n = Math.floor(n / 26);
  }
  return `CR1-N-${letters}`;
}

/** SplitMix64 (deal.md §2), on BigInts kept to their low 64 bits. */
class SplitMix64 {
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
function unshuffledDeck() {
  const deck = [];
  for (let s = 0; s < 4; s++) for (let r = 2; r <= 12; r++) deck.push(card(s, r));
  for (let s = 0; s < 4; s++) for (let r = ACE; r <= KING; r++) deck.push(card(s, r));
  return deck;
}

/** Fisher-Yates over the 96 cards (deal.md §5); `swaps`, if given, collects every j. */
function shuffledDeck(seed, swaps = null) {
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
function dealPosition(seed, { reshuffles = 3, closed = false } = {}) {
  const deck = shuffledDeck(seed);
  const pos = new Position();
  deck.forEach((c, k) => pos.piles[k % 16].push(c));
  pos.hidden.fill(closed ? 5 : 0);
  pos.reshuffles = reshuffles;
  return pos;
}
return { parseCode, codeText, SplitMix64, unshuffledDeck, shuffledDeck, dealPosition };
})();

modules['rules.js'] = (() => {
// The rules of play: spec/rules.md §5-§11, §14, §15, with the reason order of §16
// (spec/reasons.yaml, I-REASON-ORDER). Functions here take a Position and the parameters of a
// profile (src/profiles.js) and know nothing of undo, taps or the protocol (src/game.js).

const { ACE, KING, card, suitOf, rankOf } = modules['cards.js'];
const { PILES, PLACES, HOLD, acePlace, kingPlace, isPile, isFoundation, isAceFoundation, foundationSuit, moveText } = modules['notation.js'];

// ---------------------------------------------------------------------------------------------
// Foundations

/** Does the foundation at place f take a card of rank r of its suit next (§1, §8, §10.2)? */
function foundationTakes(pos, f, r) {
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
function fitsBoth(pos, s, r) {
  return pos.up[s] === r - 1 && pos.down[s] === r + 1;
}

/** The top card a foundation shows. */
function foundationTop(pos, f) {
  const s = foundationSuit(f);
  return card(s, isAceFoundation(f) ? pos.up[s] : pos.down[s]);
}

/** The foundation shows only its base Ace or King. */
function foundationAtBase(pos, f) {
  const s = foundationSuit(f);
  return isAceFoundation(f) ? pos.up[s] === ACE : pos.down[s] === KING;
}

/**
 * The two foundations of suit s meet: the King one shows one rank more than the Ace one (§9.1).
 * They never count as meeting while a card of the suit is held: no card may then leave them
 * (rules.md §10.6, §15.2).
 */
function foundationsMeet(pos, s) {
  return !pos.held[s] && pos.down[s] === pos.up[s] + 1;
}

/** Neighbours on the piles: same suit, ranks one apart, King-Ace too with the wrap (§6). */
function pileNeighbours(a, b, wrap) {
  if (suitOf(a) !== suitOf(b)) return false;
  const d = Math.abs(rankOf(a) - rankOf(b));
  return d === 1 || (wrap && d === 12);
}

/** The card a move from place p would take, or null when there is none. */
function topCard(pos, p) {
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
function judgeMove(pos, P, src, dst) {
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

function applyMove(pos, src, dst) {
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

function applyReshuffle(pos) {
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
function legalMoves(pos, P) {
  const out = [];
  for (let src = 0; src < 24; src++) {
    for (let dst = 0; dst < PLACES; dst++) {
      if (judgeMove(pos, P, src, dst) === null) out.push([src, dst]);
    }
  }
  return out;
}

/** The places that would accept the card on src now. */
function acceptingPlaces(pos, P, src) {
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
function status(pos, P) {
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
function autoplay(pos, P) {
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
return { foundationTakes, fitsBoth, foundationTop, foundationAtBase, foundationsMeet, pileNeighbours, topCard, judgeMove, applyMove, applyReshuffle, legalMoves, acceptingPlaces, status, autoplay };
})();

modules['game.js'] = (() => {
// A game: a position in a profile, with what is not on the table (the undo history, a tap
// selection). Actions: moves, reshuffle, undo (§12), tap and drop (§13).

const { cardText, suitOf, NotationError } = modules['cards.js'];
const { PILES, HOLD, acePlace, kingPlace, isPile, isFoundation, isAceFoundation, placeText, moveText, parseAction } = modules['notation.js'];
const { Position } = modules['position.js'];
const { resolveProfile } = modules['profiles.js'];
const { parseCode, dealPosition } = modules['deal.js'];
const { judgeMove, applyMove, applyReshuffle, acceptingPlaces, legalMoves, status, autoplay, foundationAtBase, topCard } = modules['rules.js'];

/** A position or code the profile cannot start from (reported as errored with refused: true). */
class RefusedError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RefusedError';
  }
}

class Game {
  constructor(profile, pos) {
    this.profile = typeof profile === 'string' ? resolveProfile(profile) : profile;
    this.pos = pos;
    this.history = []; // positions before each recorded move, oldest first
    this.selected = null; // a place selected by a first tap
    this.status = status(this.pos, this.profile);
  }

  /** A game from the position text, taken as it is: no autoplay (§4, I-AUTOPLAY-SCOPE). */
  static fromPosition(profileName, text) {
    const P = resolveProfile(profileName);
    let pos;
    try {
      pos = Position.parse(text);
    } catch (e) {
      if (e instanceof NotationError) throw new RefusedError(`position refused: ${e.message}`);
      throw e;
    }
    checkReachable(pos, P);
    return new Game(P, pos);
  }

  /** A game dealt from a code (spec/deal.md); `open` then autoplays. */
  static fromCode(profileName, code) {
    const P = resolveProfile(profileName);
    let seed;
    try {
      seed = parseCode(code);
    } catch (e) {
      if (e instanceof NotationError) throw new RefusedError(`game code refused: ${e.message}`);
      throw e;
    }
    const pos = dealPosition(seed, { reshuffles: P.reshuffles, closed: P.deal === 'closed' });
    if (P.autoplay) autoplay(pos, P);
    return new Game(P, pos);
  }

  get over() {
    return this.status === 'won' || this.status === 'lost';
  }

  /** How many moves an undo could take back now. */
  get undoDepth() {
    return this.history.length;
  }

  /** The canonical state JSON (spec/interpreting.md, spec/schema/state.schema.json); with `fields`,
   *  only those of its fields (state on demand), each computed only when asked for. */
  state(fields = STATE_FIELDS) {
    const state = {};
    for (const name of fields) {
      const field = STATE_FIELD[name];
      if (field !== undefined) state[name] = field(this);
    }
    return state;
  }

  /** Legal card moves in canonical text; none once the game is over (I-GAME-OVER). */
  legalMoves() {
    if (this.over) return [];
    return legalMoves(this.pos, this.profile).map(([s, d]) => moveText(s, d));
  }

  /**
   * Carry out an action given as text or as a parsed action. Returns
   * {accepted, reason, effect, moves}. Throws NotationError when the text cannot be read.
   */
  act(action) {
    const a = typeof action === 'string' ? parseAction(action) : action;
    if (a.type === 'tap') return this.tap(a.place);
    // Every action other than a tap ends the selection, accepted or refused (rules.md §13.1.3,
    // I-TAP). An action text that cannot be read is no action: it throws above and leaves it.
    this.selected = null;
    switch (a.type) {
      case 'move': return this.move(a.from, a.to);
      case 'reshuffle': return this.reshuffle();
      case 'undo': return this.undo();
      case 'drop': return this.drop(a.pile);
      default: throw new Error(`unknown action ${a.type}`);
    }
  }

  // -- the actions ---------------------------------------------------------------------------

  move(src, dst) {
    if (this.over) return refused('game-over');
    const reason = judgeMove(this.pos, this.profile, src, dst);
    if (reason) return refused(reason);
    return this.playMove(src, dst);
  }

  /** A judged-legal player move: recorded for undo, counted, followed by autoplay. */
  playMove(src, dst) {
    const P = this.profile;
    if (P.undo_limit > 0) {
      this.history.push(this.pos.clone());
      if (this.history.length > P.undo_limit) this.history.shift();
    }
    applyMove(this.pos, src, dst);
    this.pos.moves += 1;
    const moves = [moveText(src, dst)];
    if (P.autoplay) moves.push(...autoplay(this.pos, P));
    this.status = status(this.pos, P);
    return accepted('move', moves);
  }

  reshuffle() {
    const P = this.profile;
    if (this.over) return refused('game-over');
    if (this.pos.reshuffles <= 0) return refused('no-reshuffles');
    applyReshuffle(this.pos);
    if (P.undo_cleared_by_reshuffle) this.history = [];
    const moves = P.autoplay ? autoplay(this.pos, P) : [];
    this.status = status(this.pos, P);
    return accepted('reshuffle', moves);
  }

  undo() {
    if (this.profile.undo_limit <= 0) return refused('undo-unavailable');
    if (this.history.length === 0) return refused('nothing-to-undo');
    this.pos = this.history.pop();
    this.status = status(this.pos, this.profile);
    return accepted('undo', []);
  }

  tap(place) {
    if (this.over) return refused('game-over');
    if (this.selected !== null) {
      const from = this.selected;
      this.selected = null;
      if (place === from) return accepted('deselect', []);
      return this.move(from, place);
    }
    const P = this.profile;
    if (place === HOLD || (isPile(place) && this.pos.piles[place].length === 0)) return refused('empty-source');
    if (isFoundation(place)) {
      if (foundationAtBase(this.pos, place)) return refused('base-locked');
      if (!P.between_foundations && !P.give_backs) return refused('foundation-final');
    }
    const places = acceptingPlaces(this.pos, P, place);
    if (places.length === 1) return this.playMove(place, places[0]);
    this.selected = place;
    return accepted('select', []);
  }

  // drop (§13.2, I-DROP): a pile's card tries the hold, then its Ace and King foundations; a
  // foundation's card tries its partner only, and keeps base-locked / foundation-final as reasons.
  drop(place) {
    if (this.over) return refused('game-over');
    if (isPile(place) && this.pos.piles[place].length === 0) return refused('empty-source');
    const s = suitOf(topCard(this.pos, place));
    const targets = isPile(place) ? [HOLD, acePlace(s), kingPlace(s)] : [isAceFoundation(place) ? kingPlace(s) : acePlace(s)];
    for (const dst of targets) {
      if (judgeMove(this.pos, this.profile, place, dst) === null) return this.playMove(place, dst);
    }
    if (!isPile(place)) {
      const why = judgeMove(this.pos, this.profile, place, targets[0]);
      if (why === 'base-locked' || why === 'foundation-final') return refused(why);
    }
    return refused('no-foundation');
  }
}

function accepted(effect, moves) {
  return { accepted: true, reason: null, effect, moves };
}

function refused(reason) {
  return { accepted: false, reason, effect: null, moves: [] };
}

/** A profile refuses a position it could never reach (rules.md §4, notation.md §5). */
function checkReachable(pos, P) {
  for (let i = 0; i < PILES; i++) {
    if (P.pile_limit !== null && pos.piles[i].length > P.pile_limit) {
      throw new RefusedError(`pile ${i + 1} holds ${pos.piles[i].length} cards, more than ${P.name}'s limit of ${P.pile_limit}`);
    }
    if (P.deal === 'open' && pos.hidden[i] > 0) {
      throw new RefusedError(`pile ${i + 1} has face-down cards, but ${P.name} deals every card face up`);
    }
  }
  if (!P.hold_double_fit && pos.held.some((r) => r)) {
    throw new RefusedError(`a card is held, but ${P.name} has no hold`);
  }
  if (pos.reshuffles > P.reshuffles) {
    throw new RefusedError(`${pos.reshuffles} reshuffles left, more than ${P.name} allows (${P.reshuffles})`);
  }
}

function foundationsOf(pos) {
  const foundations = {};
  for (let s = 0; s < 4; s++) foundations[placeText(acePlace(s))] = cardText(topCard(pos, acePlace(s)));
  for (let s = 0; s < 4; s++) foundations[placeText(kingPlace(s))] = cardText(topCard(pos, kingPlace(s)));
  return foundations;
}

// Each field of the state, read from a game.
const STATE_FIELD = Object.freeze({
  __proto__: null,
  piles: (g) => g.pos.piles.map((pile) => pile.map(cardText)),
  hidden: (g) => g.pos.hidden.slice(),
  foundations: (g) => foundationsOf(g.pos),
  held: (g) => g.pos.heldCards().map(cardText),
  reshuffles: (g) => g.pos.reshuffles,
  moves: (g) => g.pos.moves,
  status: (g) => g.status,
  foundation_cards: (g) => g.pos.foundationCards(),
  undo: (g) => g.undoDepth,
  selected: (g) => (g.selected === null ? null : placeText(g.selected)),
});
const STATE_FIELDS = Object.keys(STATE_FIELD);
return { RefusedError, Game, checkReachable };
})();

modules['messages.js'] = (() => {
// Reason codes and their messages: data/reasons.json, a copy of spec/reasons.yaml made by
// tools/sync-spec.js and checked against it by test/data.test.js.

const { REASONS_DATA: DATA } = modules['data.js'];

const REASON_CODES = DATA.reasons.map((r) => r.code);
const LANGUAGES = ['en', 'id', 'zh'];

/** The message for a reason code in a language, or null when either is unknown. */
function message(code, lang) {
  const entry = DATA.reasons.find((r) => r.code === code);
  if (!entry || !LANGUAGES.includes(lang)) return null;
  return entry[lang];
}
return { REASON_CODES, LANGUAGES, message };
})();

globalThis.CrescentJS = Object.freeze(Object.assign({}, modules['cards.js'], modules['notation.js'], modules['position.js'], modules['data.js'], modules['profiles.js'], modules['deal.js'], modules['rules.js'], modules['game.js'], modules['messages.js']));
})();
