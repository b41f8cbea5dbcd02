import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { processId } from '@/lib/state/process-id';
import type { HeldLease, LeaseSettings, PauseLease, PauseLeaseStore, QueueLeases, Taken } from '@/lib/brokers/adapter-context';

/**
 * Taking, renewing and giving up a console's pause lease on one queue (see store.ts). Waiting
 * rather than refusing at once: a hold lasts one edit-replay (a handful of calls, well under a
 * second on a healthy server), so a second console (or operator) editing a letter of the same
 * queue gets its turn after a short wait; only a hold that outlasts `waitMs` (a slow or stuck
 * holder) is answered with a refusal naming who holds the queue and since when. The letter is
 * then untouched, so trying again is safe.
 */

export type { HeldLease, LeaseSettings, QueueLeases, Taken };

/** One id per console process: the state store's (lib/state/process-id.ts). */
export const processOwner = processId;

export const DEFAULT_LEASE = { ttlMs: 30_000, waitMs: 10_000, pollMs: 250 };

/** This process's leases on `store` (the default timings unless `o` says otherwise), as an
 *  adapter receives them in its context. */
export function leaseSettings(store: () => Promise<PauseLeaseStore>, o: Partial<LeaseSettings> = {}): QueueLeases {
  const s: LeaseSettings = {
    store,
    owner: o.owner ?? processOwner(),
    ...DEFAULT_LEASE,
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    ...o,
  };
  return {
    ...s,
    take: (broker, queue, detail, recover) => takeLease(s, broker, queue, detail, recover),
    stale: (broker, max) => staleLeases(s, broker, max),
  };
}

const lostHold = (l: PauseLease) =>
  new ConsoleError(
    'Conflict',
    `the console's hold on queue ${l.queue} was taken over by a recovery (this process stalled past its deadline); the recovery finishes the work`,
  );

function hold(s: LeaseSettings, first: PauseLease): HeldLease {
  let lease = first;
  let lost = false;
  let renewing: Promise<unknown> = Promise.resolve();
  const renew = async (patch: { pausedByConsole?: boolean; detail?: Record<string, unknown> } = {}) => {
    const store = await s.store();
    const next = { ...lease, ...patch, deadlineMs: s.now() + s.ttlMs };
    if (!(await store.update(lease.broker, lease.queue, s.owner, { deadlineMs: next.deadlineMs, ...patch }))) lost = true;
    else lease = next;
  };
  // A call may take up to the client's timeout: renew on a timer too, well before the deadline.
  const timer = setInterval(
    () => {
      renewing = renewing.then(() => renew()).catch(() => undefined);
    },
    Math.max(50, Math.floor(s.ttlMs / 3)),
  );
  timer.unref?.();
  return {
    get lease() {
      return lease;
    },
    get lost() {
      return lost;
    },
    async mark(patch) {
      if (lost) throw lostHold(lease);
      await renewing;
      await renew(patch);
      if (lost) throw lostHold(lease);
    },
    async release() {
      clearInterval(timer);
      await renewing;
      if (!lost) await (await s.store()).release(lease.broker, lease.queue, s.owner);
    },
    abandon() {
      clearInterval(timer);
    },
  };
}

/**
 * Takes the hold on (broker, queue), waiting up to `waitMs` for a live one to go. A hold whose
 * deadline passed is handed to `recover` (which takes it over, finishes or undoes its work and
 * deletes it) before trying again; its errors (the system unreachable) end the attempt.
 */
export async function takeLease(
  s: LeaseSettings,
  broker: string,
  queue: string,
  detail: Record<string, unknown>,
  recover: (stale: PauseLease) => Promise<unknown>,
): Promise<Taken> {
  const store = await s.store();
  const start = s.now();
  let recoveries = 0;
  for (;;) {
    const now = s.now();
    const lease: PauseLease = {
      broker,
      queue,
      owner: s.owner,
      startedAt: new Date(now).toISOString(),
      deadlineMs: now + s.ttlMs,
      pausedByConsole: false,
      detail,
    };
    if (await store.acquire(lease)) return { held: hold(s, lease) };
    const cur = await store.get(broker, queue);
    if (!cur) continue;
    if (cur.deadlineMs < now) {
      // (A recovery deletes the hold or another process took it over; a third stale one in a
      // row means this store does not keep what it is told.)
      if (++recoveries > 3) throw new ConsoleError('Internal', `the console's hold on queue ${queue} could not be recovered`);
      await recover(cur);
      continue;
    }
    if (now - start >= s.waitMs) return { busy: cur };
    await s.sleep(Math.min(s.pollMs, Math.max(1, cur.deadlineMs - now)));
  }
}

/** The stale holds of a broker (deadline before now), oldest first, at most `max`. */
export async function staleLeases(s: LeaseSettings, broker: string, max: number): Promise<PauseLease[]> {
  const now = s.now();
  return (await (await s.store()).list(broker)).filter((l) => l.deadlineMs < now).slice(0, max);
}
