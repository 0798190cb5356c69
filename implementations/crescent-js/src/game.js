// A game: a position in a profile, with what is not on the table (the undo history, a tap
// selection). Actions: moves, reshuffle, undo (§12), tap and drop (§13).

import { cardText, suitOf, NotationError } from './cards.js';
import {
  PILES, HOLD, acePlace, kingPlace, isPile, isFoundation, isAceFoundation, placeText, moveText, parseAction,
} from './notation.js';
import { Position } from './position.js';
import { resolveProfile } from './profiles.js';
import { parseCode, dealPosition } from './deal.js';
import {
  judgeMove, applyMove, applyReshuffle, acceptingPlaces, legalMoves, status, autoplay,
  foundationAtBase, topCard,
} from './rules.js';

/** A position or code the profile cannot start from (reported as errored with refused: true). */
export class RefusedError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RefusedError';
  }
}

export class Game {
  constructor(profile, pos) {
    this.profile = typeof profile === 'string' ? resolveProfile(profile) : profile;
    this.pos = pos;
    this.history = []; // positions before each recorded move, oldest first
    this.selected = null; // a place selected by a first tap
    this.status = status(this.pos, this.profile);
  }

  /** A game from the position text, taken as it is: no autoplay (§4, I-AUTOPLAY-SCOPE). */
  static fromPosition(profileName, text) {
    const P = resolveProfile(profileName);
    let pos;
    try {
      pos = Position.parse(text);
    } catch (e) {
      if (e instanceof NotationError) throw new RefusedError(`position refused: ${e.message}`);
      throw e;
    }
    checkReachable(pos, P);
    return new Game(P, pos);
  }

  /** A game dealt from a code (spec/deal.md); `open` then autoplays. */
  static fromCode(profileName, code) {
    const P = resolveProfile(profileName);
    let seed;
    try {
      seed = parseCode(code);
    } catch (e) {
      if (e instanceof NotationError) throw new RefusedError(`game code refused: ${e.message}`);
      throw e;
    }
    const pos = dealPosition(seed, { reshuffles: P.reshuffles, closed: P.deal === 'closed' });
    if (P.autoplay) autoplay(pos, P);
    return new Game(P, pos);
  }

  get over() {
    return this.status === 'won' || this.status === 'lost';
  }

  /** How many moves an undo could take back now. */
  get undoDepth() {
    return this.history.length;
  }

  /** The canonical state JSON (spec/interpreting.md, spec/schema/state.schema.json); with `fields`,
   *  only those of its fields (state on demand), each computed only when asked for. */
  state(fields = STATE_FIELDS) {
    const state = {};
    for (const name of fields) {
      const field = STATE_FIELD[name];
      if (field !== undefined) state[name] = field(this);
    }
    return state;
  }

  /** Legal card moves in canonical text; none once the game is over (I-GAME-OVER). */
  legalMoves() {
    if (this.over) return [];
    return legalMoves(this.pos, this.profile).map(([s, d]) => moveText(s, d));
  }

  /**
   * Carry out an action given as text or as a parsed action. Returns
   * {accepted, reason, effect, moves}. Throws NotationError when the text cannot be read.
   */
  act(action) {
    const a = typeof action === 'string' ? parseAction(action) : action;
    if (a.type === 'tap') return this.tap(a.place);
    // Every action other than a tap ends the selection, accepted or refused (rules.md §13.1.3,
    // I-TAP). An action text that cannot be read is no action: it throws above and leaves it.
    this.selected = null;
    switch (a.type) {
      case 'move': return this.move(a.from, a.to);
      case 'reshuffle': return this.reshuffle();
      case 'undo': return this.undo();
      case 'drop': return this.drop(a.pile);
      default: throw new Error(`unknown action ${a.type}`);
    }
  }

  // -- the actions ---------------------------------------------------------------------------

  move(src, dst) {
    if (this.over) return refused('game-over');
    const reason = judgeMove(this.pos, this.profile, src, dst);
    if (reason) return refused(reason);
    return this.playMove(src, dst);
  }

  /** A judged-legal player move: recorded for undo, counted, followed by autoplay. */
  playMove(src, dst) {
    const P = this.profile;
    if (P.undo_limit > 0) {
      this.history.push(this.pos.clone());
      if (this.history.length > P.undo_limit) this.history.shift();
    }
    applyMove(this.pos, src, dst);
    this.pos.moves += 1;
    const moves = [moveText(src, dst)];
    if (P.autoplay) moves.push(...autoplay(this.pos, P));
    this.status = status(this.pos, P);
    return accepted('move', moves);
  }

  reshuffle() {
    const P = this.profile;
    if (this.over) return refused('game-over');
    if (this.pos.reshuffles <= 0) return refused('no-reshuffles');
    applyReshuffle(this.pos);
    if (P.undo_cleared_by_reshuffle) this.history = [];
    const moves = P.autoplay ? autoplay(this.pos, P) : [];
    this.status = status(this.pos, P);
    return accepted('reshuffle', moves);
  }

  undo() {
    if (this.profile.undo_limit <= 0) return refused('undo-unavailable');
    if (this.history.length === 0) return refused('nothing-to-undo');
    this.pos = this.history.pop();
    this.status = status(this.pos, this.profile);
    return accepted('undo', []);
  }

  tap(place) {
    if (this.over) return refused('game-over');
    if (this.selected !== null) {
      const from = this.selected;
      this.selected = null;
      if (place === from) return accepted('deselect', []);
      return this.move(from, place);
    }
    const P = this.profile;
    if (place === HOLD || (isPile(place) && this.pos.piles[place].length === 0)) return refused('empty-source');
    if (isFoundation(place)) {
      if (foundationAtBase(this.pos, place)) return refused('base-locked');
      if (!P.between_foundations && !P.give_backs) return refused('foundation-final');
    }
    const places = acceptingPlaces(this.pos, P, place);
    if (places.length === 1) return this.playMove(place, places[0]);
    this.selected = place;
    return accepted('select', []);
  }

  // drop (§13.2, I-DROP): a pile's card tries the hold, then its Ace and King foundations; a
  // foundation's card tries its partner only, and keeps base-locked / foundation-final as reasons.
  drop(place) {
    if (this.over) return refused('game-over');
    if (isPile(place) && this.pos.piles[place].length === 0) return refused('empty-source');
    const s = suitOf(topCard(this.pos, place));
    const targets = isPile(place) ? [HOLD, acePlace(s), kingPlace(s)] : [isAceFoundation(place) ? kingPlace(s) : acePlace(s)];
    for (const dst of targets) {
      if (judgeMove(this.pos, this.profile, place, dst) === null) return this.playMove(place, dst);
    }
    if (!isPile(place)) {
      const why = judgeMove(this.pos, this.profile, place, targets[0]);
      if (why === 'base-locked' || why === 'foundation-final') return refused(why);
    }
    return refused('no-foundation');
  }
}

function accepted(effect, moves) {
  return { accepted: true, reason: null, effect, moves };
}

function refused(reason) {
  return { accepted: false, reason, effect: null, moves: [] };
}

/** A profile refuses a position it could never reach (rules.md §4, notation.md §5). */
export function checkReachable(pos, P) {
  for (let i = 0; i < PILES; i++) {
    if (P.pile_limit !== null && pos.piles[i].length > P.pile_limit) {
      throw new RefusedError(`pile ${i + 1} holds ${pos.piles[i].length} cards, more than ${P.name}'s limit of ${P.pile_limit}`);
    }
    if (P.deal === 'open' && pos.hidden[i] > 0) {
      throw new RefusedError(`pile ${i + 1} has face-down cards, but ${P.name} deals every card face up`);
    }
  }
  if (!P.hold_double_fit && pos.held.some((r) => r)) {
    throw new RefusedError(`a card is held, but ${P.name} has no hold`);
  }
  if (pos.reshuffles > P.reshuffles) {
    throw new RefusedError(`${pos.reshuffles} reshuffles left, more than ${P.name} allows (${P.reshuffles})`);
  }
}

function foundationsOf(pos) {
  const foundations = {};
  for (let s = 0; s < 4; s++) foundations[placeText(acePlace(s))] = cardText(topCard(pos, acePlace(s)));
  for (let s = 0; s < 4; s++) foundations[placeText(kingPlace(s))] = cardText(topCard(pos, kingPlace(s)));
  return foundations;
}

// Each field of the state, read from a game.
const STATE_FIELD = Object.freeze({
  __proto__: null,
  piles: (g) => g.pos.piles.map((pile) => pile.map(cardText)),
  hidden: (g) => g.pos.hidden.slice(),
  foundations: (g) => foundationsOf(g.pos),
  held: (g) => g.pos.heldCards().map(cardText),
  reshuffles: (g) => g.pos.reshuffles,
  moves: (g) => g.pos.moves,
  status: (g) => g.status,
  foundation_cards: (g) => g.pos.foundationCards(),
  undo: (g) => g.undoDepth,
  selected: (g) => (g.selected === null ? null : placeText(g.selected)),
});
const STATE_FIELDS = Object.keys(STATE_FIELD);
