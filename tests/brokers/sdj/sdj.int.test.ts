// The shared adapter battery on Simple Durable Jobs, on PostgreSQL 15 and MySQL 9: a fresh
// database per case with the library's v4.5.1 schema (schema-fixture.ts) and rows written as the
// library writes them (seeder.ts), never through the adapter. Cases SDJ's declared model and
// capabilities cannot take are skipped with its reasons.
import { describe, it } from 'vitest';
import { createSdjAdapter } from '@/lib/brokers/sdj/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { runAdapterContract, type ContractFixture } from '@/tests/contract';
import { createTestDb, type Dialect, type TestDb } from '@/tests/sdj/databases';
import { createSdjSchema } from './schema-fixture';
import { sdjSeeder } from './seeder';
import { availableDialects, DIALECTS, guarded } from './support';

const up = await availableDialects();
const LABEL: Record<Dialect, string> = { postgres: 'PostgreSQL 15', mysql: 'MySQL 9' };

export function sdjAdapterOn(db: TestDb, id = 'sdj'): BrokerAdapter {
  return createSdjAdapter({ id, name: 'SDJ test', url: db.url, readOnly: false, options: { lockWaitMs: 1000 } }, adapterContext());
}

export async function makeSdjFixture(dialect: Dialect): Promise<ContractFixture> {
  const db = guarded(await createTestDb(dialect));
  await createSdjSchema(db, 'verified');
  const adapters: BrokerAdapter[] = [];
  const open = () => {
    const a = sdjAdapterOn(db);
    adapters.push(a);
    return a;
  };
  return {
    adapter: open(),
    makeSecond: open,
    seeder: sdjSeeder(db),
    sharedIds: "a dead letter is its job's own row in SDJ's jobs table (one row per id): a waiting job can never share its id",
    claimIsLease:
      "a claim is SDJ's sign of life: a running job counts as lost only once neither a heartbeat nor its claim is newer than the stale-lock age (45 minutes)",
    async cleanup() {
      for (const a of adapters) await a.close().catch(() => undefined);
      await db.drop();
    },
  };
}

for (const dialect of DIALECTS) {
  if (!up[dialect])
    describe.skip(`SDJ adapter contract on ${LABEL[dialect]} (no server: see the loud line above)`, () => it('skipped', () => undefined));
  else runAdapterContract(`Simple Durable Jobs on ${LABEL[dialect]}`, () => makeSdjFixture(dialect));
}
