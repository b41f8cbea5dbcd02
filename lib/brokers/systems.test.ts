import { describe, expect, it } from 'vitest';
import { isConsoleError } from './errors';
import { brokerNames, createAdapter, storeOf } from './systems';
import type { BrokerConfig } from './types';

const entry = (kind: BrokerConfig['kind'], url: string): BrokerConfig => ({ id: 'x', name: 'x', kind, url, readOnly: false, options: {} });
const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return null;
};

describe('the table of systems', () => {
  it('shows brokers by their store', () => {
    expect(storeOf(entry('potatoq', 'postgres+psycopg://h/db'))).toBe('postgres');
    expect(storeOf(entry('sdj', 'mysql://h/db'))).toBe('mysql');
    expect(storeOf(entry('sdj', 'postgres://h/db'))).toBe('postgres');
  });

  it('creates a Simple Durable Jobs adapter without connecting, and refuses a misspelt option by name', async () => {
    for (const [url, kind] of [
      ['postgresql://u:p@127.0.0.1:1/app', 'postgres'],
      ['mysql://u:p@127.0.0.1:1/app', 'mysql'],
    ] as const) {
      const a = createAdapter(entry('sdj', url));
      expect([a.kind, a.model.system]).toEqual([kind, 'sdj']);
      await a.close();
    }
    const err = errorOf(() => createAdapter({ ...entry('sdj', 'postgresql://h/db'), options: { tablePrefix: 'x' } }));
    expect(isConsoleError(err) && err.code).toBe('InvalidInput');
    expect((err as Error).message).toContain('tablePrefix');
  });

  it('names the system apart from its store, so two systems on one store read differently', () => {
    expect(brokerNames(entry('celery', 'redis://h/0'))).toEqual({ systemLabel: 'Celery', storeLabel: 'Redis' });
    expect(brokerNames(entry('potatoq', 'valkey://h/0'))).toEqual({ systemLabel: 'potatoq', storeLabel: 'Redis' });
    expect(brokerNames(entry('potatoq', 'sqlite:///x.db'))).toEqual({ systemLabel: 'potatoq', storeLabel: 'SQLite' });
    expect(brokerNames(entry('queueflow', 'http://h:8080'))).toEqual({ systemLabel: 'QueueFlow', storeLabel: 'PostgreSQL' });
    expect(brokerNames(entry('sdj', 'mysql://h/db'))).toEqual({ systemLabel: 'Simple Durable Jobs', storeLabel: 'MySQL' });
    // A URL no store takes (refused at startup) still names the system.
    expect(brokerNames(entry('celery', 'nope://h'))).toEqual({ systemLabel: 'Celery', storeLabel: 'unknown' });
  });

  it('creates a Celery adapter per broker store, and refuses a misspelt Celery option by name', async () => {
    for (const [url, kind] of [
      ['redis://127.0.0.1:1/0', 'redis'],
      ['amqp://u:p@127.0.0.1:1//', 'rabbitmq'],
    ] as const) {
      const a = createAdapter(entry('celery', url));
      expect([a.kind, a.model.system]).toEqual([kind, 'celery']);
      await a.close();
    }
    const err = errorOf(() => createAdapter({ ...entry('celery', 'redis://h/0'), options: { resultbackend: 'redis://h/1' } }));
    expect(isConsoleError(err) && err.code).toBe('InvalidInput');
  });

  it.each(['redis://h/2', 'rediss://h', 'valkey://h/1', 'valkeys://h', 'unix:///run/redis.sock?db=3', 'redis+socket:///s.sock'])(
    'creates a potatoq Redis adapter for %s without connecting',
    async (url) => {
      const a = createAdapter(entry('potatoq', url));
      expect(a.kind).toBe('redis');
      await a.close();
    },
  );

  it('refuses a Redis URL whose database is not a number, and unknown Redis options, naming the field', () => {
    const bad = errorOf(() => createAdapter(entry('potatoq', 'redis://h/zero')));
    expect(isConsoleError(bad) && bad.code).toBe('InvalidInput');
    expect((bad as Error).message).toMatch(/^url: the database in .* must be a whole number/);
    const opt = errorOf(() => createAdapter({ ...entry('potatoq', 'redis://h/0'), options: { keyprefix: 'x' } }));
    expect(isConsoleError(opt) && opt.code).toBe('InvalidInput');
    expect((opt as Error).message).toContain('keyprefix');
  });

  it('creates a QueueFlow adapter from its URL and token, and refuses one without a token', () => {
    const a = createAdapter({ ...entry('queueflow', 'https://flow.example'), options: { token: 'k' } });
    expect([a.kind, a.model.system]).toEqual(['queueflow', 'queueflow']);
    const err = errorOf(() => createAdapter(entry('queueflow', 'https://flow.example')));
    expect(isConsoleError(err) && err.code).toBe('InvalidInput');
    expect((err as Error).message).toContain('token');
  });

  it('creates a potatoq adapter from the URL scheme, typed options checked', () => {
    const a = createAdapter(entry('potatoq', 'sqlite:///nowhere.sqlite3'));
    expect(a.kind).toBe('sqlite');
    const err = errorOf(() => createAdapter({ ...entry('potatoq', 'sqlite:///nowhere.sqlite3'), options: { busyTimeoutMs: 'soon' } }));
    expect(isConsoleError(err) && err.code).toBe('InvalidInput');
    expect((err as Error).message).toContain('busyTimeoutMs');
  });
});
