// One PING to a Redis, for suites deciding whether Redis is there (no retries, 3 s at most).

/** Why Redis at `url` does not answer, or null when it does. */
export async function redisProblem(url: string): Promise<string | null> {
  const { Redis } = await import('ioredis');
  // ioredis knows redis:// and rediss:// only; valkey:// and valkeys:// are the same protocols.
  const r = new Redis(url.replace(/^valkey(s?):/, 'redis$1:'), {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 3000,
    retryStrategy: () => null,
  });
  r.on('error', () => undefined);
  try {
    await r.connect();
    await r.ping();
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    r.disconnect();
  }
}
