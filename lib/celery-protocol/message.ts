// Celery's task message protocol: protocol 2 bodies are `[args, kwargs, embed]` and the task
// name and id travel in AMQP headers (or in a kombu envelope's `headers` when the message went
// through a non-AMQP transport); protocol 1 keeps everything in one body dict. Used by the Celery
// system and by any system that meets Celery messages (potatoq, when one lands on its queues).
// Which JSON dialect a body is read with is the caller's (`BodyDecoder`): kombu's `__type__`
// markers for Celery's own workers.
import { a2bBase64 } from '@/lib/pyvalues/b64';
import { pyToTyped } from '@/lib/pyvalues/typed';
import type { TypedValue } from '@/lib/brokers/typed-value';
import { pyStr } from '@/lib/pyvalues/pyrepr';
import type { PyVal } from '@/lib/pyvalues/pyval';
import { decodeUtf8 } from '@/lib/pyvalues/utf8';

/** What the console reads from a Celery message's headers and body. */
export interface CeleryInfo {
  task: string | null;
  id: string | null;
  eta: string | null;
  expires: string | null;
  retries: string | null;
  rootId: string | null;
  parentId: string | null;
  groupId: string | null;
  argsrepr: string | null;
  kwargsrepr: string | null;
  args: TypedValue | null;
  kwargs: TypedValue | null;
  callbacks: TypedValue | null;
  errbacks: TypedValue | null;
  chain: TypedValue | null;
  chord: TypedValue | null;
}

const LIMITS = { maxDepth: 16, maxString: 10_000, maxItems: 200 };

function emptyInfo(): CeleryInfo {
  return {
    task: null,
    id: null,
    eta: null,
    expires: null,
    retries: null,
    rootId: null,
    parentId: null,
    groupId: null,
    argsrepr: null,
    kwargsrepr: null,
    args: null,
    kwargs: null,
    callbacks: null,
    errbacks: null,
    chain: null,
    chord: null,
  };
}

function get(v: PyVal, key: string): PyVal | undefined {
  return v.k === 'dict' ? v.entries.find((e) => e[0] === key)?.[1] : undefined;
}

const pv = (v: PyVal | undefined): TypedValue | null => (v === undefined || v.k === 'none' ? null : pyToTyped(v, LIMITS));

/** Fills args/kwargs/callbacks/... from a decoded protocol 2 body; other shapes are left null. */
export function fillFromBody(info: CeleryInfo, body: PyVal): CeleryInfo {
  if (body.k !== 'list' || body.items.length !== 3) return info;
  const [args, kwargs, embed] = body.items as [PyVal, PyVal, PyVal];
  info.args = pv(args);
  info.kwargs = pv(kwargs);
  info.callbacks = pv(get(embed, 'callbacks'));
  info.errbacks = pv(get(embed, 'errbacks'));
  info.chain = pv(get(embed, 'chain'));
  info.chord = pv(get(embed, 'chord'));
  return info;
}

function headerText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/** Celery's header fields (protocol 2) into CeleryInfo. */
function fillFromHeaders(info: CeleryInfo, h: Record<string, unknown>): CeleryInfo {
  info.task = headerText(h.task);
  info.id = headerText(h.id);
  info.eta = headerText(h.eta);
  info.expires = headerText(h.expires);
  info.retries = headerText(h.retries);
  info.rootId = headerText(h.root_id);
  info.parentId = headerText(h.parent_id);
  info.groupId = headerText(h.group);
  info.argsrepr = headerText(h.argsrepr);
  info.kwargsrepr = headerText(h.kwargsrepr);
  return info;
}

/** Decodes a body's JSON text to a Python value; null when it cannot. The Celery adapter
 *  passes kombu's `__type__` markers (kombu-json.ts); potatoq its own tags. */
export type BodyDecoder = (text: string) => PyVal | null;

function bodyToPy(body: string | Uint8Array | PyVal | null, decode: BodyDecoder): PyVal | null {
  if (body === null) return null;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return body;
  let text: string;
  if (typeof body === 'string') text = body;
  else {
    const r = decodeUtf8(body);
    if (!r.ok) return null;
    text = r.text;
  }
  return decode(text);
}

/** A Celery message from AMQP headers (may be null) and its body (raw or already decoded). */
export function decodeCeleryMessage(
  headers: Record<string, unknown> | null,
  body: string | Uint8Array | PyVal | null,
  decode: BodyDecoder,
): CeleryInfo {
  const info = emptyInfo();
  if (headers) fillFromHeaders(info, headers);
  const decoded = bodyToPy(body, decode);
  return decoded ? fillFromBody(info, decoded) : info;
}

/** Celery's protocol 1 body: one dict with the task, id, args, kwargs, eta, ... (no headers). */
export function fillFromV1Body(info: CeleryInfo, body: PyVal): CeleryInfo {
  if (body.k !== 'dict') return info;
  const text = (key: string) => {
    const v = get(body, key);
    return v === undefined || v.k === 'none' ? null : pyStr(v);
  };
  info.task = text('task');
  info.id = text('id');
  info.eta = text('eta');
  info.expires = text('expires');
  info.retries = text('retries');
  info.groupId = text('taskset') ?? text('group');
  info.args = pv(get(body, 'args'));
  info.kwargs = pv(get(body, 'kwargs'));
  info.callbacks = pv(get(body, 'callbacks'));
  info.errbacks = pv(get(body, 'errbacks'));
  info.chord = pv(get(body, 'chord'));
  return info;
}

/** A kombu envelope `{"body", "headers", "properties": {"body_encoding"}, ...}`; protocol 1
 *  when its headers carry no task name (the body then does). */
export function decodeKombuEnvelope(env: PyVal, decode: BodyDecoder): CeleryInfo {
  const info = emptyInfo();
  const headers = get(env, 'headers');
  if (headers?.k === 'dict') {
    const plain: Record<string, unknown> = {};
    for (const [k, v] of headers.entries) plain[k] = v.k === 'none' ? null : pyStr(v);
    fillFromHeaders(info, plain);
  }
  const body = get(env, 'body');
  const encoding = get(get(env, 'properties') ?? { k: 'none' }, 'body_encoding');
  let inner: PyVal | null = null;
  if (body?.k === 'str' && encoding?.k === 'str' && encoding.v === 'base64') {
    const raw = /^[\x00-\x7f]*$/.test(body.v) ? a2bBase64(Uint8Array.from(body.v, (c) => c.charCodeAt(0))) : null;
    inner = raw ? bodyToPy(raw, decode) : null;
  } else if (body?.k === 'str') inner = bodyToPy(body.v, decode);
  else if (body) inner = body;
  if (!inner) return info;
  return info.task === null && inner.k === 'dict' ? fillFromV1Body(info, inner) : fillFromBody(info, inner);
}

export { emptyInfo as emptyCeleryInfo };
