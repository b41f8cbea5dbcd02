import 'server-only';
import { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';
import type { ScheduleAction, ScheduleInput, ScheduleOutcome } from '@/lib/brokers/schedule';
import type { QfClient } from './client';
import { buildCron, type QfCronBody } from './schedules-input';
import { readCron, type QfCron } from './schedules';
import { micros, parseWire, ZCreated, ZJob } from './wire';

// Writes to QueueFlow's cron schedules (server 0.6.0): its own pause, resume, delete and create
// routes, and run-now as one job made the way a firing makes it, under a key of its own.

const ZCronCreated = z.object({ cron_id: z.string() });
const ZHealthTime = z.looseObject({ timestamp: z.string() });
const path = (id: string) => `/api/v1/cron/${encodeURIComponent(id)}`;

function del(client: QfClient, route: string): Promise<unknown> {
  if (!client.del) throw new ConsoleError('Unsupported', 'this QueueFlow client cannot delete');
  return client.del(route);
}

async function mustRead(client: QfClient, id: string): Promise<QfCron> {
  const c = await readCron(client, id);
  if (!c)
    throw new ConsoleError('NotFound', `QueueFlow has no cron schedule "${id.slice(0, 100)}" for this tenant`, { id: 'no such schedule' });
  return c;
}

/** The schedule's job settings as `POST /api/v1/jobs` takes them (its `timeout`, not `timeout_secs`). */
function jobConfigOf(c: QfCron): Record<string, unknown> {
  const cfg = c.config ?? {};
  const out: Record<string, unknown> = {};
  for (const k of ['priority', 'max_retries', 'retry_backoff', 'retry_delay_secs', 'retry_max_delay_secs', 'jitter_factor'])
    if (cfg[k] !== undefined && cfg[k] !== null) out[k] = cfg[k];
  if (typeof cfg.timeout_secs === 'number') out.timeout = cfg.timeout_secs;
  if (c.queue_name) out.queue = c.queue_name;
  return out;
}

/** The run-now idempotency key: one per console firing, never a firing's own `cron:<id>:<due>`. */
export const runNowKey = (id: string, key: string) => `console-run:${id}:${key}`;

async function runNow(client: QfClient, c: QfCron, key: string): Promise<ScheduleOutcome> {
  const idem = runNowKey(c.id, key);
  // The server's clock before the request tells a new job from the earlier job of the same key.
  const health = ZHealthTime.safeParse(await client.get('/health').catch(() => null));
  const before = health.success ? micros(health.data.timestamp) : null;
  const body = { task_name: c.task_name, payload: c.payload ?? {}, config: jobConfigOf(c) };
  const created = parseWire(ZCreated, await client.post('/api/v1/jobs', body, { 'idempotency-key': idem }), 'a new job');
  const job = await client.get(`/api/v1/jobs/${encodeURIComponent(created.job_id)}`).then(
    (raw) => parseWire(ZJob, raw, 'a job'),
    () => null,
  );
  const at = job ? micros(job.created_at) : null;
  if (before !== null && at !== null && at < before)
    return {
      id: c.id,
      outcome: 'already',
      jobId: created.job_id,
      message: `already ran as job ${created.job_id} (idempotency key ${idem})`,
    };
  return { id: c.id, outcome: 'ok', jobId: created.job_id, message: `job ${created.job_id} created (idempotency key ${idem})` };
}

export async function qfScheduleAction(client: QfClient, id: string, action: ScheduleAction, key?: string): Promise<ScheduleOutcome> {
  const c = await mustRead(client, id);
  switch (action) {
    case 'pause':
    case 'resume': {
      const paused = action === 'pause';
      if (c.enabled !== paused) return { id, outcome: 'already', jobId: null, message: `already ${paused ? 'paused' : 'running'}` };
      await client.post(`${path(id)}/${action}`, {});
      return { id, outcome: 'ok', jobId: null, message: paused ? 'paused' : 'resumed: fires from its next occurrence' };
    }
    case 'delete':
      await del(client, path(id));
      return { id, outcome: 'ok', jobId: null, message: `deleted "${c.name}"` };
    case 'run-now':
      if (!key) throw new ConsoleError('InvalidInput', 'key: a run-now needs an idempotency key', { key: 'required' });
      return runNow(client, c, key);
    default: {
      const never: never = action;
      throw new ConsoleError('InvalidInput', `unknown schedule action ${String(never)}`);
    }
  }
}

async function post(client: QfClient, body: QfCronBody): Promise<string> {
  try {
    return parseWire(ZCronCreated, await client.post('/api/v1/cron', body), 'a new cron schedule').cron_id;
  } catch (e) {
    // QueueFlow's messages name its fields (`cron_expr`, `task_name`, `name`): the form's are others.
    if (e instanceof ConsoleError && e.code === 'InvalidInput' && e.fields) {
      const FORM: Record<string, string> = { cron_expr: 'cron', task_name: 'task', invalid: 'cron' };
      const fields = Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [FORM[k] ?? k, v]));
      throw new ConsoleError('InvalidInput', e.message, fields);
    }
    if (e instanceof ConsoleError && e.code === 'Conflict')
      throw new ConsoleError('InvalidInput', e.message, { name: 'a schedule with this name already exists' });
    throw e;
  }
}

export async function qfCreateSchedule(client: QfClient, input: ScheduleInput): Promise<ScheduleOutcome> {
  const { body } = buildCron(input);
  const id = await post(client, body);
  return { id, outcome: 'ok', jobId: null, message: `created "${body.name}" (${id})` };
}

/** The old schedule as a create body, to put it back when its replacement is refused. */
const bodyOf = (c: QfCron): QfCronBody => ({
  name: c.name,
  cron_expr: c.cron_expr,
  task_name: c.task_name,
  payload: c.payload ?? {},
  ...(c.queue_name ? { queue: c.queue_name } : {}),
  ...(c.config ? { config: c.config as Record<string, number> } : {}),
});

/** QueueFlow has no update: delete, then create. Checked first, so a bad edit deletes nothing. */
export async function qfEditSchedule(client: QfClient, id: string, input: ScheduleInput): Promise<ScheduleOutcome> {
  const { body } = buildCron(input);
  const old = await mustRead(client, id);
  await del(client, path(id));
  try {
    const newId = await post(client, body);
    return { id: newId, outcome: 'ok', jobId: null, message: `replaced "${old.name}" (${id}) by "${body.name}" (${newId})` };
  } catch (e) {
    const back = await post(client, bodyOf(old)).catch(() => null);
    const err = e instanceof ConsoleError ? e : new ConsoleError('BrokerUnavailable', String(e));
    const what = back
      ? `the old schedule was created again as ${back}`
      : `the old schedule could NOT be created again: it was ${JSON.stringify(bodyOf(old))}`;
    throw new ConsoleError(err.code, `${err.message} (${what})`, err.fields);
  }
}
