import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { clockUtc, liveStatus, type LiveQuery } from './live-status';

const q = (over: Partial<LiveQuery>): LiveQuery => ({
  queryKey: ['broker', 'b1', 'overview'],
  live: true,
  observers: 1,
  hasData: true,
  dataUpdatedAt: 1000,
  errorUpdatedAt: 0,
  error: null,
  ...over,
});

describe('liveStatus', () => {
  it('is as of the oldest live data on screen, ignoring queries nobody shows or that do not poll', () => {
    const s = liveStatus([
      q({ dataUpdatedAt: 5000 }),
      q({ queryKey: ['broker', 'b2', 'dead', {}], dataUpdatedAt: 3000 }),
      q({ dataUpdatedAt: 100, observers: 0 }),
      q({ dataUpdatedAt: 200, live: false }),
      q({ dataUpdatedAt: 0, hasData: false }),
    ]);
    expect(s).toEqual({ asOf: 3000, stale: [] });
  });

  it('has no time while nothing live is shown', () => {
    expect(liveStatus([q({ live: false })])).toEqual({ asOf: null, stale: [] });
  });

  it('marks a broker stale from its last good data, with the error, once per broker', () => {
    const down = new ApiError('BrokerUnavailable', 'connection refused', 503);
    const s = liveStatus([
      q({ dataUpdatedAt: 4000, errorUpdatedAt: 9000, error: down }),
      q({ queryKey: ['broker', 'b1', 'diagnosis'], dataUpdatedAt: 3500, errorUpdatedAt: 9000, error: down }),
      q({ queryKey: ['broker', 'b2', 'overview'], dataUpdatedAt: 8000 }),
    ]);
    expect(s.asOf).toBe(3500);
    expect(s.stale).toEqual([{ brokerId: 'b1', since: 3500, error: { code: 'BrokerUnavailable', message: 'connection refused' } }]);
  });

  it('clears the mark once a poll succeeds again after the failure', () => {
    const s = liveStatus([q({ dataUpdatedAt: 9500, errorUpdatedAt: 9000, error: new Error('earlier') })]);
    expect(s.stale).toEqual([]);
  });

  it('writes the UTC clock with seconds', () => {
    expect(clockUtc(Date.UTC(2026, 11, 4, 14, 2, 31))).toBe('14:02:31');
  });
});
