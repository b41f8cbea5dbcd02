import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { reasonSummaryFull } from '@/lib/pyvalues/reason';
import { fingerprintError, type Fingerprint } from '@/lib/triage/fingerprint';
import type { GroupedLetter } from '@/lib/triage/groups';
import type { AmqpLink } from '@/lib/transports/amqp/connection';
import { readQueue } from '@/lib/transports/amqp/dlq-read';
import type { DeepDlq } from '@/lib/transports/amqp/dlq-notes';
import { compareLetters, detailOf, summaryOf, toLetter, type Letter } from './letter';
import type { DeadDetail, DeadListQuery, DeadSummary, Page } from '@/lib/brokers/schema';
import { inRange } from '@/lib/brokers/time-range';

// A user-configured dead-letter queue of a Celery app on RabbitMQ (a task queue declared with
// x-dead-letter-exchange; a task rejected with requeue=False lands there, and Celery 5.7 writes
// a FAILURE record for it too unless the task ignores results). Read the way the potatoq RabbitMQ 4 adapter reads its DLQs
// (readQueue, lib/transports/amqp/dlq-read.ts): under the browse lock (in process and across consoles, the exclusive
// `potatoq-console.browsing.<dlq>` queue), by a consumer without ack, every message returned in
// its place at the end; overlapping reads share one browse. Actions browse with basic.get
// (dlq-actions.ts).

/** Why the DLQ is not browsed on RabbitMQ 3.x. */
export const CELERY_V3_DLQ_REFUSAL =
  'RabbitMQ 3.x: showing a dead-letter queue means taking its messages and requeueing them, which 3.x counts as a delivery (a quorum queue with a delivery limit drops them); the console browses deadLetterQueue only on RabbitMQ 4. Remove deadLetterQueue to see the FAILURE records only';

export interface CeleryDlq {
  link: AmqpLink;
  lockKey: string;
  name: string;
  limit: number;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('utf8') : null);

/** RabbitMQ's latest death of a message (`x-death[0]`, newest first): where and why it died. */
export interface Death {
  queue: string | null;
  reason: string | null;
  exchange: string | null;
  routingKeys: string[];
}

export function deathOf(headers: Record<string, unknown>): Death | null {
  const deaths = Array.isArray(headers['x-death']) ? (headers['x-death'] as Array<Record<string, unknown>>) : [];
  const d = deaths[0];
  if (!d) return null;
  const keys = Array.isArray(d['routing-keys']) ? d['routing-keys'].map(text).filter((k): k is string => k !== null) : [];
  return { queue: text(d.queue), reason: text(d.reason), exchange: text(d.exchange), routingKeys: keys };
}

/** A message of the DLQ as a letter: under the queue it died in (x-death[0].queue), else the DLQ's name. */
export function celeryLetter(m: Parameters<typeof toLetter>[0], dlq: string): Letter {
  const l = toLetter(m, dlq);
  return { ...l, queue: deathOf(l.headers)?.queue ?? dlq };
}

/** The error group of a letter with no FAILURE record: RabbitMQ's reason (`rejected`, `expired`,
 *  `maxlen`, `delivery_limit`); a letter with a record is grouped by the record's exception. */
export function letterFingerprint(l: Letter): Fingerprint {
  const why = deathOf(l.headers)?.reason ?? 'no x-death header';
  return fingerprintError({ type: null, message: `Dead-lettered by RabbitMQ (${why})`, frames: [] });
}

/** The letters without a FAILURE record, as error-group entries. */
export function letterEntries(letters: Letter[], recorded: Set<string>, q: { queue?: string }): GroupedLetter[] {
  return letters
    .filter((l) => !recorded.has(l.id) && (!q.queue || l.queue === q.queue))
    .map((l) => ({
      id: l.id,
      task: l.task,
      queue: l.queue,
      diedAtMs: l.diedAtMs,
      summary: reasonSummaryFull(l.reason),
      fp: letterFingerprint(l),
    }));
}

async function requireV4(d: CeleryDlq): Promise<void> {
  const server = await d.link.serverInfo();
  if (server.major < 4) throw new ConsoleError('Unsupported', CELERY_V3_DLQ_REFUSAL);
}

/** Every letter of the DLQ (up to `limit`), newest first; each is back in the DLQ when this returns. */
export async function readCeleryLetters(d: CeleryDlq, deep?: DeepDlq[]): Promise<Letter[]> {
  await requireV4(d);
  const depth = await d.link.checkQueue(d.name);
  if (!depth) return [];
  if (deep && depth.messages > d.limit) deep.push({ dlq: d.name, messages: depth.messages });
  const letters = await readQueue(d.link, d.lockKey, d.name, d.limit, (m) => celeryLetter(m, d.name));
  return letters.sort(compareLetters);
}

function matches(l: Letter, q: DeadListQuery): boolean {
  if (q.queue && l.queue !== q.queue) return false;
  if (q.task && l.task !== q.task) return false;
  if (q.id && !l.id.startsWith(q.id)) return false;
  if (q.group !== undefined && letterFingerprint(l).key !== q.group) return false;
  if (q.q) {
    const needle = q.q.toLowerCase();
    const hay = (q.qIn === 'reason' ? (l.reason ?? '') : `${l.id}\n${l.task}\n${l.reason ?? ''}\n${l.body.toString('utf8')}`).toLowerCase();
    if (!hay.includes(needle)) return false;
  }
  return true;
}

const timeOf = (s: DeadSummary) => (s.diedAt === null ? -Infinity : Date.parse(s.diedAt));
const order = (a: DeadSummary, b: DeadSummary) =>
  timeOf(a) !== timeOf(b) ? timeOf(b) - timeOf(a) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
const cursorOf = (s: DeadSummary) => Buffer.from(JSON.stringify(['celery-dlq', s.diedAt, s.id])).toString('base64url');

/** One page of FAILURE records (`failures`: all of them that match; `recorded`: the ids of every
 *  FAILURE record, matching or not) and DLQ letters, newest first. */
export function mergeDead(failures: DeadSummary[], recorded: Set<string>, letters: Letter[], q: DeadListQuery): Page<DeadSummary> {
  // Celery 5.7 records a FAILURE for a task it rejects without requeue: that task shows once, with
  // its record's exception (and error group); replay and discard act on its message (dlq-actions.ts).
  // The failures came filtered by the range from the index; the DLQ's own letters by their died time here.
  const own = letters
    .filter((l) => !recorded.has(l.id) && matches(l, q))
    .map(summaryOf)
    .filter((s) => inRange(s.diedAt === null ? null : Date.parse(s.diedAt), q));
  const all = [...failures, ...own].sort(order);
  let start = 0;
  if (q.cursor) {
    try {
      const [tag, diedAt, id] = JSON.parse(Buffer.from(q.cursor, 'base64url').toString()) as [string, string | null, string];
      if (tag !== 'celery-dlq') throw new Error('not ours');
      const probe = { diedAt, id } as DeadSummary;
      start = all.findIndex((s) => order(s, probe) > 0);
      if (start < 0) start = all.length;
    } catch {
      throw new ConsoleError('InvalidInput', 'cursor: not a cursor of this list');
    }
  }
  const page = all.slice(start, start + q.limit);
  const more = start + q.limit < all.length;
  return { items: page, nextCursor: more && page.length ? cursorOf(page[page.length - 1]!) : null };
}

/** Why a letter whose message is in the DLQ is not replayed with edits (the adapter refuses in
 *  these words; the detail says it beforehand). */
export const editedReplayRefusal = (dlq: string) =>
  `its message is in the dead-letter queue ${dlq}, which an edited replay would leave there to run again: replay it without edits`;

/** A letter of the DLQ as a dead-letter detail (null when it is not there), with the task's
 *  FAILURE record when there is one: its exception is the reason, the record its result. */
export async function getCeleryLetter(d: CeleryDlq, id: string, record: DeadDetail | null): Promise<DeadDetail | null> {
  const l = (await readCeleryLetters(d)).find((x) => x.id === id);
  if (!l) return record;
  const unavailable = { replayEdited: editedReplayRefusal(d.name) };
  if (!record) return { ...detailOf(l, null), unavailable };
  const detail = detailOf({ ...l, reason: record.reason }, record.result);
  return { ...detail, summary: record.summary, diedAt: record.diedAt ?? detail.diedAt, unavailable };
}
