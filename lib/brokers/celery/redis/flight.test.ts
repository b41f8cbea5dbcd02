import { describe, expect, it } from 'vitest';
import { singleFlight } from './flight';

describe('reads shared between concurrent callers', () => {
  it('runs one read for callers that overlap, and reads again once it settled', async () => {
    const shared = singleFlight();
    let runs = 0;
    let release: (v: number) => void = () => undefined;
    const read = () => {
      runs += 1;
      return new Promise<number>((r) => (release = r));
    };
    const three = [shared('overview', read), shared('overview', read), shared('overview', read)];
    const other = shared('tasks {"queue":"q"}', () => Promise.resolve(7));
    expect(runs).toBe(1);
    release(42);
    expect(await Promise.all(three)).toEqual([42, 42, 42]);
    expect(await other).toBe(7);
    const again = shared('overview', read);
    expect(runs).toBe(2);
    release(43);
    expect(await again).toBe(43);
  });

  it('hands a failed read to every caller that joined it, then forgets it', async () => {
    const shared = singleFlight();
    let runs = 0;
    const fail = () => {
      runs += 1;
      return Promise.reject(new Error('broker down'));
    };
    const both = await Promise.allSettled([shared('k', fail), shared('k', fail)]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(shared('k', () => Promise.resolve(1))).resolves.toBe(1);
    expect(runs).toBe(1);
  });
});
