import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';
import { createThrottle } from '@/lib/auth/rate-limit';
import { limiterFactory } from '@/lib/audit/limiters';

// Sign-in counters in a PostgreSQL state store are shared by every console instance on it:
// two throttles (two pools, as two processes would have) in this test's own schema.

const schema = `limits_${randomBytes(4).toString('hex')}`;
const url = searchPathUrl(schema);
const ok = await pgAvailable();

beforeAll(async () => {
  if (ok) await sqlAdmin(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  if (ok) await sqlAdmin(`DROP SCHEMA ${schema} CASCADE`);
});

describe.skipIf(!ok)('sign-in throttle on PostgreSQL', () => {
  it('lets a parallel burst of 200 attempts across two instances through exactly 5 times', async () => {
    const a = await createThrottle(limiterFactory({ kind: 'postgres', where: url }));
    const b = await createThrottle(limiterFactory({ kind: 'postgres', where: url }));
    try {
      const waits = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).take('olga', '203.0.113.70')));
      expect(waits.filter((w) => w === 0)).toHaveLength(5);
      expect(await a.take('olga', '203.0.113.71')).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
