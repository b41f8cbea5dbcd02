import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { AdapterContext, PauseLease } from '@/lib/brokers/adapter-context';
import type { QfClient } from './client';
import { recoverQfLease } from './edit-recover';

// The console's own pauses (edit-replay leases) as the overview and the diagnosis show them, and
// their recovery on those reads: a console that died mid-edit leaves its queue paused, and the
// next read of this broker by any console process (a page, the API, the trend sampler's
// periodic overview) resumes it once the lease ran out. Bounded: at most RECOVER_PER_READ
// leases per read, and one recovery pass per RECOVER_EVERY_MS per adapter.

export const RECOVER_PER_READ = 3;
export const RECOVER_EVERY_MS = 5_000;
/** A state store that does not answer within this (a PostgreSQL host gone) reads as no leases:
 *  the overview never waits on the console's own store for long. */
export const READ_WAIT_MS = 3_000;

export interface Holds {
  /** The broker's leases after recovering the stale ones it may (empty when the store cannot be read). */
  read(): Promise<PauseLease[]>;
  /** Refuses a pause or resume while an edit-replay holds the queue (recovering a stale hold first). */
  guard(queue: string): Promise<void>;
}

export function createHolds(
  client: QfClient,
  brokerId: string,
  ctx: AdapterContext,
  mayRecover: () => Promise<boolean>,
  log: (e: Record<string, unknown>) => void = (e) => console.error(JSON.stringify(e)),
): Holds {
  const { leases, audit } = ctx;
  let last = -Infinity;
  const recover = async (l: PauseLease) => {
    try {
      const r = await recoverQfLease(client, leases, l, audit);
      if (r) log({ event: 'console.edit-replay-recovered', broker: brokerId, queue: r.queue, resumed: r.resumed, message: r.message });
    } catch (e) {
      log({ event: 'console.edit-replay-recovery-failed', broker: brokerId, queue: l.queue, message: String(e) });
    }
  };
  const readAndRecover = async (): Promise<PauseLease[]> => {
    try {
      const now = leases.now();
      if (now - last >= RECOVER_EVERY_MS) {
        const stale = await leases.stale(brokerId, RECOVER_PER_READ);
        if (stale.length) {
          last = now;
          if (await mayRecover()) for (const l of stale) await recover(l);
        }
      }
      return await (await leases.store()).list(brokerId);
    } catch (e) {
      // The overview never fails because the console's own store does.
      log({ event: 'console.lease-store-error', broker: brokerId, message: String(e) });
      return [];
    }
  };
  return {
    async read() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<PauseLease[]>((resolve) => {
        timer = setTimeout(() => {
          log({ event: 'console.lease-store-slow', broker: brokerId, message: `no answer within ${READ_WAIT_MS} ms` });
          resolve([]);
        }, READ_WAIT_MS);
      });
      return Promise.race([readAndRecover(), late]).finally(() => clearTimeout(timer));
    },
    async guard(queue) {
      const store = await leases.store();
      let l = await store.get(brokerId, queue);
      if (l && l.deadlineMs < leases.now()) {
        await recoverQfLease(client, leases, l, audit);
        l = await store.get(brokerId, queue);
      }
      if (l)
        throw new ConsoleError(
          'Conflict',
          `queue ${queue} is held by the console's edit-replay (console ${l.owner}, since ${l.startedAt}); it resumes the queue itself when the edit is done: try again in a moment`,
        );
    },
  };
}

/** "paused by the console's edit-replay since …", or null when the console did not pause it. */
export function holdText(l: PauseLease, now: number): string | null {
  if (!l.pausedByConsole) return null;
  const gone = l.deadlineMs < now;
  return gone
    ? `paused by the console's edit-replay since ${l.startedAt}, whose console stopped (its hold ran out at ${new Date(l.deadlineMs).toISOString()}): the console resumes it at its next read of this broker that may write`
    : `paused by the console's edit-replay since ${l.startedAt} (console ${l.owner}); it resumes the queue when the edit is done`;
}

/** The overview's warnings: one per queue the console's edit-replay holds paused. */
export function holdWarnings(holds: PauseLease[], now: number): string[] {
  return holds.flatMap((l) => {
    const t = holdText(l, now);
    return t ? [`Queue ${l.queue} is ${t}.`] : [];
  });
}
