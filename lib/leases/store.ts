import 'server-only';
import { getStateDb, openStateDbForTests } from '@/lib/bulk/store-open';
import type { SqlRunner } from '@/lib/bulk/store-sql';
import type { LeasePatch, PauseLease, PauseLeaseStore } from '@/lib/brokers/adapter-context';

// A console's hold on a queue it paused for a moment, in the console's own state store
// (POTATOQ_CONSOLE_STATE, next to the audit trail), so every console process sharing that store
// sees it. The shapes are the adapters' contract (lib/brokers/adapter-context.ts). One row per
// (broker, queue): taking a hold is one INSERT under that primary key, so of two processes
// exactly one gets it. The holder renews `deadlineMs` while it works; a row whose deadline
// passed belongs to a holder that is gone, and whoever takes it over (one conditional UPDATE)
// recovers the queue. Times are epoch ms from the caller's clock: console hosts sharing one
// store need clocks within a few seconds of each other (the deadline is tens of seconds away).
export type { LeasePatch, PauseLease, PauseLeaseStore };

type Row = {
  broker: string;
  queue: string;
  owner: string;
  started_at: string;
  deadline_ms: number | string;
  paused_by_console: number | string;
  detail: string;
};

const fromRow = (r: Row): PauseLease => ({
  broker: r.broker,
  queue: r.queue,
  owner: r.owner,
  startedAt: r.started_at,
  deadlineMs: Number(r.deadline_ms),
  pausedByConsole: Number(r.paused_by_console) === 1,
  detail: JSON.parse(r.detail) as Record<string, unknown>,
});

const COLS = 'broker, queue, owner, started_at, deadline_ms, paused_by_console, detail';

export function createSqlLeaseStore(db: Pick<SqlRunner, 'run' | 'all' | 'close'>): PauseLeaseStore {
  const key = (broker: string, queue: string, owner: string) => [broker, queue, owner];
  return {
    async acquire(l) {
      const n = await db.run(
        `INSERT INTO console_pause_leases (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (broker, queue) DO NOTHING`,
        [l.broker, l.queue, l.owner, l.startedAt, Math.round(l.deadlineMs), l.pausedByConsole ? 1 : 0, JSON.stringify(l.detail)],
      );
      return n === 1;
    },
    async update(broker, queue, owner, p) {
      const n = await db.run(
        `UPDATE console_pause_leases SET deadline_ms = ?, paused_by_console = COALESCE(?, paused_by_console), detail = COALESCE(?, detail)
         WHERE broker = ? AND queue = ? AND owner = ?`,
        [
          Math.round(p.deadlineMs),
          p.pausedByConsole === undefined ? null : p.pausedByConsole ? 1 : 0,
          p.detail === undefined ? null : JSON.stringify(p.detail),
          ...key(broker, queue, owner),
        ],
      );
      return n === 1;
    },
    async takeOver(broker, queue, from, to, nowMs, deadlineMs) {
      const n = await db.run(
        'UPDATE console_pause_leases SET owner = ?, deadline_ms = ? WHERE broker = ? AND queue = ? AND owner = ? AND deadline_ms < ?',
        [to, Math.round(deadlineMs), ...key(broker, queue, from), Math.round(nowMs)],
      );
      return n === 1;
    },
    async release(broker, queue, owner) {
      await db.run('DELETE FROM console_pause_leases WHERE broker = ? AND queue = ? AND owner = ?', key(broker, queue, owner));
    },
    async get(broker, queue) {
      const rows = await db.all<Row>(`SELECT ${COLS} FROM console_pause_leases WHERE broker = ? AND queue = ?`, [broker, queue]);
      return rows[0] ? fromRow(rows[0]) : null;
    },
    async list(broker, limit = 100) {
      const rows = await db.all<Row>(`SELECT ${COLS} FROM console_pause_leases WHERE broker = ? ORDER BY started_at, queue LIMIT ?`, [
        broker,
        limit,
      ]);
      return rows.map(fromRow);
    },
    close: () => db.close(),
  };
}

const KEY = Symbol.for('potatoq.console.pauseLeaseStore');
type Global = typeof globalThis & { [KEY]?: Promise<PauseLeaseStore> };

/** The process's store in POTATOQ_CONSOLE_STATE, on the state store's one connection (opened
 *  once, lazily; a failed open is retried). */
export function getPauseLeaseStore(): Promise<PauseLeaseStore> {
  const g = globalThis as Global;
  g[KEY] ??= getStateDb().then(createSqlLeaseStore);
  g[KEY].catch(() => {
    delete g[KEY];
  });
  return g[KEY];
}

/** Tests only. */
export function setPauseLeaseStoreForTests(store: PauseLeaseStore | null): void {
  const g = globalThis as Global;
  if (store) g[KEY] = Promise.resolve(store);
  else delete g[KEY];
}

/** A private store in a SQLite file (or `:memory:`), for tests. */
export async function openSqlitePauseLeaseStore(file: string): Promise<PauseLeaseStore> {
  return createSqlLeaseStore(await openStateDbForTests(file));
}
