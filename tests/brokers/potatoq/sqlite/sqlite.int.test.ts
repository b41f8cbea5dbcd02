// The shared adapter battery on real SQLite files created by the real `potatoq migrate`,
// seeded by the real potatoq (tests/py/seeder.py).
// int-lane: isolated (the battery names Celery only as a task name and a message format)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdapterContract, type ContractFixture, type ContractSeeder } from '@/tests/contract';
import { isConsoleError } from '@/lib/brokers/errors';
import { runPotatoqBattery } from '../battery';
import { ROOT, startPySeeder } from '@/tests/support/potatoq-seeder';
import { adapterFor, ensureVenv, migratedDb } from '@/tests/support/sqlite-db';

ensureVenv();

async function makeFixture(): Promise<ContractFixture> {
  const file = migratedDb();
  const py = startPySeeder(`sqlite:///${file}`);
  const seeder: ContractSeeder = {
    enqueue: (m) => py.call('enqueue', { ...m }),
    enqueueMany: (ms) => py.call('enqueue_many', { items: ms }),
    claim: (queue) => py.call('claim', { queue }),
    deadLetter: (m) => py.call('dead_letter', { ...m, died_ago: m.diedAgo }),
    deadLetterRaw: (r) => py.call('dead_letter_raw', r),
    enqueueRaw: (r) => py.call('job_raw', r),
    heartbeat: (id, info, age) => py.call('heartbeat', { id, info, age }),
    garbageWorker: (id, info) => py.call('raw_worker', { id, info }),
    storeRegistered: (digest, names) =>
      py.call('store_result', { id: `potatoq-registered-${digest}`, state: 'SUCCESS', result: names, expires: 7 * 86400 }),
    jobState: async (id) => (await py.call<{ state: 'ready' } | null>('job', { id }))?.state ?? null,
    jobPayload: async (id) => (await py.call<{ payload: string } | null>('job', { id }))?.payload ?? null,
    isDead: async (id) => (await py.call('dead', { id })) !== null,
    result: (id) => py.call('result', { id }),
    queueSizes: () => py.call('queue_sizes'),
  };
  const adapters = [adapterFor(file)];
  return {
    adapter: adapters[0]!,
    makeSecond: () => adapterFor(file),
    seeder,
    async cleanup() {
      await Promise.all(adapters.map((a) => a.close()));
      await py.close();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    },
  };
}

runAdapterContract('sqlite', makeFixture);
runPotatoqBattery('sqlite', makeFixture, { tables: true });

describe('sqlite adapter: opening the database', () => {
  it('reports a missing database file without creating it', async () => {
    const file = path.join(os.tmpdir(), `pq-missing-${process.pid}-${Date.now()}.sqlite3`);
    const err = await adapterFor(file)
      .overview()
      .catch((e: unknown) => e);
    expect(isConsoleError(err) && [err.code, err.message]).toEqual([
      'BrokerUnavailable',
      `database file not found: ${path.basename(file)}`,
    ]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("reports a database without potatoq's tables as not migrated, and creates none", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-empty-'));
    const file = path.join(dir, 'empty.sqlite3');
    execFileSync(path.join(ROOT, '.venv/bin/python'), [
      '-c',
      `import sqlite3; sqlite3.connect(${JSON.stringify(file)}).execute("CREATE TABLE t (x)")`,
    ]);
    const a = adapterFor(file);
    const err = await a.listWorkers().catch((e: unknown) => e);
    expect(isConsoleError(err) && err.code).toBe('NotMigrated');
    expect(isConsoleError(err) && err.message).toContain('potatoq migrate');
    await a.close();
    const tables = execFileSync(path.join(ROOT, '.venv/bin/python'), [
      '-c',
      `import sqlite3; print([r[0] for r in sqlite3.connect(${JSON.stringify(file)}).execute("SELECT name FROM sqlite_master WHERE type='table'")])`,
    ]).toString();
    expect(tables.trim()).toBe("['t']");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('turns actions off with the reason when the file is read-only', async () => {
    const file = migratedDb();
    const a = adapterFor(file, true);
    const caps = await a.capabilities();
    expect(caps.replay).toEqual({ on: false, why: 'configured read-only' });
    expect(caps.browseDead.on).toBe(true);
    const err = await a.purge('default').catch((e: unknown) => e);
    expect(isConsoleError(err) && err.code).toBe('ReadOnly');
    await a.close();
  });
});
