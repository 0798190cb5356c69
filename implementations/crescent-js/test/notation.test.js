// spec/notation.md: every example block is checked here, as the kit checks its own engine.
// A plain block's lines must be accepted ("TEXT → CANONICAL" also gives the canonical text);
// an `invalid` block's lines must be refused. A `position PROFILE` block's positions must also
// be accepted by that profile.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { specText, needs } from '../tools/spec.js';
import { parseCard, cardText, NotationError } from '../src/cards.js';
import { parsePlace, placeText, parseAction, actionText } from '../src/notation.js';
import { parseCode, codeText } from '../src/deal.js';
import { Position } from '../src/position.js';
import { Game, RefusedError } from '../src/game.js';

const readers = {
  card: (t) => {
    const c = parseCard(t);
    if (c === null) throw new NotationError(`not a card ${t}`);
    return cardText(c);
  },
  place: (t) => {
    const p = parsePlace(t);
    if (p === null) throw new NotationError(`not a place ${t}`);
    return placeText(p);
  },
  action: (t) => actionText(parseAction(t)),
  code: (t) => codeText(parseCode(t)),
  position: (t) => Position.parse(t).toText(),
};

/** The fenced example blocks of notation.md: [{kind, invalid, profile, lines}]. */
function exampleBlocks(md) {
  const blocks = [];
  const re = /^```(card|place|action|code|position)((?: [^\n]*)?)\n([\s\S]*?)^```$/gm;
  for (let m; (m = re.exec(md));) {
    const words = m[2].trim().split(/\s+/).filter(Boolean);
    blocks.push({
      kind: m[1],
      invalid: words.includes('invalid'),
      profile: words.find((w) => w !== 'invalid') ?? null,
      lines: m[3].split('\n').filter((l) => l.trim() !== ''),
    });
  }
  return blocks;
}

const md = specText('notation.md');

test('notation.md examples', needs('notation.md'), async (t) => {
  const blocks = exampleBlocks(md);
  assert.ok(blocks.length >= 10, 'found the example blocks');
  for (const [i, b] of blocks.entries()) {
    await t.test(`${b.kind}${b.invalid ? ' invalid' : ''}${b.profile ? ` ${b.profile}` : ''} #${i}`, () => {
      for (const line of b.lines) {
        const [text, canonical] = line.split(' → ');
        if (b.invalid) {
          assert.throws(() => readers[b.kind](text), NotationError, `should be refused: ${text}`);
          continue;
        }
        assert.equal(readers[b.kind](text), canonical ?? text, line);
        if (b.profile) assert.doesNotThrow(() => Game.fromPosition(b.profile, text), b.profile);
      }
    });
  }
});

test('positions: other spellings, any field order, // for an empty pile', () => {
  const canonical = 'up:2♠,A♥,A♦,A♣ down:J♠,9♥,K♦,K♣ piles:8♦,5♠,6♦,10♠,Q♦,8♦/6♥,Q♦,5♥,7♣,3♣,7♠/10♥,J♥,4♦,4♦,9♠/6♦,3♥,5♣,2♣,2♦,K♠/-/J♦,8♠,Q♠,3♦/K♦,7♦,10♣,6♠,A♣,10♦/J♣,4♥,9♠,2♦,3♦/7♦,6♣,3♥,6♣/7♥,8♣,J♦,9♦,5♥,2♠,3♠/4♠,2♥,9♦,3♣,K♥,4♠,5♠/A♦,7♠,5♣,10♠,J♣,A♥/6♠,K♣,8♥,3♠,9♣,10♣,9♣,8♣/Q♣,2♥,8♠,5♦,A♠,6♥,7♥/Q♣,5♦,Q♥,8♥,J♠,2♣/10♦,4♥,4♣,7♣,4♣,9♥ reshuffles:3 moves:16';
  const other = canonical
    .replace('piles:', 'piles:').replace('/-/', '//')
    .replace('up:2♠,A♥,A♦,A♣ down:J♠,9♥,K♦,K♣ ', '')
    .replace('reshuffles:3', 'down:JS,9h,KD,RC reshuffles:3 up:2s,ah,AD,A♧')
    .replace('10♦,4♥', 'TD,4H');
  assert.equal(Position.parse(other).toText(), canonical);
});

test('positions against a profile', () => {
  const open = 'up:A♠,A♥,A♦,A♣ down:K♠,K♥,K♦,K♣ piles:8♦,5♠,6♦,10♠,Q♦,8♦/6♥,Q♦,5♥,7♣,3♣,7♠/10♥,J♥,4♦,4♦,9♠,5♠/6♦,3♥,5♣,2♣,2♦,K♠/9♥,Q♠,3♠,3♦,8♣,9♣/J♦,8♠,Q♠,3♦,J♠,Q♥/K♦,7♦,10♣,6♠,A♣,10♦/J♣,4♥,9♠,2♦,7♥,2♠/7♦,6♣,3♥,6♣,10♥,J♥/7♥,8♣,J♦,9♦,5♥,2♠/4♠,2♥,9♦,3♣,K♥,4♠/A♦,7♠,5♣,10♠,J♣,A♥/6♠,K♣,8♥,3♠,9♣,10♣/Q♣,2♥,8♠,5♦,A♠,6♥/Q♣,5♦,Q♥,8♥,J♠,2♣/10♦,4♥,4♣,7♣,4♣,9♥ reshuffles:3 moves:0';
  const closed = open.replace('piles:8♦,5♠,', 'piles:[8♦,5♠],');
  assert.throws(() => Game.fromPosition('app', closed), RefusedError); // face down in an open deal
  assert.doesNotThrow(() => Game.fromPosition('app+closed', closed));
  assert.doesNotThrow(() => Game.fromPosition('morehead-1949', closed));
  assert.throws(() => Game.fromPosition('open', open.replace('reshuffles:3', 'reshuffles:4')), RefusedError);
  assert.doesNotThrow(() => Game.fromPosition('open+four', open.replace('reshuffles:3', 'reshuffles:4')));
  // 14 cards on one pile: over the app's limit, fine elsewhere
  const tall = open.replace('piles:8♦,5♠,6♦,10♠,Q♦,8♦/6♥,Q♦,5♥,7♣,3♣,7♠/10♥,J♥,4♦,4♦,9♠,5♠/',
    'piles:8♦,5♠,6♦,10♠,Q♦,8♦,6♥,Q♦,5♥,7♣,3♣,7♠,10♥,J♥/-/4♦,4♦,9♠,5♠/');
  assert.throws(() => Game.fromPosition('app', tall), RefusedError);
  assert.doesNotThrow(() => Game.fromPosition('open', tall));
});

test('positions: what a reader refuses (notation.md §5)', () => {
  const deal = 'up:A♠,A♥,A♦,A♣ down:K♠,K♥,K♦,K♣ piles:8♦,5♠,6♦,10♠,Q♦,8♦/6♥,Q♦,5♥,7♣,3♣,7♠/10♥,J♥,4♦,4♦,9♠,5♠/6♦,3♥,5♣,2♣,2♦,K♠/9♥,Q♠,3♠,3♦,8♣,9♣/J♦,8♠,Q♠,3♦,J♠,Q♥/K♦,7♦,10♣,6♠,A♣,10♦/J♣,4♥,9♠,2♦,7♥,2♠/7♦,6♣,3♥,6♣,10♥,J♥/7♥,8♣,J♦,9♦,5♥,2♠/4♠,2♥,9♦,3♣,K♥,4♠/A♦,7♠,5♣,10♠,J♣,A♥/6♠,K♣,8♥,3♠,9♣,10♣/Q♣,2♥,8♠,5♦,A♠,6♥/Q♣,5♦,Q♥,8♥,J♠,2♣/10♦,4♥,4♣,7♣,4♣,9♥ reshuffles:3 moves:0';
  const pile1 = '8♦,5♠,6♦,10♠,Q♦,8♦';
  const withPile1 = (text) => deal.replace(`piles:${pile1}/`, `piles:${text}/`);
  assert.doesNotThrow(() => Position.parse(deal));
  assert.doesNotThrow(() => Position.parse(withPile1('[8♦,5♠],6♦,10♠,Q♦,8♦')));
  const refused = {
    'empty brackets': withPile1('[],8♦,5♠,6♦,10♠,Q♦,8♦'),
    'brackets not followed by a comma': withPile1('[8♦,5♠]6♦,10♠,Q♦,8♦'),
    'brackets followed by a comma and nothing': withPile1('[8♦,5♠,6♦,10♠,Q♦,8♦],'),
    'brackets with nothing after them': withPile1('[8♦,5♠,6♦,10♠,Q♦,8♦]'),
    'a [ without its ]': withPile1('[8♦,5♠,6♦,10♠,Q♦,8♦'),
    'brackets not at the bottom': withPile1('8♦,[5♠],6♦,10♠,Q♦,8♦'),
    'an empty card between commas': withPile1('8♦,5♠,,6♦,10♠,Q♦,8♦'),
    'an empty card at the end': withPile1(`${pile1},`),
    'an empty card inside brackets': withPile1('[8♦,,5♠],6♦,10♠,Q♦,8♦'),
    'an empty foundation card': deal.replace('up:A♠,A♥,A♦,A♣', 'up:A♠,,A♦,A♣'),
    'an empty held field': `${deal} held:`,
    'a held field of -': `${deal} held:-`,
  };
  for (const [what, text] of Object.entries(refused)) {
    assert.throws(() => Position.parse(text), NotationError, what);
  }
  // an empty pile: - or nothing (here a pile moved onto another, so that every card stays twice)
  const moved = deal.replace(`piles:${pile1}/6♥,Q♦,5♥,7♣,3♣,7♠/`, `piles:-/6♥,Q♦,5♥,7♣,3♣,7♠,${pile1}/`);
  assert.equal(Position.parse(moved.replace('piles:-/', 'piles:/')).toText(), moved);
  assert.equal(Position.parse(moved).piles[0].length, 0);
});

test('places and actions: no leading zero in pile numbers (notation.md §2)', () => {
  for (const t of ['p01', '01', 'P07', 'p016', '0']) assert.equal(parsePlace(t), null, t);
  for (const t of ['p01-p2', 'p1-02', 'tap p05', 'drop 07']) assert.throws(() => parseAction(t), NotationError, t);
  assert.equal(actionText(parseAction('10 - 16')), 'p10-p16');
});
