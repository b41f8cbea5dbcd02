// Exports of the task lists (ready, scheduled, running) and of the results list from real
// potatoq brokers on PostgreSQL and Redis, whose tasks the real potatoq wrote (enqueue, a
// consumer's claim, stored results, through the seeders). Redaction is on for this file: the
// arguments never reach a file, and a search in them is refused. Each export is an `export`
// entry in the console's state store, here on PostgreSQL (a schema of its own).
// int-lane: uses redis/0 (a key prefix of its own)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenDigest } from '@/lib/auth/password';
import { TEST_HASH } from '@/tests/support/auth';
import { csvObjects, jsonLines } from '@/tests/support/csv';
import { spawnPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { spawnSeeder } from '@/tests/support/postgres-seeder';
import {
  dropSchema,
  migratedSchema,
  newSchemaName,
  pgAvailable,
  PG_URL,
  searchPathUrl,
  sqlAdmin,
  type PgTarget,
} from '@/tests/support/postgres';
import { dropKeysAt, newPrefix, REDIS_URL, redisAvailable } from '@/tests/support/redis';

const up = (await pgAvailable()) && (await redisAvailable());
if (!up) console.warn('SKIPPED: task list exports need PostgreSQL and Redis (scripts/services.sh up)');
const TOKEN = 'pqc_export-reader-token';
const STATE_SCHEMA = newSchemaName();
const PREFIX = newPrefix();
const Q = `exq-${PREFIX}`;
const RUNQ = `exrun-${PREFIX}`;
const TASK = `=cmd|' /C calc'!A${process.pid}`;
const SECRET = `card-4242-${process.pid}`;
let pgTarget: PgTarget;
const headers = () => new Headers({ host: 'localhost:3000', authorization: `Bearer ${TOKEN}` });

type Seeded = { ready: string[]; scheduled: string[]; running: string; results: string[] };
const targets: Array<{ name: string; id: string; open: () => PySeeder; py?: PySeeder; seeded?: Seeded }> = [
  { name: 'PostgreSQL', id: 'expg', open: () => spawnSeeder(PG_URL, pgTarget.options) },
  {
    name: 'Redis',
    id: 'exredis',
    open: () => spawnPySeeder('seeder_redis_contract.py', [REDIS_URL, JSON.stringify({ global_keyprefix: PREFIX })]),
  },
];

const mod = async () => ({
  ...(await import('@/lib/actions/export')),
  audit: await import('@/lib/audit/store'),
  redaction: await import('@/lib/redaction'),
});
const item = (args: unknown[], extra: Record<string, unknown> = {}) => ({ task: TASK, queue: Q, args, ...extra });

async function seed(py: PySeeder): Promise<Seeded> {
  const ready = await py.call<string[]>('enqueue_many', { items: [0, 1, 2, 3, 4].map((i) => item([SECRET, `a, "b"\n=c${i}`])) });
  const scheduled = await py.call<string[]>('enqueue_many', { items: [0, 1, 2].map((i) => item([SECRET, i], { countdown: 3600 })) });
  await py.call('enqueue', { task: TASK, queue: RUNQ, args: [SECRET] });
  const running = (await py.call<string | null>('claim', { queue: RUNQ, worker: 'export-worker@host:1:solo' }))!;
  const results = ready.slice(0, 2);
  for (const id of results) await py.call('store_result', { id, state: 'FAILURE', name: TASK, traceback: `ValueError: ${SECRET}` });
  return { ready, scheduled, running, results };
}

if (up) {
  beforeAll(async () => {
    pgTarget = migratedSchema();
    await sqlAdmin(`CREATE SCHEMA ${STATE_SCHEMA}`);
    process.env.POTATOQ_CONSOLE_STATE = searchPathUrl(STATE_SCHEMA);
    process.env.POTATOQ_CONSOLE_REDACT_ARGS = 'true';
    process.env.POTATOQ_CONSOLE_AUTH = 'accounts';
    process.env.POTATOQ_CONSOLE_SESSION_SECRET = 'export-session-secret-0123456789abcdef';
    process.env.POTATOQ_CONSOLE_USERS = JSON.stringify([{ user: 'nobody', hash: TEST_HASH, role: 'viewer' }]);
    process.env.POTATOQ_CONSOLE_TOKENS = JSON.stringify([{ name: 'export-reader', hash: tokenDigest(TOKEN), role: 'viewer' }]);
    process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([
      { id: 'expg', name: 'Export PG', url: PG_URL, ...pgTarget.options },
      { id: 'exredis', name: 'Export Redis', url: REDIS_URL, global_keyprefix: PREFIX },
    ]);
    for (const t of targets) {
      t.py = t.open();
      t.seeded = await seed(t.py);
    }
  }, 120_000);
  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    for (const t of targets) await t.py?.close();
    await dropKeysAt(REDIS_URL, PREFIX);
    if (pgTarget) await dropSchema(pgTarget.schema);
    await dropSchema(STATE_SCHEMA);
  });
}

describe.skipIf(!up).each(targets)('exports of the task lists on potatoq ($name)', (t) => {
  const exportsAudited = async () =>
    (await (await (await mod()).audit.getAuditStore()).list({ broker: t.id, action: 'export', limit: 50 })).entries;
  const tasks = async (q: Record<string, string>) => (await mod()).exportTasks(t.id, new URLSearchParams(q), headers());

  it('writes the ready tasks as CSV up to max, formulas neutralised, arguments hidden, audited', async () => {
    const { HIDDEN_TEXT } = (await mod()).redaction;
    const res = await tasks({ state: 'ready', queue: Q, max: '3' });
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="tasks-${t.id}-\\d{8}T\\d{6}\\.csv"$`));
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    const rows = csvObjects(text);
    expect(rows.at(-1)!.id).toMatch(/^# export stopped at 3 rows; more tasks match/);
    const data = rows.slice(0, -1);
    expect(data).toHaveLength(3);
    for (const r of data) {
      expect(t.seeded!.ready).toContain(r.id);
      expect(r).toMatchObject({ queue: Q, state: 'ready', task: `'${TASK}`, preview: HIDDEN_TEXT });
    }
    const [entry] = await exportsAudited();
    expect(entry).toMatchObject({
      outcome: 'done',
      who: 'token:export-reader',
      count: 3,
      details: { list: 'tasks', rows: 3, truncated: true },
    });
    expect(entry!.filter).toMatchObject({ list: 'tasks', state: 'ready', queue: Q, format: 'csv', max: 3 });
  });

  it('writes every scheduled task as JSON lines with its run time, and the running one with its worker', async () => {
    const scheduled = jsonLines(await (await tasks({ state: 'scheduled', queue: Q, format: 'jsonl' })).text());
    expect(scheduled.map((o) => o.id).sort()).toEqual([...t.seeded!.scheduled].sort());
    for (const o of scheduled) expect(Date.parse(o.runAt as string)).toBeGreaterThan(Date.now() + 3000_000);
    const running = jsonLines(await (await tasks({ state: 'running', queue: RUNQ, format: 'jsonl' })).text());
    expect(running).toEqual([
      expect.objectContaining({ id: t.seeded!.running, state: 'running', worker: expect.stringContaining('export-worker') }),
    ]);
    expect((await exportsAudited())[0]).toMatchObject({ count: 1, details: { list: 'tasks', truncated: false, format: 'jsonl' } });
  });

  it('exports the stored results by status, with no argument or traceback in them', async () => {
    const text = await (await (await mod()).exportResults(t.id, new URLSearchParams({ status: 'FAILURE' }), headers())).text();
    expect(text.split('\r\n')[0]).toBe('id,status,name,dateDone,expiresAt');
    const rows = csvObjects(text).filter((r) => r.name === `'${TASK}`);
    expect(rows.map((r) => r.id).sort()).toEqual([...t.seeded!.results].sort());
    expect(rows.every((r) => r.status === 'FAILURE' && Date.parse(r.dateDone!) > 0)).toBe(true);
    expect(text).not.toContain(SECRET);
    expect((await exportsAudited())[0]).toMatchObject({ details: { list: 'results' }, filter: { list: 'results', status: 'FAILURE' } });
  });

  it('refuses a search in hidden arguments, an unknown state and a bad max by field, auditing nothing', async () => {
    const before = (await exportsAudited()).length;
    for (const [q, field] of [
      [{ queue: Q, q: SECRET }, 'q'],
      [{ state: 'nope' }, 'state'],
      [{ max: '50001' }, 'max'],
    ] as const)
      expect(await tasks(q).catch((e: unknown) => e)).toMatchObject({ code: 'InvalidInput', fields: { [field]: expect.any(String) } });
    expect((await exportsAudited()).length).toBe(before);
  });
});
