import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { AmqpLink } from './connection';
import { HOLDER_ARG, SINCE_ARG, THIS_CONSOLE, type LockHolder } from './lock-holder';

/**
 * One browse of a dead-letter queue at a time: a second browser would see the queue without the
 * letters the first one holds (and report them missing).
 *
 * In this process, a queue of waiters per queue of a RabbitMQ cluster and vhost (named by the
 * server itself, so two broker entries spelling the host differently, or a potatoq and a Celery
 * entry on one vhost, share it), on globalThis because Next bundles route handlers, server
 * actions and the boot hook as separate module instances. The console's own reads therefore
 * never refuse its operator: an action waits for them, and a read waits for the action.
 *
 * Across processes (several console instances), an exclusive queue on the broker, which RabbitMQ
 * lets only one connection declare (others get 405 RESOURCE_LOCKED) and deletes by itself when
 * that connection closes, so a console that dies mid-browse never leaves it locked. Its arguments
 * name the holder (host and process id) and since when, which the management API shows: a
 * refusal says who holds the queue. A user without the configure permission can't declare it:
 * the browse then runs with the in-process lock only.
 */

/** The queue whose exclusive declaration marks "a console is browsing this DLQ". */
export const browseLockQueue = (dlq: string) => `potatoq-console.browsing.${dlq}`;

/** How long an action waits for a lock its own process holds on another connection (a
 *  declaration left by a failed delete, a module instance's own waiters) before it is refused. */
export const OWN_LOCK_WAIT_MS = 30_000;
const OWN_LOCK_POLL_MS = 250;

/** Why a browse is refused while another console browses the same DLQ. */
export function browsingElsewhere(dlq: string, who?: LockHolder | null): string {
  const name = who?.holder ? `the console ${who.holder}` : 'another console';
  const since = who?.since ? ` since ${who.since}` : '';
  const unknown = who === undefined ? ' (with managementUrl configured, the refusal names it)' : '';
  return (
    `${name}${unknown} has been browsing ${dlq}${since} (RabbitMQ shows a message only by taking it, so two browses would each ` +
    'see the queue without the other’s letters); try again when it is done'
  );
}

const LOCKS = Symbol.for('potatoq.console.dlqBrowseLocks');
type Global = typeof globalThis & { [LOCKS]?: Map<string, Promise<void>> };

async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const locks = ((globalThis as Global)[LOCKS] ??= new Map());
  const prev = locks.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  const chained = prev.then(() => mine);
  locks.set(key, chained);
  await prev;
  try {
    return await fn();
  } finally {
    release();
    if (locks.get(key) === chained) locks.delete(key);
  }
}

export interface BrokerLockOptions {
  /** The lock queue's holder, where the management API can say (null: it can't). */
  holderOf?: (lockQueue: string) => Promise<LockHolder | null>;
  ownWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const code = (e: unknown) => (e as { code?: unknown })?.code;

async function declareLock(link: AmqpLink, name: string): Promise<'held' | 'locked' | 'unchecked'> {
  try {
    await link.withChannel((ch) =>
      ch.assertQueue(name, {
        exclusive: true,
        durable: false,
        autoDelete: false,
        arguments: { [HOLDER_ARG]: THIS_CONSOLE, [SINCE_ARG]: new Date().toISOString() },
      }),
    );
    return 'held';
  } catch (e) {
    if (code(e) === 405) return 'locked';
    if (code(e) === 403) return 'unchecked';
    throw e;
  }
}

/** The cross-process half: refused at once for another console, named; a lock this process
 *  holds on another connection is waited for (bounded). */
async function withBrokerLock<T>(link: AmqpLink, dlq: string, fn: () => Promise<T>, o: BrokerLockOptions): Promise<T> {
  const name = browseLockQueue(dlq);
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let state = await declareLock(link, name);
  for (let waited = 0; state === 'locked'; waited += OWN_LOCK_POLL_MS) {
    const who = o.holderOf ? await o.holderOf(name).catch(() => null) : undefined;
    if (who?.holder !== THIS_CONSOLE || waited >= (o.ownWaitMs ?? OWN_LOCK_WAIT_MS))
      throw new ConsoleError('Conflict', browsingElsewhere(dlq, who));
    await sleep(OWN_LOCK_POLL_MS);
    state = await declareLock(link, name);
  }
  try {
    return await fn();
  } finally {
    if (state === 'held') await link.withChannel((ch) => ch.deleteQueue(name)).catch(() => undefined);
  }
}

/** Both halves of the browse lock on one DLQ (this process's waiters, then the broker's exclusive queue). */
export async function withDlqLock<T>(link: AmqpLink, dlq: string, fn: () => Promise<T>, o: BrokerLockOptions = {}): Promise<T> {
  const scope = await link.lockScope();
  return withLock(`${scope}|${dlq}`, () => withBrokerLock(link, dlq, fn, { holderOf: link.lockHolderOf, ...o }));
}
