import 'server-only';
import { newEntry } from '@/lib/audit/record';
import { getAuditStore } from '@/lib/audit/store';
import { ConsoleError } from '@/lib/brokers/errors';
import type { Page } from '@/lib/brokers/schema';
import { toConsoleError } from '@/lib/brokers/service';
import { csvHeader, exportRow, partialLine, truncatedLine, type ExportFormat, type ExportShape } from '@/lib/export/rows';
import type { Principal } from '@/lib/auth/resolve';

/** Rows read per page from the broker: the list's own pages, so an export costs what scrolling would. */
const PAGE = 500;

const CONTENT_TYPE: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' };

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');

const NOT_AUDITED = 'the audit trail cannot be written, so nothing was exported';

export interface ExportSpec<T> {
  broker: string;
  principal: Principal;
  shape: ExportShape<T>;
  format: ExportFormat;
  max: number;
  /** The list's filter as parsed (recorded in the audit entry). */
  filter: Record<string, unknown>;
  /** One page of the list after `cursor` (undefined: the first), already redacted as the list is. */
  read(cursor: string | undefined, limit: number): Promise<Page<T>>;
  /** Set by a list that covers only part of what it lists (a bounded grouping, a capped list),
   *  in its words, once read: the file's last line then says it. */
  partial?: () => string | null;
}

/**
 * A list's rows matching its filter as CSV or JSON lines, streamed page by page, at most `max`
 * rows (said in the file's last line when it stops there), recorded in the audit trail as
 * `export` with the list, the filter and the rows written. The first page is read before the
 * answer starts, so a bad filter or an unreachable broker is an error status, not a file.
 */
export async function streamExport<T>(spec: ExportSpec<T>): Promise<Response> {
  const { broker, principal, shape, format, max } = spec;
  const first = await spec.read(undefined, Math.min(PAGE, max));
  const store = await getAuditStore().catch(() => null);
  if (!store) throw new ConsoleError('Internal', NOT_AUDITED);
  const entry = newEntry({
    action: 'export',
    broker,
    who: { user: principal.user, role: principal.role, via: principal.via, sub: principal.sub, iss: principal.iss },
    input: {},
    reason: null,
    extra: { filter: { list: shape.list, ...spec.filter, format, max } },
  });
  await store.begin(entry).catch(() => {
    throw new ConsoleError('Internal', NOT_AUDITED);
  });
  const encoder = new TextEncoder();
  let rows = 0;
  let page = first;
  let done = false;
  // `partial`: the list's own words when it covered only part of what it lists (spec.partial).
  const finish = (outcome: 'done' | 'failed', message: string | null, truncated: boolean, partial: string | null = null) =>
    store
      .finish(entry.id, {
        outcome,
        code: outcome === 'failed' ? 'BrokerUnavailable' : null,
        message,
        results: [],
        details: { list: shape.list, rows, format, truncated, ...(partial ? { partial } : {}) },
        finishedAt: new Date().toISOString(),
        count: rows,
      })
      .catch(() => {});
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (format === 'csv') controller.enqueue(encoder.encode(csvHeader(shape)));
    },
    // Pulled as the client reads: a slow download reads the broker no faster than it is taken.
    async pull(controller) {
      if (done) return;
      try {
        const items = page.items.slice(0, max - rows);
        if (items.length) controller.enqueue(encoder.encode(items.map((r) => exportRow(shape, r, format)).join('')));
        rows += items.length;
        const more = page.nextCursor !== null && page.nextCursor !== undefined;
        if (rows >= max || !more) {
          const truncated = rows >= max && (more || page.items.length > items.length);
          if (truncated) controller.enqueue(encoder.encode(truncatedLine(format, max, shape.noun)));
          const partial = spec.partial?.() ?? null;
          if (partial) controller.enqueue(encoder.encode(partialLine(format, partial)));
          done = true;
          // The audit entry is complete before the file is: whoever has the whole file can find it.
          await finish('done', null, truncated, partial);
          controller.close();
          return;
        }
        page = await spec.read(page.nextCursor!, Math.min(PAGE, max - rows));
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
      'content-disposition': `attachment; filename="${shape.list}-${broker}-${stamp()}.${format}"`,
      'cache-control': 'no-store',
      'x-export-max-rows': String(max),
      'x-content-type-options': 'nosniff',
    },
  });
}
