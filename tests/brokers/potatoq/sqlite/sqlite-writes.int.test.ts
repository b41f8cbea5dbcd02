// SQLite specifics beyond the shared battery: byte-level agreement with potatoq's writes,
// lock handling, BLOB payloads, big payloads, and a real cross-process race with potatoq.
import { spawn } from 'node:child_process';
import { ZEnqueueInput } from '@/lib/brokers/enqueue-input';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { ROOT, startPySeeder } from '@/tests/support/potatoq-seeder';
import { adapterFor, migratedDb } from '@/tests/support/sqlite-db';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';
import { RAW_LIMIT } from '@/lib/brokers/potatoq/mappers';
import { taskQuery } from '@/tests/support/task-query';

describe('sqlite adapter: what it writes is what potatoq writes', () => {
  async function withDb<T>(
    fn: (a: ReturnType<typeof adapterFor>, py: ReturnType<typeof startPySeeder>, file: string) => Promise<T>,
  ): Promise<T> {
    const file = migratedDb();
    const a = adapterFor(file);
    const py = startPySeeder(`sqlite:///${file}`);
    try {
      return await fn(a, py, file);
    } finally {
      await a.close();
      await py.close();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }

  it('stores REAL epoch times and an INTEGER priority, like potatoq', () =>
    withDb(async (a, py) => {
      const e = await a.enqueue(ZEnqueueInput.parse({ task: 'x.y', priority: 7, countdown: 30 }));
      const row = await py.call<Record<string, unknown>>('job', { id: e.id });
      expect(row).toMatchObject({
        state: 'scheduled',
        priority: 7,
        priority_type: 'int',
        run_at_type: 'float',
        created_at_type: 'float',
        deliveries: 0,
      });
      expect((row.run_at as number) - (row.created_at as number)).toBeCloseTo(30, 1);
    }));

  it('writes a REVOKED record that potatoq reads back with a float date_done', () =>
    withDb(async (a, py) => {
      const id = await py.call<string>('enqueue', { task: 'x.rv', queue: 'default' });
      await a.revoke([id]);
      const r = await py.call<Record<string, unknown>>('result', { id });
      expect(r).toMatchObject({ state: 'REVOKED', status: 'REVOKED', name: 'x.rv', date_done_type: 'float' });
      expect(r.keys).toEqual([
        'task_id',
        'status',
        'result',
        'traceback',
        'meta',
        'date_done',
        'name',
        'args',
        'kwargs',
        'retries',
        'worker',
        'date_started',
        'enqueued_at',
      ]);
      expect((r.expires_at as number) - Date.now() / 1000).toBeGreaterThan(86_000);
      // potatoq's own revoke writes the same record (up to date_done).
      const other = await py.call<string>('enqueue', { task: 'x.rv', queue: 'default' });
      await py.call('revoke', { ids: [other] });
      const theirs = await py.call<Record<string, unknown>>('result', { id: other });
      const strip = (p: unknown) =>
        String(p)
          .replace(/"date_done":[^,]+/, '')
          .replace(/"task_id":"[^"]+"/, '');
      expect(strip(r.payload)).toBe(strip(theirs.payload));
    }));

  it('reports a locked database on writes and changes nothing', () =>
    withDb(async (_a, py, file) => {
      const a = createSqliteAdapter({ id: 'sq', name: 'x', url: `sqlite:///${file}`, readOnly: false, options: { busyTimeoutMs: 200 } });
      const id = await py.call<string>('dead_letter', { task: 'x.l', queue: 'default', reason: 'boom' });
      await a.listWorkers(); // opens the connections before the lock is taken
      const holder = spawn(path.join(ROOT, '.venv/bin/python'), [
        '-c',
        `import sqlite3, time\nc = sqlite3.connect(${JSON.stringify(file)}, isolation_level=None)\nc.execute("BEGIN IMMEDIATE")\nprint("locked", flush=True)\ntime.sleep(3)`,
      ]);
      await new Promise((r) => holder.stdout.once('data', r));
      const replay = await a.replayDead([id]);
      expect(replay.failed).toEqual([{ id, outcome: 'error', message: expect.stringContaining('locked') }]);
      const err = await a.purge('default').catch((e: unknown) => e);
      expect(isConsoleError(err) && err.code).toBe('BrokerTimeout');
      holder.kill();
      await a.close();
      expect(await py.call('dead', { id })).not.toBeNull();
    }));

  it('reads and replays a payload stored as a BLOB, as potatoq does, and refuses one that is not UTF-8', () =>
    withDb(async (a, py) => {
      const good = JSON.stringify({ task: 'x.blob', id: 'blob-1', queue: 'default', enqueued_at: 1, v: 1, args: ['é'] });
      await py.call('dead_letter_raw', {
        id: 'blob-1',
        queue: 'default',
        task: 'x.blob',
        reason: 'boom',
        blob_hex: Buffer.from(good).toString('hex'),
      });
      await py.call('dead_letter_raw', { id: 'blob-2', queue: 'default', task: 'x.blob', reason: 'boom', blob_hex: 'ff00' });
      const d = await a.getDead('blob-1');
      expect(d?.raw).toBe(good);
      expect(d?.payload.foreign).toBeNull();
      expect((await a.getDead('blob-2'))?.payload).toMatchObject({ foreign: { code: 'invalid-utf8' } });
      expect((await a.listDead(ZDeadListQuery.parse({}))).items).toHaveLength(2);
      const r = await a.replayDead(['blob-1', 'blob-2']);
      expect(r.succeeded.map((o) => o.id)).toEqual(['blob-1']);
      expect(r.failed.map((o) => [o.id, o.outcome])).toEqual([['blob-2', 'invalid']]);
      expect(JSON.parse((await py.call<{ payload: string }>('job', { id: 'blob-1' })).payload).args).toEqual(['é']);
      expect(await py.call('dead', { id: 'blob-2' })).not.toBeNull();
    }));

  it('cuts the raw payload of a huge task and still reports its full size', () =>
    withDb(async (a, py) => {
      const id = await py.call<string>('enqueue', { task: 'x.big', queue: 'default', args: ['x'.repeat(RAW_LIMIT + 1000)] });
      const t = await a.getTask(id);
      expect(t?.rawTruncated).toBe(true);
      expect(t?.raw.length).toBe(RAW_LIMIT);
      expect(t?.rawSize).toBeGreaterThan(RAW_LIMIT + 1000);
      const listed = (await a.listTasks(taskQuery({ state: 'ready' }))).items;
      expect(listed.map((x) => x.id)).toEqual([id]);
    }));
});

describe('sqlite adapter: racing potatoq itself', () => {
  it('replays each letter exactly once when potatoq `dead retry` replays the same letters at the same time', async () => {
    const file = migratedDb();
    const url = `sqlite:///${file}`;
    const py = startPySeeder(url);
    const a = adapterFor(file);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 60; i++)
        ids.push(await py.call<string>('dead_letter', { task: 'x.race', queue: 'race', reason: 'boom', with_result: false }));
      const racer = spawn(path.join(ROOT, '.venv/bin/python'), [path.join(ROOT, 'tests/py/race_requeue.py'), url], { cwd: ROOT });
      let out = '';
      racer.stdout.on('data', (d: Buffer) => (out += d.toString()));
      racer.stdin.write(JSON.stringify([...ids].reverse()) + '\n');
      await new Promise<void>((r) => {
        const t = setInterval(() => out.includes('ready') && (clearInterval(t), r()), 10);
      });
      racer.stdin.write('go\n');
      const ours: string[] = [];
      for (const id of ids) {
        const r = await a.replayDead([id]);
        ours.push(...r.succeeded.map((o) => o.id));
        await new Promise((res) => setImmediate(res));
      }
      await new Promise((r) => racer.on('exit', r));
      const theirs = JSON.parse(out.split('\n')[1]!) as string[];
      expect([...ours, ...theirs].sort()).toEqual([...ids].sort());
      expect((await py.call<Record<string, number>>('queue_sizes')).race).toBe(60);
      expect(await py.call('dead_letters', { limit: 100 })).toEqual([]);
    } finally {
      await a.close();
      await py.close();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
