import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CampaignItem, CampaignView, Rollup } from '@/lib/campaigns/schema';
import { rollupOf } from '@/lib/campaigns/rollup';
import { mockApi, renderInApp } from '@/tests/support/component';
import { CampaignItemList } from './campaign-items';
import { CampaignLive } from './campaign-live';

vi.mock('@/lib/actions/campaign-actions', () => ({ replayDeadAgainAction: vi.fn() }));

const rollup = (o: Partial<Rollup>): Rollup => ({ ...rollupOf([]), ...o });
const jobId = '0b6d1c1e-0000-4000-8000-000000000001';
const campaign = (job: NonNullable<CampaignView['scope']['job']>, r: Partial<Rollup>): CampaignView => ({
  id: `cmp-${jobId}`,
  broker: 'b1',
  action: 'bulk-replay',
  createdAt: '2026-12-04T10:00:00.000Z',
  who: 'olga',
  reason: 'fixed',
  auditId: null,
  parent: null,
  scope: { ids: [], filter: { group: 'fp-1', jobId }, count: 2000, job },
  follow: { state: job.state === 'running' ? 'following' : 'settled', why: null, lastAt: null },
  rollup: rollup(r),
  lastPoll: null,
});

describe("a bulk job's campaign", () => {
  it('says the job is still replaying, and how far it got', () => {
    mockApi({ [`/api/campaigns/cmp-${jobId}/items`]: { items: [], nextCursor: null } });
    renderInApp(<CampaignLive initial={campaign({ id: jobId, state: 'running', why: null }, { total: 300, pending: 300 })} />);
    expect(screen.getByTestId('campaign-job').textContent).toBe(
      'The bulk job is still replaying: 300 of 2,000 tasks so far; the rest join as each batch is done.',
    );
  });

  it('says how a failed job stopped, with its error', () => {
    mockApi({ [`/api/campaigns/cmp-${jobId}/items`]: { items: [], nextCursor: null } });
    const failed = campaign({ id: jobId, state: 'failed', why: 'BrokerUnavailable: down' }, { total: 500, succeeded: 500 });
    renderInApp(<CampaignLive initial={failed} />);
    expect(screen.getByTestId('campaign-job').textContent).toBe(
      'The bulk job failed after 500 of 2,000 tasks (BrokerUnavailable: down); the rest were not replayed.',
    );
  });
});

describe("a campaign's tasks", () => {
  const item = (id: string, o: Partial<CampaignItem>): CampaignItem => ({
    id,
    from: null,
    fate: 'dead',
    state: null,
    before: null,
    fingerprint: null,
    same: null,
    detail: '',
    followed: null,
    letter: null,
    at: null,
    checkedAt: null,
    ...o,
  });

  it("links a dead task to its letter's own page where the broker gave the letter its own id", async () => {
    const items = [
      item('job-1', { letter: '17', from: 'c-1' }),
      item('job-2', { from: 'c-2' }),
      item('l-3', { followed: 'job-3' }),
      item('job-4', { fate: 'waiting' }),
    ];
    mockApi({ '/api/campaigns/cmp-x/items': { items, nextCursor: null } });
    renderInApp(<CampaignItemList id="cmp-x" broker="qf" from="sq" fate="all" live={false} />);
    const rows = await screen.findAllByTestId('campaign-item');
    expect(rows.map((r) => r.querySelector('a')!.getAttribute('href'))).toEqual([
      '/brokers/qf/dead/17',
      '/brokers/qf/dead/job-2',
      '/brokers/qf/dead/job-3',
      '/brokers/qf/jobs/job-4',
    ]);
  });
});
