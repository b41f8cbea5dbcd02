import 'server-only';
import { getAuthConfig } from '@/lib/auth/config';
import { overviewFor } from '@/lib/auth/mask';
import { readDead, readTasks } from '@/lib/auth/redact';
import { resolveFromHeaders } from '@/lib/auth/resolve';
import { ZDeadGroupsQuery, ZDeadListQuery, ZTaskListQuery, type WorkerInfo } from '@/lib/brokers/schema';
import { deadGroups, listWorkers, overview } from '@/lib/brokers/service';
import { asksForPage, pageQueues, ZQueuePageQuery } from '@/lib/brokers/queue-page';
import { parseParams } from './http';

// The reads the pages poll, shared by their route handlers (app/api/brokers/[broker]/dead,
// /queues, /tasks, /workers, /dead/groups) and the fast reads (lib/http/fast-reads.ts), so both
// answer exactly alike.

/** GET /api/brokers/:broker/dead: a page of dead letters (arguments redacted when configured). */
export const deadListRead = (broker: string, params: URLSearchParams) => readDead(broker, parseParams(ZDeadListQuery, params));

/** GET /api/brokers/:broker/queues: the overview, masked for the asking principal; with
 *  `search`, `offset` or `limit`, one page of its queues (lib/brokers/queue-page.ts). Bad
 *  paging input is InvalidInput naming the field, checked before the broker is read. */
export async function overviewRead(broker: string, headers: Headers, params?: URLSearchParams) {
  const page = params && asksForPage(params) ? parseParams(ZQueuePageQuery, params) : null;
  const who = resolveFromHeaders(getAuthConfig(), headers);
  const o = overviewFor(await overview(broker), who.ok ? who.principal : null);
  return page ? pageQueues(o, page) : o;
}

/** GET /api/brokers/:broker/tasks: a page of one state's tasks (arguments redacted when configured). */
export const tasksRead = (broker: string, params: URLSearchParams) => readTasks(broker, parseParams(ZTaskListQuery, params));

// One wrapper per shared answer, so the fast reads serialise it once (lib/http/fast-reads.ts).
const wrapped = new WeakMap<object, { workers: WorkerInfo[] }>();

/** GET /api/brokers/:broker/workers. */
export async function workersRead(broker: string): Promise<{ workers: WorkerInfo[] }> {
  const workers = await listWorkers(broker);
  let out = wrapped.get(workers);
  if (!out) wrapped.set(workers, (out = { workers }));
  return out;
}

/** GET /api/brokers/:broker/dead/groups: the dead letters grouped by reason. */
export const deadGroupsRead = (broker: string, params: URLSearchParams) => deadGroups(broker, parseParams(ZDeadGroupsQuery, params));
