import 'server-only';
import type { SqlRunner } from '@/lib/state/sql';

/** A campaign (a replay, move or bulk job) marked on the dead-letter chart at the time it began. */
export interface CampaignMark {
  id: string;
  at: string;
  action: string;
  count: number;
}

/** At most this many marks per chart (the newest of the window). */
export const MAX_MARKS = 50;

/** `queues` (a JSON array of names) holds `queue`: its JSON text, quotes included, so "bill" is
 *  not found in ["billing"]; LIKE's own characters are escaped. */
const holds = (queue: string) => `%${JSON.stringify(queue).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The broker's campaigns that began in [fromMs, toMs), oldest first, at most MAX_MARKS (the
 * newest). With `queue`, only the campaigns of that queue (their recorded `queues`): a campaign
 * whose queues are not known is marked on the broker's charts, not on a queue's.
 */
export async function campaignMarks(db: SqlRunner, broker: string, fromMs: number, toMs: number, queue?: string): Promise<CampaignMark[]> {
  const ofQueue = queue === undefined ? '' : ` AND queues LIKE ? ESCAPE '\\'`;
  const rows = await db.all<{ id: string; created_at: string; action: string; total: number | string }>(
    `SELECT id, created_at, action, total FROM console_campaigns
     WHERE broker = ? AND created_at >= ? AND created_at < ?${ofQueue} ORDER BY created_at DESC, id DESC LIMIT ?`,
    [broker, new Date(fromMs).toISOString(), new Date(toMs).toISOString(), ...(queue === undefined ? [] : [holds(queue)]), MAX_MARKS],
  );
  return rows.reverse().map((r) => ({ id: r.id, at: r.created_at, action: r.action, count: Number(r.total) }));
}
