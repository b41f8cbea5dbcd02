import 'server-only';
import { celeryToPotatoq, previewPayload } from './index';
import { TAG_NOTES } from './tags';
import type { DecodedPayload, ForeignKind } from './types';
import type { Conversion, ForeignInfo, HeaderRow, MessageView, PayloadPreview } from '@/lib/brokers/schema';

// potatoq's decoded payload (this folder) mapped into the console's neutral message view. Its
// values are already the console's TypedValue (lib/pyvalues/typed.ts); only the message's
// shape is potatoq's.

const FOREIGN: Record<ForeignKind, string> = {
  'celery-v2': 'Celery protocol 2 message',
  'kombu-envelope': 'Celery/kombu envelope',
  'no-id': 'message without an id',
  'not-object': 'not a JSON object with task and id',
  'newer-protocol': 'newer potatoq protocol',
  'invalid-json': 'invalid JSON',
  'invalid-utf8': 'invalid UTF-8',
  'tag-error': "a tagged value potatoq's decoder fails on",
};

/** The neutral view of a payload potatoq decoded. */
export function messageView(d: DecodedPayload): MessageView {
  if (d.kind === 'potatoq') {
    return {
      format: 'potatoq',
      task: d.task,
      id: d.id,
      queue: d.queue,
      args: d.args,
      kwargs: d.kwargs,
      fields: d.fields.map(([name, v]) => ({
        name,
        value: v,
        ...(d.ignoredFields.includes(name) ? { ignored: 'potatoq 26.1a8 drops this field' } : {}),
        ...(name === 'args' || name === 'kwargs' ? { carriesArgs: true } : {}),
      })),
      headers: [],
      flags: [...new Set(d.flags)].map((f) => TAG_NOTES[f]),
      foreign: null,
      value: null,
    };
  }
  const c = d.celery;
  const foreign: ForeignInfo = {
    code: d.foreign,
    title: `Not a potatoq message: ${FOREIGN[d.foreign]}`,
    reasonBy: 'potatoq',
    reason: d.reason,
    advice: d.advice,
    crashesWorkers: d.crashesWorkers,
  };
  const headers: HeaderRow[] = [];
  if (c) {
    const rows: Array<[string, string | null, boolean?]> = [
      ['task', c.task],
      ['id', c.id],
      ['eta', c.eta],
      ['expires', c.expires],
      ['retries', c.retries],
      ['root_id', c.rootId],
      ['parent_id', c.parentId],
      ['group', c.groupId],
      ['argsrepr', c.argsrepr, true],
      ['kwargsrepr', c.kwargsrepr, true],
    ];
    for (const [name, text, carriesArgs] of rows) if (text !== null) headers.push({ name, text, ...(carriesArgs ? { carriesArgs } : {}) });
    for (const name of ['args', 'kwargs', 'callbacks', 'errbacks', 'chain', 'chord'] as const) {
      const v = c[name];
      if (v) headers.push({ name, value: v, ...(name === 'args' || name === 'kwargs' ? { carriesArgs: true } : {}) });
    }
  }
  return {
    format: d.foreign === 'celery-v2' || d.foreign === 'kombu-envelope' ? 'celery' : null,
    task: d.task ?? c?.task ?? null,
    id: d.id ?? c?.id ?? null,
    queue: null,
    args: c?.args ?? null,
    kwargs: c?.kwargs ?? null,
    fields: [],
    headers,
    ...(c ? { headersTitle: 'Celery headers (read-only)' } : {}),
    flags: [],
    foreign,
    value: d.value,
  };
}

/** The one-line list preview of a payload potatoq decoded. */
export function previewOf(d: DecodedPayload, max: number): PayloadPreview {
  const p = previewPayload(d, max);
  return p.kind === 'potatoq'
    ? { kind: 'native', text: p.text }
    : { kind: 'foreign', ...(p.foreign ? { foreign: p.foreign } : {}), text: p.text };
}

/** What converting a Celery protocol 2 letter would send (potatoq on RabbitMQ), or why it can't. */
export function previewCeleryConversion(
  letter: { raw: string; rawTruncated: boolean; queue: string; id: string },
  decoded: DecodedPayload,
): Conversion {
  const base = { from: 'Celery', to: 'potatoq' };
  if (letter.rawTruncated) return { ...base, ok: false, error: 'the message is too large to preview here' };
  try {
    const m = celeryToPotatoq(letter.raw, decoded, letter.queue, letter.id);
    return { ...base, ok: true, task: m.task, id: m.id, queue: m.queue, json: m.json, note: 'enqueued_at is set again when sent' };
  } catch (e) {
    return { ...base, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
