// The error groups' scope on a real PostgreSQL: a queue with more letters than the window
// (`searchWindow`) is grouped over its newest letters and the answer says so, with the planner's
// estimate of the total once the table has statistics; a queue that fits says nothing.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { ROOT } from '@/tests/support/potatoq-seeder';
import {
  dropSchema,
  migratedSchema,
  PG_URL,
  pgAvailable,
  seedDeadLetters,
  sqlAdmin,
  tableOf,
  type PgTarget,
} from '@/tests/support/postgres';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = await pgAvailable();

describe.skipIf(!available)('postgres adapter: what the error groups cover', () => {
  let t: PgTarget;
  let a: BrokerAdapter;
  beforeAll(async () => {
    t = migratedSchema('potatoq_');
    await seedDeadLetters(t, 25, 'gq', 'g');
    await seedDeadLetters(t, 3, 'small', 's');
    a = createPostgresAdapter({
      id: `pg-${randomBytes(3).toString('hex')}`,
      name: 'pg',
      url: PG_URL,
      readOnly: true,
      options: { ...t.options, searchWindow: 10 },
    });
  });
  afterAll(async () => {
    await a?.close();
    if (t) await dropSchema(t.schema);
  });

  it('groups the newest letters of a queue deeper than the window, and says there are more', async () => {
    const { groups, scope } = await a.deadGroups({ queue: 'gq' });
    expect(groups.map((g) => [g.pattern, g.count])).toEqual([['ValueError: bulk <n>', 10]]);
    expect(groups[0]!.example.id).toBe('g-1'); // the newest letter
    // Never analyzed: no estimate of the total, only that there are more.
    expect(scope).toEqual({
      grouped: 10,
      complete: false,
      note: "Grouped the newest 10 dead letters (the searchWindow option); there are more, and the older ones are in no group's count.",
    });
  });

  it("names the planner's estimate of the total once the table has statistics", async () => {
    await sqlAdmin(`ANALYZE ${tableOf(t, 'dead')}`);
    expect((await a.deadGroups({ queue: 'gq' })).scope).toEqual({
      grouped: 10,
      complete: false,
      note:
        "Grouped the newest 10 of about 25 dead letters (the searchWindow option; the total is PostgreSQL's estimate): " +
        "the older ones are in no group's count.",
    });
    expect((await a.deadGroups({})).scope.note).toContain('Grouped the newest 10 of about 28 dead letters');
  });

  it('says nothing for a queue that fits in the window, nor for one exactly as deep as the window', async () => {
    expect((await a.deadGroups({ queue: 'small' })).scope).toEqual({ grouped: 3, complete: true });
    await seedDeadLetters(t, 10, 'exact', 'e');
    expect((await a.deadGroups({ queue: 'exact' })).scope).toEqual({ grouped: 10, complete: true });
  });
});
