import { describe, expect, it } from 'vitest';
import { parseRedisUrl, RedisUrlError } from '@/lib/transports/redis/url';
import { globEscape, isInternalResultId, potatoqPrefix, redisKeys } from './keys';

describe('potatoqPrefix (RedisBroker.__init__)', () => {
  it('prefers global_keyprefix, then prefix, then potatoq', () => {
    expect(potatoqPrefix()).toBe('potatoq');
    expect(potatoqPrefix({ prefix: 'app' })).toBe('app');
    expect(potatoqPrefix({ global_keyprefix: 'g', prefix: 'app' })).toBe('g');
  });
  it("skips empty values like Python's `or` and strips every trailing colon like rstrip(':')", () => {
    expect(potatoqPrefix({ global_keyprefix: '', prefix: 'app::' })).toBe('app');
    expect(potatoqPrefix({ prefix: 'a:b:' })).toBe('a:b');
    expect(potatoqPrefix({ prefix: ':' })).toBe('');
    expect(potatoqPrefix({ prefix: 7 })).toBe('7');
  });
});

describe('redisKeys', () => {
  it('names every key the way potatoq 26.1a8 does', () => {
    const k = redisKeys('P');
    expect([
      k.queues,
      k.seq,
      k.dead,
      k.workers,
      k.job('i'),
      k.ready('q'),
      k.delayed('q'),
      k.active('q'),
      k.marker('q'),
      k.result('i'),
      k.waiting('i'),
      k.notify('i'),
    ]).toEqual([
      'P:queues',
      'P:seq',
      'P:dead',
      'P:workers',
      'P:job:i',
      'P:q:q:ready',
      'P:q:q:delayed',
      'P:q:q:active',
      'P:q:q:marker',
      'P:result:i',
      'P:waiting:i',
      'P:notify:i',
    ]);
  });
  it('escapes glob characters of the prefix in SCAN patterns', () => {
    expect(redisKeys('a*[b]').resultPattern).toBe('a\\*\\[b\\]:result:*');
    expect(globEscape('x?\\')).toBe('x\\?\\\\');
    expect(redisKeys('p').registeredPattern).toBe('p:result:potatoq-registered-*');
  });
  it('knows which result ids are not tasks', () => {
    expect(isInternalResultId('potatoq-registered-0123456789abcdef')).toBe(true);
    expect(isInternalResultId('group:abc')).toBe(true);
    expect(isInternalResultId('3f2a')).toBe(false);
  });
});

describe('parseRedisUrl (potatoq _client_from_url + redis-py from_url)', () => {
  it('reads host, port, database and credentials', () => {
    expect(parseRedisUrl('redis://u:p%40ss@cache:6380/3')).toMatchObject({
      host: 'cache',
      port: 6380,
      db: 3,
      username: 'u',
      password: 'p@ss',
      tls: false,
      redacted: 'redis://u:***@cache:6380/3',
    });
    expect(parseRedisUrl('redis://cache')).toMatchObject({ port: 6379, db: 0 });
    expect(parseRedisUrl('redis://:secret@cache/')).toMatchObject({ username: undefined, password: 'secret', db: 0 });
  });
  it('lets ?db= win over the path, as redis-py does', () => {
    expect(parseRedisUrl('redis://cache/2?db=5').db).toBe(5);
  });
  it('maps valkey:// to redis:// and valkeys:// and rediss:// to TLS', () => {
    expect(parseRedisUrl('valkey://v:1/1')).toMatchObject({ host: 'v', port: 1, db: 1, tls: false });
    expect(parseRedisUrl('valkeys://v/0').tls).toBe(true);
    expect(parseRedisUrl('rediss://v/0').tls).toBe(true);
    expect(parseRedisUrl('redis://[::1]:7000/0').host).toBe('::1');
  });
  it('takes a unix socket path from unix:// and redis+socket://', () => {
    expect(parseRedisUrl('unix:///run/redis/redis.sock?db=4')).toMatchObject({ path: '/run/redis/redis.sock', db: 4 });
    expect(parseRedisUrl('redis+socket:///tmp/r.sock').path).toBe('/tmp/r.sock');
  });
  it('refuses other schemes, a socket URL without a path and a database that is not a number', () => {
    expect(() => parseRedisUrl('amqp://x')).toThrow(RedisUrlError);
    expect(() => parseRedisUrl('unix://')).toThrow(/socket path/);
    expect(() => parseRedisUrl('redis://h/abc')).toThrow(/whole number/);
    expect(() => parseRedisUrl('not a url')).toThrow(/valid URL/);
  });
});
