import 'server-only';
import { decodeKombuEnvelope, type BodyDecoder, type CeleryInfo } from '@/lib/celery-protocol/message';
import { parseJson } from '@/lib/pyvalues/json';
import { pyToTyped } from '@/lib/pyvalues/typed';
import { plainPy, type PyVal } from '@/lib/pyvalues/pyval';
import type { ForeignInfo, HeaderRow, MessageView, PayloadPreview, TypedValue } from '@/lib/brokers/schema';
import { decodeKombu } from '@/lib/celery-protocol/kombu-json';

// A Celery task message as kombu's virtual transports store it (one Redis list item, one
// `unacked` entry): the envelope `{"body", "content-encoding", "content-type", "headers",
// "properties"}` with a base64 body. Protocol 2 keeps the task name and id in `headers` and
// `[args, kwargs, embed]` in the body; protocol 1 keeps everything in a body dict. Values are
// kombu's JSON (`__type__` markers). lib/celery-protocol/message.ts reads the headers and the body; this
// file adds what a Celery console needs on top: priority, routing, the ETA and what a worker
// would fail on.

const LIMITS = { maxDepth: 16, maxString: 10_000, maxItems: 500 };
/** For an envelope that is not one: there is no body to read. */
const NO_BODY: BodyDecoder = () => null;

export interface CeleryEnvelope {
  raw: string;
  info: CeleryInfo;
  /** 2 (headers carry the task), 1 (the body does), null when neither. */
  protocol: 1 | 2 | null;
  priority: number | null;
  exchange: string | null;
  routingKey: string | null;
  deliveryTag: string | null;
  contentType: string | null;
  headers: Array<[string, PyVal]>;
  /** The ETA in epoch ms (naive times are UTC, Celery's default timezone), null when none. */
  etaMs: number | null;
  /** Why a worker cannot decode or run it, null when it can (or when it was not all read). */
  problem: string | null;
  /** The whole message's size in bytes. */
  size: number;
  /** Why the body was not decoded here (too large), null when it was or was not needed. */
  bodyNote: string | null;
  /** Characters handed to a JSON parser for this message. */
  parsed: number;
}

const get = (v: PyVal | undefined, key: string): PyVal | undefined =>
  v?.k === 'dict' ? v.entries.find((e) => e[0] === key)?.[1] : undefined;
const text = (v: PyVal | undefined): string | null => (v?.k === 'str' ? v.v : v?.k === 'int' ? v.text : null);

/** ISO time of Celery's `eta`/`expires` header in epoch ms; naive times are read as UTC. */
export function isoMs(iso: string | null): number | null {
  if (!iso) return null;
  const withZone = /(?:Z|[+-]\d{2}:?\d{2}(?::\d{2}(?:\.\d+)?)?)$/.test(iso) ? iso : `${iso}Z`;
  const ms = Date.parse(withZone);
  return Number.isNaN(ms) ? null : ms;
}

/** How much of a message to decode. `auto` decodes the body only when the headers carry no
 *  task (protocol 1 keeps it in the body); `decode` whenever it is within `bodyLimit`. */
export interface ParseOpts {
  body: 'auto' | 'decode';
  /** Body characters decoded at most; a larger body is left alone and `bodyNote` says so. */
  bodyLimit: number;
  /** The whole message's size in bytes, when `raw` is only part of it. */
  size?: number;
  /** `raw` is the envelope with its body cut out (`head`), or the message's first bytes (`prefix`). */
  cut?: 'head' | 'prefix';
}

const WHOLE: ParseOpts = { body: 'decode', bodyLimit: Number.POSITIVE_INFINITY };
/** Headers and properties larger than this are not decoded (Celery's are a few KB). */
export const HEAD_LIMIT = 64 * 1024;
const OPENS = ['{"body": "', '{"body":"'];

/** kombu writes the body first (`{"body": "<base64>", ...}`): the body's JSON text and the
 *  envelope without it, found without reading the body's characters one by one. */
export function splitBody(raw: string): { body: string; head: string } | null {
  const open = OPENS.find((o) => raw.startsWith(o))?.length;
  if (open === undefined) return null;
  for (let i = open; ;) {
    const q = raw.indexOf('"', i);
    if (q < 0) return null;
    let b = q - 1;
    while (b >= open && raw.charCodeAt(b) === 92) b--;
    if ((q - 1 - b) % 2 === 0) return { body: raw.slice(open, q), head: `{"body": ""${raw.slice(q + 1)}` };
    i = q + 1;
  }
}

const bytes = (n: number) => n.toLocaleString('en-US');

function tooLarge(raw: string, size: number, why: string): CeleryEnvelope {
  return { ...blank(raw, size), problem: why };
}

function blank(raw: string, size: number): CeleryEnvelope {
  const info = decodeKombuEnvelope({ k: 'none' }, NO_BODY);
  return {
    raw,
    size,
    info,
    protocol: null,
    priority: null,
    exchange: null,
    routingKey: null,
    deliveryTag: null,
    contentType: null,
    headers: [],
    etaMs: null,
    problem: null,
    bodyNote: null,
    parsed: 0,
  };
}

/** One kombu message, decoded within `opts`: the headers always (up to HEAD_LIMIT), the body
 *  as asked. What was not decoded is said in `problem` (the whole) or `bodyNote` (the body). */
export function parseEnvelope(raw: string, opts: ParseOpts = WHOLE): CeleryEnvelope {
  const size = opts.size ?? Buffer.byteLength(raw, 'utf8');
  if (opts.cut === 'prefix')
    return tooLarge(raw, size, `too large to decode here (${bytes(size)} bytes) and not laid out as kombu writes a message (body first)`);
  const split = splitBody(raw);
  const head = split ? split.head : raw;
  if (head.length > (split ? HEAD_LIMIT : Math.max(HEAD_LIMIT, opts.bodyLimit)))
    return tooLarge(
      raw,
      size,
      `too large to decode here (${bytes(size)} bytes, ${split ? 'headers' : 'not laid out as kombu writes a message'})`,
    );
  let env: PyVal | null = null;
  let parsed = head.length;
  try {
    env = plainPy(parseJson(head));
  } catch {
    env = null;
  }
  let bodyNote: string | null = null;
  if (split && env?.k === 'dict') {
    const wantBody = opts.body === 'decode' || text(get(get(env, 'headers'), 'task')) === null;
    let body: PyVal | null = null;
    if (opts.cut === 'head' || split.body.length > opts.bodyLimit) {
      if (wantBody) bodyNote = `body too large to decode here (message of ${bytes(size)} bytes)`;
    } else if (wantBody) {
      try {
        // A base64 body has no escapes: the JSON string is the text itself.
        body = split.body.includes('\\') ? plainPy(parseJson(`"${split.body}"`)) : { k: 'str', v: split.body };
        parsed += split.body.length;
      } catch {
        body = null;
      }
    }
    env = { k: 'dict', entries: env.entries.flatMap((e): Array<[string, PyVal]> => (e[0] !== 'body' ? [e] : body ? [[e[0], body]] : [])) };
  }
  let crash: string | null = null;
  const decode: BodyDecoder = (body) => {
    parsed += body.length;
    try {
      const d = decodeKombu(parseJson(body));
      crash ??= d.crash;
      return d.value;
    } catch (e) {
      crash ??= `the body is not JSON: ${e instanceof Error ? e.message : String(e)}`;
      return null;
    }
  };
  const info = env?.k === 'dict' ? decodeKombuEnvelope(env, decode) : decodeKombuEnvelope({ k: 'none' }, NO_BODY);
  const headersV = get(env ?? undefined, 'headers');
  const props = get(env ?? undefined, 'properties');
  const delivery = get(props, 'delivery_info');
  const pri = get(props, 'priority');
  const contentType = text(get(env ?? undefined, 'content-type'));
  const protocol = text(get(headersV, 'task')) !== null ? 2 : info.task !== null ? 1 : null;
  let problem: string | null = null;
  if (env?.k !== 'dict') problem = 'not a kombu message envelope (not a JSON object)';
  else if (contentType !== 'application/json') problem = `content type ${contentType ?? '(none)'}: the console decodes JSON messages only`;
  else if (crash) problem = crash;
  else if (protocol === null && bodyNote === null) problem = 'no task name in the headers or the body: not a Celery task message';
  return {
    raw,
    size,
    info,
    protocol,
    priority: pri?.k === 'int' ? Number(pri.text) : null,
    exchange: text(get(delivery, 'exchange')),
    routingKey: text(get(delivery, 'routing_key')),
    deliveryTag: text(get(props, 'delivery_tag')),
    contentType,
    headers: headersV?.k === 'dict' ? headersV.entries : [],
    etaMs: isoMs(info.eta),
    problem,
    bodyNote,
    parsed,
  };
}

const pyTyped = (v: PyVal): TypedValue => pyToTyped(v, LIMITS);

/** The neutral view of one Celery message; `extra` rows (where it waits, when it comes back) first. */
export function envelopeView(e: CeleryEnvelope, queue: string | null, extra: HeaderRow[] = []): MessageView {
  const c = e.info;
  const fields: MessageView['fields'] = [];
  for (const [name, v] of [
    ['callbacks', c.callbacks],
    ['errbacks', c.errbacks],
    ['chain', c.chain],
    ['chord', c.chord],
  ] as const) {
    // Signatures of other tasks, with their arguments.
    if (v) fields.push({ name, value: v, carriesArgs: true });
  }
  const headers: HeaderRow[] = [...extra];
  if (e.bodyNote) headers.push({ name: 'body', text: e.bodyNote });
  for (const [name, v] of e.headers) {
    const carriesArgs = name === 'argsrepr' || name === 'kwargsrepr';
    headers.push(v.k === 'str' ? { name, text: v.v, ...(carriesArgs ? { carriesArgs } : {}) } : { name, value: pyTyped(v) });
  }
  if (e.priority !== null) headers.push({ name: 'priority', text: String(e.priority) });
  if (e.routingKey !== null) headers.push({ name: 'routing_key', text: e.routingKey });
  if (e.exchange !== null) headers.push({ name: 'exchange', text: e.exchange || '(default)' });
  const foreign: ForeignInfo | null = e.problem
    ? {
        code: e.protocol === null ? 'not-celery' : 'undecodable',
        title: e.protocol === null ? 'Not a Celery message' : 'A Celery worker cannot run this message',
        reasonBy: 'kombu 5.7',
        reason: e.problem,
        advice: 'Delete it (revoke) once you have kept what you need from the raw text below.',
        crashesWorkers: false,
      }
    : null;
  return {
    format: e.protocol === null ? null : 'celery',
    task: c.task,
    id: c.id,
    queue,
    args: c.args,
    kwargs: c.kwargs,
    fields,
    headers,
    headersTitle: e.protocol === 1 ? 'Message (Celery protocol 1)' : 'Celery headers and properties (protocol 2)',
    flags: [],
    foreign,
    value: null,
  };
}

function argsText(c: CeleryInfo): string {
  if (c.argsrepr !== null || c.kwargsrepr !== null) return `${c.argsrepr ?? '()'} ${c.kwargsrepr ?? '{}'}`;
  const short = (p: TypedValue | null) => (p ? JSON.stringify(p).slice(0, 80) : '');
  return `${short(c.args)} ${short(c.kwargs)}`.trim();
}

export function envelopePreview(e: CeleryEnvelope, max = 160): PayloadPreview {
  // The task name has its own column: the preview is the arguments, as Celery's reprs show them.
  const t = argsText(e.info) || (e.bodyNote ? `(${e.bodyNote})` : '(no arguments)');
  const cut = t.length > max ? `${t.slice(0, max - 1)}…` : t;
  return e.problem
    ? { kind: 'foreign', foreign: e.protocol === null ? 'not-celery' : 'undecodable', text: cut }
    : { kind: 'native', text: cut };
}
