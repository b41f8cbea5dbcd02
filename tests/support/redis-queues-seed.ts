// potatoq's Redis layout over many queues, for `npm run bench:queues` and the queue-scale tests: each queue a member of
// `P:queues` with its waiting tasks (hash + ready sorted set, potatoq's compact payload) and the
// dead letters in `P:dead`, written server-side in steps so 5,000 queues take a second. No
// running tasks (their lease fields are the worker's); the PostgreSQL seed has them.
import type { Redis } from 'ioredis';

// ARGV: P, first queue, queues in this call, width of the queue number, waiting per queue, dead per queue.
const SEED = `
local P, first, n, width, ready, dead = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
for qi = first, first + n - 1 do
  local q = string.format('bench-q%0' .. width .. 'd', qi)
  redis.call('SADD', P .. ':queues', q)
  for j = 1, ready + dead do
    local id = (j <= ready and 'r-' or 'd-') .. qi .. '-' .. j
    local p = '{"task":"bench.work","id":"' .. id .. '","args":[' .. j .. ',"order-' .. qi .. '"],"kwargs":{"note":"x"},"queue":"' .. q .. '","enqueued_at":' .. (1700000000 + qi) .. '.25,"root_id":"' .. id .. '","v":1}'
    if j <= ready then
      redis.call('HSET', P .. ':job:' .. id, 'q', q, 'p', p, 'pr', 0, 'd', 0, 'st', 'ready')
      redis.call('ZADD', P .. ':q:' .. q .. ':ready', qi * 100 + j, id)
    else
      redis.call('HSET', P .. ':job:' .. id, 'q', q, 'p', p, 'pr', 0, 'd', 1, 'st', 'dead', 'r', 'ValueError: card declined', 'died', 1700000000000 + qi)
      redis.call('ZADD', P .. ':dead', 1700000000000 + qi * 100 + j, id)
    end
  end
end
return n
`;

export async function seedRedisQueues(c: Redis, prefix: string, s: { queues: number; waiting: number; dead: number }): Promise<void> {
  const width = Math.max(2, String(s.queues - 1).length);
  const ready = Math.max(1, Math.round(s.waiting / s.queues));
  const dead = Math.max(0, Math.round(s.dead / s.queues));
  const step = 500;
  for (let first = 0; first < s.queues; first += step)
    await c.eval(SEED, 0, prefix, first, Math.min(step, s.queues - first), width, ready, dead);
}
