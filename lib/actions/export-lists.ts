import 'server-only';
import { ZDeadGroupsQuery, type Page } from '@/lib/brokers/schema';
import { deadGroups, listWorkers } from '@/lib/brokers/service';
import { listWorkflows } from '@/lib/brokers/service-workflows';
import { ZWorkflowListQuery } from '@/lib/brokers/workflow-schema';
import { GROUP_SHAPE, SCHEDULE_SHAPE, WORKER_SHAPE, WORKFLOW_SHAPE } from '@/lib/export/list-shapes';
import { ZExportOptions } from './export';
import { streamExport } from './export-stream';
import { parseParams } from './http';
import { resolvePrincipal } from './principal';
import { schedulesRead } from './schedules-read';

// The exports of the lists that are not task pages: dead-letter groups, workers, workflow runs
// and schedules. Each reads what its view reads (the same service call, the same redaction),
// through the streaming, bounding and audit of lib/actions/export-stream.ts. Groups, workers
// and schedules are one read each (their views page nothing); workflow runs page by cursor.

export const ZGroupsExportQuery = ZDeadGroupsQuery.extend(ZExportOptions.shape);
export const ZWorkflowsExportQuery = ZWorkflowListQuery.omit({ cursor: true, limit: true }).extend(ZExportOptions.shape);

/** A list read whole as the one page of an export (`max` still cuts it, said in the file). */
const whole = <T>(items: T[]): Page<T> => ({ items, nextCursor: null });

/** GET /api/brokers/:broker/dead/groups/export: the groups of the dead letters (of `queue`). */
export async function exportDeadGroups(broker: string, params: URLSearchParams, headers: Headers): Promise<Response> {
  const principal = await resolvePrincipal(headers);
  const { format, max, ...filter } = parseParams(ZGroupsExportQuery, params);
  let partial: string | null = null;
  const read = async () => {
    const { groups, scope } = await deadGroups(broker, filter);
    partial = scope.complete ? null : (scope.note ?? 'not every dead letter was grouped');
    return whole(groups);
  };
  return streamExport({ broker, principal, shape: GROUP_SHAPE, format, max, filter, read, partial: () => partial });
}

/** GET /api/brokers/:broker/workers/export: the workers the system knows, as the Workers tab. */
export async function exportWorkers(broker: string, params: URLSearchParams, headers: Headers): Promise<Response> {
  const principal = await resolvePrincipal(headers);
  const { format, max } = parseParams(ZExportOptions, params);
  const read = async () => whole(await listWorkers(broker));
  return streamExport({ broker, principal, shape: WORKER_SHAPE, format, max, filter: {}, read });
}

/** GET /api/brokers/:broker/workflows/export: the runs of one status (every run when none). */
export async function exportWorkflows(broker: string, params: URLSearchParams, headers: Headers): Promise<Response> {
  const principal = await resolvePrincipal(headers);
  const { format, max, ...filter } = parseParams(ZWorkflowsExportQuery, params);
  const read = (cursor: string | undefined, limit: number) => listWorkflows(broker, { ...filter, cursor, limit: Math.min(limit, 100) });
  return streamExport({ broker, principal, shape: WORKFLOW_SHAPE, format, max, filter, read });
}

/** GET /api/brokers/:broker/schedules/export: the schedules, payloads hidden where arguments are. */
export async function exportSchedules(broker: string, params: URLSearchParams, headers: Headers): Promise<Response> {
  const principal = await resolvePrincipal(headers);
  const { format, max } = parseParams(ZExportOptions, params);
  let partial: string | null = null;
  const read = async () => {
    const list = await schedulesRead(broker);
    partial = list.capped ? list.notes.join(' ') || 'the list stopped at a cap' : null;
    return whole(list.schedules);
  };
  return streamExport({ broker, principal, shape: SCHEDULE_SHAPE, format, max, filter: {}, read, partial: () => partial });
}
