// The "play" control of the rules pages: a scenario's table drawn by the bundled crescent-js
// engine (globalThis.CrescentJS, from crescent-engine.js), stepped through and played from any
// step by tap (source, then destination), drag-and-drop, the keyboard or a typed action.
//
// The page holds, per run, a <details class="play"> with its data as JSON in a
// <script type="application/json">; the page's loader fetches this file on the first open and
// calls CrescentPlay.mount(details). GEOMETRY and WORDS are written before this file by the site
// builder: GEOMETRY from conformance/docs/svg.py, so the wide drawing matches the report's (and
// the narrow one for phones, conformance/docs/playing.py); WORDS, every word of the control in
// English, Indonesian and Chinese (conformance/docs/play_words.py).
/* global GEOMETRY, WORDS */
(() => {
  'use strict';
  const C = globalThis.CrescentJS;
  const SVGNS = 'http://www.w3.org/2000/svg';
  const LANGS = { en: 'English', id: 'Bahasa Indonesia', zh: '中文' };
  const players = [];
  let lang = 'en';

  /** A word of the control in the chosen language, its {holes} filled from `values`. */
  function t(key, values = {}) {
    return WORDS[lang][key].replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
  }

  // -- layouts --------------------------------------------------------------------------------

  // The documents' horseshoe, ten columns wide: piles 1-4 up the left, 5-12 along the top,
  // 13-16 down the right. The narrow one, six columns: 1-5 up the left, 6-11 along the top,
  // 12-16 down the right; both with the foundations in the middle.
  const WIDE = Object.freeze({
    ...GEOMETRY, name: 'wide',
    cell: (i) => (i < 4 ? [0, 4 - i] : i < 12 ? [i - 3, 0] : [9, i - 11]),
    suitColumn: (suit) => 1.5 + 2 * suit,
  });
  const NARROW = Object.freeze({
    ...GEOMETRY, ...GEOMETRY.narrow, name: 'narrow',
    cell: (i) => (i < 5 ? [0, 5 - i] : i < 11 ? [i - 5, 0] : [5, i - 10]),
    suitColumn: (suit) => 1 + suit,
  });

  /** The wide layout when its cards would be at least minCard pixels wide in `width`, else the narrow one. */
  function layoutFor(width) {
    return !width || (width * WIDE.cardW) / WIDE.width >= WIDE.minCard ? WIDE : NARROW;
  }

  // -- drawing --------------------------------------------------------------------------------

  let G = WIDE; // the layout being drawn (tableSvg sets it)

  function pileSlot(pile) {
    const [column, row] = G.cell(pile);
    return [G.margin + column * G.pitchX, G.margin + row * G.pitchY];
  }

  function foundationSlot(place) {
    const suit = place >= C.HOLD ? place - C.HOLD : (place - 16) % 4;
    const row = place >= C.HOLD ? G.holdRow : place < 20 ? G.aceRow : G.kingRow;
    return [G.margin + G.suitColumn(suit) * G.pitchX, G.margin + row * G.pitchY];
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  function rect(g, cls, x, y, pad = 0) {
    el('rect', { class: cls, x: x - pad, y: y - pad, width: G.cardW + 2 * pad, height: G.cardH + 2 * pad,
      rx: 5 + pad * 2 / 3 }, g);
  }

  function face(g, x, y, card) {
    rect(g, 'face', x, y);
    const text = C.cardText(card);
    const ink = C.suitOf(card) === 1 || C.suitOf(card) === 2 ? 'red' : 'ink';
    el('text', { class: `rank ${ink}`, x: x + 5, y: y + 17 }, g).textContent = text;
    el('text', { class: `suit ${ink}`, x: x + G.cardW / 2, y: y + 52 }, g).textContent = text.slice(-1);
  }

  function label(g, x, y, text) {
    el('text', { class: 'label', x: x + G.cardW / 2, y: y + G.cardH + 13 }, g).textContent = text;
  }

  function place(svg, p, attrs) {
    const g = el('g', { 'data-place': C.placeText(p), tabindex: 0, role: 'button', ...attrs }, svg);
    g.classList.add('place');
    return g;
  }

  function drawPile(svg, pos, i, mark) {
    const [x, y] = pileSlot(i);
    const cards = pos.piles[i];
    const hidden = Math.min(pos.hidden[i], cards.length);
    const top = cards.length ? C.cardText(cards[cards.length - 1]) : '';
    const shown = hidden === cards.length ? t('face-down') : top;
    const parts = cards.length ? [shown, t('cards', { n: cards.length })] : [t('empty')];
    if (hidden && hidden < cards.length) parts.push(t('hidden', { n: hidden }));
    const g = place(svg, i, { class: cards.length ? 'pile' : 'pile empty', 'data-pile': i + 1,
      'data-count': cards.length, 'data-hidden': hidden, 'data-top': hidden === cards.length ? '' : top,
      'aria-label': t('pile', { n: i + 1, what: parts.join(', ') }) });
    if (!cards.length) rect(g, 'slot', x, y);
    const behind = hidden < cards.length ? hidden : Math.max(hidden - 1, 0);
    for (let j = 0; j < behind; j++) rect(g, 'back', x - G.backStep * (behind - j), y - G.backStep * (behind - j));
    if (cards.length) (hidden === cards.length ? rect(g, 'back', x, y) : face(g, x, y, cards[cards.length - 1]));
    outline(g, x, y, mark(i));
    label(g, x, y, `${i + 1} · ${cards.length}`);
  }

  function drawFoundation(svg, pos, p, mark) {
    const [x, y] = foundationSlot(p);
    const suit = (p - 16) % 4;
    const ace = p < 20;
    const rank = ace ? pos.up[suit] : pos.down[suit];
    const count = ace ? rank : 14 - rank;
    const name = C.placeText(p);
    const top = C.cardText(C.card(suit, rank));
    const g = place(svg, p, { class: 'foundation', 'data-count': count, 'data-top': top,
      'aria-label': t(ace ? 'ace-foundation' : 'king-foundation', { suit: name.slice(1), top, n: count }) });
    face(g, x, y, C.card(suit, rank));
    outline(g, x, y, mark(p));
    label(g, x, y, `${name} · ${count}`);
  }

  function drawHeld(svg, pos, mark) {
    pos.held.forEach((rank, suit) => {
      if (!rank) return;
      const [x, y] = foundationSlot(C.HOLD + suit);
      const text = C.cardText(C.card(suit, rank));
      const g = el('g', { class: 'held', 'data-suit': C.SUITS[suit], 'data-top': text, role: 'img',
        'aria-label': t('held-card', { card: text }) }, svg);
      face(g, x, y, C.card(suit, rank));
      outline(g, x, y, mark(C.HOLD));
      label(g, x, y, t('held'));
    });
  }

  function outline(g, x, y, how) {
    if (how) rect(g, how, x, y, 3);
  }

  /** The whole table in `layout`, with changed places outlined in gold and the selected one in blue. */
  function tableSvg(layout, pos, before, selected, caption) {
    G = layout;
    const svg = el('svg', { class: `table ${layout.name}`, viewBox: `0 0 ${G.width} ${G.height}`, width: G.width,
      height: G.height, role: 'group', 'aria-label': caption, 'data-layout': layout.name });
    el('rect', { class: 'felt', width: G.width, height: G.height, rx: 10 }, svg);
    const changed = new Set(before ? changedPlaces(before, pos) : []);
    const mark = (p) => (p === selected ? 'selected' : changed.has(p) ? 'changed' : '');
    for (let i = 0; i < C.PILES; i++) drawPile(svg, pos, i, mark);
    for (let p = 16; p < C.HOLD; p++) drawFoundation(svg, pos, p, mark);
    drawHeld(svg, pos, mark);
    return svg;
  }

  function changedPlaces(a, b) {
    const out = [];
    for (let i = 0; i < C.PILES; i++) {
      if (a.piles[i].join() !== b.piles[i].join() || a.hidden[i] !== b.hidden[i]) out.push(i);
    }
    for (let s = 0; s < 4; s++) {
      if (a.up[s] !== b.up[s]) out.push(16 + s);
      if (a.down[s] !== b.down[s]) out.push(20 + s);
    }
    if (a.held.join() !== b.held.join()) out.push(C.HOLD);
    return out;
  }

  // -- one player -----------------------------------------------------------------------------

  const quote = (s) => `'${s.replace(/'/g, "'\\''")}'`;

  function html(tag, attrs = {}, text = '') {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    node.textContent = text;
    return node;
  }

  class Player {
    constructor(details) {
      this.details = details;
      this.data = JSON.parse(details.querySelector('script[type="application/json"]').textContent);
      this.summary = details.querySelector('summary');
      this.steps = [...details.closest('.run').querySelectorAll('.step')];
      this.profile = C.resolveProfile(this.data.profile);
      this.line = this.data.actions.slice();
      this.at = 0;
      this.copies = 0;
      this.root = details.querySelector('.player');
      try {
        this.start();
      } catch (e) {
        this.root.replaceChildren(html('p', { class: 'rejected' }, `crescent-js cannot start this game: ${e.message}`));
        return;
      }
      this.build(this.root);
      this.go(0);
    }

    start() {
      const { profile, code, position } = this.data;
      return code ? C.Game.fromCode(profile, code) : C.Game.fromPosition(profile, position);
    }

    /** The game after the first `at` actions of the line, and the outcome of the last one. */
    go(at) {
      this.at = Math.max(0, Math.min(at, this.line.length));
      this.game = this.start();
      this.before = null;
      this.verdict = null;
      this.line.slice(0, this.at).forEach((a) => this.apply(a));
      this.render();
    }

    apply(action) {
      const before = this.game.pos.clone();
      try {
        this.verdict = { action, ...this.game.act(action) };
      } catch (e) {
        this.verdict = { action, accepted: false, reason: null, error: e.message };
      }
      this.before = before;
    }

    /** Try an action from the current step: the line's later actions give way to it. */
    try(action) {
      this.line = [...this.line.slice(0, this.at), action];
      this.at += 1;
      this.apply(action);
      this.render();
    }

    get onScenario() {
      const own = this.data.actions;
      return this.line.length <= own.length && this.line.every((a, i) => a === own[i]);
    }

    /** The control's parts; their words are set by relabel(), in the chosen language. */
    build(root) {
      root.textContent = '';
      this.words = []; // [node, attribute or null for the text, key of WORDS]
      const say = (node, attr, key) => { this.words.push([node, attr, key]); return node; };
      const bar = say(html('div', { class: 'bar', role: 'toolbar' }), 'aria-label', 'toolbar');
      const button = (name, key, fn, symbol) => {
        const b = html('button', { type: 'button', 'data-do': name }, symbol ?? '');
        if (!symbol) say(b, null, key);
        say(say(b, 'title', symbol ? key : `${key}-title`), 'aria-label', symbol ? key : `${key}-title`);
        b.addEventListener('click', () => { fn(); this.keepFocus(); });
        bar.appendChild(b);
        return b;
      };
      this.buttons = {
        first: button('first', 'first', () => this.go(0), '«'),
        back: button('back', 'back', () => this.go(this.at - 1), '◀'),
        forward: button('forward', 'forward', () => this.go(this.at + 1), '▶'),
        last: button('last', 'last', () => this.go(this.line.length), '»'),
      };
      this.counter = bar.appendChild(html('span', { class: 'at', 'aria-live': 'polite' }));
      this.buttons.undo = button('undo', 'undo', () => this.try('undo'));
      this.buttons.reshuffle = button('reshuffle', 'reshuffle', () => this.try('reshuffle'));
      this.buttons.reset = button('reset', 'scenario', () => this.reset());
      const langs = say(html('select', { class: 'lang' }), 'aria-label', 'language');
      for (const [code, name] of Object.entries(LANGS)) langs.appendChild(html('option', { value: code, lang: code }, name));
      langs.addEventListener('change', () => setLanguage(langs.value));
      this.langs = bar.appendChild(langs);
      this.board = html('div', { class: 'board' });
      this.verdictLine = html('p', { class: 'verdict', 'aria-live': 'polite' });
      this.counters = html('p', { class: 'counters' });
      const typed = html('input', { type: 'text', class: 'typed', autocomplete: 'off', spellcheck: 'false' });
      say(say(typed, 'placeholder', 'typed'), 'aria-label', 'typed-label');
      typed.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && typed.value.trim()) {
          this.try(typed.value.trim());
          typed.value = '';
        }
      });
      this.command = say(html('textarea', { class: 'command', readonly: '', rows: 2 }), 'aria-label', 'command');
      this.copyButton = html('button', { type: 'button', 'data-do': 'copy', 'data-copied': '0' });
      this.copyButton.addEventListener('click', () => this.copy());
      const tools = html('div', { class: 'tools' });
      tools.append(typed, this.copyButton);
      root.append(bar, this.board, this.verdictLine, this.counters, tools, this.command);
      this.details.closest('.run').addEventListener('keydown', (e) => this.key(e));
      this.wireBoard();
      this.steps.forEach((div, n) => {
        div.tabIndex = 0;
        div.addEventListener('click', () => this.reset(n + 1));
      });
    }

    /** Every word of the control, in the chosen language. */
    relabel() {
      this.root.lang = lang;
      for (const [node, attr, key] of this.words) {
        if (attr) node.setAttribute(attr, t(key));
        else node.textContent = t(key);
      }
      this.copyButton.textContent = t(this.copyTimer ? 'copied' : 'copy');
      this.steps.forEach((div, n) => { div.title = t('show-step', { n: n + 1 }); });
      this.langs.value = lang;
    }

    reset(at = 0) {
      this.line = this.data.actions.slice();
      this.go(at);
    }

    key(e) {
      if (e.target.closest('input, textarea, select')) return;
      const moves = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.line.length };
      if (e.key in moves) {
        e.preventDefault();
        this.go(moves[e.key]);
        this.keepFocus();
      } else if (e.key === 'Enter' && this.steps.includes(e.target)) {
        this.reset(this.steps.indexOf(e.target) + 1);
      } else if ((e.key === 'Enter' || e.key === ' ') && e.target.dataset.place) {
        e.preventDefault();
        const focused = e.target.dataset.place;
        this.try(`tap ${focused}`);
        this.board.querySelector(`[data-place="${focused}"]`)?.focus();
      }
    }

    /** Focus stays in the player (so the arrows keep working) when the focused button was disabled. */
    keepFocus() {
      const focused = document.activeElement;
      if (!focused || focused === document.body || focused.disabled) this.board.focus();
    }

    /**
     * Taps and drags by pointer events, so that a mouse, a pen and a finger all work. The board
     * has touch-action: none (the CSS), or the browser would take a finger's drag for a scroll and
     * cancel it; SVG groups cannot carry touch-action themselves.
     */
    wireBoard() {
      this.board.tabIndex = -1;
      let drag = null;
      const placeAt = (e) => document.elementFromPoint(e.clientX, e.clientY)?.closest('[data-place]');
      this.board.addEventListener('pointerdown', (e) => {
        const from = e.target.closest('[data-place]');
        if (from && e.button === 0) drag = { from, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
      });
      this.board.addEventListener('pointermove', (e) => {
        if (!drag || e.pointerId !== drag.id) return;
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (!drag.moved && Math.hypot(dx, dy) > 6) {
          drag.moved = true;
          drag.from.classList.add('dragging');
          this.board.setPointerCapture?.(e.pointerId);
        }
        if (drag.moved) drag.from.style.transform = `translate(${dx / this.scale()}px, ${dy / this.scale()}px)`;
      });
      const end = (e) => {
        if (!drag || e.pointerId !== drag.id) return;
        const { from, moved } = drag;
        drag = null;
        if (!moved) return;
        from.style.transform = '';
        from.classList.remove('dragging');
        from.style.pointerEvents = 'none';
        const to = placeAt(e);
        from.style.pointerEvents = '';
        this.suppressClick = true;
        setTimeout(() => { this.suppressClick = false; }, 0);
        if (to && to !== from) this.try(`${from.dataset.place}-${to.dataset.place}`);
        else this.render();
      };
      this.board.addEventListener('pointerup', end);
      this.board.addEventListener('pointercancel', () => { if (drag) this.render(); drag = null; });
      this.board.addEventListener('click', (e) => {
        const target = e.target.closest('[data-place]');
        if (target && !this.suppressClick) this.try(`tap ${target.dataset.place}`);
      });
      // A board that turns narrower or wider than a readable card redraws in the other layout.
      new ResizeObserver(() => {
        if (this.game && layoutFor(this.board.clientWidth) !== this.layout) this.render();
      }).observe(this.board);
    }

    scale() {
      const svg = this.board.querySelector('svg');
      return svg ? svg.getBoundingClientRect().width / this.layout.width : 1;
    }

    render() {
      const g = this.game;
      this.layout = layoutFor(this.board.clientWidth);
      this.board.replaceChildren(tableSvg(this.layout, g.pos, this.before, g.selected, this.caption()));
      this.board.dataset.position = g.pos.toText();
      this.board.dataset.status = g.status;
      this.counter.textContent = t('at', { at: this.at, n: this.line.length }) + (this.onScenario ? '' : t('own-line'));
      this.buttons.first.disabled = this.buttons.back.disabled = this.at === 0;
      this.buttons.forward.disabled = this.buttons.last.disabled = this.at >= this.line.length;
      this.buttons.undo.disabled = this.profile.undo_limit <= 0;
      this.buttons.reshuffle.disabled = this.profile.reshuffles <= 0;
      this.buttons.reset.disabled = this.onScenario;
      this.relabel();
      this.renderVerdict();
      this.counters.textContent = this.caption();
      if (this.summary) this.summary.textContent = this.summaryText();
      this.command.value = this.commandText();
      this.steps.forEach((div, n) => div.classList.toggle('current', this.onScenario && n === this.at - 1));
    }

    caption() {
      const g = this.game;
      const parts = [`${t('status')} ${t(`status-${g.status}`)}`, `${t('moves')} ${g.pos.moves}`,
        `${t('reshuffles-left')} ${g.pos.reshuffles}`, `${t('on-foundations')} ${g.pos.foundationCards()}`];
      if (this.profile.undo_limit > 0) parts.push(`${t('undo-depth')} ${g.undoDepth}`);
      if (g.selected !== null) parts.push(`${t('selected')} ${C.placeText(g.selected)}`);
      return parts.join(' · ');
    }

    /** The <summary>: what the site wrote for the start, kept to the table now shown. */
    summaryText() {
      const g = this.game;
      const n = this.data.actions.length;
      return [t('summary'), n === 1 ? t('step') : t('steps', { n }), t(`status-${g.status}`),
        `${t('reshuffles-left')} ${g.pos.reshuffles}`, `${t('moves')} ${g.pos.moves}`].join(' · ');
    }

    renderVerdict() {
      const v = this.verdict;
      const line = this.verdictLine;
      line.replaceChildren();
      line.dataset.outcome = v ? (v.error ? 'errored' : v.accepted ? 'accepted' : 'rejected') : '';
      line.dataset.reason = v?.reason ?? '';
      if (!v) {
        line.textContent = t('starting');
        return;
      }
      line.append(html('code', {}, v.action), ' → ');
      if (v.error) {
        // The engine's text may start with the same words as the label: say them once.
        const detail = v.error.replace(/^not an action:\s*/, '');
        line.append(html('span', { class: 'rejected' }, t('not-an-action')), `: ${detail}`);
      } else if (v.accepted) {
        line.append(html('span', { class: 'accepted' }, t('accepted')), ` (${t(`effect-${v.effect}`)})`);
        if (v.moves.length) line.append(': ', v.moves.join(', '));
      } else {
        const msg = C.message(v.reason, lang) ?? '';
        line.append(html('span', { class: 'rejected' }, t('rejected')), ' ', html('code', {}, v.reason), ' — ');
        line.append(html('span', { class: 'message' }, msg));
      }
      this.expectation(line);
    }

    expectation(line) {
      const want = this.onScenario && this.at > 0 ? this.data.expect[this.at - 1] : null;
      if (!want || !want[0] || this.verdict.error) return;
      const got = this.verdict.accepted ? 'accepted' : 'rejected';
      const same = want[0] === got && (got === 'accepted' || !want[1] || want[1] === this.verdict.reason);
      const text = same ? t('as-expected') : t('expects', { what: [t(want[0]), want[1]].filter(Boolean).join(' ') });
      line.append(' ', html('span', { class: same ? 'muted' : 'badge other' }, `(${text})`));
    }

    /** The line so far as a crescent-ref play command, in the chosen language of the messages. */
    commandText() {
      const { profile, code, position } = this.data;
      const start = code ? `--code ${code}` : `--position ${quote(position)}`;
      const language = lang === 'en' ? [] : [`--lang ${lang}`];
      const actions = this.line.slice(0, this.at).map(quote);
      return [`crescent-ref play --profile ${profile} ${start}`, ...language, ...actions].join(' ');
    }

    /** Copy the command; the button says so for a moment, and data-copied counts the copies made. */
    copy() {
      const text = this.command.value;
      const done = () => {
        this.copies += 1;
        clearTimeout(this.copyTimer);
        this.copyTimer = setTimeout(() => { this.copyTimer = null; this.relabel(); }, 1500);
        this.relabel();
        this.copyButton.dataset.copied = String(this.copies);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, () => this.copyBySelection(done));
      } else {
        this.copyBySelection(done);
      }
    }

    copyBySelection(done) {
      this.command.select();
      if (document.execCommand('copy')) done();
    }
  }

  function setLanguage(code) {
    lang = code in LANGS ? code : 'en';
    players.forEach((p) => p.game && p.render());
  }

  globalThis.CrescentPlay = Object.freeze({
    mount(details) {
      if (details.dataset.mounted) return null;
      details.dataset.mounted = 'yes';
      const player = new Player(details);
      players.push(player);
      return player;
    },
    setLanguage,
  });
})();
