import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';
import { pathFromUrl } from './url';

describe('pathFromUrl reads sqlite URLs like potatoq', () => {
  it('treats three slashes as relative and four as absolute', () => {
    expect(pathFromUrl('sqlite:///potatoq.sqlite3')).toBe(path.resolve('potatoq.sqlite3'));
    expect(pathFromUrl('sqlite:////srv/db.sqlite3')).toBe('/srv/db.sqlite3');
  });
  it('ignores a query string and expands ~', () => {
    expect(pathFromUrl('sqlite:////srv/db.sqlite3?durable=1')).toBe('/srv/db.sqlite3');
    expect(pathFromUrl('sqlite:///~/q.db')).toBe(path.join(os.homedir(), 'q.db'));
  });
  it('refuses :memory: and an empty path', () => {
    for (const url of ['sqlite:///:memory:', 'sqlite:///']) {
      let err: unknown;
      try {
        pathFromUrl(url);
      } catch (e) {
        err = e;
      }
      expect(isConsoleError(err) && err.code).toBe('InvalidInput');
    }
  });
});

describe('keyset cursors', () => {
  it('round-trip integers exactly, reals, text and null', () => {
    const c = encodeCursor('tasks:ready', [2n ** 62n, 1.5, 'high', null]);
    expect(decodeCursor('tasks:ready', c, 4)).toEqual([2n ** 62n, 1.5, 'high', null]);
  });
  it("refuse another list's cursor and garbage with a field error", () => {
    const c = encodeCursor('dead', [1, 1, 'x']);
    for (const bad of [c, 'not-a-cursor']) {
      let err: unknown;
      try {
        decodeCursor('tasks:ready', bad, 3);
      } catch (e) {
        err = e;
      }
      expect(isConsoleError(err) && err.fields).toEqual({ cursor: 'invalid cursor' });
    }
  });
});
