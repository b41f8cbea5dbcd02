import { afterEach, describe, expect, it, vi } from 'vitest';
import { cachedFor, openOnce } from './connections';

describe('openOnce', () => {
  it('opens on first use and keeps the connection', () => {
    let opened = 0;
    const c = openOnce(
      () => ({ n: ++opened }),
      () => undefined,
    );
    expect(opened).toBe(0);
    expect(c.get()).toBe(c.get());
    expect(opened).toBe(1);
  });

  it('tries again after a synchronous open failed', () => {
    let attempt = 0;
    const c = openOnce(
      () => {
        if (++attempt === 1) throw new Error('no such file');
        return 'db';
      },
      () => undefined,
    );
    expect(() => c.get()).toThrow('no such file');
    expect(c.get()).toBe('db');
  });

  it('shares one open between concurrent callers and forgets a failed one', async () => {
    let attempt = 0;
    const c = openOnce(
      async () => {
        attempt++;
        if (attempt === 1) throw new Error('refused');
        return 'store';
      },
      () => undefined,
    );
    const [a, b] = [c.get(), c.get()];
    expect(a).toBe(b);
    await expect(a).rejects.toThrow('refused');
    await expect(c.get()).resolves.toBe('store');
    expect(attempt).toBe(2);
  });

  it('closes what opened, once, and opens again on the next use', async () => {
    const closed: string[] = [];
    let n = 0;
    const c = openOnce(
      async () => `conn${++n}`,
      (v) => closed.push(v),
    );
    await c.get();
    await c.close();
    await c.close();
    expect(closed).toEqual(['conn1']);
    await expect(c.get()).resolves.toBe('conn2');
  });

  it('has nothing to close after a failed open, nor before the first use', async () => {
    const close = vi.fn();
    const c = openOnce(() => Promise.reject(new Error('down')), close);
    await c.close();
    const p = c.get();
    await c.close();
    await expect(p).rejects.toThrow('down');
    expect(close).not.toHaveBeenCalled();
  });

  it('closes a synchronous connection at once', async () => {
    const closed: number[] = [];
    const c = openOnce(
      () => 7,
      (v) => closed.push(v),
    );
    c.get();
    void c.close();
    expect(closed).toEqual([7]);
  });
});

describe('cachedFor', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps an answer for the TTL and asks again after it', async () => {
    vi.useFakeTimers();
    let n = 0;
    const c = cachedFor(1000, async () => ++n);
    await expect(c.get()).resolves.toBe(1);
    vi.advanceTimersByTime(999);
    await expect(c.get()).resolves.toBe(1);
    vi.advanceTimersByTime(2);
    await expect(c.get()).resolves.toBe(2);
  });

  it('forgets a failed answer at once', async () => {
    let n = 0;
    const c = cachedFor(60_000, async () => {
      if (++n === 1) throw new Error('unreachable');
      return n;
    });
    await expect(c.get()).rejects.toThrow('unreachable');
    await expect(c.get()).resolves.toBe(2);
  });

  it('asks again after forget', async () => {
    let n = 0;
    const c = cachedFor(60_000, async () => ++n);
    await c.get();
    c.forget();
    await expect(c.get()).resolves.toBe(2);
  });
});
