import 'server-only';
import { z } from 'zod';
import { newEntry } from '@/lib/audit/record';
import { getAuditStore } from '@/lib/audit/store';
import { readDead } from '@/lib/auth/redact';
import { ConsoleError } from '@/lib/brokers/errors';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { toConsoleError } from '@/lib/brokers/service';
import { EXPORT_FORMATS, csvHeader, deadRow, truncatedLine, type ExportFormat } from '@/lib/export/rows';
import { parseParams } from './http';
import { resolvePrincipal } from './principal';

/** The most rows one export writes; `max` may ask for fewer. */
export const EXPORT_MAX_ROWS = 50_000;
const DEFAULT_ROWS = 10_000;
/** Rows read per page from the broker: the list's own pages, so an export costs what scrolling would. */
const PAGE = 500;

export const ZDeadExportQuery = ZDeadListQuery.omit({ cursor: true, limit: true, qIn: true }).extend({
  format: z.enum(EXPORT_FORMATS, { error: `must be one of ${EXPORT_FORMATS.join(', ')}` }).default('csv'),
  max: z.coerce
    .number()
    .int('max must be a whole number of rows')
    .min(1, 'max must be at least 1')
    .max(EXPORT_MAX_ROWS, `max must be at most ${EXPORT_MAX_ROWS}`)
    .default(DEFAULT_ROWS),
});

const CONTENT_TYPE: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' };

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');

/**
 * GET /api/brokers/:broker/dead/export: the dead letters matching the list's filter as CSV or
 * JSON lines, streamed page by page, at most `max` rows (said in the file's last line when it
 * stops there), redacted as the list is, recorded in the audit trail as `export` with the filter
 * and the rows written. Readers may export what they may read. The first page is read before
 * the answer starts, so a bad filter or an unreachable broker is an error status, not a file.
 */
export async function exportDead(broker: string, params: URLSearchParams, headers: Headers): Promise<Response> {
  const principal = await resolvePrincipal(headers);
  const { format, max, ...filter } = parseParams(ZDeadExportQuery, params);
  const first = await readDead(broker, { ...filter, limit: Math.min(PAGE, max) });
  const store = await getAuditStore().catch(() => null);
  if (!store) throw new ConsoleError('Internal', 'the audit trail cannot be written, so nothing was exported');
  const entry = newEntry({
    action: 'export',
    broker,
    who: { user: principal.user, role: principal.role, via: principal.via, sub: principal.sub, iss: principal.iss },
    input: {},
    reason: null,
    extra: { filter: { ...filter, format, max } },
  });
  await store.begin(entry).catch(() => {
    throw new ConsoleError('Internal', 'the audit trail cannot be written, so nothing was exported');
  });
  const encoder = new TextEncoder();
  let rows = 0;
  let page = first;
  let done = false;
  const finish = (outcome: 'done' | 'failed', message: string | null, truncated: boolean) =>
    store
      .finish(entry.id, {
        outcome,
        code: outcome === 'failed' ? 'BrokerUnavailable' : null,
        message,
        results: [],
        details: { rows, format, truncated },
        finishedAt: new Date().toISOString(),
        count: rows,
      })
      .catch(() => {});
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (format === 'csv') controller.enqueue(encoder.encode(csvHeader()));
    },
    // Pulled as the client reads: a slow download reads the broker no faster than it is taken.
    async pull(controller) {
      if (done) return;
      try {
        const items = page.items.slice(0, max - rows);
        if (items.length) controller.enqueue(encoder.encode(items.map((d) => deadRow(d, format)).join('')));
        rows += items.length;
        const more = page.nextCursor !== null && page.nextCursor !== undefined;
        if (rows >= max || !more) {
          const truncated = rows >= max && (more || page.items.length > items.length);
          if (truncated) controller.enqueue(encoder.encode(truncatedLine(format, max)));
          done = true;
          controller.close();
          await finish('done', null, truncated);
          return;
        }
        page = await readDead(broker, { ...filter, cursor: page.nextCursor!, limit: Math.min(PAGE, max - rows) });
      } catch (e) {
        done = true;
        const err = toConsoleError(e);
        await finish('failed', `stopped after ${rows} rows: ${err.message}`, false);
        controller.error(err);
      }
    },
    async cancel() {
      done = true;
      await finish('failed', `the download was cancelled after ${rows} rows`, false);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': CONTENT_TYPE[format],
      'content-disposition': `attachment; filename="dead-${broker}-${stamp()}.${format}"`,
      'cache-control': 'no-store',
      'x-export-max-rows': String(max),
      'x-content-type-options': 'nosniff',
    },
  });
}
