// Reason codes and their messages: data/reasons.json, a copy of spec/reasons.yaml made by
// tools/sync-spec.js and checked against it by test/data.test.js.

import { REASONS_DATA as DATA } from './data.js';

export const REASON_CODES = DATA.reasons.map((r) => r.code);
export const LANGUAGES = ['en', 'id', 'zh'];

/** The message for a reason code in a language, or null when either is unknown. */
export function message(code, lang) {
  const entry = DATA.reasons.find((r) => r.code === code);
  if (!entry || !LANGUAGES.includes(lang)) return null;
  return entry[lang];
}
