// "Cursor pages at any depth for the cost of page 1", counted rather than timed: the rows the
// database reads for a page (EXPLAIN ANALYZE: actual rows of every scan of `jobs`, plus rows a
// filter threw away) are the same on page 1 and ~2,400 rows deep, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '@/lib/brokers/sdj/cursor';
import { idText, type SdjDb } from '@/lib/brokers/sdj/db';
import { keysetSql, statusPage } from '@/lib/brokers/sdj/jobs';
import { claimPageSql, listPendingByClaim } from '@/lib/brokers/sdj/claim-order';
import { uuidv7, idOf } from './rows';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();
const N = 3000;

interface PgNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PgNode[];
}

/** Rows of `jobs` the database touched to answer the page. */
async function rowsRead(db: SdjDb, sql: string, params: unknown[]): Promise<number> {
  if (db.dialect === 'postgres') {
    const [r] = await db.all(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    const plan = (Object.values(r!)[0] as { Plan: PgNode }[])[0]!.Plan;
    const walk = (n: PgNode): number =>
      (n['Relation Name'] === 'jobs' ? ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 1) : 0) +
      (n.Plans ?? []).reduce((a, c) => a + walk(c), 0);
    return walk(plan);
  }
  const [r] = await db.all(`EXPLAIN ANALYZE ${sql}`, params);
  const text = String(Object.values(r!)[0]);
  let total = 0;
  for (const line of text.split('\n'))
    if (/(scan|lookup) on jobs/i.test(line)) {
      const m = /actual time=[\d.]+\.\.[\d.]+ rows=([\d.e+]+) loops=(\d+)/.exec(line);
      if (m) total += Number(m[1]) * Number(m[2]);
    }
  if (/sort/i.test(text) && !/incremental/i.test(text)) total += N; // a full sort reads the whole range
  return total;
}

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ job pages on ${dialect}`, () => {
    let s: Sdj;
    beforeAll(async () => {
      s = await freshSdj(dialect);
      const db = s.db;
      const base = Date.UTC(2026, 0, 1);
      // `failed` rows are dead letters (dead_lettered_at set, three to a millisecond like the rest).
      for (const status of ['completed', 'pending', 'failed'])
        for (let from = 0; from < N; from += 500) {
          const rows: unknown[] = [];
          const values: string[] = [];
          for (let i = from; i < from + 500; i++) {
            const at = new Date(base + Math.floor(i / 3) * 1000).toISOString().replace('T', ' ').replace('Z', '');
            const ts = dialect === 'postgres' ? `${at}+00` : at;
            values.push(`(?, 'record', ?, 'q', ?, ?, ?, ?, 2, ${i % 4})`);
            rows.push(idOf(db, uuidv7()), Buffer.from('{}'), status, ts, ts, status === 'failed' ? ts : null);
          }
          let n = 0;
          const sql = `INSERT INTO jobs (id, type, args, queue, status, created_at, updated_at, dead_lettered_at, max_retries, priority) VALUES ${values.join(', ')}`;
          await db.query(dialect === 'postgres' ? sql.replace(/\?/g, () => `$${++n}`) : sql, rows);
        }
      await db.query(dialect === 'postgres' ? 'ANALYZE jobs' : 'ANALYZE TABLE jobs');
    });
    afterAll(async () => s?.done());

    it('reads about as many rows for a page 2,400 rows deep as for page 1', async () => {
      const db = s.store.db;
      const first = keysetSql(db, statusPage('completed', { limit: 50 }));
      const [deepRow] = await db.all(
        `SELECT id, created_at FROM jobs WHERE status = 'completed' ORDER BY created_at DESC, id ASC LIMIT 1 OFFSET 2400`,
      );
      const cursor = encodeCursor({ at: String(deepRow!.created_at), id: idText(deepRow!.id)! });
      const deep = keysetSql(db, statusPage('completed', { limit: 50, cursor }));
      const page1 = await rowsRead(db, first.sql, first.params);
      const pageDeep = await rowsRead(db, deep.sql, deep.params);
      expect(page1).toBeLessThanOrEqual(60);
      expect(pageDeep).toBeLessThanOrEqual(60);
      // The counter sees depth: the same page by OFFSET reads the 2,400 rows it skips.
      const offset = first.sql.replace(/LIMIT 51$/, 'LIMIT 51 OFFSET 2400');
      expect(await rowsRead(db, offset, first.params)).toBeGreaterThan(2400);
      const got = await db.all(deep.sql, deep.params);
      expect(got).toHaveLength(51);
    });

    it('reads about as many rows for dead letters 2,400 deep as for their page 1', async () => {
      const db = s.store.db;
      const spec = { where: '1 = 1', params: [], key: 'dead_lettered_at' as const, tie: 'DESC' as const, limit: 50 };
      const first = keysetSql(db, spec);
      const [deepRow] = await db.all(
        `SELECT id, dead_lettered_at FROM jobs WHERE dead_lettered_at IS NOT NULL ORDER BY dead_lettered_at DESC, id DESC LIMIT 1 OFFSET 2399`,
      );
      const cursor = encodeCursor({ at: String(deepRow!.dead_lettered_at), id: idText(deepRow!.id)! });
      const deep = keysetSql(db, { ...spec, cursor });
      expect(await rowsRead(db, first.sql, first.params)).toBeLessThanOrEqual(60);
      expect(await rowsRead(db, deep.sql, deep.params)).toBeLessThanOrEqual(60);
      const offset = first.sql.replace(/LIMIT 51$/, 'LIMIT 51 OFFSET 2400');
      expect(await rowsRead(db, offset, first.params)).toBeGreaterThan(2400);
      // The deep page is the one the library's OFFSET 2,400 lists.
      const byOffset = await db.all(offset, first.params);
      expect((await db.all(deep.sql, deep.params)).map((r) => idText(r.id))).toEqual(byOffset.map((r) => idText(r.id)));
    });

    // PostgreSQL only: its dequeue index holds pending jobs by priority and due time; MySQL's
    // indexes split them by dq_ready first, so MySQL sorts the range (claim-order.ts says so).
    it.skipIf(dialect !== 'postgres')('reads about as many pending rows for a claim-order page 2,400 deep as for page 1', async () => {
      const db = s.store.db;
      let cursor: string | null = null;
      for (let i = 0; i < 48; i++) cursor = (await listPendingByClaim(db, { limit: 50, cursor })).next;
      const first = claimPageSql(db, { limit: 50 });
      const deep = claimPageSql(db, { limit: 50, cursor });
      expect(await rowsRead(db, first.sql, first.params)).toBeLessThanOrEqual(60);
      // Index ranges that start at the position: the rest of its priority (a table this small gets a
      // bitmap read of that range, at most the 750 rows of one priority) and the next priority's
      // first page, never the 2,400 rows before it, which the same page by OFFSET reads.
      expect(await rowsRead(db, deep.sql, deep.params)).toBeLessThanOrEqual(750 + 51);
      expect(await rowsRead(db, first.sql.replace(/LIMIT 51$/, 'LIMIT 51 OFFSET 2400'), first.params)).toBeGreaterThan(2400);
      expect(await db.all(deep.sql, deep.params)).toHaveLength(51);
    });
  });
}
