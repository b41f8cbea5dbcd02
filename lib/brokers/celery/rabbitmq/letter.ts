import 'server-only';
import type { Message } from 'amqplib';
import { decodeCeleryMessage, emptyCeleryInfo, fillFromV1Body } from '@/lib/celery-protocol/message';
import { decodeKombu } from '@/lib/celery-protocol/kombu-json';
import { RAW_LIMIT } from '@/lib/brokers/message-view';
import type { DeadDetail, DeadSummary, ResultRecordDto } from '@/lib/brokers/schema';
import { parseJson } from '@/lib/pyvalues/json';
import type { PyVal } from '@/lib/pyvalues/pyval';
import { reasonSummary } from '@/lib/pyvalues/reason';
import { decodeUtf8 } from '@/lib/pyvalues/utf8';
import { compareDead, deathReason, deathTimeMs } from '@/lib/transports/amqp/death';
import { envelopePreview, envelopeView, isoMs, type CeleryEnvelope } from '../message';

// One message of a Celery app's dead-letter queue, read as a Celery worker reads it: the task
// name and id from the AMQP headers (protocol 2; a protocol 1 body dict carries them itself),
// the body `[args, kwargs, embed]` with kombu's JSON, and RabbitMQ's x-death for why and when.

export interface Letter {
  id: string;
  /** The DLQ's name (celeryLetter in dlq.ts puts the queue it died in). */
  queue: string;
  task: string;
  reason: string | null;
  diedAtMs: number | null;
  body: Buffer;
  headers: Record<string, unknown>;
  message: CeleryEnvelope;
}

const text = (v: unknown): string | null =>
  typeof v === 'string' ? v : Buffer.isBuffer(v) ? v.toString('utf8') : typeof v === 'number' ? String(v) : null;

/** An AMQP header value as the Python value a Celery worker gets (RabbitMQ's own `x-` headers left out). */
function headerPy(v: unknown, depth = 0): PyVal {
  if (v === null || v === undefined) return { k: 'none' };
  if (typeof v === 'string') return { k: 'str', v };
  if (typeof v === 'boolean') return { k: 'bool', v };
  if (typeof v === 'bigint') return { k: 'int', text: v.toString() };
  if (typeof v === 'number') return Number.isInteger(v) ? { k: 'int', text: String(v) } : { k: 'float', v };
  if (Buffer.isBuffer(v)) return { k: 'str', v: v.toString('utf8') };
  if (v instanceof Date) return { k: 'str', v: v.toISOString() };
  if (depth > 8) return { k: 'str', v: '…' };
  if (Array.isArray(v)) return { k: 'list', items: v.map((x) => headerPy(x, depth + 1)) };
  if (typeof v === 'object') return { k: 'dict', entries: Object.entries(v).map(([k, x]): [string, PyVal] => [k, headerPy(x, depth + 1)]) };
  return { k: 'str', v: String(v) };
}

/** The message as the Celery views read it (what parseEnvelope gives for a kombu envelope). */
function celeryMessage(m: Message): CeleryEnvelope {
  const headers = (m.properties.headers ?? {}) as Record<string, unknown>;
  const contentType = text(m.properties.contentType);
  let body: PyVal | null = null;
  let crash: string | null = null;
  const utf8 = decodeUtf8(m.content);
  if (!utf8.ok) crash = `the body is not UTF-8 text: ${utf8.reason}`;
  else {
    try {
      const d = decodeKombu(parseJson(utf8.text));
      body = d.value;
      crash = d.crash;
    } catch (e) {
      crash = `the body is not JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  let info = decodeCeleryMessage(headers, body, () => null);
  if (info.task === null && body?.k === 'dict') info = fillFromV1Body({ ...emptyCeleryInfo(), id: info.id }, body);
  const protocol = typeof headers.task === 'string' ? 2 : info.task !== null ? 1 : null;
  let problem: string | null = null;
  if (contentType !== 'application/json') problem = `content type ${contentType ?? '(none)'}: the console decodes JSON messages only`;
  else if (crash) problem = crash;
  else if (protocol === null) problem = 'no task name in the headers or the body: not a Celery task message';
  const priority = m.properties.priority as unknown;
  return {
    raw: m.content.toString('utf8'),
    size: m.content.length,
    info,
    protocol,
    priority: typeof priority === 'number' ? priority : null,
    exchange: null,
    routingKey: null,
    deliveryTag: null,
    contentType,
    headers: Object.entries(headers)
      .filter(([k]) => !k.startsWith('x-'))
      .map(([k, v]): [string, PyVal] => [k, headerPy(v)]),
    etaMs: isoMs(info.eta),
    problem,
    bodyNote: null,
    parsed: m.content.length,
  };
}

export function toLetter(m: Message, queue: string): Letter {
  const headers = (m.properties.headers ?? {}) as Record<string, unknown>;
  const message = celeryMessage(m);
  const id = text(m.properties.messageId) ?? message.info.id ?? text(headers.id) ?? '';
  const task = message.info.task ?? text(headers.task) ?? '';
  return { id, queue, task, reason: deathReason(headers), diedAtMs: deathTimeMs(headers), body: m.content, headers, message };
}

export function summaryOf(l: Letter): DeadSummary {
  return {
    id: l.id,
    queue: l.queue,
    task: l.task,
    summary: reasonSummary(l.reason),
    diedAt: l.diedAtMs === null ? null : new Date(l.diedAtMs).toISOString(),
    preview: envelopePreview(l.message, 160),
  };
}

export function detailOf(l: Letter, result: ResultRecordDto | null): DeadDetail {
  const raw = l.message.raw;
  const rawTruncated = raw.length > RAW_LIMIT;
  return {
    ...summaryOf(l),
    reason: l.reason,
    payload: envelopeView(l.message, null),
    raw: rawTruncated ? raw.slice(0, RAW_LIMIT) : raw,
    rawSize: l.body.length,
    rawTruncated,
    result,
  };
}

/** Newest first (died time DESC, unknown times last), then id. */
export const compareLetters: (a: Letter, b: Letter) => number = compareDead;
