import 'server-only';
import { workerTally } from '@/lib/brokers/kit/overview';
import type { Message } from 'amqplib';
import { reasonSummary } from '@/lib/pyvalues';
import { DeadGrouper } from '@/lib/triage/groups';
import { reasonFingerprint } from '@/lib/triage/reason-fingerprint';
import type {
  BrokerOverview,
  Capabilities,
  DeadDetail,
  DeadGroups,
  DeadHistogram,
  DeadHistogramQuery,
  DeadFilter,
  DeadGroupsQuery,
  DeadListQuery,
  DeadSummary,
  Page,
  QueueStats,
} from '@/lib/brokers/schema';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';
import { isNotFound } from '@/lib/transports/amqp/connection';
import type { MgmtQueue } from '@/lib/transports/amqp/management';
import { discoverQueues, requireBrowsable, type RabbitCtx } from './context';
import { readDlq } from './dlq';
import { groupsNote, windowNote, type DeepDlq } from '@/lib/transports/amqp/dlq-notes';
import { compareLetters, decoded, detailOf, lightLetter, summaryOf, toLetter, type Letter } from '@/lib/potatoq/amqp-letter';
import { DELAY_QUEUES, dlqOf } from './topology';
import { countIn, pqCounts, type CountKey } from '../counts';
import { bucketTimes } from '@/lib/trends/schema';
import { inRange } from '@/lib/brokers/time-range';

/** Every letter of the given queues' DLQs (each DLQ browsed and released in turn). With
 *  `busy`, a DLQ another console is browsing (a bulk redrive holds one for minutes) is skipped
 *  and its error collected there, instead of failing the read of every other DLQ. */
export async function readLetters(
  ctx: RabbitCtx,
  queue?: string,
  busy?: ConsoleError[],
  map: (m: Message, queue: string) => Letter = toLetter,
  deep?: DeepDlq[],
): Promise<Letter[]> {
  await requireBrowsable(ctx);
  const names = queue ? [queue] : (await discoverQueues(ctx)).names;
  const exists = await ctx.link.checkMany(names.map(dlqOf));
  const out: Letter[] = [];
  for (const q of names) {
    const depth = exists.get(dlqOf(q));
    if (!depth) continue;
    if (deep && depth.messages > ctx.browseLimit) deep.push({ dlq: dlqOf(q), messages: depth.messages });
    // A DLQ deleted since the check (its letters went with it) is read as empty, not as an error
    // that hides every other queue's letters.
    const letters = await readDlq(ctx.link, ctx.lockKey, q, ctx.browseLimit, (m) => map(m, q)).catch((e: unknown) => {
      if (isNotFound(e)) return [];
      if (busy && isConsoleError(e) && e.code === 'Conflict') {
        busy.push(e);
        return [];
      }
      throw e;
    });
    out.push(...letters);
  }
  return out.sort(compareLetters);
}

/** The dead-letter list's filter (the bulk snapshot's too): time range, task, id prefix, group, text. */
export function matches(l: Letter, q: DeadFilter): boolean {
  // The died time is in each letter's headers: a range is checked over the browsed letters.
  if (!inRange(l.diedAtMs, q)) return false;
  if (q.task && l.task !== q.task) return false;
  if (q.id && !l.id.startsWith(q.id)) return false;
  if (q.group !== undefined && reasonFingerprint(l.reason).key !== q.group) return false;
  if (q.q) {
    const needle = q.q.toLowerCase();
    const hay = (q.qIn === 'reason' ? (l.reason ?? '') : `${l.id}\n${l.task}\n${l.reason ?? ''}\n${l.body.toString('utf8')}`).toLowerCase();
    if (!hay.includes(needle)) return false;
  }
  return true;
}

const cursorOf = (l: Letter) => Buffer.from(JSON.stringify([l.diedAtMs, l.id])).toString('base64url');

export async function listDead(ctx: RabbitCtx, q: DeadListQuery): Promise<Page<DeadSummary>> {
  // Without a task or text filter only the page's letters are decoded (sorting needs the headers).
  const light = !q.task && !q.q;
  const deep: DeepDlq[] = [];
  const all = (await readLetters(ctx, q.queue, undefined, light ? lightLetter : toLetter, deep)).filter((l) => matches(l, q));
  let start = 0;
  if (q.cursor) {
    try {
      const [ms, id] = JSON.parse(Buffer.from(q.cursor, 'base64url').toString()) as [number | null, string];
      const probe = { diedAtMs: ms, id } as Letter;
      start = all.findIndex((l) => compareLetters(l, probe) > 0);
      if (start < 0) start = all.length;
    } catch {
      start = 0;
    }
  }
  const page = all.slice(start, start + q.limit);
  const more = start + q.limit < all.length;
  return {
    items: page.map((l) => summaryOf(decoded(l))),
    nextCursor: more && page.length ? cursorOf(page[page.length - 1]!) : null,
    ...(deep.length ? { window: windowNote(deep, ctx.browseLimit) } : {}),
  };
}

/** The browsed letters grouped; a time range is compared here, over the same browse. */
export async function deadGroups(ctx: RabbitCtx, q: DeadGroupsQuery): Promise<DeadGroups> {
  const groups = new DeadGrouper(q);
  const deep: DeepDlq[] = [];
  for (const l of await readLetters(ctx, q.queue, undefined, toLetter, deep))
    groups.add({
      id: l.id,
      task: l.task,
      queue: l.queue,
      diedAtMs: l.diedAtMs,
      summary: reasonSummary(l.reason),
      fp: reasonFingerprint(l.reason),
    });
  return groups.answer(deep.length ? groupsNote(deep, ctx.browseLimit) : null);
}

/** Died times (`potatoq-died`, else x-death's) of the letters `deadGroups` reads, bucketed here:
 *  the same browse, so the same cost and the same refusal on RabbitMQ 3.x. */
export async function deadHistogram(ctx: RabbitCtx, q: DeadHistogramQuery): Promise<DeadHistogram> {
  const deep: DeepDlq[] = [];
  const read = await readLetters(ctx, q.queue, undefined, toLetter, deep);
  const letters = read.filter((l) => q.group === undefined || reasonFingerprint(l.reason).key === q.group);
  return {
    ...bucketTimes(
      letters.map((l) => l.diedAtMs),
      q,
    ),
    // A DLQ deeper than one read: the chart says how many letters it counted.
    scannedNewest: deep.length ? read.length : null,
  };
}

export async function getDead(ctx: RabbitCtx, id: string): Promise<DeadDetail | null> {
  // A letter in a DLQ nobody else is browsing is found while another DLQ is being redriven; "not
  // found" is only said when no DLQ was skipped, otherwise the skipped one's Conflict.
  const busy: ConsoleError[] = [];
  const found = (await readLetters(ctx, undefined, busy, lightLetter)).find((x) => x.id === id);
  if (!found && busy[0]) throw busy[0];
  if (!found) return null;
  const l = decoded(found);
  return detailOf(l, ctx.backend ? await ctx.backend.getResult(id) : null);
}

export async function taskNames(ctx: RabbitCtx): Promise<string[]> {
  const names = new Set<string>();
  if (ctx.backend) for (const n of await ctx.backend.registeredNames()) names.add(n);
  if ((await ctx.link.serverInfo()).major >= 4) for (const l of await readLetters(ctx)) if (l.task) names.add(l.task);
  return [...names].sort();
}

/** Per-queue counts: ready and dead from passive declares (exact, like `potatoq queues`),
 *  running (unacked) from the management API (its statistics may lag a few seconds). With the
 *  management API, a queue its listing (read just before) doesn't name is not declared: it
 *  doesn't exist, and each passive declare of a missing queue costs a channel (potatoq's 28
 *  delay queues exist only once something was delayed). */
export async function overview(ctx: RabbitCtx, capabilities: Capabilities): Promise<BrokerOverview> {
  const server = await ctx.link.serverInfo();
  const { names, mgmt } = await discoverQueues(ctx);
  const wanted = [...names, ...names.map(dlqOf), ...DELAY_QUEUES];
  // Two passive declares a queue are 10,000 round trips at 5,000 queues, past the read timeout:
  // past `exactCountsUpTo` the listing just read answers them (said on the card).
  const listed = mgmt && names.length > ctx.exactCountsUpTo ? mgmt : null;
  const [checks, workers] = await Promise.all([
    listed ? Promise.resolve(fromListing(listed)) : ctx.link.checkMany(mgmt ? wanted.filter((n) => mgmt.has(n)) : wanted),
    ctx.backend ? ctx.backend.workers(ctx.live) : Promise.resolve([]),
  ]);
  const queues: QueueStats[] = [];
  for (const name of names) {
    const main = checks.get(name);
    const dead = checks.get(dlqOf(name));
    if (!main && !dead) continue;
    queues.push({
      name,
      // Delayed tasks sit in potatoq's delay queues; their target queue is only in each
      // message's routing key, which can't be read without taking the message: scheduled null.
      counts: pqCounts(main ? main.messages : null, null, mgmt ? (mgmt.get(name)?.unacked ?? null) : null),
      dead: dead ? dead.messages : null,
      oldestWaitingAt: null,
      tasks: null,
      consumers: main ? main.consumers : null,
    });
  }
  const delayed = DELAY_QUEUES.map((n) => checks.get(n)).filter((c) => c !== undefined);
  const sum = (k: CountKey) => (queues.some((q) => countIn(q, k) === null) ? null : queues.reduce((n, q) => n + (countIn(q, k) ?? 0), 0));
  return {
    id: ctx.config.id,
    name: ctx.config.name,
    kind: 'rabbitmq',
    serverInfo: `${server.product} ${server.version} at ${ctx.target.display}${ctx.mgmt ? '' : ' (no management API: running counts unknown)'}${ctx.backend ? `; results in ${ctx.backend.kind}` : '; no result backend'}`,
    // Configured read-only is applied by the service; RabbitMQ itself is never read-only.
    readOnly: false,
    capabilities,
    queues,
    totals: {
      counts: pqCounts(
        sum('ready'),
        delayed.reduce((n, c) => n + (c?.messages ?? 0), 0),
        sum('running'),
      ),
      dead: sum('dead'),
    },
    workers: workerTally(workers),
    unknownWhy: {
      scheduled:
        `delayed tasks wait in potatoq's ${DELAY_QUEUES.length} potatoq.delay.Lnn queues (the scheduled total above counts them all); ` +
        'the queue each one is for is only in its routing key, which RabbitMQ shows only by taking the message, so there are no per-queue numbers',
      oldest: 'RabbitMQ does not say when its oldest ready message was enqueued without taking it',
      ...(ctx.mgmt ? {} : { running: 'no management API is configured: unacknowledged (running) counts are unknown' }),
    },
    ...(listed
      ? {
          warnings: [
            `${names.length.toLocaleString('en-US')} queues, more than ${ctx.exactCountsUpTo.toLocaleString('en-US')} (exactCountsUpTo): ready and dead counts are the management API's statistics (a few seconds old), not counted by passive declares`,
          ],
        }
      : {}),
    readAt: new Date().toISOString(),
  };
}

/** The listing's counts in the shape passive declares give: a work queue's ready messages; a
 *  DLQ's letters, those a browse holds unacknowledged included. */
function fromListing(listed: Map<string, MgmtQueue>): Map<string, { messages: number; consumers: number } | null> {
  const out = new Map<string, { messages: number; consumers: number } | null>();
  for (const [name, q] of listed) {
    const messages = name.endsWith('.dlq') ? (q.messages ?? q.ready) : q.ready;
    out.set(name, { messages: messages ?? 0, consumers: q.consumers ?? 0 });
  }
  return out;
}
