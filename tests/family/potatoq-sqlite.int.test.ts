// The task family on potatoq's SQLite broker, against the REAL potatoq 26.1a8: a real producer
// sends a chord (three parts, the middle one failing) and a chain; a real `potatoq worker -P
// solo` runs them; the console reads the family from any member, sees the failed part and
// the callback it blocks, replays the part, and reads the family again.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';
import type { BrokerAdapter } from '@/lib/brokers/types';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import { POTATOQ, PYTHON, ROOT } from '../support/potatoq-seeder';
import { SoloWorker, until as waitFor } from '../support/solo-worker';

const PY_DIR = path.join(ROOT, 'tests/py');
let dir: string;
let file: string;
let env: NodeJS.ProcessEnv;
let adapter: BrokerAdapter;
let worker: SoloWorker;
let sent: { callback: string };
let parts: { id: string; task: string; index: number }[];
let chain: string[];

const until = <T>(what: string, fn: () => Promise<T | null | false | undefined> | T | null | false | undefined) =>
  waitFor(what, fn, 60_000, () => `worker log:\n${worker?.log ?? ''}`);
const family = async (id: string, limit = 200): Promise<TaskFamily> => (await adapter.family!(id, { limit }))!;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fam-sqlite-'));
  file = path.join(dir, 'broker.db');
  env = { ...process.env, RT_BROKER: `sqlite:///${file}`, FAM_OUT: dir, NO_COLOR: '1', PYTHONUNBUFFERED: '1' };
  execFileSync(POTATOQ, ['-A', 'fam_tasks', '--no-color', '--no-emoji', 'migrate'], { cwd: PY_DIR, env });
  sent = JSON.parse(execFileSync(PYTHON, ['fam_produce.py'], { cwd: PY_DIR, env }).toString()) as { callback: string };
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT id, payload FROM potatoq_jobs').all() as { id: string; payload: string }[];
  db.close();
  const msgs = rows.map((r) => ({ id: r.id, m: JSON.parse(r.payload) as { task: string; group_index?: number; link?: unknown[] } }));
  parts = msgs
    .filter((x) => x.m.group_index !== undefined)
    .map((x) => ({ id: x.id, task: x.m.task, index: x.m.group_index! }))
    .sort((a, b) => a.index - b.index);
  chain = msgs.filter((x) => x.m.link?.length).map((x) => x.id);
  adapter = createSqliteAdapter({ id: 'fam', name: 'fam', url: `sqlite:///${file}`, readOnly: false, options: {} });
  worker = new SoloWorker('fam_tasks', PY_DIR, env);
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await adapter?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('task family on potatoq (SQLite), real workers', () => {
  it('shows a waiting chord from any part: its parts, its size and its callback', async () => {
    expect(parts.map((p) => p.task)).toEqual(['fam.add', 'fam.flaky', 'fam.add']);
    const f = await family(parts[2]!.id);
    expect(f.self.status).toBe('waiting');
    const g = f.groups.find((x) => x.kind === 'chord')!;
    expect(g.members.sort()).toEqual(parts.map((p) => p.id).sort());
    expect(g.total).toBe(3);
    expect(g.done).toBeNull();
    expect(g.callback?.id).toBe(sent.callback);
    expect(g.callback?.task).toBe('fam.collect');
  });

  it('shows a waiting chain from its first step: each later step the child of the one before', async () => {
    const first = chain[0]!;
    const f = await family(first);
    const [s1, s2, s3] = f.members;
    expect(f.members).toHaveLength(3);
    expect(s1!.id).toBe(first);
    expect(s1!.status).toBe('waiting');
    expect(s2!.parentId).toBe(s1!.id);
    expect(s3!.parentId).toBe(s2!.id);
    expect([s2!.status, s3!.status]).toEqual(['unknown', 'unknown']);
    expect(f.children.map((c) => c.id)).toEqual([s2!.id]);
  });

  it('shows the failed part dead, the chord 3/3 done with 1 failed, and the callback it blocks', async () => {
    worker.start(['default']);
    const flaky = parts[1]!.id;
    await until('the flaky part to die', async () => (await adapter.getDead(flaky)) !== null);
    await until('the chord callback to fail', async () => (await adapter.getResult(sent.callback))?.status === 'FAILURE');
    const f = await family(flaky);
    const g = f.groups.find((x) => x.kind === 'chord')!;
    expect([g.total, g.done, g.failed]).toEqual([3, 3, 1]);
    // A finished part's message is gone and its result keeps no group id: it stands alone,
    // and the family says why.
    const done = await family(parts[0]!.id);
    expect(done.self.status).toBe('succeeded');
    expect(done.groups).toEqual([]);
    expect(done.unseen.join(' ')).toMatch(/Finished tasks leave the broker/);
    expect(f.self).toMatchObject({ id: flaky, status: 'dead', link: 'dead' });
    expect(f.blocks).toHaveLength(1);
    expect(f.blocks[0]!.by).toBe(flaky);
    expect(f.blocks[0]!.waiting).toMatchObject({ id: sent.callback, status: 'failed', state: 'FAILURE' });
    expect(f.blocks[0]!.why).toMatch(/ChordError/);
  });

  it('replays the failed part from its family: it succeeds, the chord keeps the error it recorded', async () => {
    const flaky = parts[1]!.id;
    fs.writeFileSync(path.join(dir, `${flaky}.ok`), '');
    const r = await adapter.replayDead([flaky]);
    expect(r.failed).toEqual([]);
    await until('the replayed part to succeed', async () => (await adapter.getResult(flaky))?.status === 'SUCCESS');
    const f = await family(flaky);
    expect(f.self.status).toBe('succeeded');
    expect(f.blocks).toEqual([]);
    // potatoq counts a part once: the chord's counters and its failed callback stay.
    const cb = (await adapter.getResult(sent.callback))?.status;
    expect(cb).toBe('FAILURE');
  });

  it('answers null for an id no task has and no task names', async () => {
    expect(await adapter.family!('no-such-task-000', { limit: 10 })).toBeNull();
  });
});
