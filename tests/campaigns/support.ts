// What the campaign suites share: a replay recorded as the console records it, and waiting
// for a campaign's follow-up to settle (polled as a page view would drive it).
import { expect } from 'vitest';
import type { BrokerAdapter } from '@/lib/brokers/types';
import type { PollOutcome } from '@/lib/campaigns/follow';
import type { CampaignStore } from '@/lib/campaigns/store';
import type { Campaign } from '@/lib/campaigns/schema';
import { until } from '@/tests/support/solo-worker';

export const CAMPAIGN_BASE = {
  broker: 'cp',
  action: 'replay',
  who: 'olga',
  reason: 'card check fixed',
  auditId: null,
  parent: null,
  filter: null,
};

/** Replays `replay` as the console does: each letter's error read first, then a campaign. */
export async function replayAsCampaign(adapter: BrokerAdapter, store: CampaignStore, replay: string[], broker = 'cp'): Promise<string> {
  const before = await adapter.fate!(replay);
  expect(before.every((f) => f.fate === 'dead' && f.fingerprint)).toBe(true);
  // Each letter's queue, as the system names it: the campaign's queues (its chart marks).
  expect(before.filter((f) => !f.queue)).toEqual([]);
  const r = await adapter.replayDead(replay);
  expect(r.failed).toEqual([]);
  return store.create(
    { ...CAMPAIGN_BASE, broker },
    r.succeeded.map((o) => ({ id: o.id, before: before.find((f) => f.id === o.id)!.fingerprint })),
  );
}

/** Polls until the campaign settles; its last state. */
export function untilSettled(
  store: () => CampaignStore,
  id: string,
  poll: (id: string) => Promise<PollOutcome>,
  ms: number,
  log?: () => string,
): Promise<Campaign> {
  return until(
    'the campaign to settle',
    async () => {
      await poll(id);
      const now = (await store().get(id))!;
      return now.follow.state === 'settled' ? now : null;
    },
    ms,
    log,
  );
}
