import 'server-only';
import { z } from 'zod';
import { readDead, readTasks } from '@/lib/auth/redact';
import { ZDeadListQuery, ZResultListQuery, ZTaskListQuery } from '@/lib/brokers/schema';
import { listResults } from '@/lib/brokers/service';
import { DEAD_SHAPE, EXPORT_FORMATS, RESULT_SHAPE, TASK_SHAPE } from '@/lib/export/rows';
import { streamExport } from './export-stream';
import { jsonError, parseParams, type Params } from './http';
import { resolvePrincipal } from './principal';

// The exports of the lists (dead letters, tasks of one state, results): the list's own filter
// plus `format` and `max`, read through the same redacting reads the list pages use, streamed
// and audited by lib/actions/export-stream.ts. Readers may export what they may read.

/** The most rows one export writes; `max` may ask for fewer. */
export const EXPORT_MAX_ROWS = 50_000;
const DEFAULT_ROWS = 10_000;

/** `format` and `max`, what every export adds to its list's filter. */
export const ZExportOptions = z.object({
  format: z.enum(EXPORT_FORMATS, { error: `must be one of ${EXPORT_FORMATS.join(', ')}` }).default('csv'),
  max: z.coerce
    .number()
    .int('max must be a whole number of rows')
    .min(1, 'max must be at least 1')
    .max(EXPORT_MAX_ROWS, `max must be at most ${EXPORT_MAX_ROWS}`)
    .default(DEFAULT_ROWS),
});

export const ZDeadExportQuery = ZDeadListQuery.omit({ cursor: true, limit: true, qIn: true }).extend(ZExportOptions.shape);
export const ZTaskExportQuery = ZTaskListQuery.omit({ cursor: true, limit: true }).extend(ZExportOptions.shape);
export const ZResultExportQuery = ZResultListQuery.omit({ cursor: true, limit: true }).extend(ZExportOptions.shape);

/** GET /api/brokers/:broker/dead/export: the dead letters matching the list's filter. */
export async function exportDead(broker: string, params: URLSearchParams, headers: Headers): Promise<Response> {
  const principal = await resolvePrincipal(headers);
  const { format, max, ...filter } = parseParams(ZDeadExportQuery, params);
  const read = (cursor: string | undefined, limit: number) => readDead(broker, { ...filter, cursor, limit });
  return streamExport({ broker, principal, shape: DEAD_SHAPE, format, max, filter, read });
}

/** GET /api/brokers/:broker/tasks/export: one state's tasks matching the list's filter (the
 *  broker's first state when none is named, as the list). */
export async function exportTasks(broker: string, params: URLSearchParams, headers: Headers): Promise<Response> {
  const principal = await resolvePrincipal(headers);
  const { format, max, ...filter } = parseParams(ZTaskExportQuery, params);
  const read = (cursor: string | undefined, limit: number) => readTasks(broker, { ...filter, cursor, limit });
  return streamExport({ broker, principal, shape: TASK_SHAPE, format, max, filter, read });
}

/** GET /api/brokers/:broker/results/export: the stored results matching the list's status filter. */
export async function exportResults(broker: string, params: URLSearchParams, headers: Headers): Promise<Response> {
  const principal = await resolvePrincipal(headers);
  const { format, max, ...filter } = parseParams(ZResultExportQuery, params);
  const read = (cursor: string | undefined, limit: number) => listResults(broker, { ...filter, cursor, limit });
  return streamExport({ broker, principal, shape: RESULT_SHAPE, format, max, filter, read });
}

type Exporter = (broker: string, params: URLSearchParams, headers: Headers) => Promise<Response>;

/** A route handler's body for one export: the file, or the error as JSON with its status. */
export async function exportRoute(run: Exporter, req: Request, { params }: Params<{ broker: string }>): Promise<Response> {
  try {
    return await run((await params).broker, new URL(req.url).searchParams, req.headers);
  } catch (e) {
    return jsonError(e);
  }
}
