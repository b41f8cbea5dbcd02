import { describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { createQfClient } from './client';
import { listQfSchedules } from './schedules';
import { qfScheduleAction } from './schedules-write';

// What a server that is not QueueFlow 0.6.0 (or a proxy in front of it) may answer: each read
// fails as BrokerUnavailable with words, never a crash or the answer's markup.
const serving = (answer: (url: URL) => Response) =>
  createQfClient({ url: 'http://qf.test', token: 't', timeoutMs: 1000, fetch: (async (u: URL) => answer(new URL(u))) as typeof fetch });
const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe('QueueFlow schedules against hostile answers', () => {
  it.each([
    ['an HTML page', () => new Response('<html><title>Login</title><script>alert(1)</script></html>', { status: 200 })],
    ['a list of the wrong shape', () => json({ crons: [{ id: 1 }], has_more: false })],
    ['no list at all', () => json({ jobs: [] })],
    ['a 502 from a proxy', () => new Response('<html><title>Bad Gateway</title></html>', { status: 502 })],
  ])('%s is BrokerUnavailable', async (_what, answer) => {
    const e = await failure(listQfSchedules(serving(answer)));
    expect(isConsoleError(e) && e.code).toBe('BrokerUnavailable');
    expect(String((e as Error).message)).not.toContain('<script>');
  });

  it('a job lookup that fails leaves the schedule listed, its last job unknown', async () => {
    const cron = {
      id: 'c1',
      name: '<b>n</b>',
      cron_expr: '0 0 0 0 0 0 0 0 0',
      task_name: 't',
      enabled: true,
      next_run_at: new Date(Date.now() + 60_000).toISOString(),
      last_enqueued_at: new Date().toISOString(),
      created_at: new Date().toISOString(),
    };
    const client = serving((u) => (u.pathname === '/api/v1/cron' ? json({ crons: [cron], has_more: false }) : new Response('garbage')));
    const list = await listQfSchedules(client);
    expect(list.schedules[0]).toMatchObject({ name: '<b>n</b>', last: { jobId: null }, problems: [] });
    expect(list.schedules[0]!.words).toMatch(/not read by the console/);
  });

  it('an unknown schedule id is NotFound under `id`, and nothing is sent after the read', async () => {
    const seen: string[] = [];
    const client = serving((u) => (seen.push(u.pathname), json({ error: 'cron schedule not found: x' }, 404)));
    const e = await failure(qfScheduleAction(client, 'x', 'delete'));
    expect(isConsoleError(e) && e.code).toBe('NotFound');
    expect(isConsoleError(e) && e.fields).toEqual({ id: 'no such schedule' });
    expect(seen).toEqual(['/api/v1/cron/x']);
  });
});
