// spec/deal.md: game codes, SplitMix64, below(n), the shuffle and the golden deals of
// spec/deals/golden.yaml.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { specYaml, needs } from '../tools/spec.js';
import {
  parseCode, codeText, SplitMix64, shuffledDeck, dealPosition, unshuffledDeck,
} from '../src/deal.js';
import { NotationError, cardText } from '../src/cards.js';
import { Game } from '../src/game.js';

test('codes read as base-26 seeds (deal.md §1)', () => {
  assert.equal(parseCode('CR1-N-AAAAAAA'), 0);
  assert.equal(parseCode('CR1-N-AAAAAAB'), 1);
  assert.equal(parseCode('CR1-N-AAAAABA'), 26);
  assert.equal(parseCode('CR1-N-BAAAAAA'), 308915776);
  assert.equal(parseCode('CR1-N-ZZZZZZZ'), 8031810175);
  assert.equal(parseCode('  CR1-N-AAAAAAB \n'), 1);
  assert.equal(codeText(27), 'CR1-N-AAAAABB');
  assert.equal(codeText(8031810175), 'CR1-N-ZZZZZZZ');
});

test('malformed codes are refused (deal.md §1)', () => {
  for (const bad of ['CR1-N-AAAAAA', 'CR1-N-AAAAAAAA', 'CR1-N-AAAAAA1', 'CR1-N-aaaaaab',
    'CR2-N-AAAAAAA', 'cr1-N-AAAAAAA', 'CR1-X-AAAAAAA', 'CR1-AAAAAAA']) {
    assert.throws(() => parseCode(bad), NotationError, bad);
  }
});

test('SplitMix64 test vectors (deal.md §2)', () => {
  const rng = new SplitMix64(1);
  const want = [0x910A2DEC89025CC1n, 0xBEEB8DA1658EEC67n, 0xF893A2EEFB32555En,
    0x71C18690EE42C90Bn, 0x71BB54D8D101B5B9n];
  for (const w of want) assert.equal(rng.next(), w);
  const std = new SplitMix64(1234567);
  assert.equal(std.next(), 6457827717110365317n);
  assert.equal(std.next(), 3203168211198807973n);
  assert.equal(std.next(), 9817491932198370423n);
});

test('below(n) rejects the outputs that would bias it (deal.md §3)', () => {
  class Scripted extends SplitMix64 {
    constructor(outputs) { super(0); this.outputs = outputs; }
    next() { return this.outputs.shift(); }
  }
  const rng = new Scripted([0xFFFFFFFFFFFFFFFFn, 5n]);
  assert.equal(rng.below(3), 2);
  assert.deepEqual(rng.outputs, []);
  // a power of two never rejects
  assert.equal(new Scripted([0xFFFFFFFFFFFFFFFFn]).below(64), 63);
  // n = 96: 2^64 mod 96 = 64, so limit = 2^64 - 64: the 64 largest outputs are rejected
  const limit96 = (1n << 64n) - 64n;
  assert.equal(new Scripted([limit96, 7n]).below(96), 7);
  assert.equal(new Scripted([limit96 - 1n]).below(96), Number((limit96 - 1n) % 96n));
});

test('the 96 pile cards before shuffling (deal.md §4)', () => {
  const deck = unshuffledDeck().map(cardText);
  assert.equal(deck.length, 96);
  assert.deepEqual(deck.slice(0, 3), ['2♠', '3♠', '4♠']);
  assert.equal(deck[10], 'Q♠');
  assert.equal(deck[11], '2♥');
  assert.deepEqual(deck.slice(44, 46), ['A♠', '2♠']);
  assert.equal(deck[95], 'K♣');
});

const golden = specYaml('deals/golden.yaml');

test('golden deals (spec/deals/golden.yaml)', needs('deals/golden.yaml'), async (t) => {
  for (const d of golden.deals) {
    await t.test(d.code, () => {
      const seed = parseCode(d.code);
      assert.equal(seed, d.seed);
      const rng = new SplitMix64(seed);
      for (const hex of d.splitmix64) assert.equal(rng.next(), BigInt(hex));
      const swaps = [];
      shuffledDeck(seed, swaps);
      assert.deepEqual(swaps.slice(0, 5), d.swaps);
      assert.equal(dealPosition(seed).toText(), d.position);
      if (d.closed) assert.equal(dealPosition(seed, { closed: true }).toText(), d.closed);
      // through a game: open and closed profiles deal the same cards
      assert.equal(Game.fromCode('app', d.code).pos.toText(), d.position);
      if (d.closed) assert.equal(Game.fromCode('morehead-1949', d.code).pos.toText(), d.closed);
    });
  }
});

test('a dealt game starts with the profile\'s reshuffles; open autoplays, others do not', () => {
  assert.equal(Game.fromCode('app+nine', 'CR1-N-AAAAAAB').pos.reshuffles, 9);
  const app = Game.fromCode('app', 'CR1-N-AAAAAAB');
  assert.equal(app.pos.foundationCards(), 8);
  const open = Game.fromCode('open', 'CR1-N-AAAAAAB');
  assert.equal(open.pos.moves, 0);
  assert.ok(open.pos.foundationCards() >= 8);
});
