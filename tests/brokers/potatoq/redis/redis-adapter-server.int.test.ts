// What the Redis adapter checks about its server, on private redis-servers of this test (free
// ports, their own folders): an eviction policy that may lose tasks is a warning on the
// overview, a Cluster node is refused with the reason, and every URL form reaches the same data.
// int-lane: isolated (only redis-servers of its own, on free ports)
import { afterEach, describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { ZEnqueueRequest } from '@/lib/brokers/schema';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import { PrivateRedis, redisServerAvailable } from '@/tests/support/redis';

const up = redisServerAvailable('the Redis adapter server checks');
const servers: PrivateRedis[] = [];
const adapters: Array<{ close(): Promise<void> }> = [];
const adapterFor = (url: string, options: Record<string, unknown> = {}) => {
  const a = createRedisAdapter({ id: 'srv', name: 'Redis server test', url, readOnly: false, options });
  adapters.push(a);
  return a;
};
async function server(extra: string[] = []): Promise<PrivateRedis> {
  const s = new PrivateRedis(extra);
  servers.push(s);
  await s.start();
  return s;
}

describe.skipIf(!up)('the Redis adapter and its server', () => {
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((a) => a.close()));
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });

  it('warns on the overview when maxmemory-policy may evict tasks, and not under noeviction', async () => {
    const s = await server(['--maxmemory-policy', 'allkeys-lru']);
    const o = await adapterFor(s.url).overview();
    expect(o.warnings).toEqual([expect.stringContaining("maxmemory-policy is 'allkeys-lru'")]);
    expect(o.serverInfo).toMatch(/^Redis \d+\.\d+\.\d+ · db 0 · prefix "potatoq"$/);
    await s.client().config('SET', 'maxmemory-policy', 'noeviction');
    expect((await adapterFor(s.url).overview()).warnings).toBeUndefined();
  }, 60_000);

  it('refuses a Redis Cluster node on every call, saying why', async () => {
    const s = await server(['--cluster-enabled', 'yes', '--cluster-config-file', '{dir}/nodes.conf']);
    const a = adapterFor(s.url);
    for (const call of [() => a.overview(), () => a.capabilities(), () => a.replayDead(['x'])]) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(isConsoleError(err) && err.code).toBe('Unsupported');
      expect((err as Error).message).toMatch(/Redis Cluster node: potatoq 26\.1a8 does not support Redis Cluster/);
    }
  }, 60_000);

  it("reaches the same keys through redis://, valkey://, unix:// and the URL's db number, with potatoq's prefix", async () => {
    const s = await server(['--unixsocket', '{dir}/redis.sock', '--unixsocketperm', '700']);
    const opts = { global_keyprefix: 'appA::', prefix: 'ignored' };
    const queued = await adapterFor(`redis://127.0.0.1:${s.port}/3`, opts).enqueue(ZEnqueueRequest.parse({ task: 'srv.t', queue: 'q1' }));
    const names = async (url: string, o: Record<string, unknown> = opts) =>
      (await adapterFor(url, o).overview()).queues.map((q) => [q.name, q.counts.ready]);
    expect(await names(`valkey://127.0.0.1:${s.port}/3`)).toEqual([['q1', 1]]);
    expect(await names(`unix://${s.socketPath()}?db=3`)).toEqual([['q1', 1]]);
    expect(await names(`redis+socket://${s.socketPath()}?db=3`, { prefix: 'appA' })).toEqual([['q1', 1]]);
    expect(await names(`redis://127.0.0.1:${s.port}/4`)).toEqual([]);
    expect(await names(`redis://127.0.0.1:${s.port}/3`, {})).toEqual([]);
    const c = s.client();
    await c.select(3);
    expect(await c.hget(`appA:job:${queued.id}`, 'st')).toBe('ready');
  }, 60_000);

  it('reports an unreachable Redis as BrokerUnavailable without the password', async () => {
    const s = await server();
    const port = s.port;
    await s.stop();
    servers.splice(0);
    const err = await adapterFor(`redis://user:s3cret@127.0.0.1:${port}/0`)
      .overview()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isConsoleError(err) && err.code).toBe('BrokerUnavailable');
    expect((err as Error).message).not.toContain('s3cret');
  }, 60_000);
});
