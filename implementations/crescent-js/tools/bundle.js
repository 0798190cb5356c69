#!/usr/bin/env node
// Bundle the engine for the browser: one classic script, no imports, no network, that works from
// file:// and sets `globalThis.CrescentJS` to every export of the modules reached from ENTRIES.
// src/data.js (which reads data/*.json with node:fs) is replaced by the two objects inline.
//
// Reproducible: the output depends only on src/ and data/ (no dates, no paths, a fixed module
// order), so the same input gives the same bytes. The kit keeps the result in
// conformance/docs/assets/crescent-engine.js; tests/js/test_bundle.py rebuilds and compares.
//
//   node tools/bundle.js [OUT]        (default: print to stdout)

import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRIES = ['game.js', 'messages.js'];
const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'\.\/([\w-]+\.js)';[ \t]*$/gm;
const EXPORT = /^export (?:async )?(function|class|const|let) (\w+)/gm;

/** The source of one module of src/; data.js becomes its JSON inline. */
function source(name) {
  if (name !== 'data.js') return readFileSync(join(PACKAGE_DIR, 'src', name), 'utf8');
  const json = (file) => JSON.stringify(JSON.parse(readFileSync(join(PACKAGE_DIR, 'data', file), 'utf8')));
  return `export const PROFILES_DATA = ${json('profiles.json')};\nexport const REASONS_DATA = ${json('reasons.json')};\n`;
}

/** The modules of src/ to bundle, each after the modules it imports. */
function order(entries) {
  const done = [];
  const visit = (name, path) => {
    if (done.includes(name)) return;
    if (path.includes(name)) throw new Error(`import cycle: ${[...path, name].join(' -> ')}`);
    for (const [, , dep] of source(name).matchAll(IMPORT)) visit(dep, [...path, name]);
    done.push(name);
  };
  entries.forEach((name) => visit(name, []));
  return done;
}

/** One module as a function body: imports read from earlier modules, exports returned. */
function wrap(name) {
  const names = [];
  let body = source(name).replace(IMPORT, (_, list, dep) => {
    const bindings = list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => s.replace(/\s+as\s+/, ': '));
    return `const { ${bindings.join(', ')} } = modules['${dep}'];`;
  });
  body = body.replace(EXPORT, (_, kind, id) => {
    names.push(id);
    return `${kind} ${id}`;
  });
  const stray = body.match(/^\s*(import|export)\b.*$/m);
  if (stray) throw new Error(`src/${name}: cannot bundle ${JSON.stringify(stray[0].trim())}`);
  return `modules['${name}'] = (() => {\n${body.trimEnd()}\nreturn { ${names.join(', ')} };\n})();\n`;
}

/** The whole bundle as text. */
export function bundle(entries = ENTRIES) {
  const names = order(entries);
  const version = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')).version;
  return [
    `// crescent-js ${version} for the browser, built by implementations/crescent-js/tools/bundle.js`,
    `// from src/${names.join(', src/')} and data/. Do not edit: rebuild.`,
    '(() => {',
    "'use strict';",
    'const modules = {};',
    ...names.map(wrap),
    `globalThis.CrescentJS = Object.freeze(Object.assign({}, ${names.map((n) => `modules['${n}']`).join(', ')}));`,
    '})();',
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = bundle();
  const out = process.argv[2];
  if (!out) {
    process.stdout.write(text);
  } else {
    writeFileSync(`${out}.tmp`, text);
    renameSync(`${out}.tmp`, out);
    console.error(`wrote ${out} (${text.length} characters)`);
  }
}
