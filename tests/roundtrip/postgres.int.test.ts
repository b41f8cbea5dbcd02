// Round trips between the console's PostgreSQL adapter and the REAL potatoq 26.1a8: a real
// `potatoq worker -P solo` is woken by the console's NOTIFY (measured), a revoke racing its
// claims never both runs and reports "revoked", the console counts what `potatoq queues`
// counts. The restart test is in postgres-restart.int.test.ts, on a private server.
import { execFileSync } from 'node:child_process';
import { ZEnqueueInput } from '@/lib/actions/schemas';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import {
  dropSchema,
  messageSql,
  migratedSchema,
  PG_URL,
  pgAvailable,
  PY_DIR,
  sqlAdmin,
  tableOf,
  type PgTarget,
} from '@/tests/support/postgres';

import type { ActionOutcome } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { POTATOQ, ROOT } from '../support/potatoq-seeder';
import { SoloWorker, until as waitFor } from '../support/solo-worker';
import { taskQuery } from '@/tests/support/task-query';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const available = await pgAvailable();

let t: PgTarget;
let out: string;
let a: BrokerAdapter;
let worker: SoloWorker | undefined;
const Q = 'rtq';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ranAt = (id: string): number | null => {
  const f = path.join(out, `${id}.json`);
  return fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as { ran_at: number }).ran_at * 1000 : null;
};
// Waits print the worker's output when they time out; they poll fast (the NOTIFY test measures).
const until = <T>(what: string, fn: () => Promise<T | null | false> | T | null | false, ms = 30_000) =>
  waitFor(what, fn, ms, () => `worker log:\n${worker?.log ?? ''}`, 20);
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const potatoq = (...args: string[]) =>
  execFileSync(POTATOQ, ['-A', 'rt_pg_tasks', '--no-color', '--no-emoji', ...args], {
    cwd: PY_DIR,
    env: { ...t.env, RT_OUT: out },
  }).toString();

const stopWorker = () => worker?.stop();

beforeAll(async () => {
  if (!available) return;
  // poll_interval 30 s: only NOTIFY can wake the worker quickly (see the test's note).
  t = migratedSchema('rt_', { poll_interval: 30 });
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-rt-pg-'));
  a = createPostgresAdapter({ id: 'rtpg', name: 'round trip', url: PG_URL, readOnly: false, options: t.options });
  worker = new SoloWorker('rt_pg_tasks', PY_DIR, { ...t.env, RT_OUT: out });
  worker.start([Q]);
  await until('a live worker', async () => (await a.listWorkers()).some((w) => w.status === 'alive' && w.queues.includes(Q)));
});

afterAll(async () => {
  await stopWorker();
  await a?.close();
  if (t) await dropSchema(t.schema);
  if (out) fs.rmSync(out, { recursive: true, force: true });
});

describe.skipIf(!available)('PostgreSQL round trips with the real potatoq', () => {
  // potatoq 26.1a8's worker calls fetch(timeout=1.0) in a loop, so it also claims about once
  // a second whatever poll_interval says: a wake-up by NOTIFY shows as a latency far below
  // that second, every time (by polling, five runs under 300 ms would have odds of ~0.3^5).
  it('wakes an idle worker through NOTIFY when the console enqueues and replays', async () => {
    await sleep(1500);
    const enqueued: number[] = [];
    for (let i = 0; i < 5; i++) {
      await sleep(200 + Math.random() * 600);
      const committed = Date.now(); // before the call: the latency includes the enqueue itself
      const e = await a.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue: Q, args: `[${i}]` }));
      enqueued.push((await until('the enqueued task to run', () => ranAt(e.id))) - committed);
    }
    const replayed: number[] = [];
    for (let i = 0; i < 3; i++) {
      const id = `rt-letter-${i}-${Date.now()}`;
      await sqlAdmin(
        `INSERT INTO ${tableOf(t, 'dead')} (id, queue, task, reason, payload) VALUES ($1, '${Q}', 'rt.record', 'boom', ${messageSql('$1::text', 'rt.record', `'${Q}'`, `'${i}'`)})`,
        [id],
      );
      await sleep(200 + Math.random() * 600);
      const committed = Date.now();
      const r = await a.replayDead([id]);
      expect(r.succeeded.map((o) => o.id)).toEqual([id]);
      replayed.push((await until('the replayed task to run', () => ranAt(id))) - committed);
    }
    const polled: number[] = [];
    for (let i = 0; i < 3; i++) {
      // The control: the same row written without NOTIFY is found only by the next poll.
      const id = `rt-silent-${i}-${Date.now()}`;
      await sleep(200 + Math.random() * 600);
      await sqlAdmin(
        `INSERT INTO ${tableOf(t, 'jobs')} (id, queue, task, state, payload) VALUES ($1, '${Q}', 'rt.record', 1, ${messageSql('$1::text', 'rt.record', `'${Q}'`, '0')})`,
        [id],
      );
      const committed = Date.now();
      polled.push((await until('the silent task to run', () => ranAt(id))) - committed);
    }
    console.info(
      `NOTIFY wake-up latency (ms): enqueue ${enqueued.map(Math.round).join(', ')}; replay ${replayed.map(Math.round).join(', ')}; without NOTIFY (poll) ${polled.map(Math.round).join(', ')}`,
    );
    expect(median([...enqueued, ...replayed])).toBeLessThan(300);
    expect(Math.max(...enqueued, ...replayed)).toBeLessThan(1000);
  });

  it('never both runs a task and reports it revoked when revoke races the worker', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) ids.push((await a.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue: Q, args: `[${i}]` }))).id);
    const outcomes: ActionOutcome[] = [];
    // Newest first: the worker claims oldest first, so the two meet somewhere in the middle
    // whatever the machine's speed, and both sides of the race are exercised.
    for (const id of [...ids].reverse()) {
      const r = await a.revoke([id]);
      outcomes.push(...r.succeeded, ...r.failed);
    }
    await until(
      'the queue to drain',
      async () =>
        (await a.listTasks(taskQuery({ queue: Q, state: 'ready' }))).items.length === 0 &&
        (await a.listTasks(taskQuery({ queue: Q, state: 'running' }))).items.length === 0,
    );
    await sleep(500);
    const by = new Map(outcomes.map((o) => [o.id, o]));
    const tally: Record<string, number> = {};
    for (const id of ids) {
      const o = by.get(id)!;
      const ran = ranAt(id) !== null;
      tally[`${o.outcome}/${ran ? 'ran' : 'not run'}`] = (tally[`${o.outcome}/${ran ? 'ran' : 'not run'}`] ?? 0) + 1;
      if (o.outcome === 'ok') expect(ran, `${id} was reported revoked but ran`).toBe(false);
      else expect(ran, `${id} (${o.outcome}) should have run`).toBe(true);
    }
    console.info(`revoke racing the worker: ${JSON.stringify(tally)}`);
    expect(tally['ok/not run']).toBeGreaterThan(0);
  });

  it('counts waiting tasks as `potatoq queues --json` does and replays what `potatoq dead list` shows', async () => {
    await a.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue: 'rt-later', countdown: 600 }));
    await a.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue: 'rt-held' }));
    const waiting = Object.fromEntries(
      (await a.overview()).queues
        .filter((q) => (q.counts.ready ?? 0) + (q.counts.scheduled ?? 0) > 0)
        .map((q) => [q.name, (q.counts.ready ?? 0) + (q.counts.scheduled ?? 0)]),
    );
    expect(waiting).toEqual(JSON.parse(potatoq('queues', '--json')));
    const failing = await a.enqueue(ZEnqueueInput.parse({ task: 'rt.fail', queue: Q, args: '["boom-pg"]' }));
    const letter = await until('the failing task to be dead-lettered', () => a.getDead(failing.id));
    const cli = (JSON.parse(potatoq('dead', 'list', '--json')) as Array<{ id: string; reason: string }>).find((d) => d.id === failing.id);
    expect(letter.reason).toBe(cli?.reason);
    expect(letter.summary).toBe('ValueError: boom-pg');
    expect(letter.result?.status).toBe('FAILURE');
  });
});
