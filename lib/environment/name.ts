// Which environment a broker belongs to ("production", "staging"), as the console names it on
// every page header and in every confirmation dialog. Client-safe: no server imports.
import { z } from 'zod';

/** An environment's name: short and plain, because operators type it to confirm destructive actions. */
export const ZEnvironmentName = z
  .string({ error: 'must be a string' })
  .regex(/^[a-z0-9][a-z0-9_.-]{0,31}$/i, 'must be 1-32 letters, digits, ".", "_" or "-", starting with a letter or digit');

export type EnvironmentTone = 'red' | 'yellow' | 'blue';

/** Production-like names are red (the one that must never be mistaken), pre-production amber,
 *  anything else blue: a label, not a warning. */
export function environmentTone(name: string): EnvironmentTone {
  if (/^(prod|production|live|prd)([._-].*)?$/i.test(name)) return 'red';
  if (/^(stag|staging|stage|uat|preprod|pre-prod|qa)([._-].*)?$/i.test(name)) return 'yellow';
  return 'blue';
}

/**
 * What the operator types to confirm a destructive action: the target's own name, prefixed by
 * the environment where one is configured ("production/emails"), so a production purge cannot
 * be confirmed by habit from a staging tab. The server still checks the bare name (the API's
 * contract is unchanged); the prefix is the dialog's guard against the wrong tab.
 */
export function confirmPhrase(environment: string | null | undefined, name: string): string {
  return environment ? `${environment}/${name}` : name;
}
