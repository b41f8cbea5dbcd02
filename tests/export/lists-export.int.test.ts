// Exports of the lists that are not task pages, against real systems. potatoq on PostgreSQL: a
// real `potatoq worker` fails tasks of two bugs (tests/py/fp_*.py); while it runs, the workers
// export holds it, the groups export holds the 2 real groups with their counts, and one group's
// letters export (the dead export's `group`) holds exactly that group's letters. QueueFlow: the
// real server with runs made by its real Python client (the workflows export pages by the
// server's cursor past 100) and schedules made by create_cron (payloads hidden: redaction is on
// for this file). Each export is an `export` audit entry; bad input is refused by its field.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvObjects, jsonLines } from '@/tests/support/csv';
import { dropSchema, newSchemaName, PG_URL, pgAvailable } from '@/tests/support/postgres';
import { startFpWorker } from '@/tests/support/fp-worker';
import { ROOT } from '@/tests/support/potatoq-seeder';
import { type SoloWorker, until } from '@/tests/support/solo-worker';
import { createCrons } from '@/tests/queueflow/cron-support';
import { startQueueflow, uniqueQueue } from '@/tests/queueflow/support';
import { createWorkflows } from '@/tests/queueflow/workflows-support';

const N = 30; // fp_produce: every third an export bug, the rest a card decline
const pgUp = await pgAvailable();
const qf = startQueueflow();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lists-export-'));
const schema = newSchemaName();
const pgOptions = { schema, table_prefix: 'potatoq_' };
const SECRET = `card-4242-${process.pid}`;
process.env.POTATOQ_CONSOLE_STATE = path.join(dir, 'state.sqlite3');
process.env.POTATOQ_CONSOLE_REDACT_ARGS = 'true';
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([
  { id: 'pg', name: 'Lists PG', url: PG_URL, ...pgOptions },
  // The same broker grouping only its newest 25 letters: a partial list, said in the file.
  { id: 'pgw', name: 'Lists PG, window 25', url: PG_URL, ...pgOptions, searchWindow: 25 },
  ...(qf ? [{ id: 'qf', kind: 'queueflow', url: qf.url, token: qf.token }] : []),
]);
const x = await import('@/lib/actions/export-lists');
const { exportDead } = await import('@/lib/actions/export');
const { getAuditStore } = await import('@/lib/audit/store');
const { resetAdapters } = await import('@/lib/brokers/registry');
const { deadGroups } = await import('@/lib/brokers/service');

const headers = () => new Headers({ host: 'localhost:3000' });
type Exporter = (broker: string, params: URLSearchParams, headers: Headers) => Promise<Response>;
const file = async (run: Exporter, broker: string, q: Record<string, string> = {}) => {
  const res = await run(broker, new URLSearchParams(q), headers());
  return { res, text: await res.text() };
};
const lastExport = async (broker: string) => (await (await getAuditStore()).list({ broker, action: 'export', limit: 1 })).entries[0];
let worker: SoloWorker | undefined;

afterAll(async () => {
  await worker?.stop();
  await resetAdapters();
  qf?.stop();
  if (pgUp) await dropSchema(schema);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!pgUp)('groups, one group and workers exports from the real potatoq on PostgreSQL', () => {
  beforeAll(async () => {
    execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
    worker = startFpWorker({ ...process.env, FP_BROKER: PG_URL, FP_OPTIONS: JSON.stringify(pgOptions) }, N);
    await until(
      `${N} dead letters`,
      async () => (await deadGroups('pg', {})).scope.grouped === N,
      90_000,
      () => worker?.log ?? '',
    );
  }, 180_000);

  it('exports the running worker as the Workers tab knows it', async () => {
    const { res, text } = await file(x.exportWorkers, 'pg');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="workers-pg-\d{8}T\d{6}\.csv"$/);
    const rows = csvObjects(text);
    // The schema is this file's own: its one worker is the one started above.
    expect(rows, text).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'alive', concurrency: '1', running: '[]' });
    expect(rows[0]!.hostname).toContain(os.hostname());
    expect(JSON.parse(rows[0]!.queues!)).toEqual(['fp-billing', 'fp-exports']);
    expect(JSON.parse(rows[0]!.registered!)).toEqual(expect.arrayContaining(['shop.charge', 'shop.export']));
    expect(rows[0]!.id).toContain(`:${rows[0]!.pid}:`);
    expect(await lastExport('pg')).toMatchObject({ outcome: 'done', count: rows.length, filter: { list: 'workers', format: 'csv' } });
  });

  it('exports the 2 real groups with counts, first and last seen and a sample reason', async () => {
    const { text } = await file(x.exportDeadGroups, 'pg', { format: 'jsonl' });
    const groups = jsonLines(text);
    expect(groups.map((g) => [g.count, g.tasks, g.queues])).toEqual([
      [20, ['shop.charge'], ['fp-billing']],
      [10, ['shop.export'], ['fp-exports']],
    ]);
    for (const g of groups) {
      expect(g.fingerprint).toMatch(/^fp-[0-9a-f]{16}$/);
      expect(String(g.firstSeen) <= String(g.lastSeen)).toBe(true);
      expect(g.exampleReason).toMatch(/^[\w.]*(CardDeclined|ValueError): /);
    }
    expect(await lastExport('pg')).toMatchObject({ count: 2, details: { truncated: false }, filter: { list: 'dead-groups' } });
    const cut = csvObjects((await file(x.exportDeadGroups, 'pg', { max: '1', queue: 'fp-exports' })).text);
    expect(cut.map((r) => r.count)).toEqual(['10']);
  });

  it('says in the file and the audit entry when the grouping covered only part of the letters', async () => {
    const lines = jsonLines((await file(x.exportDeadGroups, 'pgw', { format: 'jsonl' })).text);
    const note = lines.at(-1)!;
    expect(note).toMatchObject({ partial: true, note: expect.stringMatching(/^Grouped the newest 25 /) });
    expect(lines.slice(0, -1).reduce((n, g) => n + Number(g.count), 0)).toBe(25);
    expect(await lastExport('pgw')).toMatchObject({ count: 2, details: { truncated: false, partial: note.note } });
  });

  it("exports exactly one group's letters by its fingerprint", async () => {
    const [charge] = (await deadGroups('pg', {})).groups;
    const rows = csvObjects((await file(exportDead, 'pg', { group: charge!.fingerprint })).text);
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.id)).size).toBe(20);
    expect(rows.every((r) => r.task === 'shop.charge' && r.queue === 'fp-billing')).toBe(true);
    expect(await lastExport('pg')).toMatchObject({ count: 20, filter: { list: 'dead', group: charge!.fingerprint } });
  });

  it('refuses bad input by its field, and a list the system lacks by its reason, nothing audited', async () => {
    const before = (await (await getAuditStore()).list({ broker: 'pg', action: 'export', limit: 100 })).entries.length;
    for (const [run, q, field] of [
      [x.exportDeadGroups, { max: '0' }, 'max'],
      [x.exportWorkers, { format: 'xlsx' }, 'format'],
      [x.exportSchedules, { max: '50001' }, 'max'],
    ] as const) {
      const e = await run('pg', new URLSearchParams(q), headers()).catch((err: unknown) => err);
      expect(e).toMatchObject({ code: 'InvalidInput', fields: { [field]: expect.any(String) } });
    }
    expect(await x.exportWorkflows('pg', new URLSearchParams(), headers()).catch((err: unknown) => err)).toMatchObject({
      code: 'Unsupported',
    });
    expect((await (await getAuditStore()).list({ broker: 'pg', action: 'export', limit: 100 })).entries.length).toBe(before);
  });
});

describe.skipIf(!qf)('workflows and schedules exports from the real QueueFlow server', () => {
  const IDLE = uniqueQueue('lxidle');
  let runs: string[] = [];

  beforeAll(() => {
    const flows = Array.from({ length: 120 }, (_, i) => ({
      name: `lx-${i}-${IDLE}`,
      steps: [{ name: 'only', task: 'qf.ok', queue: IDLE }],
    }));
    runs = createWorkflows(qf!, flows).map((r) => r.id);
    createCrons(qf!, [
      { name: `lx-nightly-${IDLE}`, schedule: '0 3 * * *', task: 'qf.ok', queue: IDLE, payload: { card: SECRET } },
      { name: `lx-hourly-${IDLE}`, schedule: '0 * * * *', task: 'qf.ok', queue: IDLE },
    ]);
  }, 180_000);

  it('pages every run through the server cursor, none twice, and stops at max saying so', async () => {
    const all = jsonLines((await file(x.exportWorkflows, 'qf', { format: 'jsonl' })).text);
    const ids = all.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(runs));
    const mine = all.filter((r) => runs.includes(String(r.id)));
    expect(mine.every((r) => r.stepCount === 1 && String(r.name).endsWith(IDLE))).toBe(true);
    const status = String(mine[0]!.status);
    const { text } = await file(x.exportWorkflows, 'qf', { status, max: '50' });
    const rows = csvObjects(text);
    expect(rows.at(-1)!.id).toMatch(/^# export stopped at 50 rows; more runs match/);
    expect(rows.slice(0, -1).every((r) => r.status === status)).toBe(true);
    expect(await lastExport('qf')).toMatchObject({ count: 50, details: { truncated: true }, filter: { list: 'workflows', status } });
    const bad = await x.exportWorkflows('qf', new URLSearchParams({ status: 'Nope!' }), headers()).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'InvalidInput', fields: { status: expect.any(String) } });
  });

  it('exports the schedules with their payloads hidden', async () => {
    const { text } = await file(x.exportSchedules, 'qf');
    expect(text).not.toContain(SECRET);
    const rows = csvObjects(text).filter((r) => r.name?.endsWith(IDLE));
    expect(rows.map((r) => [r.name, r.cron, r.task, r.queue]).sort()).toEqual([
      [`lx-hourly-${IDLE}`, '0 * * * *', 'qf.ok', IDLE],
      [`lx-nightly-${IDLE}`, '0 3 * * *', 'qf.ok', IDLE],
    ]);
    expect(rows.find((r) => r.name?.startsWith('lx-nightly'))!.payload).toMatch(/hidden/);
    expect(await lastExport('qf')).toMatchObject({ outcome: 'done', filter: { list: 'schedules' } });
  });
});
