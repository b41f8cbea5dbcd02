// The task family on potatoq's PostgreSQL broker (its own schema and table prefix), against
// the REAL potatoq 26.1a8: a chord whose middle part fails, read from the dead part with its
// chord counters from the prefixed `chord_parts`/`chords` tables, and the callback it blocks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { POTATOQ, PYTHON } from '../support/potatoq-seeder';
import { SoloWorker, until as waitFor } from '../support/solo-worker';
import { dropSchema, PG_URL, pgAvailable, PY_DIR, sqlAdmin } from '@/tests/support/postgres';

const available = await pgAvailable();
const schema = `fam_${Math.random().toString(36).slice(2, 10)}`;
const options = { schema, table_prefix: 'Fam_' };
let out: string;
let env: NodeJS.ProcessEnv;
let a: BrokerAdapter;
let worker: SoloWorker;
let callback: string;

const until = <T>(what: string, fn: () => Promise<T | null | false | undefined>) =>
  waitFor(what, fn, 60_000, () => `worker log:\n${worker?.log ?? ''}`);

beforeAll(async () => {
  if (!available) return;
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'fam-pg-'));
  env = { ...process.env, RT_BROKER: PG_URL, PQ_PG_OPTIONS: JSON.stringify(options), FAM_OUT: out, PYTHONUNBUFFERED: '1', NO_COLOR: '1' };
  execFileSync(POTATOQ, ['-A', 'fam_tasks', '--no-color', '--no-emoji', 'migrate'], { cwd: PY_DIR, env, stdio: 'pipe' });
  callback = (JSON.parse(execFileSync(PYTHON, ['fam_produce.py'], { cwd: PY_DIR, env }).toString()) as { callback: string }).callback;
  a = createPostgresAdapter({ id: 'fampg', name: 'fam pg', url: PG_URL, readOnly: false, options });
  worker = new SoloWorker('fam_tasks', PY_DIR, env);
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await a?.close();
  if (available) await dropSchema(schema);
  if (out) fs.rmSync(out, { recursive: true, force: true });
});

describe.skipIf(!available)('task family on potatoq (PostgreSQL), real workers', () => {
  it('reads the dead part with its chord counted 3/3, 1 failed, and the callback it blocks', async () => {
    const [row] = await sqlAdmin<{ id: string }>(`SELECT id FROM "${schema}"."Fam_jobs" WHERE task = 'fam.flaky'`);
    const flaky = row!.id;
    const waiting = (await a.family!(flaky, { limit: 50 }))!;
    expect(waiting.groups[0]).toMatchObject({ kind: 'chord', total: 3, done: null });
    expect(waiting.groups[0]!.members).toHaveLength(3);
    worker.start(['default']);
    await until('the callback to fail', async () => (await a.getResult(callback))?.status === 'FAILURE');
    const f = (await a.family!(flaky, { limit: 50 }))!;
    expect(f.self).toMatchObject({ status: 'dead', link: 'dead' });
    expect(f.groups[0]).toMatchObject({ total: 3, done: 3, failed: 1 });
    expect(f.blocks).toEqual([
      expect.objectContaining({ by: flaky, waiting: expect.objectContaining({ id: callback, status: 'failed' }) }),
    ]);
  });

  it('answers null for an id that is a LIKE pattern and matches nothing', async () => {
    expect(await a.family!('%', { limit: 5 })).toBeNull();
    expect(await a.family!('_', { limit: 5 })).toBeNull();
  });
});
