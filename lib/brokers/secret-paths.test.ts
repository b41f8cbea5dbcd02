import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installLogRedaction } from '@/lib/text/log-redaction';

// Where a broker password was found in messages (issue 29): a Redis / Valkey URL whose database
// part is not a whole number made an error that quoted the whole URL, and it reached
// /api/health, the overview card, /find, per-broker reads and the log. Each broker here has such
// a URL; the adapters refuse it while parsing it, before any connection, so nothing external is
// needed. Every password holds a marker no answer and no log line may contain.
const MARK = 'Hunter2pw';
const BROKERS = [
  { id: 'plain', url: `redis://u:${MARK}@127.0.0.1:1/cache` },
  { id: 'query', url: `valkey://:${MARK}@127.0.0.1:1/0?db=cache` },
  { id: 'rawat', url: `redis://u:p@${MARK}@127.0.0.1:1/cache` },
  { id: 'space', url: `rediss://u:p ${MARK}@127.0.0.1:1/cache` },
  { id: 'param', url: `redis://127.0.0.1:1/cache?password=${MARK}` },
  { id: 'unix', url: `unix://:${MARK}@/run/redis.sock?db=cache` },
  { id: 'celery', kind: 'celery', url: `redis://u:p@${MARK}@127.0.0.1:1/cache` },
];

let logged: string[] = [];
const capture = (...args: unknown[]) => {
  logged.push(args.map(String).join(' '));
};

beforeAll(() => {
  vi.stubEnv('POTATOQ_CONSOLE_BROKERS', JSON.stringify(BROKERS));
  vi.stubEnv('POTATOQ_CONSOLE_AUTH', 'none');
});
afterAll(() => vi.unstubAllEnvs());
afterEach(() => {
  vi.restoreAllMocks();
  logged = [];
});

const spyLog = () => {
  for (const m of ['error', 'warn', 'info', 'log'] as const) vi.spyOn(console, m).mockImplementation(capture);
};

describe('a broker password in a URL the adapter refuses', () => {
  it('is in no /api/health answer', async () => {
    spyLog();
    const { GET } = await import('@/app/api/health/route');
    const body = await (await GET()).text();
    for (const b of BROKERS) expect(body).toContain(`"id":"${b.id}"`);
    expect(body).toContain('whole number');
    expect(body).not.toContain(MARK);
    expect(logged.join('\n')).not.toContain(MARK);
    // The first import of the route transforms much of the app: seconds on a loaded machine.
  }, 30_000);

  it("is in no broker's overview card, per-broker read or /find entry", async () => {
    const service = await import('./service');
    for (const b of BROKERS) {
      const card = await service.overviewOutcome(b.id);
      expect(card.ok).toBe(false);
      expect(JSON.stringify(card)).not.toContain(MARK);
      const found = await service.findInBroker(b.id, 'some-id');
      expect(found.notSearched.length).toBeGreaterThan(0);
      expect(JSON.stringify(found)).not.toContain(MARK);
      const e = await service.listDead(b.id, { limit: 10 } as never).catch((x: unknown) => x as Error);
      expect(e).toBeInstanceOf(Error);
      expect(`${(e as Error).message} ${JSON.stringify(e)}`).not.toContain(MARK);
    }
  });

  it('is in no API error body and no log line of a per-broker route', async () => {
    spyLog();
    const { GET } = await import('@/app/api/brokers/[broker]/queues/route');
    for (const b of BROKERS) {
      const res = await GET(new Request(`http://console.test/api/brokers/${b.id}/queues`), {
        params: Promise.resolve({ broker: b.id }),
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toContain(MARK);
    }
    // The celery broker's refusal is a 503, and 503s are logged.
    expect(logged.some((l) => l.includes('console.api'))).toBe(true);
    expect(logged.join('\n')).not.toContain(MARK);
  });

  it('is in no line the process logs, whatever code writes it', () => {
    const lines: string[] = [];
    const target = { ...console, error: (...a: unknown[]) => lines.push(a.map(String).join(' ')) } as Console;
    const undo = installLogRedaction(target);
    target.error('driver said:', new Error(`connect redis://u:p@${MARK}@h failed`), { url: `amqp://g:${MARK}@h` });
    undo();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('driver said:');
    expect(lines[0]).not.toContain(MARK);
  });
});
