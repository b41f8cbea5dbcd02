import 'server-only';
import type { SdjQuery } from './db';
import { inList, Refusal } from './tx';

// A job's fan-out subtree, collected first and deleted second, as the library's
// `deleteFanOutSubtree` does: frontier = [job]; F = fan_outs whose parent is in the frontier;
// S = jobs of those fan-outs; repeat with S, at most 256 levels (deeper aborts the write). Ids
// stay in the driver's form (uuid text / 16 bytes) so they go back as parameters unchanged.

export const MAX_DEPTH = 256;
const CHUNK = 1000;

export interface Subtree {
  fanOuts: unknown[];
  jobs: unknown[];
}

async function inChunks(values: unknown[], fn: (chunk: unknown[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < values.length; i += CHUNK) await fn(values.slice(i, i + CHUNK));
}

async function select(q: SdjQuery, sql: string, values: unknown[]): Promise<unknown[]> {
  const out: unknown[] = [];
  await inChunks(values, async (c) => {
    for (const r of await q.all(`${sql} ${inList(c.length)}`, c)) out.push(r.id);
  });
  return out;
}

export async function collectSubtree(q: SdjQuery, root: unknown): Promise<Subtree> {
  const fanOuts: unknown[] = [];
  const jobs: unknown[] = [];
  let frontier: unknown[] = [root];
  for (let depth = 0; ; depth++) {
    if (depth >= MAX_DEPTH)
      throw new Refusal('invalid', `its fan-out subtree is deeper than ${MAX_DEPTH} levels (the library refuses it too): nothing changed`);
    const f = await select(q, 'SELECT id FROM fan_outs WHERE parent_job_id IN', frontier);
    if (f.length === 0) return { fanOuts, jobs };
    const s = await select(q, 'SELECT id FROM jobs WHERE fan_out_id IN', f);
    fanOuts.push(...f);
    jobs.push(...s);
    frontier = s;
  }
}

/** Checkpoints, signals and rows of every sub-job, then the fan-outs: the library's order. */
export async function deleteSubtree(q: SdjQuery, t: Subtree): Promise<void> {
  for (const sql of ['DELETE FROM checkpoints WHERE job_id IN', 'DELETE FROM signals WHERE job_id IN', 'DELETE FROM jobs WHERE id IN'])
    await inChunks(t.jobs, async (c) => void (await q.run(`${sql} ${inList(c.length)}`, c)));
  await inChunks(t.fanOuts, async (c) => void (await q.run(`DELETE FROM fan_outs WHERE id IN ${inList(c.length)}`, c)));
}
