import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_FIELDS, NOT_FILE_SETTINGS } from './fields';

// A setting added to a parser without its config-file row would be one the file cannot hold.
const ROOT = path.resolve(__dirname, '../..');

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
}

describe('config file fields', () => {
  it('has a field for every POTATOQ_CONSOLE_ variable the console reads', () => {
    const named = new Set<string>();
    for (const f of [...sources(path.join(ROOT, 'lib')), ...sources(path.join(ROOT, 'app'))])
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/POTATOQ_CONSOLE_[A-Z0-9_]+/g)) named.add(m[0]);
    expect(named.size).toBeGreaterThan(20);
    const covered = new Set([...FILE_FIELDS.map((f) => f.env), ...NOT_FILE_SETTINGS]);
    expect([...named].filter((n) => !covered.has(n))).toEqual([]);
  });

  it('maps each variable once and each field once', () => {
    expect(new Set(FILE_FIELDS.map((f) => f.env)).size).toBe(FILE_FIELDS.length);
    expect(new Set(FILE_FIELDS.map((f) => f.path)).size).toBe(FILE_FIELDS.length);
  });
});
