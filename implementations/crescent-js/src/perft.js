// perft: counting action sequences (spec/perft.md).
//
// Actions counted at a position: every legal card move, and `reshuffle` while one is left and the
// game is neither won nor lost. Not undo, tap or drop. Applying an action includes the profile's
// autoplay. The root is taken as loaded: no autoplay, empty undo history.

import { Game } from './game.js';
import { legalMoves, applyMove, applyReshuffle, autoplay, status } from './rules.js';
import { moveText } from './notation.js';

/** The actions counted at a position, as [text, apply(pos)] pairs. */
function actions(pos, P) {
  const st = status(pos, P);
  if (st === 'won' || st === 'lost') return [];
  const out = legalMoves(pos, P).map(([s, d]) => [moveText(s, d), (p) => {
    applyMove(p, s, d);
    p.moves += 1;
    if (P.autoplay) autoplay(p, P);
  }]);
  if (pos.reshuffles > 0) {
    out.push(['reshuffle', (p) => {
      applyReshuffle(p);
      if (P.autoplay) autoplay(p, P);
    }]);
  }
  return out;
}

export function perft(pos, P, depth) {
  if (depth === 0) return 1;
  let n = 0;
  for (const [, apply] of actions(pos, P)) {
    if (depth === 1) { n += 1; continue; }
    const next = pos.clone();
    apply(next);
    n += perft(next, P, depth - 1);
  }
  return n;
}

/** For each action at the root, perft of the position after it at depth - 1. */
export function divide(pos, P, depth) {
  const out = [];
  for (const [text, apply] of actions(pos, P)) {
    const next = pos.clone();
    apply(next);
    out.push([text, perft(next, P, depth - 1)]);
  }
  return out;
}

/** Loaded as a game would load it: the profile's checks apply, nothing autoplays. */
export function rootPosition(profile, text) {
  const game = Game.fromPosition(profile, text);
  return [game.pos, game.profile];
}

/** The dealt position of a game code, after the profile's autoplay (as `new_game` deals it). */
export function rootFromCode(profile, code) {
  const game = Game.fromCode(profile, code);
  return [game.pos, game.profile];
}

export function perftMain(argv) {
  const opts = { divide: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--divide') opts.divide = true;
    else if (['--profile', '--position', '--code', '--depth'].includes(a) && i + 1 < argv.length) opts[a.slice(2)] = argv[++i];
    else {
      process.stderr.write(`perft: unknown argument ${a}\n`);
      return 2;
    }
  }
  if (!opts.profile || !(opts.position || opts.code) || (opts.position && opts.code)
      || opts.depth === undefined || !/^[0-9]+$/.test(opts.depth)) {
    process.stderr.write('usage: crescent-js perft --profile P (--position TEXT | --code CODE) --depth N [--divide]\n');
    return 2;
  }
  let pos;
  let P;
  try {
    [pos, P] = opts.code ? rootFromCode(opts.profile, opts.code) : rootPosition(opts.profile, opts.position);
  } catch (e) {
    process.stderr.write(`perft: ${e.message}\n`);
    return 1;
  }
  const depth = Number(opts.depth);
  if (opts.divide && depth > 0) {
    let total = 0;
    for (const [text, n] of divide(pos, P, depth)) {
      process.stdout.write(`${text}: ${n}\n`);
      total += n;
    }
    process.stdout.write(`total: ${total}\n`);
  } else {
    process.stdout.write(`${perft(pos, P, depth)}\n`);
  }
  return 0;
}
