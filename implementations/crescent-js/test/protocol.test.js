// The stdio server as the runner sees it (spec/protocol.md): one reply line per request, seq
// echoed, nothing else on stdout, refusals as results, refused positions as errored+refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/crescent-js.js', import.meta.url));

/** Send the requests, then stop; resolve with the stdout lines, parsed, and the exit code. */
function session(requests) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('exit', (code) => {
      const lines = out.split('\n').filter((l) => l !== '');
      resolve({ replies: lines.map((l) => JSON.parse(l)), code, err });
    });
    for (const r of [...requests, { cmd: 'stop' }]) child.stdin.write(`${JSON.stringify(r)}\n`);
    // stdin stays open: the server must leave on `stop` by itself
  });
}

const CODE = 'CR1-N-AAAAAAB';

test('handshake, a game, an accepted and a refused action, legal moves, a message, stop', async () => {
  const { replies, code } = await session([
    { cmd: 'start', version: 2 },
    { cmd: 'new_game', seq: 1, profile: 'app', code: CODE },
    { cmd: 'act', seq: 'two', action: 'p3-p11' },
    { cmd: 'act', seq: [3], action: 'p3-p1' },
    { cmd: 'legal_moves', seq: 4 },
    { cmd: 'message', seq: 5, reason: 'pile-full', lang: 'zh' },
  ]);
  assert.equal(code, 0);
  assert.equal(replies.length, 6);
  const [hello, game, ok, no, legal, msg] = replies;
  assert.equal(hello.version, 2);
  assert.ok(hello.implementation.capabilities.includes('reasons'));
  assert.equal(hello.implementation.name, 'crescent-js');
  assert.deepEqual(hello.implementation.profiles, ['app', 'open', 'hoffmann-1892', 'morehead-1949']);
  assert.deepEqual(game.seq, 1);
  assert.equal(game.result.state.piles.length, 16);
  assert.equal(game.result.state.status, 'playing');
  assert.deepEqual(ok, { seq: 'two', result: { ...ok.result, accepted: true, reason: null, effect: 'move', moves: ['p3-p11'] } });
  assert.deepEqual(no.seq, [3]);
  assert.equal(no.result.accepted, false);
  assert.equal(no.result.reason, 'wrong-suit');
  assert.equal(no.result.state.moves, 1);
  assert.ok(legal.result.moves.includes('p8-A♠'));
  assert.equal(msg.result.text, '此牌堆已满，请选择其他目标位置');
});

test('a position the profile cannot reach is errored with refused: true; bad input is errored', async () => {
  const { replies } = await session([
    { cmd: 'start', version: 2 },
    { cmd: 'new_game', seq: 1, profile: 'app', position: 'up:A♠' },
    { cmd: 'new_game', seq: 2, profile: 'app', code: 'cr1-n-aaaaaab' },
    { cmd: 'new_game', seq: 3, profile: 'app+fifty', code: CODE },
    { cmd: 'act', seq: 4, action: 'p1-p2' },
    { cmd: 'new_game', seq: 5, profile: 'open', code: CODE },
    { cmd: 'act', seq: 6, action: 'hold-p1' },
    { cmd: 'frobnicate', seq: 7 },
    { cmd: 'new_game', seq: 8, profile: 'patience', code: CODE },
    { cmd: 'new_game', seq: 9, profile: 'solitaire', position: 'up:A♠' },
    { cmd: 'act', seq: 10, action: 'p01-p2' },
    { cmd: 'act', seq: 11, action: 'shuffle' },
    { cmd: 'act', seq: 12, action: 42 },
  ]);
  assert.equal(replies.length, 13);
  // a position or code that is malformed or unreachable: refused
  assert.equal(replies[1].errored.refused, true);
  assert.equal(replies[2].errored.refused, true);
  // input that cannot be read at all: errored without refused (protocol.md)
  const unreadable = [3, 4, 6, 7, 8, 9, 10, 11, 12];
  for (const i of unreadable) {
    assert.ok(replies[i].errored, `reply ${i} errored`);
    assert.equal(replies[i].errored.refused, undefined, `reply ${i} not refused`);
    assert.equal(replies[i].result, undefined);
  }
  assert.ok(replies[5].result);
  assert.deepEqual(replies.slice(1).map((r) => r.seq), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
});

test('state on demand: a request names the state fields it needs, [] for none, a bad list is errored', async () => {
  const { replies } = await session([
    { cmd: 'start', version: 2 },
    { cmd: 'new_game', seq: 1, profile: 'app', code: CODE, state: ['status', 'moves'] },
    { cmd: 'act', seq: 2, action: 'p3-p11', state: [] },
    { cmd: 'act', seq: 3, action: 'p3-p1', state: 'all' },
    { cmd: 'act', seq: 4, action: 'p3-p1' },
  ]);
  const [hello, game, lean, bad, whole] = replies;
  assert.ok(hello.implementation.capabilities.includes('state-on-demand'));
  assert.deepEqual(game.result.state, { status: 'playing', moves: 0 });
  assert.equal(lean.result.accepted, true);
  assert.equal('state' in lean.result, false);
  assert.ok(bad.errored.message.includes("'state'"));
  assert.equal(whole.result.state.moves, 1);
  assert.equal(whole.result.state.piles.length, 16);
});

test('version 3 is answered in 3 with the counters and lost; a version 2 runner gets 2 without them', async () => {
  const three = (await session([{ cmd: 'start', version: 3 }])).replies[0];
  assert.equal(three.version, 3);
  for (const c of ['move-count', 'reshuffle-count', 'lost', 'state-on-demand']) {
    assert.ok(three.implementation.capabilities.includes(c), c);
  }
  const two = (await session([{ cmd: 'start', version: 2 }])).replies[0];
  assert.equal(two.version, 2);
  assert.ok(!two.implementation.capabilities.includes('lost'));
  assert.ok(two.implementation.capabilities.includes('state-on-demand'));
});

test('requests pipelined in one write, split anywhere, CRLF or not, are answered in order', async () => {
  const child = spawn(process.execPath, [BIN], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
  const done = new Promise((resolve) => child.on('exit', resolve));
  const text = [
    { cmd: 'start', version: 3 },
    { cmd: 'new_game', seq: 1, profile: 'app', code: CODE, state: [] },
    ...Array.from({ length: 40 }, (_, n) => ({ cmd: 'act', seq: n + 2, action: 'p3-p1', state: ['moves'] })),
  ].map((r) => JSON.stringify(r)).join('\r\n') + '\n{"cmd":"stop"}\n';
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += 7) child.stdin.write(bytes.subarray(at, at + 7)); // splits ♠ too
  assert.equal(await done, 0);
  const replies = out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  assert.equal(replies.length, 42);
  assert.deepEqual(replies.slice(1).map((r) => r.seq), Array.from({ length: 41 }, (_, n) => n + 1));
  assert.deepEqual(replies[2].result.state, { moves: 0 });
});

test('a batch is answered with one reply per request, in order, each as if sent alone', async () => {
  const { replies } = await session([
    { cmd: 'start', version: 3 },
    { cmd: 'batch', seq: 9, requests: [
      { cmd: 'new_game', profile: 'app', code: CODE, state: [] },
      { cmd: 'act', action: 'p3-p1', state: ['moves'] },
      { cmd: 'act', action: 5 },
      { cmd: 'stop' },
      { cmd: 'legal_moves' },
    ] },
    { cmd: 'batch', seq: 10, requests: 'no' },
  ]);
  assert.ok(replies[0].implementation.capabilities.includes('batch'));
  const [game, refused, bad, stop, legal] = replies[1].result.replies;
  assert.equal(replies[1].seq, 9);
  assert.deepEqual(game, { result: {} });
  assert.deepEqual(refused.result, { accepted: false, reason: 'wrong-suit', effect: null, moves: [], state: { moves: 0 } });
  assert.ok(bad.errored && stop.errored && !('seq' in bad));
  assert.ok(legal.result.moves.includes('p8-A♠'));
  assert.equal(replies[2].seq, 10);
  assert.ok(replies[2].errored);
});
