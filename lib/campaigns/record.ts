import 'server-only';
import { FATE_BATCH } from '@/lib/brokers/dto-fate';
import type { ActionOutcome } from '@/lib/brokers/schema';
import { fateCapability, taskFates } from '@/lib/brokers/service-fate';
import { getCampaignStore } from './open';
import type { BulkCampaignJob } from './schema';
import type { NewCampaign, NewItem } from './store';
import { bulkCampaignId, type ActedItem } from './store-bulk';

// Every replay, edited replay, move and bulk job becomes a campaign: the ids the system took,
// with the error each died of before, so the follow-up can tell "died again, same error". The
// action has happened when this runs: a campaign that cannot be written is logged, never a
// failure of the action.

/** A budget for reading the fingerprints before a replay: past it the rest are unknown. */
const BEFORE_MS = 5_000;

function logError(what: string, e: unknown): void {
  console.error(JSON.stringify({ at: new Date().toISOString(), event: 'console.campaign-error', what, message: String(e) }));
}

/**
 * The fingerprint each letter dies of now, read before it is replayed (the broker's `fate`, a
 * batch at a time, within BEFORE_MS). Empty where the broker tells no fates or fails: then
 * "same error or new" is unknown for those tasks, and the campaign says so.
 */
export async function fingerprintsBefore(broker: string, ids: readonly string[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  const until = Date.now() + BEFORE_MS;
  try {
    if (!(await fateCapability(broker)).on) return out;
    for (let i = 0; i < ids.length && Date.now() < until; i += FATE_BATCH)
      for (const f of await taskFates(broker, ids.slice(i, i + FATE_BATCH))) if (f.fate === 'dead') out.set(f.id, f.fingerprint);
  } catch (e) {
    logError('fingerprints before replay', e);
  }
  return out;
}

/** Whether the follow-up can run on `broker`, as the reason to show when it cannot. */
async function offWhy(broker: string): Promise<string | null> {
  const cap = await fateCapability(broker).catch((e: unknown) => ({ on: false, why: `the broker did not answer: ${String(e)}` }));
  return cap.on ? null : (cap.why ?? 'this broker does not tell what became of a replayed task');
}

/** A campaign over the ids an action replayed (its `ok` outcomes, or `ids` given); its id, or
 *  null when there was nothing to follow or the store failed (logged). */
export function recordCampaign(
  c: NewCampaign,
  replayed: ReadonlyArray<Pick<ActionOutcome, 'id'>>,
  before: ReadonlyMap<string, string | null>,
): Promise<string | null> {
  return recordItems(
    c,
    replayed.map((o) => ({ id: o.id, before: before.get(o.id) ?? null })),
  );
}

/**
 * The tasks a move put on its target, as campaign items: its `ok` outcomes and its `already`
 * ones (an earlier attempt of the same move, held after a crash, had put it there: it joins now,
 * once, since that attempt answered no success), each under the id the target gave it (`taskId`)
 * with its id on the source (`from`) and the error it died of there (`before`, by source id).
 * Refused ids are not in it.
 */
export function movedItems(done: readonly ActionOutcome[], before: ReadonlyMap<string, string | null> = new Map()): NewItem[] {
  return done
    .filter((o) => o.outcome === 'ok' || o.outcome === 'already')
    .map((o) => ({ id: o.taskId ?? o.id, before: before.get(o.id) ?? null, from: o.id }));
}

/** A campaign over `items` (the first of each id kept); its id, or null when there was nothing
 *  to follow or the store failed (logged). */
export async function recordItems(c: NewCampaign, all: readonly NewItem[]): Promise<string | null> {
  const seen = new Set<string>();
  const items = all.filter((i) => !seen.has(i.id) && !!seen.add(i.id));
  if (!items.length) return null;
  try {
    return await (await getCampaignStore()).create(c, items, await offWhy(c.broker));
  } catch (e) {
    logError('record campaign', e);
    return null;
  }
}

/**
 * A bulk job's campaign, made when it starts (lib/campaigns/store-bulk.ts): nothing when it
 * exists (a console that took the job over). Its id, or null when the store failed (logged).
 */
export async function openBulkCampaign(c: NewCampaign, job: BulkCampaignJob, count: number): Promise<string | null> {
  try {
    return await (await getCampaignStore()).openBulk(c, job, count, await offWhy(c.broker));
  } catch (e) {
    logError('open bulk campaign', e);
    return null;
  }
}

/** The tasks one batch of a bulk job replayed join its campaign; a failure is logged (the job goes on). */
export async function appendBulkCampaign(jobId: string, items: readonly ActedItem[], before: string | null): Promise<void> {
  try {
    await (await getCampaignStore()).appendBulk(bulkCampaignId(jobId), items, before);
  } catch (e) {
    logError('add to bulk campaign', e);
  }
}

/** How the bulk job stands, on its campaign. */
export async function markBulkCampaign(job: BulkCampaignJob): Promise<void> {
  try {
    await (await getCampaignStore()).setBulkJob(bulkCampaignId(job.id), job);
  } catch (e) {
    logError('bulk campaign state', e);
  }
}
