// Export of the dead-letter list from a real SQLite broker whose letters the real potatoq wrote
// (its worker's dead_letter settle, through the seeder): CSV and JSON lines, bounded by `max`
// and saying so in the file, arguments hidden as the list hides them (redaction on for this
// file), each export recorded in the console's state store as an `export` audit entry.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';
import { migratedDb } from '@/tests/support/sqlite-db';

const file = migratedDb();
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: 'ex', name: 'Export SQLite', url: `sqlite:///${file}` }]);
process.env.POTATOQ_CONSOLE_STATE = path.join(path.dirname(file), 'console-state.sqlite3');
process.env.POTATOQ_CONSOLE_REDACT_ARGS = 'true';
const { exportDead } = await import('@/lib/actions/export');
const { getAuditStore } = await import('@/lib/audit/store');
const { resetAdapters } = await import('@/lib/brokers/registry');
const { HIDDEN_TEXT } = await import('@/lib/redaction');

const TASK = `export.task.${process.pid}`;
const SECRET = `card-4242-${process.pid}`;
const headers = () => new Headers({ host: 'localhost:3000' });
let py: PySeeder;
const seeded: string[] = [];

const exportText = async (q: Record<string, string>) => {
  const res = await exportDead('ex', new URLSearchParams(q), headers());
  return { res, text: await res.text() };
};
const exportsAudited = async () => (await (await getAuditStore()).list({ broker: 'ex', action: 'export', limit: 50 })).entries;

beforeAll(async () => {
  py = startPySeeder(`sqlite:///${file}`);
  for (let i = 0; i < 7; i++)
    seeded.push(
      await py.call<string>('dead_letter', {
        task: TASK,
        queue: 'exports',
        args: [SECRET, i],
        reason: `Traceback (most recent call last):\nValueError: card declined, code ${i}\n`,
      }),
    );
}, 120_000);

afterAll(async () => {
  await resetAdapters();
  await py?.close();
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

describe('dead-letter export', () => {
  it('writes CSV up to max rows, says where it stopped, hides the arguments, and is audited', async () => {
    const { res, text } = await exportText({ task: TASK, max: '5' });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="dead-ex-\d{8}T\d{6}\.csv"$/);
    expect(res.headers.get('x-export-max-rows')).toBe('5');
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('id,queue,task,diedAt,summary,cause,preview');
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(5);
    for (const r of rows) {
      expect(seeded).toContain(r.split(',')[0]);
      expect(r).toContain(`,exports,${TASK},`);
      expect(r).toContain(HIDDEN_TEXT);
    }
    expect(lines.at(-1)).toMatch(/^# export stopped at 5 rows; more letters match/);
    expect(text).not.toContain(SECRET);

    const [entry] = await exportsAudited();
    expect(entry).toMatchObject({ action: 'export', outcome: 'done', count: 5, details: { rows: 5, format: 'csv', truncated: true } });
    expect(entry!.filter).toMatchObject({ task: TASK, format: 'csv', max: 5 });
  });

  it('writes every matching letter as JSON lines when they fit, with no stop line', async () => {
    const { res, text } = await exportText({ task: TASK, format: 'jsonl' });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const objects = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objects.map((o) => o.id).sort()).toEqual([...seeded].sort());
    expect(objects.every((o) => o.task === TASK && o.preview === HIDDEN_TEXT && 'diedAt' in o)).toBe(true);
    expect(objects.map((o) => o.summary).sort()).toEqual(seeded.map((_, i) => `ValueError: card declined, code ${i}`).sort());
    expect((await exportsAudited())[0]).toMatchObject({ outcome: 'done', count: 7, details: { truncated: false, format: 'jsonl' } });
  });

  it('refuses a bad filter by its field before anything is written or audited', async () => {
    const before = (await exportsAudited()).length;
    for (const [q, field] of [
      [{ max: '0' }, 'max'],
      [{ max: '50001' }, 'max'],
      [{ format: 'xlsx' }, 'format'],
    ] as const) {
      const e = await exportDead('ex', new URLSearchParams(q), headers()).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'InvalidInput', fields: { [field]: expect.any(String) } });
    }
    const unknown = await exportDead('nope', new URLSearchParams(), headers()).catch((x: unknown) => x);
    expect(unknown).toMatchObject({ code: 'NotFound' });
    expect((await exportsAudited()).length).toBe(before);
  });
});
