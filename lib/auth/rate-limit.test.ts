import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { limiterFactory } from '@/lib/audit/limiters';
import { CLIENT, PAIR, createThrottle, type Throttle } from './rate-limit';

// The sign-in throttle on the real SQLite state store (a temp file, or :memory:).
const open: Throttle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});
async function throttle(where = ':memory:', rules = { pair: PAIR, client: CLIENT }): Promise<Throttle> {
  const t = await createThrottle(limiterFactory({ kind: 'sqlite', where }), rules);
  open.push(t);
  return t;
}
const allowed = (waits: number[]) => waits.filter((w) => w === 0).length;

describe('sign-in throttle', () => {
  it('lets a parallel burst of 200 attempts on one user and client through exactly 5 times', async () => {
    const t = await throttle();
    const waits = await Promise.all(Array.from({ length: 200 }, () => t.take('olga', '203.0.113.7')));
    expect(allowed(waits)).toBe(5);
    expect(Math.min(...waits.filter((w) => w > 0))).toBeGreaterThan(0);
  });

  it('lets a burst of 200 attempts over 200 user names from one client through 20 times', async () => {
    const t = await throttle();
    const waits = await Promise.all(Array.from({ length: 200 }, (_, i) => t.take(`user${i}`, '203.0.113.8')));
    expect(allowed(waits)).toBe(20);
  });

  it('does not lock a user out for everyone: another client still gets its attempts', async () => {
    const t = await throttle();
    for (let i = 0; i < 6; i++) await t.take('olga', '198.51.100.1');
    expect(await t.take('olga', '198.51.100.1')).toBeGreaterThan(0);
    expect(await t.take('olga', '198.51.100.2')).toBe(0);
  });

  it('backs off: each window that runs out makes the next one longer', async () => {
    const t = await throttle(':memory:', {
      pair: { name: 'pair', free: 2, baseSeconds: 1, maxSeconds: 60 },
      client: { ...CLIENT, free: 1000 },
    });
    await t.take('ann', 'c');
    await t.take('ann', 'c');
    const first = await t.take('ann', 'c');
    expect(first).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await t.take('ann', 'c')).toBe(0);
    expect(await t.take('ann', 'c')).toBe(0);
    const second = await t.take('ann', 'c');
    expect(second).toBe(2);
  });

  it('starts a pair afresh after a good password, and gives the client its attempt back', async () => {
    const t = await throttle();
    for (let i = 0; i < 5; i++) await t.take('ann', '192.0.2.1');
    await t.succeeded('ann', '192.0.2.1');
    expect(await t.take('ann', '192.0.2.1')).toBe(0);
    // 25 sign-ins from one office address, each a success: none is throttled.
    for (let i = 0; i < 25; i++) {
      expect(await t.take(`staff${i}`, '192.0.2.2')).toBe(0);
      await t.succeeded(`staff${i}`, '192.0.2.2');
    }
  });

  it('is never reset by a flood of other keys', async () => {
    const t = await throttle();
    for (let i = 0; i < 6; i++) await t.take('olga', '192.0.2.9');
    await Promise.all(Array.from({ length: 12_000 }, (_, i) => t.take(`flood${i}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)));
    expect(await t.take('olga', '192.0.2.9')).toBeGreaterThan(0);
  }, 60_000); // 12,000 writes to the state file: seconds on a busy 2-core machine

  it('shares its counts between two console processes on one state file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'throttle-'));
    try {
      const file = path.join(dir, 'state.sqlite3');
      const a = await throttle(file);
      const b = await throttle(file);
      const waits = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).take('olga', '192.0.2.50')));
      expect(allowed(waits)).toBe(5);
    } finally {
      await Promise.all(open.splice(0).map((t) => t.close()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sign-in throttle storage', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const tmp = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqc-throttle-'));
    dirs.push(dir);
    return path.join(dir, 'state.sqlite3');
  };
  const rows = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM console_rate_limits').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  it('writes no row for attempts already refused, whatever user names a refused client tries', async () => {
    const file = tmp();
    const t = await throttle(file);
    for (let i = 0; i < 20; i++) expect(await t.take(`user${i}`, '203.0.113.30')).toBe(0);
    expect(await t.take('user20', '203.0.113.30')).toBeGreaterThan(0);
    const before = rows(file);
    for (let i = 0; i < 100; i++) expect(await t.take(`other${i}`, '203.0.113.30')).toBeGreaterThan(0);
    expect(rows(file)).toBe(before);
  });

  it('creates at most one pair row per allowed attempt in a parallel burst of new user names', async () => {
    const file = tmp();
    const t = await throttle(file);
    const waits = await Promise.all(Array.from({ length: 200 }, (_, i) => t.take(`burst${i}`, '203.0.113.31')));
    expect(allowed(waits)).toBe(20);
    // 20 pairs, the client's window and its strike.
    expect(rows(file)).toBe(22);
  });

  it("leaves a refused pair's counters as they were (no write to extend or count it)", async () => {
    const file = tmp();
    const t = await throttle(file);
    for (let i = 0; i < 5; i++) await t.take('ann', '203.0.113.32');
    const read = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT key, points, expire FROM console_rate_limits ORDER BY key').all();
      } finally {
        db.close();
      }
    };
    const before = read();
    for (let i = 0; i < 10; i++) expect(await t.take('ann', '203.0.113.32')).toBeGreaterThan(0);
    expect(read()).toEqual(before);
  });
});
