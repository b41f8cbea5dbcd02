// What each system's suite gives the shared battery: an adapter and a seeder that writes the
// system natively (never through the adapter).
import type { BrokerAdapter } from '@/lib/brokers/types';

export interface SeedMessage {
  task: string;
  queue: string;
  args?: unknown[];
  kwargs?: Record<string, unknown>;
  priority?: number;
  countdown?: number;
  id?: string;
  headers?: Record<string, unknown>;
}

export interface SeededResult {
  status: string;
  name: string | null;
  /** The record's keys in stored order (potatoq writes all 13). */
  keys: string[];
}

/** Writes and reads the broker natively, as potatoq does (never through the adapter). */
export interface ContractSeeder {
  enqueue(m: SeedMessage): Promise<string>;
  enqueueMany(ms: SeedMessage[]): Promise<string[]>;
  /** Claims the next task of `queue` like a worker; it stays running. */
  claim(queue: string): Promise<string | null>;
  /** A task dead-lettered by a worker with `reason` and a FAILURE result. */
  deadLetter(m: SeedMessage & { reason: string; diedAgo?: number }): Promise<string>;
  /** A dead letter with a payload potatoq can't decode (a foreign producer's). */
  deadLetterRaw(r: { id: string; queue: string; task: string; reason: string; payload: string }): Promise<void>;
  /** A waiting task whose payload is given verbatim (a foreign producer's), where the broker can hold one. */
  enqueueRaw?(r: { id: string; queue: string; task: string; payload: string; priority?: number }): Promise<void>;
  /** Makes `queue` exist where a queue exists only once declared (RabbitMQ: a publish to an
   *  undeclared queue is unroutable), as the system's workers would. */
  declareQueue?(queue: string): Promise<void>;
  /** Absent where the system keeps no heartbeats in the broker (Celery: workers answer broadcasts). */
  heartbeat?(id: string, info: Record<string, unknown>, ageSeconds: number): Promise<void>;
  /** A heartbeat row whose info is not JSON (a foreign writer). */
  garbageWorker?(id: string, info: string): Promise<void>;
  /** Absent where registered task names live only in the workers (Celery's `inspect registered`). */
  storeRegistered?(digest: string, names: string[]): Promise<void>;
  /** The task's state as the system itself tells it (one of the adapter's declared keys: the
   *  battery compares it with the key of the role it expects), null when it is not waiting or running. */
  jobState(id: string): Promise<string | null>;
  jobPayload(id: string): Promise<string | null>;
  /** The waiting task's args and ETA as its workers decode them, where the payload is not the
   *  message itself (Celery: a kombu envelope with a base64 body). */
  jobMessage?(id: string): Promise<{ args: unknown; eta?: unknown } | null>;
  isDead(id: string): Promise<boolean>;
  result(id: string): Promise<SeededResult | null>;
  queueSizes(): Promise<Record<string, number>>;
}

export interface ContractFixture {
  adapter: BrokerAdapter;
  /** Another adapter instance on the same broker, with its own connections. */
  makeSecond(): BrokerAdapter;
  seeder: ContractSeeder;
  /** Per-state counts this broker can't give: they must be null, never 0. */
  unknownCounts?: string[];
  /** Why a waiting task can never share a dead letter's id on this broker (one record per id),
   *  so the case of a replay colliding with a live task cannot arise; absent where it can. */
  sharedIds?: string;
  /** The broker keeps a task's name only inside its payload (Redis), so the task of a payload
   *  that is not the system's own message is unknown (a blocked head's `task` is null). */
  taskInPayloadOnly?: boolean;
  /** The broker can't tell when its oldest waiting task was enqueued (RabbitMQ). */
  noOldestWaiting?: boolean;
  /** A task with a countdown waits in its queue among the waiting messages (Celery on RabbitMQ:
   *  the worker holds it until its ETA), so the broker counts it in the `waiting` role's state. */
  etaWaitsInQueue?: boolean;
  /** Why a claimed task is not lost while its claim lasts (the claim is a lease that is its
   *  heartbeat): the case of a running task without a heartbeat cannot be seeded by a claim. */
  claimIsLease?: string;
  /** Why the broker counts held messages but cannot name them (RabbitMQ's unacknowledged
   *  counts): a lost holder's tasks are flagged by count on their queue, without ids. */
  heldIdsUnknown?: string;
  /** The broker does not record which worker holds a running task (kombu's unacked hash). */
  noRunningWorker?: boolean;
  /** Why a task's raw text is its payload re-serialised, in an object key order the broker does
   *  not keep (QueueFlow's JSON payload): it then equals the stored payload as JSON, not as text. */
  rawKeyOrderLost?: string;
  cleanup(): Promise<void>;
}
