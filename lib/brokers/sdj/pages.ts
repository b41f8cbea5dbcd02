import 'server-only';
import { encodeCursor } from './cursor';
import { idParam, idText, type SdjDb } from './db';
import type { SdjJobSummary, SdjPage } from './jobs';
import { inList } from './tx';

// Pages of the store's keyset lists with the filters no index the library creates can answer
// (task name, id prefix, text in the arguments or the reason, a dead-letter group): the rows are
// read in the list's own order, a store page at a time, and kept or skipped here, at most
// SEARCH_WINDOW rows per call (`searchedNewest` then says so). The cursor points after the last
// row kept, so the next page goes on from there at the cost of page 1.

/** Rows a filtered page reads at most. */
export const SEARCH_WINDOW = 2000;
/** How much of `args` a list reads per row: the preview's and the search's text. */
export const HEAD_BYTES = 64 * 1024;
const STEP = 250;

export type ReadPage = (cursor: string | null, limit: number) => Promise<SdjPage<SdjJobSummary>>;

/** A row's keyset position in a list ordered by `time` (the database's text, from the ISO form). */
export function cursorAt(time: string | null, id: string): string | null {
  if (!time) return null;
  return encodeCursor({ at: time.replace('T', ' ').replace(/Z$/, ''), id });
}

/** The first HEAD_BYTES of each job's `args` and its size, by id (one primary-key read). */
export async function argsHeads(db: SdjDb, ids: string[]): Promise<Map<string, { head: Buffer | null; size: number }>> {
  const out = new Map<string, { head: Buffer | null; size: number }>();
  if (!ids.length) return out;
  const rows = await db.all(
    `SELECT id, SUBSTR(args, 1, ${HEAD_BYTES}) AS head, LENGTH(args) AS size FROM jobs WHERE id IN ${inList(ids.length)}`,
    ids.map((id) => idParam(db.dialect, id)),
  );
  for (const r of rows) {
    const head = r.head === null || r.head === undefined ? null : Buffer.isBuffer(r.head) ? r.head : Buffer.from(String(r.head), 'utf8');
    out.set(idText(r.id) ?? '', { head, size: Number(r.size ?? 0) });
  }
  return out;
}

export interface Walked {
  rows: SdjJobSummary[];
  next: string | null;
  searchedNewest?: number;
}

/**
 * One page of `read`'s list: as it is without `keep`; with `keep` (given a store page, which of
 * its rows stay), the kept rows of at most SEARCH_WINDOW read from `cursor` on. `after` is the
 * list's cursor just after a row (its position in the list's order).
 */
export async function walk(
  read: ReadPage,
  after: (j: SdjJobSummary) => string | null,
  limit: number,
  cursor: string | null,
  keep?: (rows: SdjJobSummary[]) => Promise<boolean[]>,
): Promise<Walked> {
  if (!keep) {
    const page = await read(cursor, limit);
    return { rows: page.items, next: page.next };
  }
  const rows: SdjJobSummary[] = [];
  let at = cursor;
  let scanned = 0;
  for (;;) {
    const page = await read(at, STEP);
    const kept = await keep(page.items);
    for (let i = 0; i < page.items.length; i++) {
      if (!kept[i]) continue;
      rows.push(page.items[i]!);
      if (rows.length > limit) {
        const last = rows[limit - 1]!;
        return { rows: rows.slice(0, limit), next: after(last) };
      }
    }
    scanned += page.items.length;
    if (!page.next) return { rows, next: null };
    if (scanned >= SEARCH_WINDOW) return { rows, next: null, searchedNewest: scanned };
    at = page.next;
  }
}
