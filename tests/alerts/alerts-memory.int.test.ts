// The background evaluator's memory shared through the console's state store on PostgreSQL (as
// several instances share it), against a real potatoq SQLite broker (dead letters written by
// the real potatoq through its seeder) and a real HTTP receiver: a rate read by one instance is
// the next instance's first read, a breach's start ("for 1m") survives a restart and is seen by
// another process, the instance that sees it firing sends once, and no other sends it again.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPySeeder, ROOT, type PySeeder } from '@/tests/support/potatoq-seeder';
import { dropSchema, newSchemaName, pgAvailable, searchPathUrl, sqlAdmin } from '@/tests/support/postgres';
import { migratedDb } from '@/tests/support/sqlite-db';
import { startWebhookReceiver, type WebhookReceiver } from '@/tests/support/webhook-receiver';

const up = await pgAvailable();
const file = migratedDb();
const QUEUE = `mem-${process.pid}`;
const STATE_SCHEMA = newSchemaName();
const TARGET = { id: 'mem-dead', broker: 'pq', queue: QUEUE, kind: 'deadPerMinute', threshold: 1, for: '1m' };
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: 'pq', url: `sqlite:///${file}` }]);
process.env.POTATOQ_CONSOLE_STATE = searchPathUrl(STATE_SCHEMA);
process.env.POTATOQ_CONSOLE_PUBLIC_URL = 'https://console.example.test';
process.env.POTATOQ_CONSOLE_ALERTS = JSON.stringify({ targets: [TARGET] });
const ops = await import('@/lib/actions/alerts');
const { runAlertTick, resetAlertEvaluator } = await import('@/lib/alerts/evaluator');
const { createAlertMemoryStore } = await import('@/lib/alerts/memory');
const { getStateDb } = await import('@/lib/state/sql');
const { resetAdapters } = await import('@/lib/brokers/registry');

let py: PySeeder;
let hook: WebhookReceiver;
const T0 = Date.now();
const fast = { baseDelayMs: 20 };

/** Another console instance: a process of its own, one evaluation at `at`. */
function otherInstance(at: number): Promise<Array<{ id: string; value: number | null; breached: boolean }>> {
  const child = spawn(
    path.join(ROOT, 'node_modules/.bin/vite-node'),
    ['--config', 'vitest.config.ts', 'tests/support/alert-tick-child.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, ALERT_NOW: String(at) },
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)));
      else reject(new Error(`the other instance failed (${code}):\n${out.slice(-3000)}`));
    }),
  );
}

const bury = async (n: number) => {
  for (let i = 0; i < n; i++) await py.call('dead_letter', { task: 'shop.send', queue: QUEUE, reason: `ValueError: card ${i}` });
};
const stored = async () => createAlertMemoryStore(await getStateDb()).load([TARGET.id]);

beforeAll(async () => {
  if (!up) return;
  await sqlAdmin(`CREATE SCHEMA ${STATE_SCHEMA}`);
  py = startPySeeder(`sqlite:///${file}`);
  hook = await startWebhookReceiver();
}, 120_000);

afterAll(async () => {
  resetAlertEvaluator();
  await hook?.close();
  await py?.close();
  await resetAdapters();
  if (up) await dropSchema(STATE_SCHEMA);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

describe.skipIf(!up)('alert memory shared by console instances on a PostgreSQL state store', () => {
  it('goes on from what any instance read, across a restart, and sends a transition once', async () => {
    await ops.saveWebhookOp({ url: hook.url, minIntervalSeconds: 0 }, new Headers({ host: 'localhost:3000' }));
    await bury(1);
    // This instance's first read: a rate needs two.
    expect((await runAlertTick(fast, () => T0))[0]).toMatchObject({ value: null });

    // Another instance's first read is its second: the rate is known at once, the breach begins.
    await bury(3);
    expect((await otherInstance(T0 + 30_000))[0]).toMatchObject({ value: 6, breached: true });
    expect((await stored()).since.get(TARGET.id)).toBe(T0 + 30_000);

    // This console restarts: the breach began 30 s ago, not now ("for 1m" is not over yet).
    resetAlertEvaluator();
    await bury(3);
    expect((await runAlertTick(fast, () => T0 + 60_000))[0]).toMatchObject({ breached: true });
    expect((await stored()).since.get(TARGET.id)).toBe(T0 + 30_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.received).toHaveLength(0);

    // Restarted again, 65 s into the breach: firing, sent by this instance.
    resetAlertEvaluator();
    await bury(3);
    await runAlertTick(fast, () => T0 + 95_000);
    expect((await hook.waitFor(1))[0]!.body).toMatchObject({ event: 'firing' });
    expect((await stored()).sent.get(TARGET.id)).toBe('firing');

    // The other instance sees it firing too, and sends nothing more.
    await bury(3);
    expect((await otherInstance(T0 + 125_000))[0]).toMatchObject({ breached: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.received).toHaveLength(1);

    // The letters stop: resolved, sent once, and the breach's start is forgotten by all.
    expect((await otherInstance(T0 + 155_000))[0]).toMatchObject({ value: 0, breached: false });
    expect((await hook.waitFor(2))[1]!.body).toMatchObject({ event: 'resolved' });
    expect((await stored()).since.get(TARGET.id)).toBeUndefined();
    resetAlertEvaluator();
    await runAlertTick(fast, () => T0 + 185_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.received).toHaveLength(2);
  }, 180_000);
});
