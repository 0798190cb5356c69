#!/usr/bin/env node
// A minimal Crescent adapter (spec/protocol.md), to copy and fill in: docs/writing-an-adapter.md.
//
//     crescent-conformance smoke --cmd "node docs/skeletons/skeleton-adapter.js"
//
// It speaks the whole protocol loop: the handshake, new_game, act, stop; one JSON line a reply on
// stdout, everything else on stderr. The rules live in `YourEngine` below: as shipped it can only
// load a position and report it, and answers every action with `skipped` ("not implemented yet"),
// so the kit runs what it can (the scenarios that check a starting position) and skips the rest.
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
  version: 2, // protocol version 2: declare only the parts of a reply your game observes (spec/protocol.md)
  implementation: {
    name: 'my-crescent', // your game's name and version
    version: '0.0.1',
    language: 'javascript',
    profiles: ['app'], // the rule profiles your game plays (spec/profiles.yaml)
    // add 'undo', 'tap', ... as your adapter learns them (spec/protocol.md); 'state-on-demand': the
    // runner names the state fields it needs in each request (withState below honours it)
    capabilities: ['state-on-demand'],
  },
};

/** `result` with the state the request asks for (state on demand, spec/protocol.md): no `state`
 *  field, the whole state; a list of field names, only those; [], none. */
function withState(result, engine, req) {
  if (Array.isArray(req.state) && req.state.length === 0) return result;
  const state = engine.state();
  const wanted = Array.isArray(req.state) ? req.state : null;
  return { ...result, state: wanted ? Object.fromEntries(Object.entries(state).filter(([k]) => wanted.includes(k))) : state };
}

function handle(engine, req) {
  const seq = req.seq;
  try {
    if (req.cmd === 'new_game') {
      if (typeof req.position !== 'string') throw new NotImplementedYet('new_game from a game code: not implemented yet');
      engine.newGame(req.profile, req.position);
      return { seq, result: withState({}, engine, req) };
    }
    if (req.cmd === 'act') return { seq, result: withState(engine.act(req.action), engine, req) };
    return { seq, errored: { message: `unknown command ${JSON.stringify(req.cmd)}` } };
  } catch (e) {
    if (e instanceof NotImplementedYet) return { seq, skipped: { message: e.message } };
    if (e instanceof RangeError) return { seq, errored: { message: e.message, refused: req.cmd === 'new_game' } };
    console.error(e.stack); // stderr only: stdout carries replies and nothing else
    return { seq, errored: { message: `internal error: ${e.message}`, context: String(e.stack) } };
  }
}

const engine = new YourEngine();
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (!line.trim()) return;
  const req = JSON.parse(line);
  if (req.cmd === 'stop') {
    rl.close();
    return;
  }
  const reply = req.cmd === 'start' ? HELLO : handle(engine, req);
  process.stdout.write(JSON.stringify(reply) + '\n');
});
rl.on('close', () => process.stdout.write('', () => process.exit(0)));
