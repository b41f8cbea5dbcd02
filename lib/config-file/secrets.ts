import 'server-only';
import fs from 'node:fs';
import { ConfigError } from '@/lib/config-error';
import { rememberSecret, rememberSecretsOf } from '@/lib/text/secrets';

/**
 * Secrets are never required inline in the config file. Anywhere in it (top level, auth,
 * broker entries):
 * - `"<key>File": "/run/secrets/x"` stands for `"<key>"` with the file's text (one trailing
 *   newline dropped), for a key that holds a credential: `url`, `state`, and names ending in
 *   password, secret, token, credentials or apiKey (`tokenFile`, `passwordFile`,
 *   `managementPasswordFile`, `sessionSecretFile`, `urlFile`). Other `...File` options
 *   (`tlsCaFile`) are paths and stay as they are.
 * - `{"env": "NAME"}` as a value stands for the variable NAME's value.
 * Every value read so is remembered as a secret (a URL: its password), so no error or log line
 * shows it; errors name the field and the file or variable, never the value.
 */

const SECRET_BASE = /^(?:url|state|.*(?:password|passwd|secret|token|credentials?|api_?key))$/i;
const isSecretKey = (key: string) => SECRET_BASE.test(key);

type Env = Record<string, string | undefined>;

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

function remember(key: string, value: string): void {
  if (value.includes('://')) rememberSecretsOf(value);
  else if (isSecretKey(key)) rememberSecret(value);
}

function readSecretFile(file: string, field: string, where: string): string {
  if (typeof where !== 'string' || !where.trim()) throw new ConfigError(`${file}: ${field}: must be the path of a file`);
  let text: string;
  try {
    text = fs.readFileSync(/*turbopackIgnore: true*/ where, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`${file}: ${field}: cannot read ${JSON.stringify(where)} (${code})`);
  }
  const value = text.replace(/\r?\n$/, '');
  if (!value) throw new ConfigError(`${file}: ${field}: ${JSON.stringify(where)} is empty`);
  return value;
}

function isEnvRef(v: unknown): v is { env: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && 'env' in v;
}

function fromEnv(file: string, field: string, ref: { env: unknown }, env: Env): string {
  const name = ref.env;
  if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new ConfigError(`${file}: ${field}.env: must be the name of an environment variable`);
  const value = env[name];
  if (value === undefined || value === '') throw new ConfigError(`${file}: ${field}: the variable ${name} named here is not set`);
  return value;
}

/** The tree with every `...File` and `{"env"}` indirection replaced by the secret it names. */
export function resolveSecrets(tree: unknown, file: string, env: Env, at = ''): unknown {
  if (Array.isArray(tree)) return tree.map((v, i) => resolveSecrets(v, file, env, pathOf(at, i)));
  if (typeof tree !== 'object' || tree === null) return tree;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    const base = key.endsWith('File') ? key.slice(0, -4) : null;
    if (base && isSecretKey(base)) {
      if (base in tree) throw new ConfigError(`${file}: ${pathOf(at, key)}: give ${base} or ${key}, not both`);
      const secret = readSecretFile(file, pathOf(at, key), value as string);
      remember(base, secret);
      out[base] = secret;
    } else if (isEnvRef(value)) {
      const secret = fromEnv(file, pathOf(at, key), value, env);
      remember(key, secret);
      out[key] = secret;
    } else {
      out[key] = resolveSecrets(value, file, env, pathOf(at, key));
    }
  }
  return out;
}

/** Remembers every inline credential too (a URL's password, a secret-named key's value). */
export function rememberInlineSecrets(tree: unknown): void {
  if (Array.isArray(tree)) return tree.forEach(rememberInlineSecrets);
  if (typeof tree !== 'object' || tree === null) return;
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') remember(key, value);
    else rememberInlineSecrets(value);
  }
}
