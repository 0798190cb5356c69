#!/usr/bin/env node
// A minimal Crescent adapter (spec/protocol.md), to copy and fill in: docs/writing-an-adapter.md.
//
//     crescent-conformance smoke --cmd "node docs/skeletons/skeleton-adapter.js"
//
// It speaks the whole protocol loop of version 3: the handshake, new_game, act, stop, the state on
// demand and batches; one JSON line a reply on stdout, everything else on stderr. The rules live in
// `YourEngine` below: as shipped it can only load a position and report it, and answers every action
// with `skipped` ("not implemented yet"), so the kit runs what it can (the scenarios that check a
// starting position) and skips the rest.
// Replace its methods with calls into your game. Plain Node.js (18 or later), no packages.

import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const FOUNDATIONS = ['A♠', 'A♥', 'A♦', 'A♣', 'K♠', 'K♥', 'K♦', 'K♣'];
const RANKS = { A: 1, J: 11, Q: 12, K: 13 };

/** A request the engine cannot serve yet: the adapter answers `skipped`, the kit skips the scenario. */
class NotImplementedYet extends Error {}

// ---------------------------------------------------------------------------------------------
// YOUR ENGINE HERE: replace the body of each method with calls into your game.
// ---------------------------------------------------------------------------------------------
class YourEngine {
  constructor() {
    this.table = null;
  }

  /** Set up the game from a position text (spec/notation.md §5). If your engine can only deal,
   *  see "Loading a given position" in docs/writing-an-adapter.md. */
  newGame(profile, position) {
    this.table = readPosition(position);
  }

  /** Apply one action (canonical text: p10-p14, p5-A♠, reshuffle, undo, tap p5, drop p5).
   *  Return {accepted, reason, effect, moves}; the adapter adds the state. */
  act(action) {
    const here = fileURLToPath(import.meta.url);
    throw new NotImplementedYet(`act '${action}': not implemented yet (YOUR ENGINE HERE in ${here})`);
  }

  /** The canonical state JSON (spec/interpreting.md): read it off your engine's table. */
  state() {
    return { ...this.table, status: 'playing', foundation_cards: foundationCards(this.table.foundations) };
  }
}
// ---------------------------------------------------------------------------------------------

const rank = (card) => RANKS[card.slice(0, -1)] ?? Number(card.slice(0, -1));

function foundationCards(tops) {
  return Object.entries(tops).reduce((n, [base, top]) => n + (base[0] === 'A' ? rank(top) : 14 - rank(top)), 0);
}

/** The table of a position text, as the state JSON writes it (piles bottom card first). */
function readPosition(text) {
  const fields = Object.fromEntries(text.trim().split(/\s+/).map((part) => {
    const at = part.indexOf(':');
    return [part.slice(0, at), part.slice(at + 1)];
  }));
  for (const name of ['up', 'down', 'piles', 'reshuffles', 'moves']) {
    if (!(name in fields)) throw new RangeError(`position without ${name}: ${text}`);
  }
  const piles = [];
  const hidden = [];
  for (let pile of fields.piles.split('/')) {
    let faceDown = [];
    if (pile.startsWith('[')) {
      const close = pile.indexOf('],');
      faceDown = pile.slice(1, close).split(',');
      pile = pile.slice(close + 2);
    }
    piles.push(faceDown.concat(pile === '' || pile === '-' ? [] : pile.split(',')));
    hidden.push(faceDown.length);
  }
  const tops = fields.up.split(',').concat(fields.down.split(','));
  return {
    piles,
    hidden,
    foundations: Object.fromEntries(FOUNDATIONS.map((base, i) => [base, tops[i]])),
    held: fields.held ? fields.held.split(',') : [],
    reshuffles: Number(fields.reshuffles),
    moves: Number(fields.moves),
  };
}

const HELLO = {
  version: 3, // protocol version 3 (spec/protocol.md, Versions)
  implementation: {
    name: 'my-crescent', // your game's name and version
    version: '0.0.1',
    language: 'javascript',
    profiles: ['app'], // the rule profiles your game plays (spec/profiles.yaml)
    // What the adapter offers and observes (spec/protocol.md, Capabilities); add 'undo', 'tap', 'reasons',
    // ... as it learns them, and declare only what it really reports:
    // - 'move-count', 'reshuffle-count': state() reports the game's own counters (drop one your game lacks);
    //   status is always 'playing' here, so 'lost' is not declared;
    // - 'state-on-demand': a request's `state` names the fields wanted (withState below);
    // - 'batch': several requests in one line (answerBatch below). Both only make a run cheaper.
    capabilities: ['move-count', 'reshuffle-count', 'state-on-demand', 'batch'],
  },
};

/** A request the adapter cannot read (a field of the wrong type): `errored`, nothing changed. */
class Malformed extends Error {}

/** The reply to one request line (not start or stop): `seq` echoed, then the answer. */
function replyTo(engine, req) {
  const answered = req.cmd === 'batch' ? answerBatch(engine, req.requests) : answer(engine, req);
  return { seq: req.seq ?? null, ...answered };
}

/** A batch (spec/protocol.md, Batches): each request answered in order as if it came alone, without seq. */
function answerBatch(engine, requests) {
  if (!Array.isArray(requests)) {
    return { errored: { message: `batch: requests is not a list: ${JSON.stringify(requests)}` } };
  }
  const notObject = { errored: { message: 'batch: a request that is not an object' } };
  return { result: { replies: requests.map((r) => (isObject(r) ? answer(engine, r) : notObject)) } };
}

/** The answer to one request: exactly one of `result`, `skipped` or `errored`. */
function answer(engine, req) {
  try {
    if (req.cmd === 'new_game') {
      const wanted = wantedFields(req);
      if (typeof req.position !== 'string') {
        throw new NotImplementedYet('new_game from a game code: not implemented yet');
      }
      engine.newGame(req.profile, req.position);
      return { result: withState({}, engine, wanted) };
    }
    if (req.cmd === 'act') {
      const wanted = wantedFields(req);
      return { result: withState(engine.act(req.action), engine, wanted) };
    }
    return { errored: { message: `unknown command ${JSON.stringify(req.cmd)}` } };
  } catch (e) {
    if (e instanceof NotImplementedYet) return { skipped: { message: e.message } };
    if (e instanceof Malformed) return { errored: { message: e.message } };
    if (e instanceof RangeError) return { errored: { message: e.message, refused: req.cmd === 'new_game' } };
    console.error(e.stack); // stderr only: stdout carries replies and nothing else
    return { errored: { message: `internal error: ${e.message}`, context: String(e.stack) } };
  }
}

/** The state fields a request asks for (state on demand): null when it has no `state` (the whole state). */
function wantedFields(req) {
  if (!('state' in req)) return null;
  if (!Array.isArray(req.state) || !req.state.every((name) => typeof name === 'string')) {
    throw new Malformed(`state: expected a list of state fields, got ${JSON.stringify(req.state)}`);
  }
  return req.state;
}

/** `result` with the state asked for: null, the whole state; a list of fields, only those; [], none. */
function withState(result, engine, wanted) {
  if (wanted !== null && wanted.length === 0) return result;
  const state = engine.state();
  if (wanted === null) return { ...result, state };
  return { ...result, state: Object.fromEntries(Object.entries(state).filter(([k]) => wanted.includes(k))) };
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request object of a line, or why it cannot be read (a string). */
function readRequest(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return `not a JSON request: ${e.message}`;
  }
  return isObject(req) ? req : 'not a JSON object';
}

const engine = new YourEngine();
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (!line.trim()) return;
  const req = readRequest(line);
  if (typeof req === 'string') { // not JSON, or not an object: answered with seq null
    process.stdout.write(JSON.stringify({ seq: null, errored: { message: req } }) + '\n');
    return;
  }
  if (req.cmd === 'stop') {
    rl.close();
    return;
  }
  const reply = req.cmd === 'start' ? HELLO : replyTo(engine, req);
  process.stdout.write(JSON.stringify(reply) + '\n');
});
rl.on('close', () => process.stdout.write('', () => process.exit(0)));
