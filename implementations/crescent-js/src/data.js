// The spec data the engine reads: data/profiles.json and data/reasons.json, copies of
// spec/profiles.yaml and spec/reasons.yaml made by tools/sync-spec.js. The browser bundle
// (tools/bundle.js) replaces this module by the same two objects written inline.

import { readFileSync } from 'node:fs';

const read = (name) => JSON.parse(readFileSync(new URL(`../data/${name}`, import.meta.url), 'utf8'));

export const PROFILES_DATA = read('profiles.json');
export const REASONS_DATA = read('reasons.json');
