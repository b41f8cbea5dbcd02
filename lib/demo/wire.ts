import { randomUUID } from 'node:crypto';
import { float, pyDumps, type Py } from './py-json';

// potatoq's compact message (`Message.to_wire`): dataclass field order, fields at their
// default left out except task, id, v, queue and enqueued_at. Like `Task.build_message`,
// root_id is always the task's own id.

export interface DemoMessage {
  task: string;
  args?: Py[];
  kwargs?: Record<string, Py>;
  id?: string;
  queue?: string;
  priority?: number;
  eta?: number | null;
  expires?: number | null;
  retries?: number;
  options?: Record<string, Py>;
  headers?: Record<string, Py>;
  enqueuedAt: number;
}

export interface WireMessage {
  id: string;
  queue: string;
  task: string;
  priority: number;
  eta: number | null;
  payload: string;
}

export function buildDemoMessage(m: DemoMessage): WireMessage {
  const id = m.id ?? randomUUID();
  const queue = m.queue ?? 'default';
  const wire: Record<string, Py> = { task: m.task };
  if (m.args?.length) wire.args = m.args;
  if (m.kwargs && Object.keys(m.kwargs).length) wire.kwargs = m.kwargs;
  wire.id = id;
  wire.queue = queue;
  if (m.priority) wire.priority = m.priority;
  if (m.eta != null) wire.eta = float(m.eta);
  if (m.expires != null) wire.expires = float(m.expires);
  if (m.retries) wire.retries = m.retries;
  wire.root_id = id;
  if (m.options && Object.keys(m.options).length) wire.options = m.options;
  if (m.headers && Object.keys(m.headers).length) wire.headers = m.headers;
  wire.enqueued_at = float(m.enqueuedAt);
  wire.v = 1;
  return { id, queue, task: m.task, priority: m.priority ?? 0, eta: m.eta ?? null, payload: pyDumps(wire) };
}

/** potatoq's `ResultRecord.to_dict()`: all 13 keys, in this order. */
export function buildResultPayload(r: {
  id: string;
  status: string;
  result?: Py;
  traceback?: string | null;
  dateDone?: number | null;
  name?: string | null;
  args?: Py;
  kwargs?: Py;
  retries?: number;
  worker?: string | null;
  dateStarted?: number | null;
  enqueuedAt?: number | null;
}): string {
  const time = (t: number | null | undefined) => (t == null ? null : float(t));
  return pyDumps({
    task_id: r.id,
    status: r.status,
    result: r.result ?? null,
    traceback: r.traceback ?? null,
    meta: null,
    date_done: time(r.dateDone),
    name: r.name ?? null,
    args: r.args ?? null,
    kwargs: r.kwargs ?? null,
    retries: r.retries ?? 0,
    worker: r.worker ?? null,
    date_started: time(r.dateStarted),
    enqueued_at: time(r.enqueuedAt),
  });
}
