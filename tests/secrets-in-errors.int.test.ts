// No broker password in any answer or log line, against the real servers: every broker here
// points at a real Redis, Valkey, PostgreSQL or RabbitMQ with a password the server refuses (or a
// database part the console refuses), each password holding a raw `@` or a space and a marker.
// The health route, each broker's overview route, the service's cards and /find entries, and
// everything the process logs meanwhile, must not contain the marker.
// int-lane: uses redis/0 valkey/0 rabbitmq (logins the servers refuse; nothing written)
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PG_URL, pgAvailable } from '@/tests/support/postgres';
import { RMQ3_URL, rabbitVersion } from '@/tests/support/rabbitmq';
import { REDIS_URL, VALKEY_URL, redisAvailable } from '@/tests/support/redis';

const MARK = 'Hunter2pw';
const hostOf = (url: string) => new URL(url).host;

const up = (await redisAvailable()) && (await pgAvailable()) && (await rabbitVersion(RMQ3_URL, 'secrets in errors')) !== null;

const brokers = () => {
  const redis = hostOf(REDIS_URL);
  const list = [
    { id: 'redis-auth', url: `redis://nobody:p@${MARK} x@${redis}/0` },
    { id: 'redis-db', url: `redis://nobody:p@${MARK}@${redis}/cache` },
    { id: 'celery-redis', kind: 'celery', url: `redis://:${MARK}@${redis}/0?db=cache` },
    { id: 'pg', url: `postgresql://nobody:p@${MARK} x@${hostOf(PG_URL)}/test` },
    { id: 'pg-query', url: `postgresql://${hostOf(PG_URL)}/test?user=nobody&password=p ${MARK}` },
    { id: 'rabbit', url: `amqp://guest:p@${MARK}@${hostOf(RMQ3_URL)}/` },
  ];
  if (VALKEY_URL) list.push({ id: 'valkey', url: `valkey://nobody:p@${MARK}@${hostOf(VALKEY_URL)}/0` });
  return list;
};

describe.skipIf(!up)('broker passwords in errors, against real servers', () => {
  const lines: string[] = [];
  const capture = (...args: unknown[]) => {
    lines.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '));
  };
  beforeAll(() => {
    vi.stubEnv('POTATOQ_CONSOLE_BROKERS', JSON.stringify(brokers()));
    vi.stubEnv('POTATOQ_CONSOLE_AUTH', 'none');
    vi.stubEnv('POTATOQ_CONSOLE_READ_TIMEOUT_MS', '8000');
    for (const m of ['error', 'warn', 'info', 'log'] as const) vi.spyOn(console, m).mockImplementation(capture);
  });
  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('is in no /api/health answer, overview route, card or /find entry, and in no log line', async () => {
    const { GET: health } = await import('@/app/api/health/route');
    const { GET: queues } = await import('@/app/api/brokers/[broker]/queues/route');
    const service = await import('@/lib/brokers/service');

    const body = await (await health()).text();
    const parsed = JSON.parse(body) as { brokers: Array<{ id: string; ok: boolean }> };
    expect(parsed.brokers.map((b) => [b.id, b.ok])).toEqual(brokers().map((b) => [b.id, false]));
    expect(body).not.toContain(MARK);

    for (const b of brokers()) {
      const res = await queues(new Request(`http://127.0.0.1/api/brokers/${b.id}/queues`), { params: Promise.resolve({ broker: b.id }) });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toContain(MARK);
      expect(JSON.stringify(await service.overviewOutcome(b.id))).not.toContain(MARK);
      expect(JSON.stringify(await service.findInBroker(b.id, 'some-id'))).not.toContain(MARK);
    }
    expect(lines.join('\n')).not.toContain(MARK);
  });
});
