// The stdio adapter protocol, version 3 (spec/protocol.md): one JSON object per line on stdin,
// exactly one reply line per request (except `stop`) on stdout. Logs go to stderr only. A runner
// that asks for version 2 is answered in version 2 (without the observations version 3 added).

import { NotationError } from './cards.js';
import { Game, RefusedError } from './game.js';
import { BASE_PROFILES, VARIANTS, ProfileError } from './profiles.js';
import { message, LANGUAGES } from './messages.js';

export const IMPLEMENTATION = Object.freeze({
  name: 'crescent-js',
  version: '0.1.0',
  language: 'javascript',
  profiles: BASE_PROFILES,
  variants: VARIANTS,
  capabilities: ['undo', 'tap', 'drop', 'game-codes', 'legal-moves', 'selection', 'messages',
    'reasons', 'waiting', 'undo-count', 'effect', 'card-moves', 'move-count', 'reshuffle-count', 'lost',
    'state-on-demand', 'batch'],
  languages: LANGUAGES,
});

export const PROTOCOL_VERSION = 3;
const ADDED_IN_3 = ['move-count', 'reshuffle-count', 'lost']; // implied by a version 2 handshake

/** The handshake reply to a runner asking for `version`: ours, or 2 for a runner that asks for 2. */
export function hello(version) {
  if (version === 2) {
    const capabilities = IMPLEMENTATION.capabilities.filter((c) => !ADDED_IN_3.includes(c));
    return { version: 2, implementation: { ...IMPLEMENTATION, capabilities } };
  }
  return { version: PROTOCOL_VERSION, implementation: IMPLEMENTATION };
}

/** One session: the handshake and the current game. `handle` maps a request to its reply. */
export class Session {
  constructor(log = () => {}) {
    this.game = null;
    this.log = log;
  }

  /** The reply object for a request, or null for `stop` (and for nothing to say). */
  handle(req) {
    if (req === null || typeof req !== 'object' || Array.isArray(req)) {
      return { errored: { message: 'a request must be a JSON object' } };
    }
    if (req.cmd === 'start') {
      if (req.version !== 2 && req.version !== PROTOCOL_VERSION) {
        this.log(`runner speaks protocol version ${req.version}; we speak 2 and ${PROTOCOL_VERSION}`);
      }
      return hello(req.version);
    }
    if (req.cmd === 'stop') return null;
    const reply = { seq: req.seq };
    try {
      reply.result = this.dispatch(req);
    } catch (e) {
      if (e instanceof RefusedError) {
        reply.errored = { message: e.message, refused: true };
      } else if (e instanceof NotationError || e instanceof ProfileError || e instanceof RequestError) {
        reply.errored = { message: e.message };
      } else {
        this.log(e.stack);
        reply.errored = { message: `internal error: ${e.message}`, context: String(e.stack) };
      }
    }
    return reply;
  }

  dispatch(req) {
    switch (req.cmd) {
      case 'new_game': {
        if (typeof req.profile !== 'string') throw new RequestError('new_game needs a profile');
        const wanted = wantedFields(req);
        if (typeof req.position === 'string') this.game = Game.fromPosition(req.profile, req.position);
        else if (typeof req.code === 'string') this.game = Game.fromCode(req.profile, req.code);
        else throw new RequestError('new_game needs a position or a code');
        return withState({}, this.game, wanted);
      }
      case 'act': {
        const game = this.requireGame();
        const wanted = wantedFields(req); // checked before the action: a bad field changes nothing
        const outcome = game.act(req.action);
        return withState({ ...outcome }, game, wanted);
      }
      case 'legal_moves':
        return { moves: this.requireGame().legalMoves() };
      case 'batch': {
        // Batches: each request answered as if sent alone, its reply without seq, in order.
        if (!Array.isArray(req.requests)) throw new RequestError(`field 'requests' must be a list of requests, got ${JSON.stringify(req.requests)}`);
        return { replies: req.requests.map((inner) => this.inner(inner)) };
      }
      case 'message': {
        const text = message(req.reason, req.lang);
        if (text === null) throw new RequestError(`no message for ${JSON.stringify(req.reason)} in ${JSON.stringify(req.lang)}`);
        return { text };
      }
      default:
        throw new RequestError(`unknown command ${JSON.stringify(req.cmd)}`);
    }
  }

  /** The reply to one request of a batch, without seq. */
  inner(req) {
    if (req !== null && typeof req === 'object' && ['start', 'stop', 'batch'].includes(req.cmd)) {
      return { errored: { message: `${JSON.stringify(req.cmd)} cannot be sent inside a batch` } };
    }
    const { seq, ...reply } = this.handle(req);
    return reply;
  }

  requireGame() {
    if (!this.game) throw new RequestError('no game: send new_game first');
    return this.game;
  }
}

class RequestError extends Error {}

/** State on demand: the fields a request's `state` asks for (null: the whole state). */
function wantedFields(req) {
  if (!('state' in req)) return null;
  const names = req.state;
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) {
    throw new RequestError(`field 'state' must be a list of state field names, got ${JSON.stringify(names)}`);
  }
  return names;
}

/** `reply` with the state asked for: whole (null), only some fields, or none ([]). */
function withState(reply, game, wanted) {
  if (wanted === null) {
    reply.state = game.state();
  } else if (wanted.length > 0) {
    reply.state = game.state(wanted);
  }
  return reply;
}

/** Serve the protocol on the given streams until `stop` or end of input. The requests that arrive
 *  together (a runner pipelining scenarios) are answered together: their replies go out in one write. */
export function serve({ input = process.stdin, output = process.stdout, log = (m) => process.stderr.write(`crescent-js: ${m}\n`) } = {}) {
  const session = new Session(log);
  let pending = '';
  let stopped = false;
  return new Promise((resolve) => {
    const finish = () => {
      if (stopped) return;
      stopped = true;
      input.removeListener('data', onData);
      input.pause();
      resolve();
    };
    const onData = (chunk) => {
      if (stopped) return;
      const lines = (pending + chunk).split('\n');
      pending = lines.pop();
      const replies = [];
      for (const line of lines) {
        const reply = answer(session, line, log);
        if (reply === null) {
          if (replies.length > 0) output.write(replies.join(''));
          finish();
          return;
        }
        if (reply !== undefined) replies.push(reply);
      }
      if (replies.length > 0) output.write(replies.join(''));
    };
    input.setEncoding('utf8');
    input.on('data', onData);
    input.on('end', () => {
      if (!stopped && pending.trim() !== '') {
        const reply = answer(session, pending, log);
        if (reply) output.write(reply);
      }
      finish();
    });
  });
}

/** The reply line to one request line: undefined for a blank line, null for `stop`. */
function answer(session, raw, log) {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.trim() === '') return undefined;
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    log(`not JSON: ${line}`);
    return `${JSON.stringify({ seq: null, errored: { message: `not JSON: ${e.message}` } })}\n`;
  }
  const reply = session.handle(req);
  return reply === null ? null : `${JSON.stringify(reply)}\n`;
}
