import { afterEach, describe, expect, it, vi } from 'vitest';
import { installUncaughtGuard, recordUncaught, uncaughtLine, uncaughtRegistry } from './uncaught';

const counted = async (kind: string) => {
  const m = await uncaughtRegistry().getSingleMetricAsString('potatoq_console_uncaught_total');
  const line = m.split('\n').find((l) => l.startsWith(`potatoq_console_uncaught_total{kind="${kind}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
};

afterEach(() => vi.restoreAllMocks());

describe('the process-level guard', () => {
  it('logs an uncaught error with its code and where it was thrown, never a password in a URL, and counts it', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (writes.push(String(s)), true));
    const before = await counted('exception');
    const e = Object.assign(new Error('connect to rediss://:hunter2@cache:6380/0 failed: tlsv1 alert decode error'), {
      code: 'ERR_SSL_TLSV1_ALERT_DECODE_ERROR',
    });
    recordUncaught('exception', e);
    expect(await counted('exception')).toBe(before + 1);
    expect(writes).toHaveLength(1);
    const line = JSON.parse(writes[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      event: 'console.uncaught',
      kind: 'exception',
      name: 'Error',
      code: 'ERR_SSL_TLSV1_ALERT_DECODE_ERROR',
      message: expect.not.stringContaining('hunter2'),
    });
    expect(line.at).toEqual(expect.arrayContaining([expect.stringMatching(/uncaught\.test\.ts/)]));
    expect(writes[0]).not.toContain('hunter2');
  });

  it('masks passwords with a raw @ or a space, as the one redaction step does', () => {
    const line = uncaughtLine('exception', new Error('redis://u:p@ss w0rd@cache:6379/0 refused'));
    expect(JSON.stringify(line)).not.toMatch(/p@ss|w0rd/);
    expect(line.message).toContain('@cache:6379/0 refused');
  });

  it('counts a rejection with a reason that is not an Error', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const before = await counted('rejection');
    recordUncaught('rejection', 'amqp://guest:guest@mq/ went away');
    expect(await counted('rejection')).toBe(before + 1);
    expect(uncaughtLine('rejection', 'amqp://guest:guest@mq/ went away')).toMatchObject({
      name: 'string',
      message: 'amqp://guest:***@mq/ went away',
    });
  });

  it('installs its two listeners once however often the server boots its modules', () => {
    const ex = process.listenerCount('uncaughtException');
    const rej = process.listenerCount('unhandledRejection');
    installUncaughtGuard();
    installUncaughtGuard();
    const added = [process.listenerCount('uncaughtException') - ex, process.listenerCount('unhandledRejection') - rej];
    expect(added).toEqual([1, 1]);
    // Leave vitest's own handling of unhandled errors alone in the rest of this run.
    process.removeListener('uncaughtException', process.listeners('uncaughtException').at(-1)!);
    process.removeListener('unhandledRejection', process.listeners('unhandledRejection').at(-1)!);
  });
});
