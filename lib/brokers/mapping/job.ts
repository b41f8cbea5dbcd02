// The target job a letter becomes through its call mapping, with what it cannot carry named:
// the preview shows it, the move sends it (lib/brokers/move.ts). Pure and client-safe.
import type { TaskCall, ValueJob } from '@/lib/brokers/types';
import { callToPayload } from './convert';
import type { CallMapping } from './schema';

/** The target's idempotency key for letter `id`: the same letter always maps to the same key,
 *  so a second move (a retry, another console) gets the first job back. */
export const moveKey = (id: string) => `console-move-${id}`;

/** The letter id a job's idempotency key says it was moved from, or null (not a move's key). */
export const movedFrom = (key: string | null | undefined): string | null =>
  key?.startsWith('console-move-') ? key.slice('console-move-'.length) || null : null;

export type MappedJob =
  { ok: true; job: ValueJob; notes: string[]; notCarried: string[] } | { ok: false; problems: Record<string, string> };

/** What of `call` has no place in a named-payload job (each in words), beside the payload. */
export function notCarried(call: TaskCall): string[] {
  const out: string[] = [];
  if (call.expiresMs !== null) out.push(`its expiry (${new Date(call.expiresMs).toISOString()}): the job has no expiry field`);
  if (call.ignoreResult === true) out.push("ignore_result: the target keeps every job's result");
  if (call.rootId || call.parentId)
    out.push(
      `its workflow links (${[call.rootId && `root ${call.rootId}`, call.parentId && `parent ${call.parentId}`].filter(Boolean).join(', ')}): the job starts no workflow`,
    );
  return out;
}

/** `call` as its target job through `m`; problems keyed by where they are in the letter. */
export function jobOf(m: CallMapping, call: TaskCall, nowMs = Date.now()): MappedJob {
  const p = callToPayload(m, call);
  if (!p.ok) return p;
  // A dead letter's eta is past; one still ahead (a waiting task) keeps its run time.
  const runAt = call.etaMs !== undefined && call.etaMs !== null && call.etaMs > nowMs ? new Date(call.etaMs).toISOString() : null;
  const job: ValueJob = {
    sourceId: call.id,
    key: moveKey(call.id),
    task: m.targetTask ?? call.task,
    queue: m.queue ?? call.queue,
    payload: p.value,
    priority: call.priority,
    runAt,
    retry: m.retry,
  };
  return { ok: true, job, notes: p.notes, notCarried: notCarried(call) };
}

/** One line for a per-letter outcome: every problem, field first. */
export const problemsText = (problems: Record<string, string>) =>
  Object.entries(problems)
    .slice(0, 5)
    .map(([at, why]) => `${at}: ${why}`)
    .join('; ');
