// A move of a dead letter never runs its task twice, even when the console stops between the
// move's two steps and the target keeps no trace of the task: real potatoq 26.1a8 workers on a
// SQLite broker (the source, where `mv.quiet` fails) and on two targets where it runs, Redis
// and PostgreSQL, whose results expire after 1 s here (after a day by default: Redis drops
// the key, potatoq's own maintenance the row), so once it ran the target has nothing; a second
// console process (tests/support/move-child.ts) killed between the steps; the console's state
// store (the move journal) in a SQLite file both processes share. Each run has its own SQLite
// files, PostgreSQL schema, Redis key prefix and output folders, all removed afterwards.
// int-lane: uses redis/0 (a key prefix of its own)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@/tests/support/solo-worker';
import {
  BulkJob,
  cleanUp,
  journalRow,
  leaveNoTrace,
  letter,
  lockSource,
  logs,
  move,
  otherConsole,
  pgWorker,
  Q,
  runs,
  service,
  serviceBackend,
  sleep,
  startWorkers,
  takeSnapshot,
  TARGET_NAME,
  unfinishedMove,
  up,
} from '@/tests/support/move-journal-rig';

describe.skipIf(!up)('a move interrupted between its steps never runs the task twice (real potatoq workers)', () => {
  beforeAll(startWorkers);
  afterAll(cleanUp, 60_000);

  it.each(['rd', 'pg'] as const)(
    'the console is killed after the enqueue to %s: the task runs there, leaves no trace, and no retry sends it again',
    async (to) => {
      const id = await letter();
      const release = lockSource();
      const other = otherConsole(id, 'olga', to);
      try {
        await until(
          'the target worker to run the moved task',
          () => runs(id) === 1,
          60_000,
          () => `${other.out()}\n${logs()}`,
        );
        other.child.kill('SIGKILL');
        await other.exited;
      } finally {
        release();
      }
      await leaveNoTrace(to, id);

      // At once: the move might still be running (its lease), so nothing is sent.
      const soon = await move.moveDead('sq', to, [id], { by: 'bob' });
      await sleep(2000);
      expect(runs(id)).toBe(1);
      expect(soon.succeeded).toEqual([]);
      expect(soon.failed).toEqual([
        {
          id,
          outcome: 'conflict',
          message: expect.stringMatching(
            new RegExp(`^not moved: it is being moved by another operation \\(a move at .* by olga to ${TARGET_NAME[to]}`),
          ),
        },
      ]);

      const row = journalRow(id);
      expect(row).toMatchObject({ who: 'olga' });
      // After its lease: the operator is told what may have happened, and still nothing is sent.
      await sleep(Math.max(0, row!.until_ms - Date.now()) + 100);
      const later = await move.moveDead('sq', to, [id], { by: 'bob' });
      expect(later.failed).toEqual([
        {
          id,
          outcome: 'conflict',
          forcible: true,
          message: expect.stringContaining(
            `not moved: a previous move at ${row!.at} by olga may have delivered it to ${TARGET_NAME[to]}, and it may have run there`,
          ),
        },
      ]);
      expect(later.failed[0]!.message).toMatch(
        /Nothing was sent\. Check .*discard the letter here.*replay it here.*"move anyway" \(force\)/,
      );
      await sleep(2000);
      expect(runs(id)).toBe(1);
      expect(await service.getDead('sq', id)).toMatchObject({ id });
    },
    120_000,
  );

  it('step 2 fails (the source is locked): the retry sends nothing and says what happened', async () => {
    const id = await letter();
    const release = lockSource();
    let first;
    try {
      first = await move.moveDead('sq', 'pg', [id], { by: 'olga' });
    } finally {
      release();
    }
    expect(first.failed).toEqual([
      { id, outcome: 'error', message: expect.stringMatching(/^enqueued on potatoq PG .*but removing it from potatoq SQLite failed/) },
    ]);
    await until('the target worker to run the moved task', () => runs(id) === 1, 30_000, logs);
    await leaveNoTrace('pg', id);
    const retry = await move.moveDead('sq', 'pg', [id], { by: 'bob' });
    await sleep(2000);
    expect(runs(id)).toBe(1);
    expect(retry.failed).toEqual([
      {
        id,
        outcome: 'conflict',
        forcible: true,
        message: expect.stringMatching(/may have delivered it to potatoq PG.*removing it from potatoq SQLite failed.*Nothing was sent/),
      },
    ]);
    await sleep(2000);
    expect(runs(id)).toBe(1);
  }, 90_000);

  it('a task still waiting on the target after the crash: the retry only removes the letter, and the row goes', async () => {
    await pgWorker().stop();
    let restarted = false;
    try {
      const id = await letter();
      const release = lockSource();
      const other = otherConsole(id, 'olga');
      try {
        await until('the task on the target', async () => (await service.getTask('pg', id).catch(() => null)) !== null, 60_000, other.out);
        other.child.kill('SIGKILL');
        await other.exited;
      } finally {
        release();
      }
      await sleep(Math.max(0, (journalRow(id)?.until_ms ?? 0) - Date.now()) + 100);
      const r = await move.moveDead('sq', 'pg', [id], { by: 'bob' });
      expect(r.succeeded).toEqual([
        {
          id,
          outcome: 'already',
          message: expect.stringMatching(
            /^already on potatoq PG \(a task with this id is already waiting here\), sent there by a move at .* by olga.*; removed from potatoq SQLite$/,
          ),
        },
      ]);
      expect(journalRow(id)).toBeUndefined();
      pgWorker().start([Q]);
      restarted = true;
      await until('the target worker to run it', () => runs(id) === 1, 30_000, logs);
      await sleep(2000);
      expect(runs(id)).toBe(1);
    } finally {
      if (!restarted) pgWorker().start([Q]);
    }
  }, 120_000);

  it('two consoles move one letter at once: one enqueue; the other is told another operation moves it', async () => {
    const id = await letter();
    const release = lockSource();
    const other = otherConsole(id, 'olga');
    let mine;
    try {
      // The other console has enqueued (and the task has run, leaving no trace) but not yet removed the letter.
      await until(
        'the target worker to run the moved task',
        () => runs(id) === 1,
        60_000,
        () => `${other.out()}\n${logs()}`,
      );
      await leaveNoTrace('pg', id);
      mine = await move.moveDead('sq', 'pg', [id], { by: 'bob' });
    } finally {
      release();
    }
    await sleep(2000);
    expect(runs(id)).toBe(1);
    expect(mine.failed).toEqual([
      {
        id,
        outcome: 'conflict',
        message: expect.stringMatching(/^not moved: it is being moved by another operation \(a move at .* by olga/),
      },
    ]);
    expect(await other.exited).toBe(0);
    const theirs = JSON.parse(
      other
        .out()
        .split('\n')
        .find((l) => l.startsWith('RESULT '))!
        .slice(7),
    ) as { succeeded: unknown[] };
    expect(theirs.succeeded).toEqual([
      { id, outcome: 'ok', message: expect.stringMatching(/^enqueued on potatoq PG .*; removed from potatoq SQLite$/) },
    ]);
    expect(journalRow(id)).toBeUndefined();
    await sleep(2000);
    expect(runs(id)).toBe(1);
  }, 120_000);

  it('a bulk move goes through the journal too: the letter of an unfinished move is reported, not sent; the others move once', async () => {
    const stuck = await letter();
    await unfinishedMove(stuck);
    const fresh = await letter();
    const filter = { queue: Q, task: 'mv.quiet', to: 'pg' };
    const backend = serviceBackend('sq', 'move', filter);
    const job = new BulkJob({ brokerId: 'sq', action: 'move', filter, snapshot: await takeSnapshot(backend), backend });
    expect(job.snapshotIds()).toEqual(expect.arrayContaining([stuck, fresh]));
    job.actor = 'bob';
    job.start();
    await job.finished;
    const v = job.view(Infinity);
    expect(v.failedOutcomes.find((o) => o.id === stuck)).toMatchObject({
      outcome: 'conflict',
      message: expect.stringMatching(/^not moved: a previous move at .* by olga may have delivered it to potatoq PG/),
    });
    expect(v.succeededSample).toContain(fresh);
    await until('the target worker to run the other letter', () => runs(fresh) === 1, 30_000, logs);
    await sleep(2000);
    expect([runs(stuck), runs(fresh)]).toEqual([1, 1]);
    expect(await service.getDead('sq', stuck)).toMatchObject({ id: stuck });
  }, 120_000);
});
