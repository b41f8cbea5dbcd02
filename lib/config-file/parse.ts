import 'server-only';
import fs from 'node:fs';
import { CORE_SCHEMA, load } from 'js-yaml';
import { ConfigError } from '@/lib/config-error';

/**
 * The config file's text as a tree: YAML for `.yaml`/`.yml`, JSON otherwise. A syntax error is
 * named by line and column only: the parsers' own texts quote the line, which may hold a secret.
 * YAML is read with its core schema (no dates, no custom tags), so the tree is what JSON gives.
 */
export function readConfigTree(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(/*turbopackIgnore: true*/ file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${file}: cannot read the config file (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  const tree = /\.ya?ml$/i.test(file) ? parseYaml(file, text) : parseJson(file, text);
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree))
    throw new ConfigError(`${file}: must hold an object of settings ({"brokers": [...], "auth": {...}})`);
  return tree as Record<string, unknown>;
}

function lineAndColumn(text: string, at: number): string {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `line ${line}, column ${at - before.lastIndexOf('\n')}`;
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    throw new ConfigError(`${file}: not valid JSON${at ? ` (${lineAndColumn(text, Number(at))})` : ''}`);
  }
}

function parseYaml(file: string, text: string): unknown {
  try {
    return load(text, { schema: CORE_SCHEMA, filename: file });
  } catch (e) {
    const x = e as { reason?: unknown; mark?: { line?: number; column?: number } };
    const where = x.mark?.line !== undefined ? ` (line ${x.mark.line + 1}, column ${(x.mark.column ?? 0) + 1})` : '';
    const reason = typeof x.reason === 'string' ? `: ${x.reason}` : '';
    throw new ConfigError(`${file}: not valid YAML${where}${reason}`);
  }
}
