import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateDbForTests } from '@/lib/bulk/store-open';
import type { SqlRunner } from '@/lib/state/sql';
import { MAX_TEAM_VIEWS } from './schema';
import { createSqlTeamViewStore } from './store';

// Team views in the state store's real tables (SQLite in memory; the int suites run PostgreSQL).

let db: SqlRunner;
beforeEach(async () => void (db = await openStateDbForTests(':memory:')));
afterEach(async () => db.close());

describe('the team view store', () => {
  it('saves per broker, refuses a name in use unless replacing, lists by name and removes', async () => {
    const s = createSqlTeamViewStore(db);
    expect(await s.put('a', { name: 'b view', href: '/brokers/a/dead?queue=q' }, 'olga')).toBeNull();
    expect(await s.put('a', { name: 'a view', href: '/brokers/a/results' }, 'olga')).toBeNull();
    expect(await s.put('other', { name: 'b view', href: '/brokers/other/dead' }, 'bob')).toBeNull();
    const clash = await s.put('a', { name: 'b view', href: '/brokers/a/dead' }, 'bob').catch((e: unknown) => e);
    expect(clash).toMatchObject({ code: 'InvalidInput', fields: { name: expect.stringMatching(/already exists \(saved by olga\)/) } });
    expect((await s.list('a')).find((v) => v.name === 'b view')?.href).toBe('/brokers/a/dead?queue=q');
    expect(await s.put('a', { name: 'b view', href: '/brokers/a/dead', replace: true }, 'bob')).toMatchObject({ createdBy: 'olga' });
    expect((await s.list('a')).map((v) => [v.name, v.href, v.createdBy])).toEqual([
      ['a view', '/brokers/a/results', 'olga'],
      ['b view', '/brokers/a/dead', 'bob'],
    ]);
    expect(await s.remove('a', 'a view')).toMatchObject({ name: 'a view' });
    expect(await s.remove('a', 'a view')).toBeNull();
    expect((await s.list('a')).map((v) => v.name)).toEqual(['b view']);
    expect((await s.list('other')).map((v) => v.name)).toEqual(['b view']);
  });

  it(`keeps at most ${MAX_TEAM_VIEWS} views per broker, saying so under the name`, async () => {
    const s = createSqlTeamViewStore(db);
    for (let i = 0; i < MAX_TEAM_VIEWS; i++) await s.put('a', { name: `v${i}`, href: '/brokers/a/dead' }, 'olga');
    const over = await s.put('a', { name: 'one more', href: '/brokers/a/dead' }, 'olga').catch((e: unknown) => e);
    expect(over).toMatchObject({ code: 'InvalidInput', fields: { name: expect.stringMatching(/at most 200/) } });
    expect(await s.put('a', { name: 'v3', href: '/brokers/a/results', replace: true }, 'bob')).not.toBeNull();
  });

  it('edits a view in place from the version read; a second edit from the same version is refused, nothing lost', async () => {
    const s = createSqlTeamViewStore(db);
    await s.put('a', { name: 'mail', href: '/brokers/a/dead?queue=mail' }, 'olga');
    await s.put('a', { name: 'sms', href: '/brokers/a/dead?queue=sms' }, 'olga');
    const [, read] = await s.list('a').then((l) => [l, l.find((v) => v.name === 'mail')!] as const);
    expect(read).toMatchObject({ version: 1, description: '', updatedAt: null });
    const first = await s.edit(
      'a',
      { name: 'mail', version: 1, newName: 'mail (EU)', href: '/brokers/a/dead?queue=mail-eu', description: 'EU only' },
      'olga',
    );
    expect(first.before).toMatchObject({ name: 'mail', href: '/brokers/a/dead?queue=mail' });
    expect(first.after).toMatchObject({ name: 'mail (EU)', version: 2, updatedBy: 'olga', createdBy: 'olga' });
    // Bob opened the view before Olga's edit: told, and Olga's edit stands.
    const late = await s
      .edit('a', { name: 'mail', version: 1, newName: 'mail', href: '/brokers/a/results', description: '' }, 'bob')
      .catch((e: unknown) => e);
    expect(late).toMatchObject({ code: 'NotFound' });
    const stale = await s
      .edit('a', { name: 'mail (EU)', version: 1, newName: 'mail (EU)', href: '/brokers/a/results', description: '' }, 'bob')
      .catch((e: unknown) => e);
    expect(stale).toMatchObject({
      code: 'Conflict',
      message: expect.stringMatching(/changed by olga after you opened it; nothing was saved/),
    });
    // Renaming onto another view's name is said under the new name.
    const taken = await s
      .edit('a', { name: 'mail (EU)', version: 2, newName: 'sms', href: '/brokers/a/results', description: '' }, 'bob')
      .catch((e: unknown) => e);
    expect(taken).toMatchObject({ code: 'InvalidInput', fields: { newName: expect.stringMatching(/"sms" already exists/) } });
    expect((await s.list('a')).map((v) => [v.name, v.href, v.description, v.version])).toEqual([
      ['mail (EU)', '/brokers/a/dead?queue=mail-eu', 'EU only', 2],
      ['sms', '/brokers/a/dead?queue=sms', '', 1],
    ]);
    // A replace of the view is a new version too: an edit begun before it is refused.
    await s.put('a', { name: 'sms', href: '/brokers/a/results', replace: true }, 'bob');
    const overReplace = await s
      .edit('a', { name: 'sms', version: 1, newName: 'sms', href: '/brokers/a/dead', description: '' }, 'olga')
      .catch((e: unknown) => e);
    expect(overReplace).toMatchObject({ code: 'Conflict' });
  });
});
