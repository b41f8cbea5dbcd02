import 'server-only';
import { createLeases, type Lease } from '@/lib/state/leases';
import { getStateDb, openStateDbForTests, type SqlRunner } from '@/lib/state/sql';
import type { LeasePatch, PauseLease, PauseLeaseStore } from '@/lib/brokers/adapter-context';

// A console's hold on a queue it paused for a moment, as a lease of the console's state store
// (lib/state/leases.ts, the one lease table every console process sharing the store sees),
// named `pause/<broker>/<queue>` (broker ids have no `/`). The shapes are the adapters'
// contract (lib/brokers/adapter-context.ts). Taking a hold is one INSERT under that name, so of
// two processes exactly one gets it. The holder renews `deadlineMs` while it works; a hold
// whose deadline passed belongs to a holder that is gone, and whoever takes it over (one
// conditional UPDATE) recovers the queue. Times are epoch ms from the caller's clock: console
// hosts sharing one store need clocks within a few seconds of each other (the deadline is tens
// of seconds away).
export type { LeasePatch, PauseLease, PauseLeaseStore };

const nameOf = (broker: string, queue: string) => `pause/${broker}/${queue}`;

/** What the lease's data holds besides the lease itself. */
type Notes = { broker: string; queue: string; pausedByConsole: boolean | number; detail: Record<string, unknown> };

const fromLease = (l: Lease): PauseLease => {
  const n = JSON.parse(l.data ?? '{}') as Notes;
  return {
    broker: n.broker,
    queue: n.queue,
    owner: l.holder,
    startedAt: l.startedAt ?? '',
    deadlineMs: l.expiresMs,
    // SQLite's json_object wrote a moved hold's flag as 0/1.
    pausedByConsole: n.pausedByConsole === true || n.pausedByConsole === 1,
    detail: n.detail ?? {},
  };
};

const notesOf = (l: Pick<PauseLease, 'broker' | 'queue' | 'pausedByConsole' | 'detail'>) =>
  JSON.stringify({ broker: l.broker, queue: l.queue, pausedByConsole: l.pausedByConsole, detail: l.detail } satisfies Notes);

export function createSqlLeaseStore(db: Pick<SqlRunner, 'run' | 'all' | 'close'>): PauseLeaseStore {
  const leases = createLeases(db);
  return {
    acquire: (l) =>
      leases.acquire({
        name: nameOf(l.broker, l.queue),
        holder: l.owner,
        expiresMs: l.deadlineMs,
        startedAt: l.startedAt,
        data: notesOf(l),
      }),
    async update(broker, queue, owner, p) {
      const name = nameOf(broker, queue);
      if (p.pausedByConsole === undefined && p.detail === undefined) return leases.renew(name, owner, p.deadlineMs);
      // Only the holder writes its notes, and the write is conditional on still holding it: a
      // takeover between the read and the write makes it answer false (the hold is lost).
      const cur = await leases.get(name);
      if (!cur || cur.holder !== owner) return false;
      const was = fromLease(cur);
      const notes = notesOf({ ...was, pausedByConsole: p.pausedByConsole ?? was.pausedByConsole, detail: p.detail ?? was.detail });
      return leases.renew(name, owner, p.deadlineMs, notes);
    },
    takeOver: (broker, queue, from, to, nowMs, deadlineMs) => leases.takeOver(nameOf(broker, queue), from, to, nowMs, deadlineMs),
    release: (broker, queue, owner) => leases.release(nameOf(broker, queue), owner),
    async get(broker, queue) {
      const l = await leases.get(nameOf(broker, queue));
      return l ? fromLease(l) : null;
    },
    async list(broker, limit = 100) {
      return (await leases.list(nameOf(broker, ''), limit)).map(fromLease);
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
