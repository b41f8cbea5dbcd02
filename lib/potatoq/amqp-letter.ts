import 'server-only';
import type { Message } from 'amqplib';
import { decodeCeleryMessage, decodePayload } from './index';
import { reasonSummary } from '@/lib/pyvalues/reason';
import type { DecodedPayload } from './types';
import type { DeadDetail, DeadSummary, ResultRecordDto } from '@/lib/brokers/schema';
import { RAW_LIMIT } from '@/lib/brokers/message-view';
import { messageView, previewCeleryConversion, previewOf } from './view';
import { compareDead, deathReason, deathTimeMs } from '@/lib/transports/amqp/death';

/** One message held from a `<queue>.dlq`, mapped the way `potatoq dead list` reads it. */
export interface Letter {
  id: string;
  /** The queue the letter belongs to (its DLQ's name without `.dlq`). */
  queue: string;
  task: string;
  reason: string | null;
  /** potatoq-died (ms), else the broker's x-death time; null when neither says. */
  diedAtMs: number | null;
  payload: DecodedPayload;
  body: Buffer;
  headers: Record<string, unknown>;
}

const text = (v: unknown): string | null =>
  typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('utf8') : typeof v === 'number' ? String(v) : null;

/** potatoq's reason (`potatoq-reason`), else the broker's `x-death[0].reason` with where and when. */
export function reasonOf(h: Record<string, unknown>): { reason: string | null; diedAtMs: number | null } {
  const own = text(h['potatoq-reason']);
  const died = typeof h['potatoq-died'] === 'number' ? (h['potatoq-died'] as number) : null;
  return { reason: own ?? deathReason(h), diedAtMs: died ?? deathTimeMs(h) };
}

export function toLetter(m: Message, queue: string): Letter {
  const headers = (m.properties.headers ?? {}) as Record<string, unknown>;
  let payload = decodePayload(m.content);
  if (payload.kind === 'foreign' && (payload.foreign === 'celery-v2' || (payload.celery === null && typeof headers.task === 'string'))) {
    // Celery protocol 2 carries the task name and id in AMQP headers, args/kwargs in the body.
    const celery = decodeCeleryMessage(headers, m.content);
    payload = { ...payload, celery, task: celery.task ?? payload.task, id: celery.id ?? payload.id };
  }
  // On RabbitMQ potatoq dead-letters what it can't decode instead of crashing on it.
  if (payload.kind === 'foreign') payload = { ...payload, crashesWorkers: false };
  const { reason, diedAtMs } = reasonOf(headers);
  const id = text(m.properties.messageId) ?? payload.id ?? text(headers.id) ?? '';
  const task = payload.task ?? text(headers.task) ?? '';
  return { id, queue, task, reason, diedAtMs, payload, body: m.content, headers };
}

/** The payload of a letter not decoded yet (compared by identity). */
const UNDECODED = { kind: 'foreign' } as DecodedPayload;

/**
 * The letter as far as sorting and the filters on the id or the group need it: the message id
 * and the headers (`potatoq-reason`, `x-death`), the body not decoded (`task` empty); `toLetter`
 * when there is no message id. `decoded` gives the full letter later (for the page shown).
 */
export function lightLetter(m: Message, queue: string): Letter {
  const mid: unknown = m.properties.messageId;
  if (typeof mid !== 'string') return toLetter(m, queue);
  const headers = (m.properties.headers ?? {}) as Record<string, unknown>;
  const { reason, diedAtMs } = reasonOf(headers);
  return { id: mid, queue, task: '', reason, diedAtMs, payload: UNDECODED, body: m.content, headers };
}

/** A `lightLetter` decoded in full (a full one as it is). */
export function decoded(l: Letter): Letter {
  if (l.payload !== UNDECODED) return l;
  return toLetter({ content: l.body, properties: { messageId: l.id, headers: l.headers } } as unknown as Message, l.queue);
}

export function summaryOf(l: Letter): DeadSummary {
  return {
    id: l.id,
    queue: l.queue,
    task: l.task,
    summary: reasonSummary(l.reason),
    diedAt: l.diedAtMs === null ? null : new Date(l.diedAtMs).toISOString(),
    preview: previewOf(l.payload, 160),
  };
}

export function detailOf(l: Letter, result: ResultRecordDto | null): DeadDetail {
  const raw = l.body.toString('utf8');
  const rawTruncated = raw.length > RAW_LIMIT;
  const detail: DeadDetail = {
    ...summaryOf(l),
    reason: l.reason,
    payload: messageView(l.payload),
    raw: rawTruncated ? raw.slice(0, RAW_LIMIT) : raw,
    rawSize: l.body.length,
    rawTruncated,
    result,
  };
  // A Celery letter can be rebuilt as a potatoq task and replayed: show what would be sent.
  if (l.payload.kind !== 'foreign' || l.payload.foreign !== 'celery-v2') return detail;
  return { ...detail, conversion: previewCeleryConversion({ raw, rawTruncated, queue: l.queue, id: l.id }, l.payload) };
}

/** Newest first (died_at DESC, unknown times last), then id. */
export const compareLetters: (a: Letter, b: Letter) => number = compareDead;
