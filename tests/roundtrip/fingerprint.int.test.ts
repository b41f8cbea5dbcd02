// Dead-letter grouping against the REAL potatoq 26.1a8: a real worker fails 600 tasks of two
// bugs whose messages carry customer ids, amounts, durations, gateway refs, paths, order
// numbers and quoted values (tests/py/fp_*.py). potatoq stores 600 different reasons; the
// console must show exactly the 2 real groups, and a group filter must page through all of
// its letters (what a bulk job's snapshot does), on SQLite and PostgreSQL.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { dropSchema, newSchemaName, PG_URL, pgAvailable } from '@/tests/support/postgres';
import { startFpWorker } from '../support/fp-worker';
import { ROOT } from '../support/potatoq-seeder';
import { type SoloWorker, until } from '../support/solo-worker';

const N = 600;
execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const pgUp = await pgAvailable();

async function allIds(a: BrokerAdapter, group: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await a.listDead(ZDeadListQuery.parse({ group, cursor, limit: 97 }));
    ids.push(...page.items.map((d) => d.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
}

function suite(
  store: string,
  skip: boolean,
  setup: () => Promise<{ env: NodeJS.ProcessEnv; adapter: BrokerAdapter; cleanup: () => Promise<void> }>,
) {
  describe.skipIf(skip)(`dead-letter fingerprints from the real potatoq (${store})`, () => {
    let a: BrokerAdapter;
    let cleanup: () => Promise<void> = async () => {};
    let worker: SoloWorker | undefined;
    let reasons: Set<string>;

    beforeAll(async () => {
      const s = await setup();
      a = s.adapter;
      cleanup = s.cleanup;
      worker = startFpWorker(s.env, N);
      await until(
        `${N} dead letters`,
        async () => (await a.overview()).totals.dead === N,
        90_000,
        () => worker?.log ?? '',
      );
      await worker.stop();
      const letters = await a.listDead(ZDeadListQuery.parse({ limit: 500 }));
      reasons = new Set(letters.items.map((d) => d.summary));
    }, 180_000);

    afterAll(async () => {
      await worker?.stop();
      await a?.close();
      await cleanup();
    });

    it(`collapses ${N} letters with different messages into the 2 real groups`, async () => {
      // potatoq's own view: (nearly) every letter has its own reason line.
      expect(reasons.size).toBeGreaterThan(400);
      const groups = (await a.deadGroups({})).groups;
      expect(groups.map((g) => [g.pattern, g.count, g.frame, g.tasks, g.queues])).toEqual([
        [
          'fp_shop.billing.CardDeclined: customer <uuid> declined: amount <n> EUR over limit <n> after <dur> (gateway ref <hex>, reason <str>)',
          400,
          'fp_shop/billing.py in _authorise',
          ['shop.charge'],
          ['fp-billing'],
        ],
        [
          'ValueError: bad manifest <path> for order #<n>: Expecting value: line <n> column <n> (char <n>) (<str>)',
          200,
          'fp_shop/exports.py in load_manifest',
          ['shop.export'],
          ['fp-exports'],
        ],
      ]);
      for (const g of groups) {
        expect(g.fingerprint).toMatch(/^fp-[0-9a-f]{16}$/);
        expect(g.oldestAt! <= g.newestAt!).toBe(true);
        expect(g.example.summary.startsWith(g.excType!.split('.').pop()!) || g.example.summary.startsWith(g.excType!)).toBe(true);
      }
    });

    it('pages through every letter of one group by its fingerprint, and only those', async () => {
      const [charge, exportGroup] = (await a.deadGroups({})).groups;
      const ids = await allIds(a, charge!.fingerprint);
      expect(ids).toHaveLength(400);
      expect(new Set(ids).size).toBe(400);
      const details = await Promise.all(ids.slice(0, 5).map((id) => a.getDead(id)));
      for (const d of details) expect(d?.task).toBe('shop.charge');
      expect(await allIds(a, exportGroup!.fingerprint)).toHaveLength(200);
      expect(await allIds(a, 'fp-0000000000000000')).toEqual([]);
    });
  });
}

suite('SQLite', false, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-fp-'));
  const url = `sqlite:///${path.join(dir, 'broker.sqlite3')}`;
  return {
    env: { ...process.env, FP_BROKER: url },
    adapter: createSqliteAdapter({ id: 'fp', name: 'fp', url, readOnly: false, options: {} }),
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});

suite('PostgreSQL', !pgUp, async () => {
  const schema = newSchemaName();
  const options = { schema, table_prefix: 'potatoq_' };
  return {
    env: { ...process.env, FP_BROKER: PG_URL, FP_OPTIONS: JSON.stringify(options) },
    adapter: createPostgresAdapter({ id: 'fpg', name: 'fp', url: PG_URL, readOnly: false, options }),
    cleanup: async () => dropSchema(schema),
  };
});
