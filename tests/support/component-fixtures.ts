// DTOs shaped like the adapters' answers through the console's GET routes, for the component
// tests. Only what the components read is filled; the rest of the overview is cast, so a change
// to fields no component here reads leaves these tests alone.
import { allCapabilities } from '@/lib/brokers/model';
import type {
  ActionResult,
  BrokerOverview,
  Capabilities,
  Capability,
  DeadDetail,
  DeadGroup,
  DeadSummary,
  MessageView,
  Page,
  StateDecl,
} from '@/lib/brokers/schema';
import type { MoveTargetView } from '@/lib/brokers/move-pairing';
import type { BulkJobView } from '@/lib/bulk/schema';

/** Text a hostile producer might put in a payload: markup, a script URL, a bidi override. */
export const HOSTILE = '<img src=x onerror="window.__pwned=1"><a href="javascript:alert(1)">click</a>\u202Egpj.exe';

/** potatoq's states, as its model declares them. */
const STATES: StateDecl[] = [
  {
    key: 'ready',
    label: 'Ready',
    time: { field: 'createdAt', label: 'Enqueued' },
    order: { by: 'claim', label: 'in the order workers claim them' },
    owned: false,
    role: 'waiting',
  },
  {
    key: 'scheduled',
    label: 'Scheduled',
    time: { field: 'runAt', label: 'Runs' },
    order: { by: 'time', field: 'runAt', dir: 'asc', label: 'soonest run time first' },
    owned: false,
    role: 'scheduled',
  },
  {
    key: 'running',
    label: 'Running',
    time: { field: 'claimedAt', label: 'Claimed' },
    order: { by: 'time', field: 'claimedAt', dir: 'asc', label: 'oldest claim first' },
    owned: true,
    role: 'running',
  },
];

/** Every capability of the contract on (each declared state listed), except those given with
 *  why they are off. */
export function capabilities(off: Partial<Record<Capability, string>> = {}): Capabilities {
  const all: Record<string, { on: boolean; why?: string }> = allCapabilities(STATES);
  return Object.fromEntries(
    Object.entries(all).map(([k, c]) => [k, off[k as Capability] ? { on: false, why: off[k as Capability] } : c]),
  ) as Capabilities;
}

/** A potatoq-on-SQLite broker's overview, as `/api/brokers/<id>/queues` answers it. */
export function overview(
  brokerId: string,
  opts: {
    off?: Partial<Record<Capability, string>>;
    movable?: boolean;
    queues?: Array<{ name: string; ready: number; scheduled: number }>;
  } = {},
): BrokerOverview {
  const actions = {
    replay: { does: 'The task goes back to its queue under its own id.', cli: 'potatoq dead retry {ids}', bulkRate: null },
    discard: { does: 'The dead letter is deleted for good.', cli: 'potatoq dead purge {ids}' },
    revoke: { does: 'The task is removed before a worker claims it.', bulk: 'Every matching task is removed.' },
    purge: {
      does: 'Deletes the waiting tasks of the queue.',
      what: 'every waiting task (ready and scheduled)',
      counts: ['ready', 'scheduled'],
      stays: 'Running tasks and dead letters stay.',
    },
    enqueue: { does: 'Adds a task.', fields: [], defaultQueue: 'default' },
    replayEdited: { does: 'The letter is sent again with the arguments below.', sameId: true },
  };
  return {
    id: brokerId,
    name: brokerId,
    kind: 'sqlite',
    serverInfo: 'SQLite 3.46',
    readOnly: false,
    capabilities: capabilities(opts.off),
    queues: (opts.queues ?? []).map((q) => ({
      name: q.name,
      dead: 0,
      counts: { ready: q.ready, scheduled: q.scheduled, running: 0 },
      oldestWaitingAt: null,
      tasks: null,
    })),
    totals: { counts: { ready: 0, scheduled: 0, running: 0 }, dead: 0 },
    workers: { alive: 1, stale: 0 },
    readAt: '2026-12-03T10:00:00.000Z',
    model: {
      system: 'potatoq',
      states: STATES,
      actions,
      ...(opts.movable
        ? {
            calls: {
              model: 'celery-compatible',
              export: { does: 'Task name, args and kwargs.' },
              import: { does: 'Enqueued under its own id.' },
            },
          }
        : {}),
    },
  } as unknown as BrokerOverview;
}

export function deadLetter(id: string, over: Partial<DeadSummary> = {}): DeadSummary {
  return {
    id,
    queue: 'emails',
    task: 'app.tasks.send_email',
    summary: 'SMTPServerDisconnected: Connection unexpectedly closed',
    diedAt: '2026-12-03T09:58:00.000Z',
    preview: { kind: 'native', text: "send_email('a@example.com')" },
    ...over,
  };
}

/** A dead-letter group of `count` letters of deadLetter()'s error. */
export function deadGroup(fingerprint: string, over: Partial<DeadGroup> = {}): DeadGroup {
  return {
    fingerprint,
    pattern: 'SMTPServerDisconnected: Connection unexpectedly closed',
    excType: 'SMTPServerDisconnected',
    frame: 'app/tasks.py in send_email',
    example: { id: 'dl-1', summary: 'SMTPServerDisconnected: Connection unexpectedly closed' },
    count: 3,
    tasks: ['app.tasks.send_email'],
    queues: ['emails'],
    newestAt: '2026-12-03T09:58:00.000Z',
    oldestAt: '2026-12-03T09:00:00.000Z',
    ...over,
  };
}

export const page = <T>(items: T[], nextCursor: string | null = null): Page<T> => ({ items, nextCursor });

export function message(over: Partial<MessageView> = {}): MessageView {
  return {
    format: 'potatoq',
    task: 'app.tasks.send_email',
    id: 'dl-1',
    queue: 'emails',
    args: { t: 'list', items: [{ t: 'str', v: 'a@example.com' }] },
    kwargs: {
      t: 'dict',
      entries: [['when', { t: 'datetime', v: '2026-12-01T09:00:00+00:00', aware: true, epochMs: 1796115600000 }]],
    },
    fields: [{ name: 'priority', value: { t: 'int', v: '0' } }],
    headers: [],
    flags: [],
    foreign: null,
    value: null,
    ...over,
  };
}

export function deadDetail(id: string, over: Partial<DeadDetail> = {}): DeadDetail {
  return {
    ...deadLetter(id),
    reason: 'Traceback (most recent call last):\nSMTPServerDisconnected: Connection unexpectedly closed',
    payload: message({ id }),
    raw: '{}',
    rawSize: 2,
    rawTruncated: false,
    result: null,
    ...over,
  };
}

export function actionResult(
  action: ActionResult['action'],
  brokerId: string,
  ok: string[],
  failed: ActionResult['failed'] = [],
): ActionResult {
  return {
    action,
    brokerId,
    requested: ok.length + failed.length,
    succeeded: ok.map((id) => ({ id, outcome: 'ok', message: 'done' })),
    failed,
  };
}

export function bulkJob(over: Partial<BulkJobView> & Pick<BulkJobView, 'state'>): BulkJobView {
  const total = over.progress?.total ?? 3;
  return {
    id: 'bulk-1',
    brokerId: 'b1',
    action: 'replay',
    filter: { queue: 'emails' },
    snapshotAt: '2026-12-03T10:00:00.000Z',
    capped: false,
    searchedNewest: null,
    expectedCount: null,
    rate: null,
    batchSize: 100,
    progress: { total, processed: 0, succeeded: 0, skipped: 0, failed: 0, batches: 0 },
    startedAt: null,
    finishedAt: null,
    error: null,
    stoppedAt: null,
    succeededSample: [],
    skippedOutcomes: [],
    failedOutcomes: [],
    outcomesTruncated: false,
    ...over,
  };
}

export function moveTarget(id: string, why?: string): MoveTargetView {
  return { id, name: `${id} (Celery)`, pairing: why ? { on: false, why } : { on: true, does: `Enqueued on ${id} as a Celery task.` } };
}
