import 'server-only';
import { fatesFrom } from '@/lib/brokers/kit/fate';
import type { StateDecl, TaskFate } from '@/lib/brokers/schema';
import type { SdjDb } from './db';
import { readJob } from './reads';
import { letterFingerprint, summaryOf } from './views';

/** Statuses of work not finished yet (the others are terminal rows: completed, failed, cancelled). */
const LIVE = new Set(['pending', 'running', 'waiting', 'paused']);

/**
 * Simple Durable Jobs replays a dead letter in place (the same row, back to `pending`), so one
 * read of the row tells it all: its status while it waits or runs, `completed` (its result in
 * the row), `failed` with `dead_lettered_at` again (its reason fingerprinted as the dead list
 * groups it). No row: a worker's retention deleted it (completed after 30 days, failed after 90
 * by default) or someone deleted it; gone, not counted as a success.
 */
export function sdjFates(ids: string[], db: SdjDb, states: readonly StateDecl[]): Promise<TaskFate[]> {
  const rows = new Map<string, ReturnType<typeof readJob>>();
  const row = (id: string) => {
    let r = rows.get(id);
    if (!r) rows.set(id, (r = readJob(db, id)));
    return r;
  };
  return fatesFrom(ids, {
    states,
    result: async (id) => {
      const j = await row(id);
      if (j?.status === 'completed')
        return { ok: true, detail: `completed${j.completedAt ? ` at ${j.completedAt}` : ''}; result kept in the row`, at: j.completedAt };
      if (j?.status === 'cancelled') return { ok: false, detail: 'cancelled', at: j.completedAt, fingerprint: null };
      return null;
    },
    dead: async (id) => {
      const j = await row(id);
      if (j?.status !== 'failed') return null;
      return { fingerprint: letterFingerprint(j).key, detail: summaryOf(j), at: j.deadLetteredAt ?? j.completedAt, queue: j.queue };
    },
    live: async (id) => {
      const j = await row(id);
      return j && LIVE.has(j.status) ? j.status : null;
    },
    nothing: {
      fate: 'gone',
      detail: "no job row has this id: a worker's retention deleted it (or someone did), so its outcome is no longer known",
    },
  });
}
