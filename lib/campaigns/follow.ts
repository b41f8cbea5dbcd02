import 'server-only';
import { FATE_BATCH, type TaskFate } from '@/lib/brokers/dto-fate';
import { isConsoleError } from '@/lib/brokers/errors';
import type { CampaignStore } from './store';

// The follow-up: one poll looks at the next FATE_BATCH unsettled tasks of one campaign (never
// looked at, or looked at longest ago, first) and records their fates. Polls are driven by the
// campaign's page and its API (a view asks; at most one poll per MIN_POLL_MS per campaign,
// across consoles), so a poll costs at most FATE_BATCH × READS_PER_ID broker reads whatever the
// campaign's size, and nobody watching costs nothing. Everything is in the store: a console that
// restarts resumes where the last poll left off.

/** At most one poll per campaign this often. */
export const MIN_POLL_MS = 2_000;
/** A campaign stops following after this long with tasks unsettled (`stopped`). */
export const FOLLOW_MS = 7 * 24 * 3600_000;

export interface FollowDeps {
  /** The broker's fates for at most FATE_BATCH ids (lib/brokers/service-fate.ts). */
  fates(broker: string, ids: string[]): Promise<TaskFate[]>;
  now?: () => number;
}

export type PollOutcome =
  | { polled: false; why: 'not-due' | 'not-following' | 'missing' }
  | { polled: true; looked: number; settled: boolean }
  | { polled: true; looked: 0; error: string };

export async function pollCampaign(store: CampaignStore, id: string, deps: FollowDeps): Promise<PollOutcome> {
  const now = (deps.now ?? Date.now)();
  const c = await store.get(id);
  if (!c) return { polled: false, why: 'missing' };
  if (c.follow.state !== 'following') return { polled: false, why: 'not-following' };
  if (now - Date.parse(c.createdAt) > FOLLOW_MS) {
    await store.setFollow(id, 'stopped', `stopped looking after ${FOLLOW_MS / 86_400_000} days with tasks unsettled`);
    return { polled: false, why: 'not-following' };
  }
  if (!(await store.claimPoll(id, now, MIN_POLL_MS))) return { polled: false, why: 'not-due' };
  const due = await store.due(id, FATE_BATCH);
  if (due.length) {
    let fates: TaskFate[];
    try {
      fates = await deps.fates(
        c.broker,
        due.map((d) => d.id),
      );
    } catch (e) {
      // The broker tells no fates at all: say so once and stop. Anything else (down, slow)
      // leaves the items as they were for the next poll.
      if (isConsoleError(e) && e.code === 'Unsupported') {
        await store.setFollow(id, 'off', e.message);
        return { polled: true, looked: 0, error: e.message };
      }
      return { polled: true, looked: 0, error: e instanceof Error ? e.message : String(e) };
    }
    await store.saveFates(
      id,
      due.map((item, i) => ({ item, fate: fates[i]! })),
      now,
    );
  }
  // A bulk job still replaying adds tasks batch by batch: its campaign is not settled yet.
  const settled = c.scope.job?.state !== 'running' && !(await store.unsettled(id));
  if (settled) await store.setFollow(id, 'settled', null);
  return { polled: true, looked: due.length, settled };
}
