// The rules on small hand-made tables (spec/rules.md). The rules do not need a full table, so
// these build only the cards that matter; whole positions are covered by the notation, deal and
// perft tests and by the kit's corpus.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCard, cardText } from '../src/cards.js';
import { parsePlace, HOLD } from '../src/notation.js';
import { Position } from '../src/position.js';
import { resolveProfile } from '../src/profiles.js';
import { judgeMove, applyMove, applyReshuffle, status, autoplay, legalMoves } from '../src/rules.js';
import { Game } from '../src/game.js';

const C = (t) => parseCard(t);
const at = (t) => parsePlace(t);

/** A partial table: piles {n: "c,c,[..]"}, up/down "5♠,A♥,A♦,A♣", held "6♠". */
function table({ piles = {}, up, down, held, reshuffles = 3 } = {}) {
  const pos = new Position();
  for (const [n, text] of Object.entries(piles)) {
    const m = /^\[(.*?)\],?(.*)$/.exec(text);
    const hidden = m ? m[1].split(',') : [];
    const shown = (m ? m[2] : text).split(',').filter(Boolean);
    pos.piles[n - 1] = [...hidden, ...shown].map(C);
    pos.hidden[n - 1] = hidden.length;
  }
  if (up) pos.up = up.split(',').map((t) => C(t) % 13 + 1);
  if (down) pos.down = down.split(',').map((t) => C(t) % 13 + 1);
  if (held) for (const t of held.split(',')) pos.held[Math.floor(C(t) / 13)] = C(t) % 13 + 1;
  pos.reshuffles = reshuffles;
  return pos;
}

const judge = (profile, pos, move) => {
  const [s, d] = move.split('-').map(at);
  return judgeMove(pos, resolveProfile(profile), s, d);
};

test('building on piles: suit, rank, wrap, empty piles, pile limit (§6, §7)', () => {
  const pos = table({ piles: { 1: '7♣', 2: '8♣', 3: '7♠', 4: '9♣', 5: 'K♥', 6: 'A♥' } });
  assert.equal(judge('open', pos, 'p1-p2'), null);
  assert.equal(judge('open', pos, 'p2-p1'), null);
  assert.equal(judge('open', pos, 'p1-p3'), 'wrong-suit');
  assert.equal(judge('open', pos, 'p1-p4'), 'wrong-rank');
  assert.equal(judge('open', pos, 'p6-p5'), null);
  assert.equal(judge('morehead-1949', pos, 'p5-p6'), null);
  assert.equal(judge('hoffmann-1892', pos, 'p6-p5'), 'wrong-rank');
  assert.equal(judge('open', pos, 'p1-p9'), 'empty-pile');
  assert.equal(judge('open', pos, 'p9-p1'), 'empty-source');
  assert.equal(judge('open', pos, 'p1-p1'), 'same-place');
  const full = table({ piles: { 1: Array(13).fill('2♦').join(','), 2: '7♠' } });
  assert.equal(judge('app', full, 'p2-p1'), 'pile-full'); // before wrong-suit (I-REASON-ORDER)
  assert.equal(judge('open', full, 'p2-p1'), 'wrong-suit');
});

test('foundations: next rank only, no wrap, a card that fits both (§8)', () => {
  const pos = table({ piles: { 1: '2♣', 2: 'Q♣', 3: '3♣', 4: '6♠', 5: '2♥' }, up: 'A♠,A♥,A♦,A♣', down: 'K♠,K♥,K♦,K♣' });
  assert.equal(judge('app', pos, 'p1-A♣'), null);
  assert.equal(judge('app', pos, 'p2-K♣'), null);
  assert.equal(judge('app', pos, 'p3-A♣'), 'out-of-sequence');
  assert.equal(judge('app', pos, 'p5-A♣'), 'wrong-suit');
  const both = table({ piles: { 1: '6♠' }, up: '5♠,A♥,A♦,A♣', down: '7♠,K♥,K♦,K♣' });
  assert.equal(judge('app', both, 'p1-A♠'), null);
  assert.equal(judge('app', both, 'p1-K♠'), null);
  assert.equal(judge('hoffmann-1892', both, 'p1-A♠'), 'must-hold');
  assert.equal(judge('hoffmann-1892', both, 'p1-hold'), null);
  assert.equal(judge('app', both, 'p1-hold'), 'hold-unavailable');
  const done = table({ piles: { 1: 'A♠' }, up: 'K♠,A♥,A♦,A♣', down: 'K♠,K♥,K♦,K♣' });
  assert.equal(judge('app', done, 'p1-A♠'), 'out-of-sequence'); // finished: no wrap
});

test('moves between foundations and give-backs (§9)', () => {
  const pos = table({ piles: { 1: '6♠' }, up: '5♠,A♥,A♦,A♣', down: '6♠,K♥,K♦,K♣' });
  assert.equal(judge('app', pos, 'A♠-K♠'), null);
  assert.equal(judge('app', pos, 'K♠-A♠'), null);
  assert.equal(judge('open', pos, 'A♠-K♠'), 'foundation-final');
  assert.equal(judge('open+reversal', pos, 'A♠-K♠'), null);
  assert.equal(judge('app', pos, 'A♥-K♥'), 'base-locked');
  assert.equal(judge('app', pos, 'A♠-K♥'), 'wrong-suit');
  assert.equal(judge('app', pos, 'A♠-p1'), 'foundation-final');
  assert.equal(judge('app+give-backs', pos, 'A♠-p1'), null);
  assert.equal(judge('app+give-backs', pos, 'K♠-p1'), 'wrong-rank');
  assert.equal(judge('app', pos, 'A♠-hold'), 'foundation-final');
  const apart = table({ up: '5♠,A♥,A♦,A♣', down: '9♠,K♥,K♦,K♣' });
  assert.equal(judge('app', apart, 'A♠-K♠'), 'out-of-sequence');
  // a crossing keeps them meeting
  applyMove(pos, at('A♠'), at('K♠'));
  assert.deepEqual([pos.up[0], pos.down[0]], [4, 5]);
});

test('the hold (§10)', () => {
  const pos = table({ piles: { 1: '7♠', 2: '6♠', 3: '5♠' }, up: '5♠,A♥,A♦,A♣', down: '7♠,K♥,K♦,K♣', held: '6♠' });
  assert.equal(judge('hoffmann-1892', pos, 'p2-hold'), 'not-double-fit');
  assert.equal(judge('hoffmann-1892', pos, 'p1-K♠'), 'out-of-sequence');
  assert.equal(judge('hoffmann-1892', pos, 'p3-A♠'), 'out-of-sequence');
  // no card leaves either foundation of the suit while one is held (rules.md §10.6, §16,
  // I-HOFFMANN-HOLD): no give-back, no crossing; after base-locked, before the destination
  for (const profile of ['hoffmann-1892+give-backs', 'hoffmann-1892+reversal', 'hoffmann-1892+reversal+give-backs']) {
    assert.equal(judge(profile, pos, 'A♠-p3'), 'foundation-final', profile);
    assert.equal(judge(profile, pos, 'K♠-p1'), 'foundation-final', profile);
    assert.equal(judge(profile, pos, 'A♠-K♠'), 'foundation-final', profile);
    assert.equal(judge(profile, pos, 'K♠-A♠'), 'foundation-final', profile);
    assert.equal(judge(profile, pos, 'A♠-K♥'), 'foundation-final', profile); // before wrong-suit
    assert.equal(judge(profile, pos, 'A♠-p9'), 'foundation-final', profile); // before empty-pile
  }
  assert.equal(judge('hoffmann-1892+reversal', pos, 'A♠-A♠'), 'same-place');
  assert.equal(judge('hoffmann-1892+reversal', pos, 'A♥-K♥'), 'base-locked');
  const base = table({ up: 'A♠,A♥,A♦,A♣', down: '3♠,K♥,K♦,K♣', held: '2♠' });
  assert.equal(judge('hoffmann-1892+reversal', base, 'A♠-K♠'), 'base-locked'); // base-locked first
  assert.equal(judge('hoffmann-1892+reversal', base, 'K♠-A♠'), 'foundation-final');
  // another suit's foundations are not closed by the held ♠
  const other = table({ piles: { 1: '6♠' }, up: '5♠,4♥,A♦,A♣', down: '7♠,5♥,K♦,K♣', held: '6♠' });
  assert.equal(judge('hoffmann-1892+reversal', other, 'A♥-K♥'), null);
  const up = pos.clone();
  applyMove(up, at('p1'), at('A♠'));
  assert.deepEqual([up.up[0], up.down[0], up.held[0]], [7, 7, 0]);
  const down = pos.clone();
  applyMove(down, at('p3'), at('K♠'));
  assert.deepEqual([down.up[0], down.down[0], down.held[0]], [5, 5, 0]);
  const twin = pos.clone();
  applyMove(twin, at('p2'), at('K♠'));
  assert.deepEqual([twin.up[0], twin.down[0], twin.held[0]], [6, 6, 0]);
  assert.equal(twin.foundationCards(), 6 + 8 + 2 + 2 + 2); // ♠ 6 up, 8 down; the others bases only
});

test('reshuffle and closed deals turning up (§4.5, §11)', () => {
  const pos = table({ piles: { 1: '2♥,9♣,J♦,J♦', 2: '5♠', 3: '[A♠,2♠,3♠],4♠', 4: '[8♦],9♦' } });
  applyReshuffle(pos);
  assert.deepEqual(pos.piles[0].map(cardText), ['9♣', 'J♦', 'J♦', '2♥']);
  assert.deepEqual(pos.piles[1].map(cardText), ['5♠']);
  assert.deepEqual(pos.piles[2].map(cardText), ['2♠', '3♠', '4♠', 'A♠']);
  assert.deepEqual(pos.hidden.slice(0, 4), [0, 0, 2, 0]);
  assert.equal(pos.reshuffles, 2);
  const move = table({ piles: { 1: '[A♠,2♠,3♠],4♠', 2: '5♠' } });
  applyMove(move, at('p1'), at('p2'));
  assert.equal(move.hidden[0], 2); // 3♠ turned up
  assert.equal(move.hidden[1], 0);
});

test('status: playing, waiting, lost, won, and meeting foundations (§15, I-STUCK)', () => {
  const app = resolveProfile('app');
  const open = resolveProfile('open');
  const stuck = table({ piles: { 1: '9♠', 2: '2♥' }, up: '5♠,5♥,A♦,A♣', down: '7♠,9♥,K♦,K♣' });
  assert.equal(status(stuck, app), 'waiting');
  stuck.reshuffles = 0;
  assert.equal(status(stuck, app), 'lost');
  const meet = table({ piles: { 1: '9♠' }, up: '5♠,A♥,A♦,A♣', down: '6♠,K♥,K♦,K♣', reshuffles: 0 });
  assert.equal(status(meet, app), 'playing'); // a slide would free the 9♠
  assert.equal(status(meet, open), 'lost');
  // a held card's suit does not count as meeting, even where a crossing is allowed
  const held = table({ piles: { 1: '10♠' }, up: '5♠,A♥,A♦,A♣', down: '7♠,K♥,K♦,K♣', held: '6♠', reshuffles: 0 });
  assert.equal(status(held, resolveProfile('hoffmann-1892+reversal')), 'lost');
  const won = table({ up: 'K♠,K♥,K♦,K♣', down: 'A♠,A♥,A♦,A♣' });
  assert.equal(status(won, app), 'won');
  // no spade tops a pile: only the slide between the spade foundations is left (stuck_when)
  const slide = table({ piles: { 1: '9♦' }, up: '5♠,A♥,A♦,A♣', down: '6♠,K♥,K♦,K♣', reshuffles: 0 });
  assert.equal(status(slide, app), 'playing'); // the app counts every possible move
  assert.equal(status(slide, resolveProfile('morehead-1949')), 'lost'); // 001 counts pile cards
  assert.equal(status(slide, resolveProfile('open+reversal')), 'lost');
});

test('autoplay: first qualifying pile, not onto a card that fits a pile, not a double fit (§14)', () => {
  const P = resolveProfile('open');
  const pos = table({ piles: { 1: '3♥', 2: '2♥', 3: '4♥', 4: '2♣', 5: '6♠' }, up: 'A♠,A♥,A♦,A♣', down: '7♠,K♥,K♦,K♣' });
  // 2♥ fits A♥ but also p1 (3♥): stays. 2♣ goes up, then, from pile 1 again, 6♠ onto 7♠.
  assert.deepEqual(autoplay(pos, P), ['p4-A♣', 'p5-K♠']);
  const chain = table({ piles: { 1: '3♣', 2: '2♣', 5: '9♠' }, up: 'A♠,A♥,A♦,A♣', down: 'K♠,K♥,K♦,K♣' });
  // 3♣ on p1 fits p2's 2♣ (a pile): stays; 2♣ fits p1's 3♣: stays.
  assert.deepEqual(autoplay(chain, P), []);
  const ladder = table({ piles: { 1: '3♣', 2: '2♣,9♦' }, up: 'A♠,A♥,A♦,A♣', down: 'K♠,K♥,K♦,K♣' });
  assert.deepEqual(autoplay(ladder, P), []);
  const go = table({ piles: { 1: '3♣', 2: '9♦,2♣' }, up: 'A♠,A♥,A♦,2♣', down: 'K♠,K♥,K♦,K♣' });
  assert.deepEqual(autoplay(go, P), []); // the 3♣ fits A♣ but also p2's 2♣
  const home = table({ piles: { 1: '3♣', 2: '9♦', 3: '4♣' }, up: 'A♠,A♥,A♦,2♣', down: 'K♠,K♥,K♦,K♣' });
  assert.deepEqual(autoplay(home, P), []); // the 3♣ and the 4♣ fit each other
  const both = table({ piles: { 1: '6♠' }, up: '5♠,A♥,A♦,A♣', down: '7♠,K♥,K♦,K♣' });
  assert.deepEqual(autoplay(both, P), []); // fits both foundations: "you pick"
  const run = table({ piles: { 1: '3♣', 2: '9♦', 3: '4♣,Q♥' }, up: 'A♠,A♥,A♦,2♣', down: 'K♠,K♥,K♦,K♣' });
  // 3♣ up; then (from pile 1 again) Q♥ onto K♥, which uncovers the 4♣, which goes up too
  assert.deepEqual(autoplay(run, P), ['p1-A♣', 'p3-K♥', 'p3-A♣']);
});

test('game: undo keeps the latest 100 moves and a reshuffle empties it (§12)', () => {
  // an A♠ that can go back and forth between two piles showing 2♠
  const g = new Game('app', table({ piles: { 1: '2♠', 2: '2♠,A♠', 3: '9♦' } }));
  for (let i = 0; i < 101; i++) assert.equal(g.act(i % 2 ? 'p1-p2' : 'p2-p1').accepted, true);
  assert.equal(g.undoDepth, 100);
  assert.equal(g.pos.moves, 101);
  for (let i = 0; i < 100; i++) assert.equal(g.act('undo').accepted, true);
  assert.equal(g.pos.moves, 1);
  assert.deepEqual(g.act('undo'), { accepted: false, reason: 'nothing-to-undo', effect: null, moves: [] });
  g.act('p1-p2');
  assert.equal(g.undoDepth, 1);
  assert.equal(g.act('reshuffle').effect, 'reshuffle');
  assert.equal(g.act('undo').reason, 'nothing-to-undo');
  assert.equal(new Game('open', table({ piles: { 1: '2♠' } })).act('undo').reason, 'undo-unavailable');
});

test('game: tap and drop (§13)', () => {
  const text = 'up:A♠,A♥,A♦,A♣ down:K♠,K♥,K♦,K♣ piles:8♦,5♠,6♦,10♠,Q♦,8♦/6♥,Q♦,5♥,7♣,3♣,7♠/10♥,J♥,4♦,4♦,9♠,5♠/6♦,3♥,5♣,2♣,2♦,K♠/9♥,Q♠,3♠,3♦,8♣,9♣/J♦,8♠,Q♠,3♦,J♠,Q♥/K♦,7♦,10♣,6♠,A♣,10♦/J♣,4♥,9♠,2♦,7♥,2♠/7♦,6♣,3♥,6♣,10♥,J♥/7♥,8♣,J♦,9♦,5♥,2♠/4♠,2♥,9♦,3♣,K♥,4♠/A♦,7♠,5♣,10♠,J♣,A♥/6♠,K♣,8♥,3♠,9♣,10♣/Q♣,2♥,8♠,5♦,A♠,6♥/Q♣,5♦,Q♥,8♥,J♠,2♣/10♦,4♥,4♣,7♣,4♣,9♥ reshuffles:3 moves:0';
  const g = Game.fromPosition('app', text);
  // p3's 5♠ has one place to go (p11's 4♠): a tap moves it
  assert.deepEqual(g.act('tap p3'), { accepted: true, reason: null, effect: 'move', moves: ['p3-p11'] });
  // p1's 8♦ has none: selected; a tap on a wrong place is refused and ends the selection
  assert.equal(g.act('tap p1').effect, 'select');
  assert.equal(g.state().selected, 'p1');
  assert.equal(g.act('tap p2').reason, 'wrong-suit');
  assert.equal(g.state().selected, null);
  assert.equal(g.act('tap A♠').reason, 'base-locked');
  assert.equal(g.act('tap hold').reason, 'empty-source');
  // p8's 2♠ goes up by a drop
  assert.deepEqual(g.act('drop p8'), { accepted: true, reason: null, effect: 'move', moves: ['p8-A♠'] });
  assert.equal(g.act('drop p1').reason, 'no-foundation');
  assert.equal(g.pos.moves, 2);
});

test('game: every action but a tap ends the selection, accepted or refused (§13.1.3, I-TAP)', () => {
  const text = 'up:A♠,A♥,A♦,A♣ down:K♠,K♥,K♦,K♣ piles:8♦,5♠,6♦,10♠,Q♦,8♦/6♥,Q♦,5♥,7♣,3♣,7♠/10♥,J♥,4♦,4♦,9♠,5♠/6♦,3♥,5♣,2♣,2♦,K♠/9♥,Q♠,3♠,3♦,8♣,9♣/J♦,8♠,Q♠,3♦,J♠,Q♥/K♦,7♦,10♣,6♠,A♣,10♦/J♣,4♥,9♠,2♦,7♥,2♠/7♦,6♣,3♥,6♣,10♥,J♥/7♥,8♣,J♦,9♦,5♥,2♠/4♠,2♥,9♦,3♣,K♥,4♠/A♦,7♠,5♣,10♠,J♣,A♥/6♠,K♣,8♥,3♠,9♣,10♣/Q♣,2♥,8♠,5♦,A♠,6♥/Q♣,5♦,Q♥,8♥,J♠,2♣/10♦,4♥,4♣,7♣,4♣,9♥ reshuffles:0 moves:0';
  const cases = [
    ['app', 'reshuffle', 'no-reshuffles'],
    ['app', 'undo', 'nothing-to-undo'],
    ['open', 'undo', 'undo-unavailable'],
    ['app', 'p1-p2', 'wrong-suit'],
    ['app', 'drop p1', 'no-foundation'],
    ['app', 'drop p8', null],
  ];
  for (const [profile, action, reason] of cases) {
    const g = Game.fromPosition(profile, text);
    assert.equal(g.act('tap p1').effect, 'select');
    assert.equal(g.state().selected, 'p1');
    assert.equal(g.act(action).reason, reason, action);
    assert.equal(g.state().selected, null, action);
  }
  // an action text that cannot be read is no action: the selection stays
  const g = Game.fromPosition('app', text);
  g.act('tap p1');
  assert.throws(() => g.act('p1-p99'));
  assert.equal(g.state().selected, 'p1');
});

test('legal moves cover piles, foundations and the hold', () => {
  const pos = table({ piles: { 1: '6♠', 2: '5♠', 3: '7♥' }, up: '5♠,A♥,A♦,A♣', down: '7♠,K♥,K♦,K♣' });
  const list = (p) => legalMoves(pos, resolveProfile(p)).map(([s, d]) => `${s}-${d}`);
  const H = `0-${HOLD}`;
  assert.ok(list('hoffmann-1892').includes(H));
  assert.ok(!list('app').includes(H));
});

test('game: a tap on a foundation of a held suit (§13.1.1, I-TAP, I-HOFFMANN-HOLD)', () => {
  // §13.1.1 refuses a first tap on a foundation with foundation-final only where the *profile*
  // lets no card leave a foundation. Where crossings or give-backs exist, a foundation closed by
  // a held card is tapped like a pile: no place accepts its card, so it becomes selected, and
  // the second tap makes a move that is refused with foundation-final.
  const text = 'up:5♠,A♥,A♦,A♣ down:7♠,K♥,K♦,K♣ piles:10♥,4♠,10♠,8♦,J♦,9♣/2♦,A♣,4♥,6♠,7♦/10♥,K♦,6♣,3♣,2♠,2♥/10♣,3♣,5♣,7♥,9♥,6♥/7♣,7♠,Q♣,8♠,5♥,10♣/8♥,Q♣,A♦,5♥,J♥,9♠/8♦,2♥,Q♦,4♦,9♥/7♦,5♦,J♠,Q♠,A♥,6♦/4♣,K♥,9♣,3♥,J♥,6♦/5♦,3♦,5♣,K♠,J♣/6♥,Q♦,9♦,6♣,7♥/3♠,Q♥,7♣,8♣,K♣/2♦,8♥,8♣,Q♥,2♣/4♦,4♥,5♠,10♦,3♦/9♦,A♠,J♣,J♦,4♣/3♥,2♣,10♦ reshuffles:3 moves:0 held:6♠';
  assert.equal(Game.fromPosition('hoffmann-1892', text).act('tap A♠').reason, 'foundation-final');
  for (const profile of ['hoffmann-1892+reversal', 'hoffmann-1892+give-backs']) {
    const g = Game.fromPosition(profile, text);
    assert.equal(g.act('tap K♠').effect, 'select', profile);
    assert.equal(g.state().selected, 'K♠');
    assert.equal(g.act('tap A♠').reason, 'foundation-final', profile);
    assert.equal(g.state().selected, null);
  }
});
