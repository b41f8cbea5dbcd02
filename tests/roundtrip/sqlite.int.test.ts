// Round trips between the console's SQLite adapter and the REAL potatoq 26.1a8: potatoq
// produces and fails tasks that the console must show as potatoq's CLI does; the console
// enqueues, replays, revokes and purges, and a real `potatoq worker -P solo` runs (or never
// runs) the result with correctly typed arguments.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteAdapter } from '@/lib/brokers/potatoq/sqlite/adapter';
import { ZEnqueueInput } from '@/lib/actions/schemas';
import { typedSnippet } from '@/components/enqueue/typed-entry';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZDeadListQuery, type TypedKind } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { POTATOQ, PYTHON, ROOT } from '../support/potatoq-seeder';
import { SoloWorker, until as waitFor } from '../support/solo-worker';
import { taskQuery } from '@/tests/support/task-query';

const PY_DIR = path.join(ROOT, 'tests/py');
let dir: string;
let url: string;
let env: NodeJS.ProcessEnv;
let console_: BrokerAdapter;
let ids: Record<'typed' | 'fail' | 'unknown' | 'flaky' | 'revoked' | 'revoked_ready' | 'purged' | 'purged_later' | 'cli_revoked', string>;
let worker: SoloWorker;
let expiredId = '';

const potatoq = (...args: string[]) =>
  execFileSync(POTATOQ, ['-A', 'rt_tasks', '--no-color', '--no-emoji', ...args], { cwd: PY_DIR, env }).toString();
const recorded = (id: string) => {
  const f = path.join(dir, `${id}.json`);
  return fs.existsSync(f)
    ? (JSON.parse(fs.readFileSync(f, 'utf8')) as { args: [string, string][]; kwargs: Record<string, [string, string]>; headers: unknown })
    : null;
};

// Waits print the worker's output when they time out.
const until = <T>(what: string, fn: () => Promise<T | null | false | undefined> | T | null | false | undefined, ms = 60_000) =>
  waitFor(what, fn, ms, () => `worker log:\n${worker?.log ?? ''}`);
const startWorker = () => worker.start(['default', 'rt-held', 'rt-purge']);
const stopWorker = () => worker?.stop();

/** The REASON column of `potatoq dead list` (text table) per task id. */
function cliReasons(): Record<string, string> {
  const lines = potatoq('dead', 'list', '--limit', '100').split('\n');
  const header = lines.find((l) => l.includes('REASON') && l.includes('TASK'))!;
  const at = header.indexOf('REASON');
  const out: Record<string, string> = {};
  for (const l of lines) {
    const id = Object.values(ids).find((i) => l.includes(i));
    if (id) out[id] = l.slice(at).trimEnd();
  }
  return out;
}

const waitingCounts = async () =>
  Object.fromEntries(
    (await console_.overview()).queues
      .filter((q) => (q.counts.ready ?? 0) + (q.counts.scheduled ?? 0) > 0)
      .map((q) => [q.name, (q.counts.ready ?? 0) + (q.counts.scheduled ?? 0)]),
  );

beforeAll(() => {
  execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-rt-'));
  url = `sqlite:///${path.join(dir, 'broker.sqlite3')}`;
  env = { ...process.env, RT_BROKER: url, RT_OUT: dir, POTATOQ_NO_EMOJI: '1', NO_COLOR: '1', PYTHONUNBUFFERED: '1' };
  potatoq('migrate');
  ids = JSON.parse(execFileSync(PYTHON, ['rt_produce.py'], { cwd: PY_DIR, env }).toString());
  console_ = createSqliteAdapter({ id: 'rt', name: 'round trip', url, readOnly: false, options: {} });
  worker = new SoloWorker('rt_tasks', PY_DIR, env);
});

afterAll(async () => {
  await stopWorker();
  await console_?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('SQLite round trips with the real potatoq', () => {
  it('counts waiting tasks per queue exactly as `potatoq queues --json`', async () => {
    expect(await waitingCounts()).toEqual(JSON.parse(potatoq('queues', '--json')));
    const typed = await console_.getTask(ids.typed);
    expect(typed?.payload.foreign).toBeNull();
    const scheduled = (await console_.listTasks(taskQuery({ state: 'scheduled' }))).items.map((t) => t.id);
    expect(scheduled).toContain(ids.revoked);
  });

  it("shows potatoq's own revocation: the task is gone and its REVOKED result names it", async () => {
    expect((await console_.getTask(ids.cli_revoked))?.state).toBe('ready');
    potatoq('revoke', ids.cli_revoked);
    expect(await console_.getTask(ids.cli_revoked)).toBeNull();
    const revoked = (await console_.listResults({ status: 'REVOKED', limit: 500 })).items.find((r) => r.id === ids.cli_revoked);
    expect(revoked).toMatchObject({ status: 'REVOKED', name: 'rt.record' });
    expect(await waitingCounts()).toEqual(JSON.parse(potatoq('queues', '--json')));
  });

  it('revokes and purges so that potatoq never runs those tasks, and enqueues typed arguments', async () => {
    const rv = await console_.revoke([ids.revoked, ids.revoked_ready]);
    expect(rv.failed).toEqual([]);
    expect((await console_.purge('rt-purge')).removed).toBe(2);
    expect(await waitingCounts()).toEqual(JSON.parse(potatoq('queues', '--json')));
    expect(potatoq('result', ids.revoked)).toContain('REVOKED');

    const typedArgs = JSON.stringify([
      { __potatoq__: 'datetime', v: '2024-05-06T07:08:09+00:00' },
      { __potatoq__: 'decimal', v: '3.14' },
      { __potatoq__: 'uuid', v: '87654321-4321-8765-4321-876543210000' },
      { __potatoq__: 'bytes', v: 'AP8=' },
      { __potatoq__: 'set', v: [3, 4] },
      { __potatoq__: 'timedelta', v: 90.5 },
    ]).replace(/]$/, ',1180591620717411303424]'); // 2**70: beyond JS numbers, written as text
    const now = await console_.enqueue(
      ZEnqueueInput.parse({
        task: 'rt.record',
        args: typedArgs,
        kwargs: '{"when": {"__potatoq__": "date", "v": "2024-02-29"}}',
        headers: '{"trace": "abc"}',
      }),
    );
    // The form's type-aware entry, in the adapter's declared template, through the fields body.
    const typed = console_.model.actions.enqueue.typed!;
    const entry = (kind: TypedKind, raw: string) => {
      const r = typedSnippet(typed.template, kind, raw);
      if (!r.ok) throw new Error(r.error);
      return r.json;
    };
    const entered = await console_.enqueue(
      ZEnqueueInput.parse({
        task: 'rt.record',
        fields: {
          args: `[${[entry('datetime', '2026-12-01T09:30:00'), entry('decimal', '19.990'), entry('uuid', ''), entry('bytes', 'héllo'), entry('timedelta', '90')].join(', ')}]`,
          kwargs: `{"on": ${entry('date', '2026-12-24')}, "tags": ${entry('set', '["a", "b"]')}}`,
          priority: '0',
        },
      }),
    );
    // A malformed tagged value is refused, named by its path, and never reaches the worker.
    const refused = await console_
      .enqueue(ZEnqueueInput.parse({ task: 'rt.record', fields: { kwargs: '{"at": {"__potatoq__": "datetime", "v": "tomorrow 9am"}}' } }))
      .catch((e: unknown) => e);
    expect(isConsoleError(refused) && refused.code).toBe('InvalidInput');
    expect(isConsoleError(refused) && Object.keys(refused.fields ?? {})).toEqual(['kwargs.at']);
    const soon = await console_.enqueue(ZEnqueueInput.parse({ task: 'rt.record', args: '["later"]', countdown: 1 }));
    expect(soon.state).toBe('scheduled');
    expiredId = (
      await console_.enqueue(ZEnqueueInput.parse({ task: 'rt.record', args: '["expired"]', expires: '2020-01-01T00:00:00+00:00' }))
    ).id;

    startWorker();
    const got = await until('the console-enqueued task to run', () => recorded(now.id));
    expect(got.args.map(([t]) => t)).toEqual(['datetime', 'Decimal', 'UUID', 'bytes', 'set', 'timedelta', 'int']);
    expect(got.args[0]![1]).toContain('2024, 5, 6, 7, 8, 9');
    expect(got.args[1]![1]).toBe("Decimal('3.14')");
    expect(got.args[6]![1]).toBe('1180591620717411303424');
    expect(got.kwargs.when).toEqual(['date', 'datetime.date(2024, 2, 29)']);
    expect(got.headers).toEqual({ trace: 'abc' });
    const fromEntry = await until('the typed-entry task to run', () => recorded(entered.id));
    expect(fromEntry.args.map(([t]) => t)).toEqual(['datetime', 'Decimal', 'UUID', 'bytes', 'timedelta']);
    expect(fromEntry.args[1]![1]).toBe("Decimal('19.990')");
    expect(fromEntry.args[3]![1]).toBe("b'h\\xc3\\xa9llo'");
    expect(fromEntry.args[4]![1]).toBe('datetime.timedelta(seconds=90)');
    expect(fromEntry.kwargs.on).toEqual(['date', 'datetime.date(2026, 12, 24)']);
    expect(fromEntry.kwargs.tags?.[0]).toBe('set');
    await until('the scheduled console task to run', () => recorded(soon.id));
    const producer = await until("potatoq's own typed task to run", () => recorded(ids.typed));
    expect(producer.args.map(([t]) => t)).toEqual(['datetime', 'Decimal', 'UUID', 'bytes', 'set', 'timedelta']);
  });

  it('shows what potatoq dead-lettered with the reason line of `potatoq dead list`', async () => {
    const deadIds = () => console_.listDead(ZDeadListQuery.parse({ limit: 100 })).then((p) => p.items);
    const letters = await until('three dead letters', async () => {
      const items = await deadIds();
      return items.length >= 3 && items;
    });
    const cli = cliReasons();
    for (const id of [ids.fail, ids.unknown, ids.flaky]) {
      expect(letters.find((d) => d.id === id)?.summary).toBe(cli[id]);
    }
    const asJson = JSON.parse(potatoq('dead', 'list', '--json')) as Array<{ id: string; reason: string }>;
    const fail = await console_.getDead(ids.fail);
    expect(fail?.reason).toBe(asJson.find((d) => d.id === ids.fail)?.reason);
    expect(fail?.summary).toBe('ValueError: boom-rt');
    expect(fail?.result?.status).toBe('FAILURE');
    expect(fail?.result?.excType).toBe('ValueError');
    expect(fail?.result?.excMessage).toBe('boom-rt');
    expect(fail?.result?.traceback).toContain('Traceback (most recent call last)');
    expect((await console_.getDead(ids.unknown))?.summary).toBe('unregistered task rt.unknown');
    const groups = (await console_.deadGroups({})).groups;
    expect(groups.map((g) => g.example.summary)).toEqual(
      expect.arrayContaining(['ValueError: boom-rt', 'unregistered task rt.unknown', 'RuntimeError: first attempt fails']),
    );
    expect(groups.find((g) => g.example.summary === 'ValueError: boom-rt')).toMatchObject({
      pattern: 'ValueError: boom-rt',
      frame: 'py/rt_tasks.py in fail',
    });
  });

  it('replays a dead letter so the real worker runs it again with typed arguments', async () => {
    fs.writeFileSync(path.join(dir, 'flaky-ok'), '');
    const r = await console_.replayDead([ids.flaky]);
    expect(r.succeeded.map((o) => o.id)).toEqual([ids.flaky]);
    const got = await until('the replayed task to run', () => recorded(ids.flaky));
    expect(got.args.map(([t]) => t)).toEqual(['datetime', 'Decimal', 'UUID', 'bytes', 'set', 'timedelta']);
    expect(got.kwargs.big).toEqual(['int', String(2n ** 70n)]);
    await until('its SUCCESS result', async () =>
      (await console_.listResults({ status: 'SUCCESS', limit: 500 })).items.some((x) => x.id === ids.flaky),
    );
  });

  it('shows the running worker from its heartbeat, with its registered tasks', async () => {
    const w = await until(
      'a live worker',
      async () => (await console_.listWorkers()).find((x) => x.status === 'alive' && x.id.endsWith(':solo')) ?? null,
    );
    expect(w.queues).toEqual(['default', 'rt-held', 'rt-purge']);
    expect(w.registered).toEqual(expect.arrayContaining(['rt.record', 'rt.fail', 'rt.flaky']));
    expect(await console_.taskNames()).toEqual(expect.arrayContaining(['rt.record', 'rt.flaky', 'rt.unknown']));
  });

  it('never runs revoked or purged tasks', async () => {
    await stopWorker();
    for (const id of [ids.revoked, ids.revoked_ready, ids.purged, ids.purged_later, ids.cli_revoked]) expect(recorded(id)).toBeNull();
    expect(await console_.getTask(ids.revoked_ready)).toBeNull();
    const statuses = Object.fromEntries((await console_.listResults({ status: undefined, limit: 500 })).items.map((r) => [r.id, r.status]));
    expect(statuses[ids.revoked_ready]).toBe('REVOKED');
    expect(statuses[ids.typed]).toBe('SUCCESS');
    // An expires in the past: potatoq's worker discards it and stores REVOKED.
    expect(recorded(expiredId)).toBeNull();
    expect(statuses[expiredId]).toBe('REVOKED');
    expect(await waitingCounts()).toEqual(JSON.parse(potatoq('queues', '--json')));
  });
});
