// Profiles are data: data/profiles.json is a copy of spec/profiles.yaml's values, made by
// tools/sync-spec.js and checked against the spec by test/data.test.js. Nothing about a profile
// is hard-coded in the rules.

import { PROFILES_DATA as DATA } from './data.js';

export const BASE_PROFILES = Object.keys(DATA.profiles);
export const VARIANTS = Object.keys(DATA.variants);

/** Thrown for a profile name that names no base profile or an unknown variant. */
export class ProfileError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ProfileError';
  }
}

/**
 * The parameters of "base+variant+...": the base profile's values, then each variant's in turn,
 * left to right, each setting only the parameters it names (rules.md §3).
 */
export function resolveProfile(name) {
  if (typeof name !== 'string' || name === '') throw new ProfileError('no profile named');
  const [base, ...variants] = name.split('+');
  if (!(base in DATA.profiles)) throw new ProfileError(`unknown base profile ${JSON.stringify(base)}`);
  const params = { ...DATA.profiles[base].parameters };
  for (const v of variants) {
    if (!(v in DATA.variants)) throw new ProfileError(`unknown variant ${JSON.stringify(v)}`);
    Object.assign(params, DATA.variants[v].parameters);
  }
  return Object.freeze({ name, base, variants, ...params });
}
