// spec/perft.md: the counts of spec/perft/positions.yaml, and perft's definition on small cases.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { specYaml, needs } from '../tools/spec.js';
import { perft, divide, rootPosition } from '../src/perft.js';

const MAX_DEPTH = Number(process.env.PERFT_MAX_DEPTH ?? 9);

test('perft counts of spec/perft/positions.yaml', needs('perft/positions.yaml'), async (t) => {
  const doc = specYaml('perft/positions.yaml');
  for (const c of doc.cases) {
    await t.test(c.name, () => {
      for (const [profile, depths] of Object.entries(c.counts)) {
        const [pos, P] = rootPosition(profile, c.position);
        for (const [depth, count] of Object.entries(depths)) {
          if (Number(depth) > MAX_DEPTH) continue;
          assert.equal(perft(pos, P, Number(depth)), count, `${c.name} ${profile} depth ${depth}`);
        }
      }
    });
  }
});

const DEAL = 'up:A♠,A♥,A♦,A♣ down:K♠,K♥,K♦,K♣ piles:8♦,5♠,6♦,10♠,Q♦,8♦/6♥,Q♦,5♥,7♣,3♣,7♠/10♥,J♥,4♦,4♦,9♠,5♠/6♦,3♥,5♣,2♣,2♦,K♠/9♥,Q♠,3♠,3♦,8♣,9♣/J♦,8♠,Q♠,3♦,J♠,Q♥/K♦,7♦,10♣,6♠,A♣,10♦/J♣,4♥,9♠,2♦,7♥,2♠/7♦,6♣,3♥,6♣,10♥,J♥/7♥,8♣,J♦,9♦,5♥,2♠/4♠,2♥,9♦,3♣,K♥,4♠/A♦,7♠,5♣,10♠,J♣,A♥/6♠,K♣,8♥,3♠,9♣,10♣/Q♣,2♥,8♠,5♦,A♠,6♥/Q♣,5♦,Q♥,8♥,J♠,2♣/10♦,4♥,4♣,7♣,4♣,9♥ reshuffles:3 moves:0';

test('perft: depth 0 is 1; depth 1 is the legal moves plus reshuffle; divide sums to perft', () => {
  const [pos, P] = rootPosition('app', DEAL);
  assert.equal(perft(pos, P, 0), 1);
  const d1 = divide(pos, P, 1);
  assert.equal(d1.length, perft(pos, P, 1));
  assert.ok(d1.some(([a]) => a === 'reshuffle'));
  const d2 = divide(pos, P, 2);
  assert.equal(d2.reduce((n, [, k]) => n + k, 0), perft(pos, P, 2));
  const [none] = rootPosition('app', DEAL.replace('reshuffles:3', 'reshuffles:0'));
  assert.equal(perft(none, P, 1), perft(pos, P, 1) - 1);
});
