// PostgreSQL restarted while the console is open: the next refresh works without restarting
// the console or recreating the adapter. The server restarted is a private one made for this
// test (tests/support/private-postgres.ts), never the machine's shared server.
import { execFileSync } from 'node:child_process';
import { ZEnqueueInput } from '@/lib/actions/schemas';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAdapter } from '@/lib/brokers/potatoq/postgres/adapter';
import { PY_DIR } from '@/tests/support/postgres';

import type { BrokerAdapter } from '@/lib/brokers/types';
import { POTATOQ, ROOT } from '../support/potatoq-seeder';
import { privatePostgresMissing, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { taskQuery } from '@/tests/support/task-query';

execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
const missing = privatePostgresMissing();
if (missing && process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(`cannot run a private PostgreSQL: ${missing}`);

let server: PrivatePostgres | undefined;
let a: BrokerAdapter | undefined;
let env: NodeJS.ProcessEnv;
const options = { schema: 'public', table_prefix: 'potatoq_' };
const potatoq = (...args: string[]) =>
  execFileSync(POTATOQ, ['-A', 'rt_pg_tasks', '--no-color', '--no-emoji', ...args], { cwd: PY_DIR, env, stdio: 'pipe' }).toString();

/** When the postmaster started: proves the restart happened. */
async function startTime(): Promise<number> {
  const c = new pg.Client({ connectionString: server!.url });
  await c.connect();
  try {
    return new Date((await c.query<{ t: Date }>('SELECT pg_postmaster_start_time() AS t')).rows[0]!.t).getTime();
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  if (missing) return;
  server = await startPrivatePostgres();
  env = { ...process.env, PQ_PG_URL: server.url, PQ_PG_OPTIONS: JSON.stringify(options), POTATOQ_NO_EMOJI: '1', NO_COLOR: '1' };
  potatoq('migrate');
  a = createPostgresAdapter({ id: 'restart', name: 'restart', url: server.url, readOnly: false, options });
}, 180_000);

afterAll(async () => {
  await a?.close();
  server?.stop();
});

describe.skipIf(!!missing)('the PostgreSQL adapter across a server restart', () => {
  it('answers the next refresh after a restart, without being recreated, and its writes reach potatoq', async () => {
    const first = await a!.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue: 'rt-held' }));
    expect((await a!.overview()).queues.find((q) => q.name === 'rt-held')?.counts.ready).toBe(1);

    const started = await startTime();
    server!.restart(); // every pooled session is cut under the adapter
    expect(await startTime()).toBeGreaterThan(started);

    const o = await a!.overview();
    expect(o.queues.find((q) => q.name === 'rt-held')?.counts.ready).toBe(1);
    expect((await a!.listTasks(taskQuery({ state: 'ready', queue: 'rt-held' }))).items.map((t) => t.id)).toEqual([first.id]);
    const second = await a!.enqueue(ZEnqueueInput.parse({ task: 'rt.record', queue: 'rt-held' }));
    expect((await a!.getTask(second.id))?.state).toBe('ready');
    // potatoq's own CLI, on the same server, sees both tasks the console wrote.
    expect(JSON.parse(potatoq('queues', '--json'))).toEqual({ 'rt-held': 2 });
  }, 120_000);
});
