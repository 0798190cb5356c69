// A small YAML reader: just the subset the kit's spec files use (spec/profiles.yaml,
// spec/reasons.yaml, spec/deals/golden.yaml, spec/perft/positions.yaml).
//
// Supported: block mappings and sequences by indentation, "- key: value" items, flow
// mappings {a: b} and flow sequences [a, b] (nested), double- and single-quoted strings,
// folded (>, >-) and literal (|, |-) block scalars, comments, plain scalars (null, ~, true,
// false, integers; everything else a string). Not supported: anchors, tags, multi-line plain
// scalars, multiple documents. It throws on what it does not understand rather than guessing.

export function parseYaml(text) {
  const lines = text.split(/\r?\n/).map((raw, i) => ({ raw, no: i + 1 }));
  const reader = new Reader(lines);
  const value = reader.block(-1);
  reader.skipBlank();
  if (reader.i < lines.length) reader.fail('unexpected content');
  return value;
}

class Reader {
  constructor(lines) {
    this.lines = lines;
    this.i = 0;
  }

  fail(msg) {
    const line = this.lines[Math.min(this.i, this.lines.length - 1)];
    throw new Error(`yaml-lite: line ${line.no}: ${msg}: ${line.raw}`);
  }

  skipBlank() {
    while (this.i < this.lines.length) {
      const t = stripComment(this.lines[this.i].raw).trim();
      if (t !== '') return;
      this.i++;
    }
  }

  indentHere() {
    this.skipBlank();
    if (this.i >= this.lines.length) return -1;
    const raw = this.lines[this.i].raw;
    return raw.length - raw.trimStart().length;
  }

  /** A block node whose lines are indented more than `parent`. */
  block(parent) {
    const indent = this.indentHere();
    if (indent <= parent) return null;
    const text = stripComment(this.lines[this.i].raw).trim();
    if (text === '-' || text.startsWith('- ')) return this.sequence(indent);
    return this.mapping(indent);
  }

  sequence(indent) {
    const out = [];
    while (this.indentHere() === indent) {
      const raw = this.lines[this.i].raw;
      const text = stripComment(raw).trim();
      if (!(text === '-' || text.startsWith('- '))) break;
      const rest = text.slice(1).trimStart();
      if (rest === '') {
        this.i++;
        out.push(this.block(indent));
      } else if (isKeyLine(rest)) {
        // "- key: value" opens a mapping whose keys sit where "key" starts.
        const keyIndent = indent + (raw.trimStart().length - raw.trimStart().slice(1).trimStart().length);
        this.lines[this.i] = { raw: ' '.repeat(keyIndent) + rest, no: this.lines[this.i].no };
        out.push(this.mapping(keyIndent));
      } else {
        this.i++;
        out.push(this.scalarOrFlow(rest));
      }
    }
    return out;
  }

  mapping(indent) {
    const out = {};
    while (this.indentHere() === indent) {
      const text = stripComment(this.lines[this.i].raw).trim();
      if (text.startsWith('- ')) break;
      const m = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^:{}[\],#'"][^:]*?)\s*:(?:\s+(.*))?$/.exec(text);
      if (!m) this.fail('expected "key: value"');
      const key = unquote(m[1]);
      if (Object.prototype.hasOwnProperty.call(out, key)) this.fail(`duplicate key ${key}`);
      const rest = (m[2] ?? '').trim();
      this.i++;
      if (rest === '') {
        // A block sequence may sit at its key's own indentation ("key:\n- item").
        const next = this.indentHere() === indent ? stripComment(this.lines[this.i].raw).trim() : '';
        out[key] = next === '-' || next.startsWith('- ') ? this.sequence(indent) : this.block(indent);
      } else if (/^[>|][-+]?$/.test(rest)) {
        out[key] = this.blockScalar(indent, rest);
      } else {
        out[key] = this.scalarOrFlow(rest);
      }
    }
    return out;
  }

  blockScalar(parent, style) {
    const parts = [];
    let indent = null;
    while (this.i < this.lines.length) {
      const raw = this.lines[this.i].raw;
      if (raw.trim() === '') { parts.push(''); this.i++; continue; }
      const ind = raw.length - raw.trimStart().length;
      if (ind <= parent) break;
      if (indent === null) indent = ind;
      parts.push(raw.slice(indent));
      this.i++;
    }
    while (parts.length && parts[parts.length - 1] === '') parts.pop();
    const body = style[0] === '>' ? parts.join(' ').replace(/ {2,}/g, ' ') : parts.join('\n');
    return style.endsWith('-') ? body : `${body}\n`;
  }

  scalarOrFlow(text) {
    const flow = new Flow(text, (msg) => this.fail(msg));
    const value = flow.value();
    flow.ws();
    if (flow.pos < text.length) this.fail(`trailing text after value`);
    return value;
  }
}

class Flow {
  constructor(text, fail) {
    this.text = text;
    this.pos = 0;
    this.fail = fail;
  }

  ws() { while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++; }

  value(inFlow = false) {
    this.ws();
    const ch = this.text[this.pos];
    if (ch === '{') return this.map();
    if (ch === '[') return this.seq();
    if (ch === '"' || ch === "'") return this.quoted();
    return this.plain(inFlow);
  }

  quoted() {
    const q = this.text[this.pos];
    let end = this.pos + 1;
    if (q === '"') {
      while (end < this.text.length && this.text[end] !== '"') end += this.text[end] === '\\' ? 2 : 1;
    } else {
      while (end < this.text.length && this.text[end] !== "'") end++;
    }
    if (end >= this.text.length) this.fail('unterminated string');
    const raw = this.text.slice(this.pos, end + 1);
    this.pos = end + 1;
    return unquote(raw);
  }

  plain(inFlow) {
    const stop = inFlow ? /[,\]}]/ : /$^/;
    let end = this.pos;
    while (end < this.text.length && !stop.test(this.text[end])) {
      if (inFlow && this.text[end] === ':' && /\s/.test(this.text[end + 1] ?? ' ')) break;
      end++;
    }
    const word = this.text.slice(this.pos, end).trim();
    this.pos = end;
    return plainScalar(word);
  }

  map() {
    this.pos++;
    const out = {};
    for (;;) {
      this.ws();
      if (this.text[this.pos] === '}') { this.pos++; return out; }
      const key = this.value(true);
      this.ws();
      if (this.text[this.pos] === ',' || this.text[this.pos] === '}') {
        out[String(key)] = null; // as in YAML: a flow-mapping entry without ":" is a key with no value
      } else {
        if (this.text[this.pos] !== ':') this.fail('expected ":" in a flow mapping');
        this.pos++;
        out[String(key)] = this.value(true);
      }
      this.ws();
      if (this.text[this.pos] === ',') { this.pos++; continue; }
      if (this.text[this.pos] === '}') { this.pos++; return out; }
      this.fail('expected "," or "}"');
    }
  }

  seq() {
    this.pos++;
    const out = [];
    for (;;) {
      this.ws();
      if (this.text[this.pos] === ']') { this.pos++; return out; }
      out.push(this.value(true));
      this.ws();
      if (this.text[this.pos] === ',') { this.pos++; continue; }
      if (this.text[this.pos] === ']') { this.pos++; return out; }
      this.fail('expected "," or "]"');
    }
  }
}

function isKeyLine(text) {
  return /^("(?:[^"\\]|\\.)*"|'[^']*'|[^:{}[\],#'"][^:]*?)\s*:(\s|$)/.test(text);
}

function stripComment(line) {
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      if (i === 0 || /[\s[{,:]/.test(line[i - 1])) quote = ch;
    } else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      return line.slice(0, i);
    }
  }
  return line;
}

function unquote(raw) {
  if (raw.startsWith('"')) return JSON.parse(raw);
  if (raw.startsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  return raw;
}

function plainScalar(word) {
  if (word === 'null' || word === '~' || word === '') return null;
  if (word === 'true') return true;
  if (word === 'false') return false;
  if (/^-?[0-9]+$/.test(word)) return Number(word);
  return word;
}
