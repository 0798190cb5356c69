// Where the kit's spec/ is, for the tests that check this implementation against it. The
// package lives at implementations/crescent-js/ inside the kit; CRESCENT_SPEC overrides that.
// Copied elsewhere without the spec, those tests are skipped (and say so).

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

export const SPEC_DIR = resolve(process.env.CRESCENT_SPEC
  ?? join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'spec'));

/** The text of a spec file, or null when it is not there. */
export function specText(name) {
  const path = join(SPEC_DIR, name);
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

export function specYaml(name) {
  const text = specText(name);
  return text === null ? null : parseYaml(text);
}

/** node:test options that skip a test when a spec file is missing. */
export function needs(name) {
  return existsSync(join(SPEC_DIR, name)) ? {} : { skip: `spec/${name} not found under ${SPEC_DIR}` };
}
