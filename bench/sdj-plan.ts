// What the database did for one read of `npm run bench:sdj`, counted rather than timed: the
// rows of `jobs` it read and the indexes it read them through. PostgreSQL: EXPLAIN (ANALYZE,
// BUFFERS): actual rows of every node on `jobs`, plus rows a filter or recheck threw away, times
// loops, and the shared buffers touched (dead row versions and index entries cost pages, not
// rows). MySQL: the handler's row reads (`Handler_read_*` of the session, before and after the
// statement) and the access paths of EXPLAIN ANALYZE.
import type { SdjDb } from '@/lib/brokers/sdj/db';

export interface Stmt {
  sql: string;
  params?: unknown[];
}

export interface Plan {
  rows: number;
  /** PostgreSQL only: shared buffers hit or read. */
  pages: number | null;
  access: string[];
}

interface PgNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PgNode[];
}

async function pgPlan(db: SdjDb, s: Stmt): Promise<Plan> {
  const [r] = await db.all(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.sql}`, s.params ?? []);
  const root = (Object.values(r!)[0] as { Plan: PgNode }[])[0]!.Plan;
  const access = new Set<string>();
  let rows = 0;
  const walk = (n: PgNode) => {
    if (n['Index Name']) access.add(n['Index Name']);
    if (n['Relation Name'] === 'jobs') {
      if (n['Node Type'] === 'Seq Scan') access.add('seq scan');
      const read = (n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0);
      rows += read * (n['Actual Loops'] ?? 1);
    }
    if (n['Node Type'] === 'Sort') access.add('sort');
    if (n['Node Type'] === 'Incremental Sort') access.add('incremental sort');
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(root);
  return { rows, pages: (root['Shared Hit Blocks'] ?? 0) + (root['Shared Read Blocks'] ?? 0), access: [...access] };
}

const handlerReads = async (q: Pick<SdjDb, 'all'>) => {
  const rows = await q.all(`SHOW SESSION STATUS LIKE 'Handler_read%'`);
  return rows.reduce((a, r) => a + Number(r.Value ?? r.value ?? 0), 0);
};

async function mysqlPlan(db: SdjDb, s: Stmt): Promise<Plan> {
  return db.tx(async (q) => {
    const before = await handlerReads(q);
    const noise = (await handlerReads(q)) - before;
    const start = await handlerReads(q);
    const [r] = await q.all(`EXPLAIN ANALYZE ${s.sql}`, s.params ?? []);
    const rows = (await handlerReads(q)) - start - noise;
    const text = String(Object.values(r!)[0]);
    const access = new Set<string>();
    for (const line of text.split('\n')) {
      if (/table scan on jobs/i.test(line)) access.add('table scan');
      const m = / on jobs using (\w+)/i.exec(line);
      if (m) access.add(m[1]!);
      if (/-> Sort/i.test(line)) access.add('sort');
    }
    return { rows, pages: null, access: [...access] };
  });
}

/** The plan of each statement of a read, summed. */
export async function planOf(db: SdjDb, stmts: Stmt[]): Promise<Plan> {
  const out: Plan = { rows: 0, pages: db.dialect === 'postgres' ? 0 : null, access: [] };
  for (const s of stmts) {
    const p = db.dialect === 'postgres' ? await pgPlan(db, s) : await mysqlPlan(db, s);
    out.rows += p.rows;
    if (out.pages !== null && p.pages !== null) out.pages += p.pages;
    for (const a of p.access) if (!out.access.includes(a)) out.access.push(a);
  }
  return out;
}
