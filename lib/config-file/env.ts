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
  return withFile(env, fileSettings(file, env));
}

/** The file's variables, read once per path for the process (the environment is read live). */
function fileSettings(file: string, env: Env): Map<string, string> {
  const fields = new Map(FILE_FIELDS.map((f) => [f.env, f.path]));
  const fromEnv = new Set(FILE_FIELDS.filter((f) => env[f.env]?.trim()).map((f) => f.env));
  // Recorded first: an error in the file's values names the file's field.
  setSettingOrigins({ file, fields, fromEnv });
  const tree = readConfigTree(file);
  rememberInlineSecrets(tree);
  return fileToEnv(resolveSecrets(tree, file, env) as Record<string, unknown>, file);
}

function withFile(env: Env, values: Map<string, string>): Env {
  const merged: Env = { ...env };
  for (const [name, value] of values) if (!env[name]?.trim()) merged[name] = value;
  return merged;
}

const SETTINGS = Symbol.for('potatoq-console.fileSettings');
type Global = typeof globalThis & { [SETTINGS]?: { file: string; values: Map<string, string> } };

/**
 * The process's settings: the environment as it is now, over the config file's values (the
 * file read once; a bad file throws ConfigError, and boot stops).
 */
export function consoleEnv(): Env {
  const file = process.env.POTATOQ_CONSOLE_CONFIG?.trim();
  if (!file) return process.env;
  const g = globalThis as Global;
  if (g[SETTINGS]?.file !== file) g[SETTINGS] = { file, values: fileSettings(file, process.env) };
  return withFile(process.env, g[SETTINGS].values);
}
