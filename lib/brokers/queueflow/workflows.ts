import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import type { WorkflowsAdapter } from '@/lib/brokers/types';
import type { WorkflowDetail, WorkflowHealth, WorkflowListQuery, WorkflowRunPage } from '@/lib/brokers/workflow-schema';
import { isDenied, type QfClient } from './client';
import { parseWire } from './wire';
import { ZQfStepStates, ZQfWorkflow, ZQfWorkflowPage } from './workflows-wire';
import { QF_RETRYABLE, QF_WORKFLOWS } from './workflows-model';
import { mapDetail, runOf } from './workflows-map';

// QueueFlow's workflow runs through its API (docs/systems/queueflow.md, "Workflows"): the list
// by status with its keyset cursor, a run with its step definitions and live step states, and
// its own retry. Every run is the token's tenant's (QueueFlow scopes each call to it).

/** QueueFlow makes every workflow id with `Uuid::new_v4()`: anything else cannot be one. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Its keyset cursor: microseconds and the last row's id (`encode_cursor`). */
const CURSOR = /^-?\d{1,20}:[0-9a-f-]{1,64}$/i;
const FAILED = QF_WORKFLOWS.runStatuses.filter((s) => s.role === 'failed').map((s) => s.key);

function checkId(id: string): string {
  if (!UUID.test(id))
    throw new ConsoleError('InvalidInput', `"${id.slice(0, 80)}" is not a QueueFlow workflow id (they are UUIDs)`, {
      id: 'QueueFlow workflow ids are UUIDs, such as 0b6f3c8e-5d2a-4f7e-9a41-2c8d7e6f5a10',
    });
  return id.toLowerCase();
}

async function list(client: QfClient, q: WorkflowListQuery): Promise<WorkflowRunPage> {
  if (q.status && !QF_WORKFLOWS.runStatuses.some((s) => s.key === q.status)) {
    const known = QF_WORKFLOWS.runStatuses.map((s) => s.key).join(', ');
    throw new ConsoleError('InvalidInput', `QueueFlow has no "${q.status}" workflow status (${known})`, { status: `one of ${known}` });
  }
  if (q.cursor && !CURSOR.test(q.cursor))
    throw new ConsoleError('InvalidInput', 'this page link is out of date or belongs to another list; start from the first page', {
      cursor: 'invalid cursor',
    });
  const raw = await client.get('/api/v1/workflows', { status: q.status, limit: q.limit, cursor: q.cursor, include_total: true });
  const page = parseWire(ZQfWorkflowPage, raw, 'the workflow list');
  return {
    items: page.workflows.map(runOf),
    nextCursor: page.has_more ? (page.next_cursor ?? null) : null,
    total: page.total ?? null,
  };
}

/** Null for a run that is not there or is another tenant's (QueueFlow answers 403 for those). */
async function read<T>(run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ConsoleError && (e.code === 'NotFound' || isDenied(e))) return null;
    throw e;
  }
}

async function get(client: QfClient, rawId: string): Promise<WorkflowDetail | null> {
  const id = checkId(rawId);
  const route = `/api/v1/workflows/${encodeURIComponent(id)}`;
  const wf = await read(async () => parseWire(ZQfWorkflow, await client.get(route), 'a workflow'));
  if (!wf) return null;
  // Read after the definition: a step that settled in between shows its newer state.
  const states = await read(async () => parseWire(ZQfStepStates, await client.get(`${route}/steps`), "a workflow's steps"));
  if (!states) return null;
  return mapDetail(wf, states.steps, QF_RETRYABLE.includes(wf.status), new Date());
}

async function health(client: QfClient): Promise<WorkflowHealth> {
  const pages = await Promise.all(
    FAILED.map(async (status) =>
      parseWire(ZQfWorkflowPage, await client.get('/api/v1/workflows', { status, limit: 5, include_total: true }), 'the failed workflows'),
    ),
  );
  const counts = pages.map((p) => p.total);
  const recent = pages
    .flatMap((p) => p.workflows)
    .map((w) => ({ id: w.id, name: w.name, status: w.status, error: w.error_message ?? null, at: w.completed_at ?? w.created_at }))
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, 5);
  return { failed: counts.every((n) => typeof n === 'number') ? counts.reduce((t: number, n) => t + (n ?? 0), 0) : null, recent };
}

/** The overview card's line about failed runs: how many, and the newest with its cause. */
export function failedRunWarning(h: WorkflowHealth): string[] {
  const newest = h.recent[0];
  if (!newest) return [];
  const n = h.failed ?? h.recent.length;
  const cause = newest.error ? `: ${newest.error.slice(0, 300)}` : '';
  return [
    `${n} failed workflow run${n === 1 ? '' : 's'}; newest "${newest.name.slice(0, 100)}" (${newest.id}) is ${newest.status}${cause}`,
  ];
}

export function qfWorkflows(client: QfClient): WorkflowsAdapter {
  return {
    list: (q) => list(client, q),
    get: (id) => get(client, id),
    // 204 on success; QueueFlow's 409 (running or completed) is Conflict in its words.
    retry: async (id) => void (await client.post(`/api/v1/workflows/${encodeURIComponent(checkId(id))}/retry`, {})),
    health: () => health(client),
  };
}
