import 'server-only';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { ConsoleError } from '@/lib/brokers/errors';
import type { EnqueueRequest } from '@/lib/brokers/schema';
import { parseCeleryEnqueue } from './enqueue-fields';
import { parseJson } from '@/lib/pyvalues/json';
import { pyRepr } from '@/lib/pyvalues/pyrepr';
import type { PyVal } from '@/lib/pyvalues/pyval';
import { decodeKombu, dumpsKombu, KombuEncodeError } from '@/lib/celery-protocol/kombu-json';

// The message Celery 5.7's `app.send_task(name, args, kwargs, queue=..., priority=...,
// countdown=..., eta=..., expires=..., headers=...)` writes (celery/app/amqp.py `as_task_v2` +
// `send_task_message`, kombu's virtual `prepare_message` / `_inplace_augment_message`),
// field for field; the test suite compares it with one real send_task produced. Arguments are
// JSON with kombu's `__type__` markers for typed values, decoded and re-encoded as kombu does.

export interface SendTaskInput {
  task: string;
  queue: string;
  args: PyVal;
  kwargs: PyVal;
  priority: number;
  /** Epoch ms, or null. */
  etaMs: number | null;
  expiresMs: number | null;
  headers: Array<[string, PyVal]>;
  id?: string;
  /** `root_id`/`parent_id` when the message continues another (a replay keeps none). */
  rootId?: string | null;
  parentId?: string | null;
  /** The `ignore_result` header: true or false overrides the task's own setting on the worker;
   *  null or absent (send_task's default): the task's setting applies. */
  ignoreResult?: boolean | null;
  /** Fixed instead of random (a preview's before and after differ only where the edit does). */
  replyTo?: string;
  deliveryTag?: string;
}

export interface BuiltCeleryMessage {
  id: string;
  /** The list item: kombu's envelope JSON. */
  json: string;
  /** The decoded body text (`[args, kwargs, embed]`). */
  body: string;
}

/** `datetime.isoformat()` of an aware UTC datetime with microseconds (`app.now()` + countdown). */
export function isoUtc(ms: number): string {
  const d = new Date(ms);
  const base = d.toISOString().slice(0, 19);
  const micro = String(d.getUTCMilliseconds() * 1000).padStart(6, '0');
  return `${base}${micro === '000000' ? '' : `.${micro}`}+00:00`;
}

/** `celery.utils.saferepr` for the sizes the console sends: the repr, cut at the maxsize. */
function saferepr(v: PyVal, max = 1024): string {
  const r = pyRepr(v);
  return r.length > max ? `${r.slice(0, max)}...` : r;
}

const enc = (s: string) => JSON.stringify(s);
const jsonStr = (v: PyVal | string | null) => (v === null ? 'null' : typeof v === 'string' ? dumpsKombu({ k: 'str', v }) : dumpsKombu(v));

/** `gen<pid>@<hostname>`: Celery's `anon_nodename()`, for this console process. */
export const originNode = () => `gen${process.pid}@${os.hostname()}`;

export function buildSendTask(m: SendTaskInput): BuiltCeleryMessage {
  const id = m.id ?? randomUUID();
  const body = `[${dumpsKombu(m.args)}, ${dumpsKombu(m.kwargs)}, {"callbacks": null, "errbacks": null, "chain": null, "chord": null}]`;
  const h: Array<[string, string]> = [
    ['lang', jsonStr('py')],
    ['task', jsonStr(m.task)],
    ['id', jsonStr(id)],
    ['shadow', 'null'],
    ['eta', m.etaMs === null ? 'null' : jsonStr(isoUtc(m.etaMs))],
    ['expires', m.expiresMs === null ? 'null' : jsonStr(isoUtc(m.expiresMs))],
    ['group', 'null'],
    ['group_index', 'null'],
    ['retries', '0'],
    ['timelimit', '[null, null]'],
    ['root_id', jsonStr(m.rootId ?? id)],
    ['parent_id', m.parentId ? jsonStr(m.parentId) : 'null'],
    ['argsrepr', jsonStr(saferepr(m.args))],
    ['kwargsrepr', jsonStr(saferepr(m.kwargs))],
    ['origin', jsonStr(originNode())],
    ['ignore_result', typeof m.ignoreResult === 'boolean' ? String(m.ignoreResult) : 'null'],
    ['replaced_task_nesting', '0'],
    ['stamped_headers', 'null'],
    ['stamps', '{}'],
  ];
  // `headers2.update(headers)`: extra headers replace same-named ones in place, others follow.
  for (const [k, v] of m.headers) {
    const i = h.findIndex(([name]) => name === k);
    if (i >= 0) h[i] = [k, dumpsKombu(v)];
    else h.push([k, dumpsKombu(v)]);
  }
  const headers = `{${h.map(([k, v]) => `${jsonStr(k)}: ${v}`).join(', ')}}`;
  const b64 = Buffer.from(body, 'utf8').toString('base64');
  const props =
    `{"correlation_id": ${enc(id)}, "reply_to": ${enc(m.replyTo ?? randomUUID())}, "delivery_mode": 2, ` +
    `"delivery_info": {"exchange": "", "routing_key": ${jsonStr(m.queue)}}, "priority": ${m.priority}, ` +
    `"body_encoding": "base64", "delivery_tag": ${enc(m.deliveryTag ?? randomUUID())}}`;
  const json = `{"body": ${enc(b64)}, "content-encoding": "utf-8", "content-type": "application/json", "headers": ${headers}, "properties": ${props}}`;
  return { id, json, body };
}

function field(name: string, text: string, want: 'list' | 'dict'): PyVal {
  let v: PyVal;
  try {
    const d = decodeKombu(parseJson(text));
    if (d.crash) throw new Error(d.crash);
    v = d.value;
  } catch (e) {
    throw new ConsoleError('InvalidInput', `${name}: ${e instanceof Error ? e.message : String(e)}`, {
      [name]: 'not valid JSON for kombu',
    });
  }
  if (want === 'list' && v.k !== 'list')
    throw new ConsoleError('InvalidInput', `${name} must be a JSON list`, { [name]: 'must be a JSON list' });
  if (want === 'dict' && v.k !== 'dict')
    throw new ConsoleError('InvalidInput', `${name} must be a JSON object`, { [name]: 'must be a JSON object' });
  return v;
}

function timeField(name: 'eta' | 'expires', text: string | undefined, now: number): number | null {
  if (text === undefined) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return name === 'eta' ? Number(text) * 1000 : now + Number(text) * 1000;
  const ms = Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`);
  if (Number.isNaN(ms)) throw new ConsoleError('InvalidInput', `${name} is not an ISO 8601 time`, { [name]: 'not an ISO 8601 time' });
  return ms;
}

/** The console's enqueue form -> send_task's arguments, validated (bad input names its field). */
export function sendTaskInput(request: EnqueueRequest, now = Date.now()): SendTaskInput {
  const req = parseCeleryEnqueue(request);
  const args = field('args', req.args, 'list');
  const kwargs = field('kwargs', req.kwargs, 'dict');
  const headers = field('headers', req.headers, 'dict');
  if (req.priority < 0 || req.priority > 255)
    throw new ConsoleError('InvalidInput', 'priority must be between 0 and 255 (kombu uses 0-9 on Redis)', {
      priority: 'between 0 and 255',
    });
  for (const [name, v] of [
    ['args', args],
    ['kwargs', kwargs],
    ['headers', headers],
  ] as const) {
    try {
      dumpsKombu(v);
    } catch (e) {
      if (e instanceof KombuEncodeError) throw new ConsoleError('InvalidInput', `${name}: ${e.message}`, { [name]: e.message });
      throw e;
    }
  }
  const etaMs = req.countdown !== undefined && req.countdown > 0 ? now + req.countdown * 1000 : timeField('eta', req.eta, now);
  return {
    task: req.task,
    queue: req.queue,
    args,
    kwargs,
    priority: req.priority,
    etaMs,
    expiresMs: timeField('expires', req.expires, now),
    headers: headers.k === 'dict' ? headers.entries : [],
  };
}
