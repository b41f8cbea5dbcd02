// `npm run bench:redis`: the Redis adapter on potatoq's key layout at scale (1M ready tasks in
// 20 queues, 100k dead letters; BENCH_READY / BENCH_DEAD change that), next to potatoq's own
// CLI (`potatoq queues`, `potatoq dead list`) on the same data in the same run. On a PRIVATE
// redis-server (free port, its own folder, removed at the end), so the shared Redis is never
// filled and every command can be counted: the server's `INFO commandstats` before and after
// each call (commands run inside the console's Lua scripts included). A script, not a test:
// it prints numbers. See docs/performance.md.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import { encodeCursor } from '@/lib/brokers/potatoq/redis/rows';
import { ZDeadListQuery, ZTaskListQuery } from '@/lib/brokers/schema';
import { PrivateRedis } from '@/tests/support/redis';

const ROOT = path.resolve(__dirname, '..');
const READY = Number(process.env.BENCH_READY ?? 1_000_000);
const DEAD = Number(process.env.BENCH_DEAD ?? 100_000);
const QUEUES = 20;
const ITER = Number(process.env.BENCH_ITERATIONS ?? 30);
const P = 'bench';
const log = (s: string) => console.log(s);

/**
 * Writes `n` tasks server-side, as potatoq's enqueue and dead scripts leave them (hash + sorted
 * set; potatoq's compact payload with `root_id`), so 1M tasks take seconds, not minutes.
 * ARGV: P, kind (ready|dead), first index, n, queues, seq start.
 */
const SEED = `
local P, kind, first, n, nq, seq = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
for i = first, first + n - 1 do
  local q = string.format('bench-q%02d', i % nq)
  local id = (kind == 'ready' and 'r-' or 'd-') .. i
  local pr = (i % 7 == 0) and 5 or 0
  local p = '{"task":"bench.work","id":"' .. id .. '","args":[' .. i .. ',"order-' .. i .. '"],"kwargs":{"note":"x"},"queue":"' .. q .. '","enqueued_at":' .. (1700000000 + i / 1000) .. ',"root_id":"' .. id .. '","v":1}'
  if kind == 'ready' then
    redis.call('HSET', P .. ':job:' .. id, 'q', q, 'p', p, 'pr', pr, 'd', 0, 'st', 'ready')
    redis.call('ZADD', P .. ':q:' .. q .. ':ready', -pr * 1099511627776 + seq + i, id)
  else
    local r = 'Traceback (most recent call last):\\n  File "/app/tasks.py", line 12, in work\\n    call_upstream()\\nConnectionError: upstream ' .. (i % 50) .. ' refused\\n'
    redis.call('HSET', P .. ':job:' .. id, 'q', q, 'p', p, 'pr', 0, 'd', 1, 'st', 'dead', 'r', r, 'died', 1700000000000 + i)
    redis.call('ZADD', P .. ':dead', 1700000000000 + i, id)
  end
end
for j = 0, nq - 1 do redis.call('SADD', P .. ':queues', string.format('bench-q%02d', j)) end
redis.call('SET', P .. ':seq', seq + first + n)
return n
`;

async function seed(c: Redis): Promise<number> {
  const t0 = performance.now();
  const step = 50_000;
  for (let i = 0; i < READY; i += step) await c.eval(SEED, 0, P, 'ready', i, Math.min(step, READY - i), QUEUES, 0);
  for (let i = 0; i < DEAD; i += step) await c.eval(SEED, 0, P, 'dead', i, Math.min(step, DEAD - i), QUEUES, READY);
  return performance.now() - t0;
}

/** Commands the server ran (all clients), from INFO commandstats, minus the INFO calls themselves. */
async function commands(c: Redis): Promise<number> {
  const text = await c.info('commandstats');
  let n = 0;
  for (const m of text.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) if (m[1] !== 'info' && m[1] !== 'config') n += Number(m[2]);
  return n;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

function cli(env: NodeJS.ProcessEnv, args: string[]): number {
  const t0 = performance.now();
  execFileSync(path.join(ROOT, '.venv/bin/potatoq'), ['-A', 'rt_redis_tasks', '--no-color', '--no-emoji', ...args], {
    cwd: path.join(ROOT, 'tests/py'),
    env,
    stdio: 'pipe',
    maxBuffer: 64 << 20,
  });
  return performance.now() - t0;
}
function pythonStartup(env: NodeJS.ProcessEnv): number {
  const runs = [0, 1, 2].map(() => {
    const t0 = performance.now();
    execFileSync(path.join(ROOT, '.venv/bin/python'), ['-c', 'import rt_redis_tasks, potatoq.cli'], {
      cwd: path.join(ROOT, 'tests/py'),
      env,
      stdio: 'pipe',
    });
    return performance.now() - t0;
  });
  return Math.min(...runs);
}
const median3 = (f: () => number) => pct([f(), f(), f()], 50);

async function main(): Promise<void> {
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  log(`potatoq console Redis benchmark: ${os.cpus().length} cores, load ${load()}`);
  const server = new PrivateRedis(['--appendonly', 'no', '--maxmemory-policy', 'noeviction']);
  try {
    const c = await server.start();
    const info = await c.info('server');
    log(`  redis-server ${/redis_version:(\S+)/.exec(info)?.[1]} on 127.0.0.1:${server.port} (private, no persistence)`);
    log(`seeding ${READY.toLocaleString()} ready tasks in ${QUEUES} queues and ${DEAD.toLocaleString()} dead letters`);
    log(`  seeded in ${((await seed(c)) / 1000).toFixed(1)} s, ${(await c.info('memory')).match(/used_memory_human:(\S+)/)?.[1]} used`);
    const a = createRedisAdapter({ id: 'bench', name: 'bench', url: server.url, readOnly: false, options: { prefix: P } });
    // Cursors deep in the sets: the member at offset 40,000 of one queue, 90,000 of the dead letters.
    const deepReady = await c.zrange(`${P}:q:bench-q07:ready`, '40000', '40000', 'WITHSCORES');
    const deepDead = await c.zrevrange(`${P}:dead`, 90_000, 90_000, 'WITHSCORES');
    const tasks = (q: Record<string, unknown>) => () => a.listTasks(ZTaskListQuery.parse({ limit: 50, ...q }));
    const dead = (q: Record<string, unknown>) => () => a.listDead(ZDeadListQuery.parse({ limit: 50, ...q }));
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['overview (20 queues)', () => a.overview()],
      ['ready, one queue, page 1', tasks({ queue: 'bench-q07' })],
      [
        'ready, one queue, page 801 (offset 40,000)',
        tasks({ queue: 'bench-q07', cursor: deepReady.length === 2 ? encodeCursor(deepReady[1]!, deepReady[0]!) : undefined }),
      ],
      ['dead letters, page 1', dead({})],
      [
        'dead letters, page 1,801 (offset 90,000)',
        dead({ cursor: deepDead.length === 2 ? encodeCursor(deepDead[1]!, deepDead[0]!) : undefined }),
      ],
      ['dead letters, one queue, page 1', dead({ queue: 'bench-q03' })],
      ['dead-letter groups (newest 10,000)', () => a.deadGroups({})],
      ['task detail', () => a.getTask('r-123457')],
      ['dead-letter detail', () => a.getDead('d-4242')],
    ];
    // Commands per call, each case alone (the first call also checks the server: 3 more).
    await a.capabilities();
    const cost: number[] = [];
    for (const [, fn] of cases) {
      const before = await commands(c);
      await fn();
      cost.push((await commands(c)) - before);
    }
    for (const [, fn] of cases) for (let i = 0; i < 3; i++) await fn();
    const xs: number[][] = cases.map(() => []);
    for (let i = 0; i < ITER; i++)
      for (const [k, [, fn]] of cases.entries()) {
        const t0 = performance.now();
        await fn();
        xs[k]!.push(performance.now() - t0);
      }
    log(
      `\nconsole adapter, ${ITER} rounds over all cases after 3 warm-ups each (ms around the adapter call; commands counted by the server):`,
    );
    const p50: Record<string, number> = {};
    for (const [k, [name]] of cases.entries()) {
      p50[name] = pct(xs[k]!, 50);
      log(
        `  ${name.padEnd(44)} ${String(cost[k]).padStart(6)} cmds  p50 ${p50[name]!.toFixed(1).padStart(7)}  p95 ${pct(xs[k]!, 95)
          .toFixed(1)
          .padStart(7)}`,
      );
    }
    log(`  (load average now ${load()})`);

    const env = { ...process.env, RT_BROKER: server.url, RT_PREFIX: P, RT_QUEUE: 'bench-q00', POTATOQ_NO_EMOJI: '1', NO_COLOR: '1' };
    log(
      `\npotatoq ${execFileSync(path.join(ROOT, '.venv/bin/potatoq'), ['--version']).toString().trim()} CLI on the same Redis (wall time, median of 3):`,
    );
    const startup = pythonStartup(env);
    const countCli = async (args: string[]) => {
      const before = await commands(c);
      cli(env, args);
      return (await commands(c)) - before;
    };
    const queuesCmds = await countCli(['queues', '--json']);
    const listCmds = await countCli(['dead', 'list', '--limit', '50', '--json']);
    const queues = median3(() => cli(env, ['queues', '--json']));
    const list = median3(() => cli(env, ['dead', 'list', '--limit', '50', '--json']));
    const net = (ms: number) => Math.max(1, ms - startup);
    const ov = p50['overview (20 queues)']!;
    const pg1 = p50['dead letters, page 1']!;
    log(`  python + potatoq import (subtracted below)  ${startup.toFixed(0)} ms`);
    log(
      `  potatoq queues --json                       ${queues.toFixed(0)} ms (${net(queues).toFixed(0)} net, ${queuesCmds} cmds) vs console overview p50 ${ov.toFixed(1)} ms: ${(net(queues) / ov).toFixed(2)}x`,
    );
    log(
      `  potatoq dead list --limit 50 --json         ${list.toFixed(0)} ms (${net(list).toFixed(0)} net, ${listCmds} cmds) vs console dead page 1 p50 ${pg1.toFixed(1)} ms: ${(net(list) / pg1).toFixed(2)}x`,
    );
    log(`  (ratio > 1: the console is faster; the console's overview also reads oldest ages, dead counts per queue and workers)`);
    await a.close();
  } finally {
    await server.stop();
    log('\nstopped the private redis-server and removed its folder');
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
