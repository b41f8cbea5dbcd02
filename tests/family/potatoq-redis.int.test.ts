// The task family on potatoq's Redis broker (its own key prefix, results in the same Redis),
// against the REAL potatoq 26.1a8: a chord whose middle part fails. Redis has no index by root
// or group, so the dead part's family is what its message names (its chord's callback) plus the
// chord's counters in `P:chord:<group>`.
// int-lane: uses redis/7 (a key prefix of its own)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { POTATOQ, PYTHON, ROOT } from '../support/potatoq-seeder';
import { SoloWorker, until as waitFor } from '../support/solo-worker';
import { dropKeysAt } from '@/tests/support/redis';
import { redisAvailable, redisDb } from '../brokers/celery/redis/support';

const up = await redisAvailable();
const PY_DIR = path.join(ROOT, 'tests/py');
// Database 7 holds only keys under per-run prefixes (docs/systems/celery.md): nothing flushes it.
const URL = redisDb(7);
const P = `famprq${randomBytes(4).toString('hex')}`;
let out: string;
let env: NodeJS.ProcessEnv;
let a: BrokerAdapter;
let worker: SoloWorker;
let callback: string;
const until = <T>(what: string, fn: () => Promise<T | null | false | undefined>) =>
  waitFor(what, fn, 60_000, () => `worker log:\n${worker?.log ?? ''}`);

describe.skipIf(!up)('task family on potatoq (Redis), real workers', () => {
  beforeAll(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'fam-prq-'));
    const opts = JSON.stringify({ global_keyprefix: P });
    env = {
      ...process.env,
      RT_BROKER: URL,
      FAM_RESULT_BACKEND: URL,
      PQ_PG_OPTIONS: opts,
      FAM_OUT: out,
      PYTHONUNBUFFERED: '1',
      NO_COLOR: '1',
    };
    execFileSync(POTATOQ, ['-A', 'fam_tasks', '--no-color', '--no-emoji', 'migrate'], { cwd: PY_DIR, env, stdio: 'pipe' });
    callback = (JSON.parse(execFileSync(PYTHON, ['fam_produce.py'], { cwd: PY_DIR, env }).toString()) as { callback: string }).callback;
    a = createRedisAdapter({ id: 'famprq', name: 'fam redis', url: URL, readOnly: false, options: { global_keyprefix: P } });
    worker = new SoloWorker('fam_tasks', PY_DIR, env);
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await a?.close();
    await dropKeysAt(URL, P);
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('reads the dead part, its chord counted from P:chord, and the callback it blocks; says what Redis cannot index', async () => {
    worker.start(['default']);
    await until('the callback to fail', async () => (await a.getResult(callback))?.status === 'FAILURE');
    const dead = (await a.listDead(ZDeadListQuery.parse({ limit: 10 }))).items.find((d) => d.task === 'fam.flaky')!;
    const f = (await a.family!(dead.id, { limit: 50 }))!;
    expect(f.self).toMatchObject({ status: 'dead', link: 'dead' });
    expect(f.groups[0]).toMatchObject({ kind: 'chord', total: 3, done: 3, failed: 1 });
    expect(f.blocks).toEqual([
      expect.objectContaining({ by: dead.id, waiting: expect.objectContaining({ id: callback, status: 'failed' }) }),
    ]);
    expect(f.unseen.join(' ')).toMatch(/Redis keeps no index by root or group id/);
  });
});
