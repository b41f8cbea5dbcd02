// `Message.decode` as a classifier that never throws: the same order of checks, the same
// reason texts (what a RabbitMQ worker writes as the dead letter's reason), plus what the
// operator should do about it.
import { decodeCeleryEnvelope, emptyCeleryInfo, fillFromBody } from './celery';
import { parseJson, PyJsonError, type TagWatch } from '@/lib/pyvalues/json';
import { pyToTyped, type TypedLimits } from '@/lib/pyvalues/typed';
import { pyStr } from '@/lib/pyvalues/pyrepr';
import { type PyVal, pyTypeName } from '@/lib/pyvalues/pyval';
import { decodeTags } from './tags';
import type { CeleryInfo, DecodedPayload, ForeignKind, ForeignMessage } from './types';
import type { TypedValue } from '@/lib/brokers/typed-value';
import { decodeUtf8 } from '@/lib/pyvalues/utf8';

/** Message's dataclass fields in declaration order (26.1a8). */
export const MESSAGE_FIELDS = [
  'task',
  'args',
  'kwargs',
  'id',
  'queue',
  'priority',
  'eta',
  'expires',
  'retries',
  'root_id',
  'parent_id',
  'group_id',
  'group_index',
  'options',
  'link',
  'link_error',
  'chord',
  'ignore_result',
  'headers',
  'enqueued_at',
  'v',
] as const;
const KNOWN = new Set<string>(MESSAGE_FIELDS);

export const NOT_OURS = {
  celery:
    'This is a Celery (protocol 2) message, not a potatoq one. potatoq has its own message format: send it with potatoq, or see the message format docs for other languages.',
  kombu: 'This is a Celery/kombu message envelope, not a potatoq message. See the message format docs.',
  noId: "Not a potatoq message: it has no 'id'. Producers must set a unique id (e.g. a UUID).",
  other: (type: string) => `Not a potatoq message: expected a JSON object with 'task' and 'id' fields, got ${type}.`,
};

const CRASH = 'On SQLite, PostgreSQL and Redis a worker that claims it crashes its task slot, so delete it rather than replay it.';
const ADVICE: Record<ForeignKind, string> = {
  'celery-v2': `Sent by a Celery producer: potatoq can't run it. Send it to a Celery worker or re-send it with potatoq. ${CRASH}`,
  'kombu-envelope': `A Celery/kombu envelope: potatoq can't run it. Re-send the task with potatoq. ${CRASH}`,
  'no-id': `The producer left out 'id'. Fix the producer to set a unique id (a UUID); re-enqueue this task from the console if it must run. ${CRASH}`,
  'not-object': `Not a task message. Find the producer that wrote it. ${CRASH}`,
  'newer-protocol': `Written by a newer potatoq: upgrade potatoq on the workers first; replaying it to these workers fails again. ${CRASH}`,
  'invalid-json': `Not JSON potatoq can read (or nested deeper than Python's recursion limit). Fix the producer. ${CRASH}`,
  'invalid-utf8': `Not UTF-8 text. Fix the producer's encoding. ${CRASH}`,
  'tag-error': `A tagged value potatoq's decoder fails on ({"__potatoq__": …}). Fix the producer. ${CRASH}`,
};

const PREVIEW_LIMITS: TypedLimits = { maxDepth: 64, maxString: 100_000, maxItems: 10_000 };

function foreign(kind: ForeignKind, reason: string, value: TypedValue | null, extra: Partial<ForeignMessage> = {}): ForeignMessage {
  return {
    kind: 'foreign',
    foreign: kind,
    reason,
    advice: ADVICE[kind],
    crashesWorkers: true,
    task: null,
    id: null,
    celery: null,
    value,
    ...extra,
  };
}

const field = (d: Extract<PyVal, { k: 'dict' }>, key: string) => d.entries.find((e) => e[0] === key)?.[1];
const strOf = (v: PyVal | undefined) => (v === undefined || v.k === 'none' ? null : pyStr(v));
const numOf = (v: PyVal | undefined) => (v?.k === 'int' ? Number(v.text) : v?.k === 'float' ? v.v : v?.k === 'bool' ? Number(v.v) : null);

/** `_not_ours(data)`: which foreign kind, and potatoq's words for it. */
function notOurs(v: PyVal): { kind: ForeignKind; reason: string; celery: CeleryInfo | null } {
  if (v.k === 'list' && v.items.length === 3 && v.items[2]?.k === 'dict') {
    return { kind: 'celery-v2', reason: NOT_OURS.celery, celery: fillFromBody(emptyCeleryInfo(), v) };
  }
  if (v.k === 'dict' && field(v, 'body') !== undefined && field(v, 'headers') !== undefined) {
    return { kind: 'kombu-envelope', reason: NOT_OURS.kombu, celery: decodeCeleryEnvelope(v) };
  }
  if (v.k === 'dict' && field(v, 'task') !== undefined) return { kind: 'no-id', reason: NOT_OURS.noId, celery: null };
  return { kind: 'not-object', reason: NOT_OURS.other(pyTypeName(v)), celery: null };
}

/** Classifies and decodes a stored payload exactly as `Message.decode` would. Never throws. */
export function decodePayload(raw: string | Uint8Array, limits: TypedLimits = PREVIEW_LIMITS): DecodedPayload {
  let text: string;
  if (typeof raw === 'string') text = raw;
  else {
    const r = decodeUtf8(raw);
    if (!r.ok) return foreign('invalid-utf8', r.reason, null);
    text = r.text;
  }
  let decoded;
  const tagLike: TagWatch = { keys: ['__potatoq__', 'v'], seen: [] };
  try {
    decoded = decodeTags(parseJson(text, tagLike));
  } catch (e) {
    // Python's hook runs while parsing: a crashing tag before the syntax error raises first.
    for (const node of tagLike.seen) {
      const crash = decodeTags(node).crash;
      if (crash !== null) return foreign('tag-error', crash, null);
    }
    return foreign('invalid-json', e instanceof PyJsonError || e instanceof Error ? e.message : String(e), null);
  }
  const v = decoded.value;
  if (decoded.crash !== null) {
    return foreign(
      'tag-error',
      decoded.crash,
      pyToTyped(v, limits),
      v.k === 'dict' ? { task: strOf(field(v, 'task')), id: strOf(field(v, 'id')) } : {},
    );
  }
  if (v.k !== 'dict' || field(v, 'task') === undefined || field(v, 'id') === undefined) {
    const { kind, reason, celery } = notOurs(v);
    const task = v.k === 'dict' ? strOf(field(v, 'task')) : (celery?.task ?? null);
    const id = v.k === 'dict' ? strOf(field(v, 'id')) : (celery?.id ?? null);
    return foreign(kind, reason, pyToTyped(v, limits), { task: task ?? celery?.task ?? null, id: id ?? celery?.id ?? null, celery });
  }
  const version = field(v, 'v') ?? { k: 'int', text: '1' };
  const isInt = version.k === 'int' || version.k === 'bool';
  if (!isInt || (version.k === 'int' && BigInt(version.text) > 1n)) {
    const reason = `Message ${pyStr(field(v, 'id') as PyVal)} uses protocol v${pyStr(version)}, this worker understands up to v1: upgrade potatoq on the workers first.`;
    return foreign('newer-protocol', reason, pyToTyped(v, limits), { task: strOf(field(v, 'task')), id: strOf(field(v, 'id')) });
  }
  const fields: Array<[string, TypedValue]> = v.entries.map(([k, x]) => [k, pyToTyped(x, limits)]);
  const get = (k: string) => fields.find((e) => e[0] === k)?.[1];
  const queue = field(v, 'queue');
  return {
    kind: 'potatoq',
    task: strOf(field(v, 'task')) ?? 'None',
    id: strOf(field(v, 'id')) ?? 'None',
    v: version.k === 'bool' ? (version.v ? 'True' : 'False') : version.text,
    queue: queue === undefined ? 'default' : queue.k === 'str' ? queue.v : null,
    priority: strOf(field(v, 'priority')),
    eta: numOf(field(v, 'eta')),
    expires: numOf(field(v, 'expires')),
    enqueuedAt: numOf(field(v, 'enqueued_at')),
    retries: strOf(field(v, 'retries')),
    args: get('args') ?? { t: 'list', items: [] },
    kwargs: get('kwargs') ?? { t: 'dict', entries: [] },
    fields,
    ignoredFields: v.entries.map((e) => e[0]).filter((k) => !KNOWN.has(k)),
    flags: [...decoded.flags],
  };
}
