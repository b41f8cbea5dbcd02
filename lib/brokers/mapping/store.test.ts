import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateDbForTests } from '@/lib/bulk/store-open';
import type { SqlRunner } from '@/lib/state/sql';
import { ZCallMapping } from './schema';
import { createSqlMappingStore } from './store';

// The call mappings in the state store's real tables (SQLite in memory).

let db: SqlRunner;
beforeEach(async () => void (db = await openStateDbForTests(':memory:')));
afterEach(async () => db.close());

const m = (task: string, args: string[]) => ZCallMapping.parse({ source: 'c', target: 'q', task, args });

describe('the call mapping store', () => {
  it('saves, replaces (answering the one it replaced), lists by pair and removes', async () => {
    const s = createSqlMappingStore(db);
    expect(await s.put(m('b', ['x']), 'olga')).toBeNull();
    expect(await s.put(m('a', []), 'olga')).toBeNull();
    expect((await s.put(m('b', ['y']), 'bob'))?.mapping.args).toEqual(['x']);
    expect(await s.get('c', 'q', 'b')).toMatchObject({ mapping: { args: ['y'] }, updatedBy: 'bob' });
    expect((await s.list({ source: 'c', target: 'q' })).map((x) => x.mapping.task)).toEqual(['a', 'b']);
    expect(await s.list({ source: 'c', target: 'other' })).toEqual([]);
    expect(await s.remove('c', 'q', 'a')).toBe(true);
    expect(await s.remove('c', 'q', 'a')).toBe(false);
    expect((await s.list()).map((x) => x.mapping.task)).toEqual(['b']);
  });

  it('reads a row edited into something that is no mapping as absent, never as a mapping', async () => {
    const s = createSqlMappingStore(db);
    await s.put(m('a', ['x']), 'olga');
    await db.run('UPDATE console_call_mappings SET body = \'{"args": 1}\'', []);
    expect(await s.get('c', 'q', 'a')).toBeNull();
    expect(await s.list()).toEqual([]);
  });
});
