import { describe, expect, it } from 'vitest';
import { isConsoleError } from './errors';
import { createAdapter, storeOf } from './systems';
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
  it.each([
    ['sdj', 'postgresql://h/db'],
    ['potatoq', 'redis://h/0'],
  ] as const)('accepts %s (%s) and says it is not supported yet', (kind, url) => {
    const err = errorOf(() => createAdapter(entry(kind, url)));
    expect(isConsoleError(err) && err.code).toBe('Unsupported');
    expect((err as Error).message).toMatch(/not supported by this version of the console yet$/);
  });

  it('shows potatoq brokers by their store and planned systems by their kind', () => {
    expect(storeOf(entry('potatoq', 'postgres+psycopg://h/db'))).toBe('postgres');
    expect(storeOf(entry('sdj', 'mysql://h/db'))).toBe('sdj');
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
