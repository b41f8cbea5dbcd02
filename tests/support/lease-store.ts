import { afterEach, beforeEach, vi } from 'vitest';
import { openSqlitePauseLeaseStore, type PauseLeaseStore } from '@/lib/leases/store';

/** The time the lease unit tests start at (vitest's fake timers). */
export const T0 = Date.parse('2026-12-02T01:00:00Z');

/** Before each test: fake timers at T0 and a new in-memory SQLite lease store, handed to `set`;
 *  after it: real timers and the store closed. */
export function withLeaseStore(set: (store: PauseLeaseStore) => void): void {
  let store: PauseLeaseStore | undefined;
  beforeEach(async () => {
    vi.useFakeTimers({ now: T0 });
    store = await openSqlitePauseLeaseStore(':memory:');
    set(store);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await store?.close();
  });
}
