// QueueFlow's cron schedules from the real Python client 0.5.0 (tests/queueflow/qf_cron.py),
// and the server's own database for states a test cannot wait for (a firing due long ago).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { QF_PYTHON, type QueueflowServer } from './support';

const env = (s: QueueflowServer) => ({ ...process.env, PYTHONUNBUFFERED: '1', QUEUEFLOW_URL: s.url, QUEUEFLOW_TOKEN: s.token });

/** Creates schedules through QueueFlow.create_cron; returns their ids. */
export function createCrons(
  s: QueueflowServer,
  crons: Array<{ name: string; schedule: string; task: string; payload?: Record<string, unknown>; queue?: string }>,
): string[] {
  const out = execFileSync(QF_PYTHON, [path.join(__dirname, 'qf_cron.py')], {
    input: JSON.stringify({ create: crons }),
    env: env(s),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(out) as string[];
}

/** Every schedule as the client's CronSchedule model reads it. */
export function listCronsWithClient(s: QueueflowServer): Array<Record<string, unknown>> {
  const out = execFileSync(QF_PYTHON, [path.join(__dirname, 'qf_cron.py')], {
    input: JSON.stringify({ list: true }),
    env: env(s),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(out) as Array<Record<string, unknown>>;
}

/** One statement on the server's own database (seeding a state a test cannot wait for). */
export async function sql(s: QueueflowServer, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: s.databaseUrl });
  await c.connect();
  try {
    return await c.query(text, values);
  } finally {
    await c.end();
  }
}
