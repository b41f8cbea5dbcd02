import { describe, expect, it } from 'vitest';
import { createReadCache, paramsKey, type ReadCacheOptions } from './read-cache';

/** A clock the test moves, and a read that counts its calls and settles when told. */
function rig(opts: Partial<ReadCacheOptions> = {}) {
  let t = 1_000;
  const cache = createReadCache({ ttlMs: 2000, maxEntries: 100, maxBytes: 1_000_000, now: () => t, ...opts });
  return { cache, advance: (ms: number) => (t += ms) };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('shared reads', () => {
  it('answers identical reads under way with one call (single flight)', async () => {
    const { cache } = rig();
    const d = deferred<{ n: number }>();
    let calls = 0;
    const run = () => (calls++, d.promise);
    const all = Promise.all(Array.from({ length: 50 }, () => cache.read('b', 'overview', run)));
    d.resolve({ n: 1 });
    const answers = await all;
    expect(calls).toBe(1);
    expect(new Set(answers).size).toBe(1);
    expect(cache.stats()).toMatchObject({ misses: 1, joined: 49 });
  });

  it('reuses an answer until its time is up, then asks again', async () => {
    const { cache, advance } = rig();
    let calls = 0;
    const run = async () => ({ n: ++calls });
    expect(await cache.read('b', 'k', run)).toEqual({ n: 1 });
    advance(1999);
    expect(await cache.read('b', 'k', run)).toEqual({ n: 1 });
    advance(1);
    expect(await cache.read('b', 'k', run)).toEqual({ n: 2 });
    expect(calls).toBe(2);
  });

  it('keeps reads of other parameters and other brokers apart', async () => {
    const { cache } = rig();
    let calls = 0;
    const run = async () => ++calls;
    await cache.read('a', 'dead\u0000{"limit":50}', run);
    await cache.read('a', 'dead\u0000{"limit":100}', run);
    await cache.read('b', 'dead\u0000{"limit":50}', run);
    expect(calls).toBe(3);
  });

  it('never keeps a failure: the waiting callers get it, the next read asks again', async () => {
    const { cache } = rig();
    const d = deferred<number>();
    let calls = 0;
    const first = () => (calls++, d.promise);
    const both = Promise.allSettled([cache.read('b', 'k', first), cache.read('b', 'k', first)]);
    d.reject(new Error('broker down'));
    expect((await both).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await cache.read('b', 'k', async () => (calls++, 7))).toBe(7);
    expect(calls).toBe(2);
  });

  it("forgets a broker's answers after a write, and only that broker's", async () => {
    const { cache } = rig();
    let calls = 0;
    const run = async () => ++calls;
    await cache.read('a', 'k', run);
    await cache.read('b', 'k', run);
    cache.invalidate('a');
    expect(await cache.read('a', 'k', run)).toBe(3);
    expect(await cache.read('b', 'k', run)).toBe(2);
  });

  it('does not keep, nor let others join, a read that was under way when a write ended', async () => {
    const { cache } = rig();
    const before = deferred<string>();
    const early = cache.read('b', 'k', () => before.promise);
    cache.invalidate('b');
    // Asked after the write: a new read, not the one from before it.
    const after = cache.read('b', 'k', async () => 'after');
    before.resolve('before');
    expect(await early).toBe('before');
    expect(await after).toBe('after');
    await tick();
    expect(await cache.read('b', 'k', async () => 'again')).toBe('after');
  });

  it('drops the least recently used answers past the entry cap', async () => {
    const { cache } = rig({ maxEntries: 2 });
    let calls = 0;
    const run = async () => ++calls;
    await cache.read('b', 'x', run);
    await cache.read('b', 'y', run);
    await cache.read('b', 'x', run); // x used last: y is the oldest
    await cache.read('b', 'z', run);
    expect(cache.stats().entries).toBe(2);
    expect(await cache.read('b', 'x', run)).toBe(1);
    expect(await cache.read('b', 'y', run)).toBe(4);
  });

  it('holds its answers under the byte cap, and keeps none over a quarter of it', async () => {
    const { cache } = rig({ maxBytes: 400 });
    const body = (n: number) => async () => ({ s: 'x'.repeat(n) });
    for (const k of ['a', 'b', 'c', 'd', 'e']) await cache.read('b', k, body(80));
    expect(cache.stats().bytes).toBeLessThanOrEqual(400);
    expect(cache.stats().entries).toBeLessThan(5);
    await cache.read('b', 'big', body(150));
    let calls = 0;
    await cache.read('b', 'big', async () => (calls++, { s: '' }));
    expect(calls).toBe(1);
    expect(cache.stats().bytes).toBeLessThanOrEqual(400);
  });

  it('does not keep an answer whose read took longer than the reuse time', async () => {
    const { cache, advance } = rig();
    const d = deferred<number>();
    const slow = cache.read('b', 'k', () => d.promise);
    advance(2500);
    d.resolve(1);
    await slow;
    await tick();
    expect(await cache.read('b', 'k', async () => 2)).toBe(2);
  });

  it('shares nothing when the reuse time is 0', async () => {
    const { cache } = rig({ ttlMs: 0 });
    let calls = 0;
    const run = async () => ++calls;
    await Promise.all([cache.read('b', 'k', run), cache.read('b', 'k', run)]);
    expect(calls).toBe(2);
  });

  it('names parameters the same whatever order their fields came in', () => {
    expect(paramsKey({ b: 1, a: { d: 2, c: 3 } })).toBe(paramsKey({ a: { c: 3, d: 2 }, b: 1 }));
    expect(paramsKey({ a: 1, b: undefined })).toBe(paramsKey({ a: 1 }));
    expect(paramsKey({ a: 1 })).not.toBe(paramsKey({ a: 2 }));
    expect(paramsKey(undefined)).toBe('');
  });
});
