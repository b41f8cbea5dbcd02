// `npm run bench:redis`: the Redis adapter on potatoq's key layout at scale (1M ready tasks in
// 20 queues, 100k dead letters; BENCH_READY / BENCH_DEAD change that) while a real potatoq
// worker churns through a queue, side by side with potatoq's own dashboard (over HTTP and
// in-process) and CLI on the same Redis and prefix in the same run (bench/side-by-side.ts). On
// a PRIVATE redis-server (free port, its own folder, removed at the end), so the shared Redis is
// never filled and every command can be counted: the server's `INFO commandstats` before and
// after each call (commands run inside the console's Lua scripts included). A script, not a
// test: it prints numbers and ratios. See docs/performance.md.
import os from 'node:os';
import type { Redis } from 'ioredis';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import { listQueues, overviewPipelined } from '@/lib/brokers/potatoq/redis/overview-pipelined';
import { overviewByScript } from '@/lib/brokers/potatoq/redis/overview-script';
import { MAX_BANDS, MAX_QUEUES } from '@/lib/brokers/potatoq/redis/reads-queues';
import { encodeCursor } from '@/lib/brokers/potatoq/redis/rows';
import { ZDeadListQuery } from '@/lib/brokers/schema';
import { PrivateRedis } from '@/tests/support/redis';
import { runSideBySide } from './side-by-side';
import { CHURN_QUEUE, load, potatoqEnv } from './potatoq-side';
import { taskQuery } from '@/tests/support/task-query';

const READY = Number(process.env.BENCH_READY ?? 1_000_000);
const DEAD = Number(process.env.BENCH_DEAD ?? 100_000);
const CHURN = Number(process.env.BENCH_CHURN ?? 100_000);
const QUEUES = 20;
const P = 'bench';
const log = (s: string) => console.log(s);

/**
 * Writes `n` tasks server-side, as potatoq's enqueue and dead scripts leave them (hash + sorted
 * set; potatoq's compact payload with `root_id`), so 1M tasks take seconds, not minutes.
 * ARGV: P, kind (ready|dead|churn), first index, n, queues, seq start, churn queue.
 */
const SEED = `
local P, kind, first, n, nq, seq, cq = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
for i = first, first + n - 1 do
  local q = kind == 'churn' and cq or string.format('bench-q%02d', i % nq)
  local id = (kind == 'ready' and 'r-' or kind == 'churn' and 'c-' or 'd-') .. i
  local pr = (kind ~= 'churn' and i % 7 == 0) and 5 or 0
  local task = kind == 'churn' and 'bench.churn' or 'bench.work'
  local p = '{"task":"' .. task .. '","id":"' .. id .. '","args":[' .. i .. ',"order-' .. i .. '"],"kwargs":{"note":"x"},"queue":"' .. q .. '","enqueued_at":' .. (1700000000 + i / 1000) .. ',"root_id":"' .. id .. '","v":1}'
  if kind ~= 'dead' then
    redis.call('HSET', P .. ':job:' .. id, 'q', q, 'p', p, 'pr', pr, 'd', 0, 'st', 'ready')
    redis.call('ZADD', P .. ':q:' .. q .. ':ready', -pr * 1099511627776 + seq + i, id)
  else
    local r = 'Traceback (most recent call last):\\n  File "/app/tasks.py", line 12, in work\\n    call_upstream()\\nConnectionError: upstream ' .. (i % 50) .. ' refused\\n'
    redis.call('HSET', P .. ':job:' .. id, 'q', q, 'p', p, 'pr', 0, 'd', 1, 'st', 'dead', 'r', r, 'died', 1700000000000 + i)
    redis.call('ZADD', P .. ':dead', 1700000000000 + i, id)
  end
end
for j = 0, nq - 1 do redis.call('SADD', P .. ':queues', string.format('bench-q%02d', j)) end
if kind == 'churn' then redis.call('SADD', P .. ':queues', cq); redis.call('ZADD', P .. ':q:' .. cq .. ':marker', 0, '0') end
redis.call('SET', P .. ':seq', seq + first + n)
return n
`;

async function seed(c: Redis): Promise<number> {
  const t0 = performance.now();
  const step = 50_000;
  const run = async (kind: string, total: number, seq: number) => {
    for (let i = 0; i < total; i += step) await c.eval(SEED, 0, P, kind, i, Math.min(step, total - i), QUEUES, seq, CHURN_QUEUE);
  };
  await run('ready', READY, 0);
  await run('dead', DEAD, READY);
  await run('churn', CHURN, READY + DEAD);
  return performance.now() - t0;
}

/** Commands the server ran (all clients), from INFO commandstats, minus the INFO calls themselves. */
async function commands(c: Redis): Promise<number> {
  const text = await c.info('commandstats');
  let n = 0;
  for (const m of text.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) if (m[1] !== 'info' && m[1] !== 'config') n += Number(m[2]);
  return n;
}

async function main(): Promise<void> {
  log(`potatoq console Redis benchmark: ${os.cpus().length} cores, load ${load()}`);
  const server = new PrivateRedis(['--appendonly', 'no', '--maxmemory-policy', 'noeviction']);
  try {
    const c = await server.start();
    const info = await c.info('server');
    log(`  redis-server ${/redis_version:(\S+)/.exec(info)?.[1]} on 127.0.0.1:${server.port} (private, no persistence)`);
    log(
      `seeding ${READY.toLocaleString()} ready tasks in ${QUEUES} queues, ${DEAD.toLocaleString()} dead letters and ${CHURN.toLocaleString()} tasks in ${CHURN_QUEUE} for the worker`,
    );
    log(`  seeded in ${((await seed(c)) / 1000).toFixed(1)} s, ${(await c.info('memory')).match(/used_memory_human:(\S+)/)?.[1]} used`);
    const a = createRedisAdapter({ id: 'bench', name: 'bench', url: server.url, readOnly: false, options: { prefix: P } });
    // Cursors deep in the sets: the member at offset 40,000 of one queue, 90,000 of the dead letters.
    const deepReady = await c.zrange(`${P}:q:bench-q07:ready`, '40000', '40000', 'WITHSCORES');
    const deepDead = await c.zrevrange(`${P}:dead`, 90_000, 90_000, 'WITHSCORES');
    const tasks = (q: Record<string, unknown>) => () => a.listTasks(taskQuery({ state: 'ready', limit: 50, ...q }));
    const dead = (q: Record<string, unknown>) => () => a.listDead(ZDeadListQuery.parse({ limit: 50, ...q }));
    // The newest letter: touching its hash (a field potatoq never reads) is a change the kept dead
    // counts must see, as a letter dying between two polls is.
    const newest = (await c.zrevrange(`${P}:dead`, 0, 0))[0]!;
    const touched = async () => {
      await c.hset(`${P}:job:${newest}`, 'bench_touch', String(Date.now()));
      return a.overview();
    };
    const extra: Array<[string, () => Promise<unknown>]> = [
      ['overview right after a letter changed (one HSET, then the dead counts read again)', touched],
      ['ready, one queue, page 1', tasks({ queue: 'bench-q07' })],
      [
        'ready, one queue, page 801 (offset 40,000)',
        tasks({ queue: 'bench-q07', cursor: deepReady.length === 2 ? encodeCursor(deepReady[1]!, deepReady[0]!) : undefined }),
      ],
      [
        'dead letters, page 1,801 (offset 90,000)',
        dead({ cursor: deepDead.length === 2 ? encodeCursor(deepDead[1]!, deepDead[0]!) : undefined }),
      ],
      ['dead letters, one queue, page 1 (a filtered walk)', dead({ queue: 'bench-q03' })],
      ['dead-letter groups (newest 10,000)', () => a.deadGroups({})],
      // The overview's per-queue reads alone (no dead tally, no workers): one script call, and
      // the pipelined commands a user without EVALSHA gets (what every overview sent before).
      ['overview per-queue reads: one script call', () => overviewByScript(c, P, MAX_BANDS, (n) => listQueues(c, P, n, MAX_QUEUES))],
      ['overview per-queue reads: pipelined (no scripts)', () => overviewPipelined(c, P, { maxQueues: MAX_QUEUES, bands: MAX_BANDS })],
      ['task detail', () => a.getTask('r-123457')],
      ['dead-letter detail', () => a.getDead('d-4242')],
    ];
    // Commands per call, each case alone, before the worker starts (the first call also checks the server: 3 more).
    await a.capabilities();
    log('\ncommands per console call (counted by the server, commands inside the console`s scripts included):');
    // The first overview counts the dead letters with scripts and starts reading the kept window
    // (dead-tally.ts) in the background: its commands land in whichever case runs meanwhile, so
    // the cases after it wait until it is read.
    const kept = () => new Promise((r) => setTimeout(r, 2000));
    const counted: Array<[string, () => Promise<unknown>, (() => Promise<unknown>)?]> = [
      ['overview, first (counts with scripts, starts reading the window)', () => a.overview()],
      ['overview again, no letter changed (dead counts kept)', () => a.overview(), kept],
      ['dead letters, newest 100 (kept with the window)', () => a.listDead(ZDeadListQuery.parse({ limit: 100 }))],
      ...extra,
    ];
    for (const [name, fn, first] of counted) {
      await first?.();
      const before = await commands(c);
      await fn();
      log(`  ${name.padEnd(58)} ${String((await commands(c)) - before).padStart(6)} cmds`);
    }
    await runSideBySide({
      system: 'Redis',
      env: potatoqEnv(server.url, { prefix: P }),
      adapter: a,
      broker: { id: 'bench', url: server.url, prefix: P },
      log,
      // No seeded running tasks: nothing for the worker's recovery to requeue.
      heartbeat: async () => undefined,
      extra,
      replayIds: DEAD > 31_000 ? (from, n) => Array.from({ length: n }, (_, i) => `d-${from + i}`) : null,
    });
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
