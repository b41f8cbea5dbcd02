import 'server-only';
import { ConfigError } from '@/lib/config-error';
import { pollCampaign, type FollowDeps } from './follow';
import type { CampaignStore } from './store';

// The follow-up without a viewer: every interval, the campaigns still following that were
// polled longest ago get one poll each (lib/campaigns/follow.ts), at most ROUND_CAMPAIGNS of
// them, so a round costs at most ROUND_CAMPAIGNS × FATE_BATCH fate reads whatever the number
// or size of the campaigns. Every console instance runs one; the poll's own claim (one
// conditional update per campaign) keeps two instances, or an instance and a page view, from
// polling one campaign together. Everything is in the state store, so a restarted console
// picks up where the last poll left off.

/** Campaigns polled per round at most. */
export const ROUND_CAMPAIGNS = 10;

/** A campaign's same failure (its broker down, say) is logged again after this long at most. */
export const SAY_AGAIN_MS = 5 * 60_000;

/** `POTATOQ_CONSOLE_CAMPAIGN_FOLLOW_S`: seconds between rounds (default 5; 0 turns it off, 1–3600). */
export function parseFollowInterval(env: Record<string, string | undefined>): number {
  const name = 'POTATOQ_CONSOLE_CAMPAIGN_FOLLOW_S';
  const raw = env[name]?.trim();
  if (!raw) return 5_000;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > 3600) throw new ConfigError(`${name}: must be a whole number from 0 to 3600, not "${raw.slice(0, 40)}"`);
  return n * 1000;
}

export interface FollowerOptions extends FollowDeps {
  store: () => Promise<CampaignStore>;
  intervalMs: number;
  log?: (event: Record<string, unknown>) => void;
}

export interface RoundOutcome {
  /** Campaigns polled this round (not those another instance or a view polled just before). */
  polled: number;
  /** Tasks looked at. */
  looked: number;
  settled: number;
}

export function createFollower(o: FollowerOptions) {
  const log = o.log ?? ((e) => console.error(JSON.stringify(e)));
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = true;
  // Set by stop(): a round under way polls no further campaign.
  let halted = false;
  // The failure last logged per campaign: a broker that stays down is one line per campaign
  // every SAY_AGAIN_MS, not one a round. Bounded by the campaigns still following.
  const said = new Map<string, { message: string; at: number }>();
  const failed = (id: string, message: string) => {
    const prev = said.get(id);
    const now = (o.now ?? Date.now)();
    if (prev && prev.message === message && now - prev.at < SAY_AGAIN_MS) return;
    if (said.size >= 1000) said.clear();
    said.set(id, { message, at: now });
    log({ event: 'console.campaigns.follow-failed', campaign: id, message });
  };

  async function round(): Promise<RoundOutcome> {
    const out: RoundOutcome = { polled: 0, looked: 0, settled: 0 };
    try {
      const store = await o.store();
      for (const id of await store.following(ROUND_CAMPAIGNS)) {
        if (halted) break;
        const p = await pollCampaign(store, id, o);
        if (!p.polled) continue;
        out.polled++;
        out.looked += p.looked;
        if ('settled' in p && p.settled) out.settled++;
        if ('error' in p) failed(id, p.error);
        else said.delete(id);
      }
    } catch (e) {
      log({ event: 'console.campaigns.follow-failed', message: e instanceof Error ? e.message : String(e) });
    }
    return out;
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = round().finally(schedule);
    }, o.intervalMs);
    timer.unref?.();
  };

  return {
    round,
    start() {
      if (!stopped || o.intervalMs === 0) return;
      stopped = false;
      halted = false;
      schedule();
    },
    /** Stops after the round under way (its polls are recorded; the next console resumes). */
    async stop() {
      stopped = true;
      halted = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
export type Follower = ReturnType<typeof createFollower>;
