// Writing messages exactly as potatoq does: `Task.build_message` + `Message.to_wire` +
// `serialization.dumps` for new tasks (what `potatoq call` writes), and the SQL brokers'
// `requeue_dead` re-encoding (decode, `eta = None`, encode) for replays.
import { decodePayload, MESSAGE_FIELDS } from './decode';
import { pyDatetimeFromIso } from '@/lib/pyvalues/isodate';
import { type JsonNode, parseJson, PyJsonError } from '@/lib/pyvalues/json';
import { decimalKey } from '@/lib/pyvalues/pydecimal';
import { plainPy, type PyVal, totalSeconds } from '@/lib/pyvalues/pyval';
import { dumpsPy } from './dumps';
import { decodeTags } from './tags';
import { findBadTags } from './tag-check';

export class BuildMessageError extends Error {
  /** Field path -> message, the first one being `field` (a bad tagged value: `kwargs.when`). */
  readonly fields: Record<string, string>;
  constructor(
    readonly field: string,
    message: string,
    fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'BuildMessageError';
    this.fields = fields ?? { [field]: message };
  }
}

type Field = (typeof MESSAGE_FIELDS)[number];
const ALWAYS = new Set<Field>(['task', 'id', 'v', 'queue', 'enqueued_at']);
const EMPTY_LIST = new Set<Field>(['args', 'link', 'link_error']);
const EMPTY_DICT = new Set<Field>(['kwargs', 'options', 'headers']);
const ZERO = new Set<Field>(['priority', 'retries', 'ignore_result']);

/** `value == default` for a Message field, with Python's equality (0 == 0.0 == False == Decimal(0)). */
function isDefault(f: Field, v: PyVal): boolean {
  if (EMPTY_LIST.has(f)) return v.k === 'list' && v.items.length === 0;
  if (EMPTY_DICT.has(f)) return v.k === 'dict' && v.entries.length === 0;
  if (f === 'queue') return v.k === 'str' && v.v === 'default';
  if (ZERO.has(f)) {
    if (v.k === 'decimal' && v.dec.kind === 'snan') throw new Error("[<class 'decimal.InvalidOperation'>]");
    return (
      (v.k === 'int' && v.text === '0') ||
      (v.k === 'float' && v.v === 0) ||
      (v.k === 'bool' && !v.v) ||
      (v.k === 'decimal' && decimalKey(v.dec) === 'n:0')
    );
  }
  return v.k === 'none';
}

const float = (x: number): PyVal => ({ k: 'float', v: x });

/** `Message(**known)` + `to_wire()` + `dumps`, fields in dataclass order. */
function encodeMessage(known: Map<string, PyVal>, now: number): string {
  const defaults: Record<string, PyVal> = { queue: { k: 'str', v: 'default' }, enqueued_at: float(now), v: { k: 'int', text: '1' } };
  const entries: Array<[string, PyVal]> = [];
  for (const f of MESSAGE_FIELDS) {
    const v =
      known.get(f) ??
      defaults[f] ??
      (EMPTY_LIST.has(f)
        ? { k: 'list', items: [] }
        : EMPTY_DICT.has(f)
          ? { k: 'dict', entries: [] }
          : ZERO.has(f)
            ? f === 'ignore_result'
              ? { k: 'bool', v: false }
              : { k: 'int', text: '0' }
            : { k: 'none' });
    if (ALWAYS.has(f) || !isDefault(f, v)) entries.push([f, v]);
  }
  return dumpsPy({ k: 'dict', entries });
}

/**
 * What SQLite/PostgreSQL `requeue_dead` writes back: `Message.decode(raw)`, `eta = None`,
 * `encode()`. Unknown fields and default values are dropped, tags re-encoded. Fails with
 * potatoq's own error text where `Message.decode` raises (the letter then can't be replayed).
 */
export function reencodeWithoutEta(raw: string, now = Date.now() / 1000): { ok: true; json: string } | { ok: false; reason: string } {
  return reencode(raw, true, now);
}

/** `Message.decode(raw)` then `encode()`, optionally with `eta = None` first. */
export function reencode(raw: string, dropEta: boolean, now: number): { ok: true; json: string } | { ok: false; reason: string } {
  const decoded = decodePayload(raw, { maxDepth: 1, maxItems: 1, maxString: 1 });
  if (decoded.kind === 'foreign') return { ok: false, reason: decoded.reason };
  const { value } = decodeTags(parseJson(raw));
  if (value.k !== 'dict') return { ok: false, reason: 'not an object' };
  const known = new Map(value.entries.filter(([k]) => (MESSAGE_FIELDS as readonly string[]).includes(k)));
  if (dropEta) known.set('eta', { k: 'none' });
  try {
    return { ok: true, json: encodeMessage(known, now) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

export interface BuildMessageInput {
  task: string;
  queue?: string;
  /** JSON text of a list; tagged dicts pass through as written (like `potatoq call -a`). */
  args?: string;
  /** JSON text of an object. */
  kwargs?: string;
  /** JSON text of an object. */
  headers?: string;
  priority?: number;
  /** Seconds from now. Exclusive with eta. */
  countdown?: number;
  /** Unix seconds, or an ISO 8601 date-time with offset. */
  eta?: string | number;
  /** Seconds from now, or an ISO 8601 date-time with offset. */
  expires?: string | number;
  id?: string;
  /** The workflow it continues (`root_id` defaults to the id, as a new call's). */
  rootId?: string | null;
  parentId?: string | null;
  /** `ignore_result` (the worker stores no result); absent: false, the message's default. */
  ignoreResult?: boolean;
  /** Unix seconds; defaults to the clock. */
  now?: number;
  /** Refuse tagged values potatoq's decoder would leave as dicts or choke on (the console's
   *  producers), naming their path (`kwargs.when`); `potatoq call` itself writes them as given. */
  refuseBadTags?: boolean;
}

export interface BuiltMessage {
  id: string;
  task: string;
  queue: string;
  priority: number;
  /** Unix seconds or null (a past eta is dropped, as potatoq does). */
  eta: number | null;
  expires: number | null;
  enqueuedAt: number;
  /** The compact JSON to store: the payload column, the Redis `p` field or the AMQP body. */
  json: string;
}

function parseField(field: string, text: string, want: 'arr' | 'obj', refuseBadTags = false): PyVal {
  let node;
  try {
    node = parseJson(text);
  } catch (e) {
    throw new BuildMessageError(field, `${field} is not valid JSON: ${e instanceof PyJsonError ? e.message : String(e)}`);
  }
  if (node.k !== want) throw new BuildMessageError(field, `${field} must be a JSON ${want === 'arr' ? 'list' : 'object'}`);
  const depth = nestingDepth(node);
  if (depth > MAX_ARGUMENT_DEPTH) {
    throw new BuildMessageError(
      field,
      `${field} is nested ${depth} levels deep; potatoq can decode about 990 but re-encodes (retry, dead-letter) only about 496, so the console accepts at most ${MAX_ARGUMENT_DEPTH}`,
    );
  }
  const bad = refuseBadTags ? findBadTags(node) : [];
  if (bad.length) {
    const fields = Object.fromEntries(bad.map((b) => [[field, ...b.path].join('.'), b.message]));
    const [first, message] = Object.entries(fields)[0] as [string, string];
    throw new BuildMessageError(first, `${first}: ${message}`, fields);
  }
  return plainPy(node);
}

/**
 * Deeper than this, potatoq 26.1a8 can run the task but `Message.encode()` (dataclasses.asdict)
 * recurses too deep when it retries or dead-letters it: the task could never fail cleanly.
 */
export const MAX_ARGUMENT_DEPTH = 400;

/** Nesting depth of a parsed value, iteratively (the value may be ~1,000 levels deep). */
function nestingDepth(root: JsonNode): number {
  let max = 0;
  const stack: Array<[JsonNode, number]> = [[root, 1]];
  while (stack.length) {
    const [node, d] = stack.pop()!;
    if (node.k === 'arr') {
      max = Math.max(max, d);
      for (const item of node.items) stack.push([item, d + 1]);
    } else if (node.k === 'obj') {
      max = Math.max(max, d);
      for (const [, v] of node.entries) stack.push([v, d + 1]);
    }
  }
  return max;
}

/** A time given as Unix seconds (number or numeric text) or an aware ISO 8601 date-time. */
function toTimestamp(field: string, v: string | number, now: number, relative: boolean): number {
  if (typeof v === 'number' || /^\s*[+-]?\d+(\.\d+)?\s*$/.test(v)) {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new BuildMessageError(field, `${field} must be a finite number`);
    return relative ? now + n : n;
  }
  const dt = pyDatetimeFromIso(v.trim());
  if (!dt) throw new BuildMessageError(field, `${field} is not an ISO 8601 date-time`);
  if (dt.time.tz === null) {
    throw new BuildMessageError(field, `${field}: naive datetimes are ambiguous; give an offset (e.g. +00:00 or Z)`);
  }
  const { date: d, time: t } = dt;
  const base = new Date(Date.UTC(2000, d.month - 1, d.day, t.hour, t.minute, t.second));
  base.setUTCFullYear(d.year);
  return totalSeconds(BigInt(base.getTime()) * 1000n + BigInt(t.us) - BigInt(t.tz ?? 0));
}

const uuid4 = () => globalThis.crypto.randomUUID();

/** A new message as `potatoq call`/`Task.build_message` writes it (root_id = id). Throws BuildMessageError. */
export function buildMessage(input: BuildMessageInput): BuiltMessage {
  const now = input.now ?? Date.now() / 1000;
  const task = input.task.trim();
  if (!task) throw new BuildMessageError('task', 'task name is required');
  const queue = input.queue?.trim() || 'default';
  const priority = input.priority ?? 0;
  if (!Number.isSafeInteger(priority)) throw new BuildMessageError('priority', 'priority must be a whole number');
  if (input.countdown !== undefined && input.eta !== undefined)
    throw new BuildMessageError('eta', 'give either a countdown or an eta, not both');
  let eta: number | null = null;
  if (input.countdown !== undefined) eta = now + input.countdown;
  else if (input.eta !== undefined) eta = toTimestamp('eta', input.eta, now, false);
  if (eta !== null && eta <= now) eta = null;
  const expires = input.expires === undefined ? null : toTimestamp('expires', input.expires, now, true);
  const id = input.id ?? uuid4();
  const known = new Map<string, PyVal>([
    ['task', { k: 'str', v: task }],
    ['args', parseField('args', input.args ?? '[]', 'arr', input.refuseBadTags)],
    ['kwargs', parseField('kwargs', input.kwargs ?? '{}', 'obj', input.refuseBadTags)],
    ['id', { k: 'str', v: id }],
    ['queue', { k: 'str', v: queue }],
    ['priority', { k: 'int', text: String(priority) }],
    ['eta', eta === null ? { k: 'none' } : float(eta)],
    ['expires', expires === null ? { k: 'none' } : float(expires)],
    ['root_id', { k: 'str', v: input.rootId || id }],
    ['parent_id', input.parentId ? { k: 'str', v: input.parentId } : { k: 'none' }],
    ['ignore_result', { k: 'bool', v: input.ignoreResult === true }],
    ['headers', parseField('headers', input.headers ?? '{}', 'obj', input.refuseBadTags)],
  ]);
  const json = encodeMessage(known, now);
  // Never write what a worker can't decode (it would crash the slot that claims it).
  const check = decodePayload(json, { maxDepth: 1, maxItems: 1, maxString: 1 });
  if (check.kind === 'foreign') throw new BuildMessageError('args', `potatoq could not decode this message: ${check.reason}`);
  return { id, task, queue, priority, eta, expires, enqueuedAt: now, json };
}
