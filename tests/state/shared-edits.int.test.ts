// The state-store writes of campaigns from bulk jobs, the alert evaluator's memory and team view
// edits, on both backends the console supports (PostgreSQL in a schema of its own, SQLite in a
// temp file): the same SQL must hold on each, above all its ON CONFLICT and conditional updates.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAlertMemoryStore } from '@/lib/alerts/memory';
import { createCampaignStore } from '@/lib/campaigns/store';
import { openStateDbForTests, type SqlRunner } from '@/lib/state/sql';
import { createSqlTeamViewStore } from '@/lib/views/store';
import { dropSchema, newSchemaName, pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';

const pg = await pgAvailable();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-edits-'));
const schemas: string[] = [];
const runners: SqlRunner[] = [];
afterAll(async () => {
  for (const r of runners) await r.close();
  for (const s of schemas) await dropSchema(s);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(kind: 'postgres' | 'sqlite'): Promise<[SqlRunner, SqlRunner]> {
  let where = path.join(dir, `${newSchemaName()}.sqlite3`);
  if (kind === 'postgres') {
    const s = newSchemaName();
    schemas.push(s);
    await sqlAdmin(`CREATE SCHEMA ${s}`);
    where = searchPathUrl(s);
  }
  // Two handles: two console processes on one store.
  const a = await openStateDbForTests(where);
  const b = await openStateDbForTests(where);
  runners.push(a, b);
  return [a, b];
}

for (const kind of ['postgres', 'sqlite'] as const) {
  describe.skipIf(kind === 'postgres' && !pg)(`shared state-store writes on ${kind}`, () => {
    it("grows a bulk job's campaign from two consoles without a double, and reopens it when the job runs again", async () => {
      const [a, b] = await open(kind);
      const job = { id: '7f1c3a52-0000-4000-8000-00000000000a', state: 'running' as const, why: null };
      const c = { broker: 'b', action: 'bulk-replay', who: 'olga', reason: null, auditId: null, parent: null, filter: null };
      const id = await createCampaignStore(a).openBulk(c, job, 300, null);
      expect(await createCampaignStore(b).openBulk({ ...c, who: 'piotr' }, job, 300, null)).toBe(id);
      const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ n: from + i, id: `t${from + i}` }));
      await Promise.all([
        createCampaignStore(a).appendBulk(id, batch(0, 250), 'fp'),
        createCampaignStore(b).appendBulk(id, batch(100, 200), 'fp'),
      ]);
      const got = (await createCampaignStore(a).get(id))!;
      expect(got).toMatchObject({ who: 'olga', rollup: { total: 300, pending: 300 }, scope: { count: 300, job } });
      expect(got.scope.ids).toHaveLength(20);
      await a.run("UPDATE console_campaigns SET follow_state = 'settled' WHERE id = ?", [id]);
      await createCampaignStore(b).setBulkJob(id, job);
      expect((await createCampaignStore(a).get(id))!.follow.state).toBe('following');
    });

    it("keeps a dead task's own letter id for replay-again, and finds a moved task by its source id", async () => {
      const [a, b] = await open(kind);
      const c = { broker: 'qf', action: 'move-waiting', who: 'olga', reason: null, auditId: null, parent: null, filter: null, from: 'sq' };
      const id = await createCampaignStore(a).create(c, [
        { id: 'job-1', before: null, from: 's-1' },
        { id: 'job-2', before: null, from: 's-2' },
      ]);
      const due = await createCampaignStore(b).due(id, 10);
      const dead = { fate: 'dead' as const, state: null, fingerprint: 'fp-x', detail: 'boom', followed: null, at: null };
      await createCampaignStore(b).saveFates(
        id,
        [
          { item: due[0]!, fate: { ...dead, id: 'job-1', letter: '41' } },
          { item: due[1]!, fate: { ...dead, id: 'job-2' } },
        ],
        1,
      );
      expect(await createCampaignStore(a).deadAgain(id, 10)).toEqual([
        { id: '41', before: 'fp-x' },
        { id: 'job-2', before: 'fp-x' },
      ]);
      for (const task of ['s-2', 'job-2'])
        expect((await createCampaignStore(a).list({ task, limit: 5 })).items.map((x) => x.id)).toEqual([id]);
    });

    it("keeps the alert evaluator's memory for the next instance", async () => {
      const [a, b] = await open(kind);
      const m = await createAlertMemoryStore(a).load(['t']);
      m.since.set('t', 1_700_000_000_000);
      m.facts.dead.set('t', { at: 1_700_000_000_500, count: 12 });
      await createAlertMemoryStore(a).save(m, m.was, 1);
      const n = await createAlertMemoryStore(b).load(['t']);
      expect([n.since.get('t'), n.facts.dead.get('t')]).toEqual([1_700_000_000_000, { at: 1_700_000_000_500, count: 12 }]);
    });

    it('lets exactly one of two edits from the same version through', async () => {
      const [a, b] = await open(kind);
      await createSqlTeamViewStore(a).put('b', { name: 'v', href: '/brokers/b/dead' }, 'olga');
      const edit = (db: SqlRunner, who: string) =>
        createSqlTeamViewStore(db)
          .edit('b', { name: 'v', version: 1, newName: 'v', href: `/brokers/b/dead?q=${who}`, description: who }, who)
          .then(
            () => 'saved',
            (e: { code?: string }) => e.code,
          );
      const outcomes = await Promise.all([edit(a, 'olga'), edit(b, 'piotr')]);
      expect(outcomes.sort()).toEqual(['Conflict', 'saved']);
      const [v] = await createSqlTeamViewStore(b).list('b');
      expect(v).toMatchObject({ version: 2, description: v!.updatedBy, href: `/brokers/b/dead?q=${v!.updatedBy}` });
      await createSqlTeamViewStore(a).put('b', { name: 'w', href: '/brokers/b/results' }, 'olga');
      const taken = await createSqlTeamViewStore(b)
        .edit('b', { name: 'v', version: 2, newName: 'w', href: '/brokers/b/dead', description: '' }, 'piotr')
        .catch((e: unknown) => e);
      expect(taken).toMatchObject({ code: 'InvalidInput', fields: { newName: expect.stringMatching(/"w" already exists/) } });
    });
  });
}
