import { describe, expect, it } from 'vitest';
import type { StateDecl, StateRole } from '@/lib/brokers/schema';
import { workerQueueHref } from './links';

const st = (key: string, owned: boolean, role?: StateRole): StateDecl => ({
  key,
  label: key,
  time: { field: 'claimedAt', label: 't' },
  order: { by: 'claim', label: 'claim order' },
  owned,
  ...(role ? { role } : {}),
});

describe("a worker's queue link", () => {
  it('opens the tab of the state that plays `running`, whatever it is called', () => {
    expect(workerQueueHref('/brokers/b', 'mail box', [st('pending', false, 'waiting'), st('leased', true, 'running')])).toBe(
      '/brokers/b/queues/mail%20box?state=leased',
    );
  });

  it("opens the queue's default tab where no state plays `running`", () => {
    expect(workerQueueHref('/brokers/b', 'q', [st('running', false)])).toBe('/brokers/b/queues/q');
  });
});
