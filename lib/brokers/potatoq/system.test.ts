import { describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { potatoqStore as kindOf } from './system';

describe('kindOf maps potatoq URL schemes to broker kinds', () => {
  it.each([
    ['sqlite:///potatoq.sqlite3', 'sqlite'],
    ['postgresql://u@h/db', 'postgres'],
    ['postgres+psycopg://u@h/db', 'postgres'],
    ['amqps://h', 'rabbitmq'],
    ['rediss://h/0', 'redis'],
    ['valkey://h', 'redis'],
    ['valkeys://h', 'redis'],
    ['unix:///run/redis.sock', 'redis'],
    ['redis+socket:///run/redis.sock', 'redis'],
    ['SQLITE:////abs.db', 'sqlite'],
  ])('%s is %s', (url, kind) => {
    expect(kindOf(url)).toBe(kind);
  });

  it('rejects an unknown scheme without echoing the rest of the URL', () => {
    let err: unknown;
    try {
      kindOf('mysql://user:secret@h/db');
    } catch (e) {
      err = e;
    }
    expect(isConsoleError(err) && err.code).toBe('InvalidInput');
    expect(String((err as Error).message)).not.toContain('secret');
  });
});
