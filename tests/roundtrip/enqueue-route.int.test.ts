// An enqueue through the service without a queue goes where the task was seen, and the REAL
// potatoq 26.1a8 worker consuming only that queue runs it; misspelt task and queue names are
// refused with the names meant, unless allowUnknown. A SQLite broker of this file's own: the
// real potatoq producer sends `rt.record` to a queue of its own (no worker yet), so the broker
// has seen that task only there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEnqueueInput } from '@/lib/actions/schemas';
import { migratedDb } from '../support/sqlite-db';
import { POTATOQ, ROOT } from '../support/potatoq-seeder';
import { SoloWorker, until } from '../support/solo-worker';

const PY_DIR = path.join(ROOT, 'tests/py');
const EMAILS = `emails-${process.pid}`;
const file = migratedDb();
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-route-'));
const env = { ...process.env, RT_BROKER: `sqlite:///${file}`, RT_OUT: out, POTATOQ_NO_EMOJI: '1', NO_COLOR: '1', PYTHONUNBUFFERED: '1' };
process.env.POTATOQ_CONSOLE_BROKERS = JSON.stringify([{ id: 'sq', name: 'SQLite', url: `sqlite:///${file}` }]);
const service = await import('@/lib/brokers/service');
const { resetAdapters } = await import('@/lib/brokers/registry');
const worker = new SoloWorker('rt_tasks', PY_DIR, env);
const ran = (id: string) => fs.existsSync(path.join(out, `${id}.json`));
const logs = () => `worker log:\n${worker.log}`;
const enqueue = (body: Record<string, unknown>) => service.enqueue('sq', ZEnqueueInput.parse(body));

describe('enqueue follows where the broker has seen the task (real potatoq worker)', () => {
  let seenId = '';
  beforeAll(() => {
    seenId = execFileSync(POTATOQ, ['-A', 'rt_tasks', 'call', 'rt.record', '-Q', EMAILS], { cwd: PY_DIR, env }).toString().trim();
  });

  afterAll(async () => {
    await worker.stop();
    await resetAdapters();
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('says where the task was seen, and sends it there when no queue is given', async () => {
    expect((await service.taskSightings('sq')).seenIn).toEqual({ 'rt.record': [EMAILS] });
    const preview = await service.previewEnqueue('sq', ZEnqueueInput.parse({ task: 'rt.record', args: '[1]' }));
    expect(preview).toMatchObject({ queue: EMAILS });
    const r = await enqueue({ task: 'rt.record', args: '[1]' });
    expect(r).toMatchObject({ queue: EMAILS, state: 'ready' });
    worker.start([EMAILS]);
    await until('the worker to run both', () => ran(r.id) && ran(seenId), 30_000, logs);
  });

  it('refuses a misspelt task or queue with the names meant, and sends them with allowUnknown', async () => {
    const task = await enqueue({ task: 'rt.recrod' }).catch((e: unknown) => e);
    expect(task).toMatchObject({
      code: 'InvalidInput',
      fields: { task: 'no task named `rt.recrod` has been seen on this broker: did you mean `rt.record`?' },
    });
    const misspeltQueue = `${EMAILS.slice(0, -1)}x${EMAILS.slice(-1)}`;
    const queue = await enqueue({ task: 'rt.record', queue: misspeltQueue }).catch((e: unknown) => e);
    expect(queue).toMatchObject({ code: 'InvalidInput', fields: { queue: expect.stringContaining(`did you mean \`${EMAILS}\`?`) } });
    expect(await service.taskSightings('sq').then((s) => s.seenIn?.['rt.recrod'])).toBeUndefined();
    // Confirmed: sent as meant, to the queue given.
    const sent = await enqueue({ task: 'rt.recrod', queue: misspeltQueue, allowUnknown: true });
    expect(sent).toMatchObject({ queue: misspeltQueue });
    // A wholly new name is not a typo: it goes through.
    expect(await enqueue({ task: 'billing.invoice', queue: 'invoices' })).toMatchObject({ queue: 'invoices' });
  });
});
