import 'server-only';
import { decodeCursor, encodeCursor } from '@/lib/brokers/cursor';

// QueueFlow's keyset pages (`next_cursor`, present exactly when `has_more`; at most 100 rows a
// call) walked to fill one console page, optionally keeping only the rows a filter the server
// does not have accepts (an id prefix, text in the payload). The console's cursor wraps the
// server's, scoped to one list so a cursor of another list is refused.

export const SERVER_PAGE = 100;

export interface ServerPage<R> {
  rows: R[];
  hasMore: boolean;
  next: string | null;
}

export interface Collected<R> {
  rows: R[];
  /** The server cursor to go on from, null at the end. */
  next: string | null;
  /** Set when a filter stopped after looking at this many rows. */
  searchedNewest?: number;
}

/**
 * Fills up to `want` rows from `start`. With `keep`, looks at no more than `window` rows and
 * says so. `after(row)` is the server's cursor just after a row (its own format, `<µs>:<id>`),
 * so a page can end in the middle of a server page without skipping or repeating rows.
 */
export async function collectRows<R>(
  fetchPage: (cursor: string | undefined, limit: number) => Promise<ServerPage<R>>,
  after: (row: R) => string | null,
  want: number,
  start: string | undefined,
  filter?: { keep: (row: R) => boolean; window: number },
): Promise<Collected<R>> {
  const rows: R[] = [];
  let cursor = start;
  let scanned = 0;
  for (;;) {
    const limit = filter ? SERVER_PAGE : Math.min(SERVER_PAGE, want - rows.length);
    const page = await fetchPage(cursor, limit);
    for (let i = 0; i < page.rows.length; i++) {
      const row = page.rows[i]!;
      scanned += 1;
      if (!filter || filter.keep(row)) rows.push(row);
      const last = i === page.rows.length - 1;
      if (rows.length >= want) {
        const next = last ? (page.hasMore ? page.next : null) : after(row);
        return { rows, next };
      }
      if (filter && scanned >= filter.window) {
        const next = last ? (page.hasMore ? page.next : null) : after(row);
        return { rows, next, ...(next ? { searchedNewest: filter.window } : {}) };
      }
    }
    if (!page.hasMore || !page.next) return { rows, next: null };
    cursor = page.next;
  }
}

export const wrapCursor = (scope: string, server: string | null): string | null => (server ? encodeCursor(scope, [server]) : null);

/** The server cursor inside a console cursor of `scope` (InvalidInput for another list's). */
export function unwrapCursor(scope: string, cursor: string | undefined): string | undefined {
  const v = decodeCursor(scope, cursor, 1);
  if (!v) return undefined;
  const [server] = v;
  return typeof server === 'string' ? server : undefined;
}

/** Runs `fn` over `items` with at most `parallel` at a time, results in input order. */
export async function mapLimit<T, U>(items: T[], parallel: number, fn: (item: T) => Promise<U>): Promise<U[]> {
  const out: U[] = new Array<U>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    for (let k = next++; k < items.length; k = next++) out[k] = await fn(items[k]!);
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, worker));
  return out;
}
