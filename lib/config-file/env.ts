import 'server-only';
import { setSettingOrigins } from '@/lib/config-origins';
import { FILE_FIELDS } from './fields';
import { readConfigTree } from './parse';
import { rememberInlineSecrets, resolveSecrets } from './secrets';
import { fileToEnv } from './to-env';

type Env = Record<string, string | undefined>;

/**
 * The settings the console runs with: the config file named by POTATOQ_CONSOLE_CONFIG (the
 * command's `--config`), with every variable the environment sets taking precedence over the
 * file's value for it (whole settings: POTATOQ_CONSOLE_BROKERS replaces the file's `brokers`).
 * Without POTATOQ_CONSOLE_CONFIG: the environment as it is. Pure apart from reading the files
 * it names and recording where each setting came from (errors name the file's field).
 */
export function settingsEnv(env: Env): Env {
  const file = env.POTATOQ_CONSOLE_CONFIG?.trim();
  if (!file) {
    setSettingOrigins(null);
    return env;
  }
  const fields = new Map(FILE_FIELDS.map((f) => [f.env, f.path]));
  const fromEnv = new Set(FILE_FIELDS.filter((f) => env[f.env]?.trim()).map((f) => f.env));
  // Recorded first: an error in the file's values names the file's field.
  setSettingOrigins({ file, fields, fromEnv });
  const tree = readConfigTree(file);
  rememberInlineSecrets(tree);
  const values = fileToEnv(resolveSecrets(tree, file, env) as Record<string, unknown>, file);
  const merged: Env = { ...env };
  for (const [name, value] of values) if (!fromEnv.has(name)) merged[name] = value;
  return merged;
}

const SETTINGS = Symbol.for('potatoq-console.settingsEnv');
type Global = typeof globalThis & { [SETTINGS]?: Env };

/** The process's settings (file and environment), read once; a bad file throws ConfigError. */
export function consoleEnv(): Env {
  const g = globalThis as Global;
  g[SETTINGS] ??= settingsEnv(process.env);
  return g[SETTINGS];
}
