import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';
import { createPostgresTrendStore } from '@/lib/trends/store-postgres';
import { openStateDbForTests } from '@/lib/state/sql';
import { deathStoreCases } from './death-cases';
import { markCases } from './marks-cases';
import { trendStoreCases } from './store-cases';

// Two console instances on one PostgreSQL state store: each store here has its own pool, as two
// processes would, in this test's own schema (the first one to start creates the tables).

const schema = `trends_${randomBytes(4).toString('hex')}`;
const ok = await pgAvailable();

beforeAll(async () => {
  if (ok) await sqlAdmin(`CREATE SCHEMA ${schema}`);
});
afterAll(async () => {
  if (ok) await sqlAdmin(`DROP SCHEMA ${schema} CASCADE`);
});

describe.skipIf(!ok)('PostgreSQL trend store (two instances on one state store)', () => {
  trendStoreCases(
    async () => createPostgresTrendStore(searchPathUrl(schema)),
    () => `b-${randomUUID().slice(0, 8)}`,
  );
});

describe.skipIf(!ok)('PostgreSQL recorded deaths (two instances on one state store)', () => {
  deathStoreCases(
    () => openStateDbForTests(searchPathUrl(schema)),
    () => `b-${randomUUID().slice(0, 8)}`,
  );
});

describe.skipIf(!ok)("PostgreSQL campaign marks (a queue's chart, its campaigns)", () => {
  markCases(
    () => openStateDbForTests(searchPathUrl(schema)),
    () => `b-${randomUUID().slice(0, 8)}`,
  );
});
