#!/usr/bin/env node
// Regenerate data/profiles.json and data/reasons.json from the kit's spec/profiles.yaml and
// spec/reasons.yaml. The engine reads only the JSON copies, so it runs without the spec next to
// it; test/data.test.js fails when a copy no longer matches the spec.
//
//   node tools/sync-spec.js [SPEC_DIR]        (default: ../../spec from this package)

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
export const PACKAGE_DIR = resolve(here, '..');
export const DEFAULT_SPEC_DIR = resolve(PACKAGE_DIR, '..', '..', 'spec');

/** The profile parameter values of spec/profiles.yaml, without their sources. */
export function profilesFromSpec(specDir = DEFAULT_SPEC_DIR) {
  const doc = parseYaml(readFileSync(join(specDir, 'profiles.yaml'), 'utf8'));
  const values = (section) => Object.fromEntries(Object.entries(section).map(([name, entry]) => [
    name,
    {
      summary: entry.summary,
      parameters: Object.fromEntries(
        Object.entries(entry.parameters).map(([param, v]) => [param, v.value]),
      ),
    },
  ]));
  return {
    version: doc.version,
    parameters: Object.keys(doc.parameters),
    profiles: values(doc.profiles),
    variants: values(doc.variants),
  };
}

/** The reason codes of spec/reasons.yaml, in their order, with their messages. */
export function reasonsFromSpec(specDir = DEFAULT_SPEC_DIR) {
  const doc = parseYaml(readFileSync(join(specDir, 'reasons.yaml'), 'utf8'));
  return {
    version: doc.version,
    reasons: doc.reasons.map((r) => ({ code: r.code, en: r.en, id: r.id, zh: r.zh })),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const specDir = resolve(process.argv[2] ?? DEFAULT_SPEC_DIR);
  const write = (name, data) => {
    writeFileSync(join(PACKAGE_DIR, 'data', name), `${JSON.stringify(data, null, 2)}\n`);
    console.error(`wrote data/${name}`);
  };
  write('profiles.json', profilesFromSpec(specDir));
  write('reasons.json', reasonsFromSpec(specDir));
}
