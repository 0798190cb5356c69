// The JSON copies in data/ must say what spec/profiles.yaml and spec/reasons.yaml say.
// If this fails, run `npm run sync-spec` and review the diff.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { profilesFromSpec, reasonsFromSpec } from '../tools/sync-spec.js';
import { SPEC_DIR, needs } from '../tools/spec.js';
import { resolveProfile, ProfileError } from '../src/profiles.js';
import { message, REASON_CODES } from '../src/messages.js';

const json = (name) => JSON.parse(readFileSync(new URL(`../data/${name}`, import.meta.url), 'utf8'));

test('data/profiles.json matches spec/profiles.yaml', needs('profiles.yaml'), () => {
  assert.deepEqual(json('profiles.json'), profilesFromSpec(SPEC_DIR));
});

test('data/reasons.json matches spec/reasons.yaml', needs('reasons.yaml'), () => {
  assert.deepEqual(json('reasons.json'), reasonsFromSpec(SPEC_DIR));
});

test('every profile sets every parameter', () => {
  const data = json('profiles.json');
  for (const [name, p] of Object.entries(data.profiles)) {
    assert.deepEqual(Object.keys(p.parameters).sort(), [...data.parameters].sort(), name);
  }
});

test('variants apply left to right, each setting only what it names', () => {
  const p = resolveProfile('open+six+nine+closed');
  assert.equal(p.reshuffles, 9);
  assert.equal(p.deal, 'closed');
  assert.equal(p.pile_wrap, true);
  assert.equal(p.autoplay, true);
  assert.equal(resolveProfile('open+nine+six').reshuffles, 6);
  assert.equal(resolveProfile('hoffmann-1892+reversal').between_foundations, true);
  assert.equal(resolveProfile('hoffmann-1892+reversal').hold_double_fit, true);
  assert.throws(() => resolveProfile('blitz'), ProfileError);
  assert.throws(() => resolveProfile('app+five'), ProfileError);
});

test('messages: every code in every language', () => {
  assert.equal(REASON_CODES[0], 'game-over');
  for (const code of REASON_CODES) for (const lang of ['en', 'id', 'zh']) assert.ok(message(code, lang), `${code} ${lang}`);
  assert.equal(message('wrong-suit', 'id'), 'Harus berjenis sama');
  assert.equal(message('no-such-code', 'en'), null);
});
