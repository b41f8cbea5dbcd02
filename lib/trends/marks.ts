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

/** The broker's campaigns that began in [fromMs, toMs), oldest first, at most MAX_MARKS (the newest). */
export async function campaignMarks(db: SqlRunner, broker: string, fromMs: number, toMs: number): Promise<CampaignMark[]> {
  const rows = await db.all<{ id: string; created_at: string; action: string; total: number | string }>(
    `SELECT id, created_at, action, total FROM console_campaigns
     WHERE broker = ? AND created_at >= ? AND created_at < ? ORDER BY created_at DESC, id DESC LIMIT ?`,
    [broker, new Date(fromMs).toISOString(), new Date(toMs).toISOString(), MAX_MARKS],
  );
  return rows.reverse().map((r) => ({ id: r.id, at: r.created_at, action: r.action, count: Number(r.total) }));
}
