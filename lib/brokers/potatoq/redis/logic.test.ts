// Pure logic of the Redis storage layer: cursors, tie handling, bands, rows, server checks, outcomes.
import { describe, expect, it } from 'vitest';
import { PRIO } from './keys';
import { afterCursor } from './reads-pages';
import { nextBand } from './overview-pipelined';
import { decodeCursor, encodeCursor, payloadInfo, timeMs, toRow } from './rows';
import { evictionWarning, judgeServer, parseInfo, versionAtLeast62 } from '@/lib/transports/redis/server';
import { describeCode, revokedRecord } from './writes';

describe('cursors', () => {
  it('round-trip score and id, and reject anything else', () => {
    expect(decodeCursor(encodeCursor('-1099511627775', 'a:b'))).toEqual({ score: '-1099511627775', id: 'a:b' });
    expect(decodeCursor('garbage')).toBeNull();
    expect(decodeCursor(Buffer.from('["x","y"]').toString('base64url'))).toBeNull();
  });
  it('drop the ties at or before the cursor in memcmp order (forward) and after it (newest first)', () => {
    const e: Array<[string, string]> = [
      ['B', '5'],
      ['a', '5'],
      ['b', '5'],
      ['z', '6'],
    ];
    expect(afterCursor(e, { score: '5', id: 'a' }, false).map(([m]) => m)).toEqual(['b', 'z']);
    expect(afterCursor(e, { score: '5', id: 'a' }, true).map(([m]) => m)).toEqual(['B', 'z']);
  });
});

describe('priority bands', () => {
  it('step from any score of a band to the start of the next one', () => {
    expect(nextBand(-5 * PRIO + 9)).toBe(-4 * PRIO);
    expect(nextBand(-5 * PRIO)).toBe(-4 * PRIO); // a task requeued to the front
    expect(nextBand(12)).toBe(PRIO);
    expect(nextBand(2 * PRIO + 1)).toBe(3 * PRIO); // a negative priority
  });
});

describe('rows', () => {
  it('flag undecodable payloads instead of throwing', () => {
    expect(payloadInfo('not json').problem?.kind).toBe('invalid-json');
    expect(payloadInfo('[1,2,{}]').problem?.kind).toBe('celery-v2');
    expect(payloadInfo(null).problem?.kind).toBe('missing');
    expect(payloadInfo('{"task":"t","id":"i","enqueued_at":5.5,"eta":7.0}')).toMatchObject({
      task: 't',
      enqueuedAt: 5.5,
      eta: 7,
      problem: null,
    });
  });
  it('mark a lease past its deadline as expired, and a member without a hash as missing', () => {
    const run = toRow('i', '1000', ['q', '{"task":"t","id":"i"}', '0', '1', 'active', 'tok', 'w', '9', null, null], 2000, 'active');
    expect(run).toMatchObject({ state: 'active', leaseExpired: true, worker: 'w', pid: '9', atMs: 1000 });
    expect(toRow('i', '3000', [], 2000, 'active')).toMatchObject({ state: 'missing', leaseExpired: false, problem: null });
    expect(toRow('i', '77', ['q', 'x', '0', '2', 'dead', null, null, null, 'why', '70'], 0, 'dead')).toMatchObject({
      reason: 'why',
      diedAtMs: 70,
      deliveries: 2,
    });
  });
  it('read Redis TIME as milliseconds', () => {
    expect(timeMs(['1700000000', '123456'])).toBe(1_700_000_000_123);
  });
});

describe('server checks', () => {
  const info = (s: string) => parseInfo(s.replace(/;/g, '\n'));
  it('refuses Redis Cluster and servers before 6.2, accepts Valkey', () => {
    expect(judgeServer(info('# Server;redis_version:7.0.15;redis_mode:standalone;cluster_enabled:0'), 'noeviction').refusal).toBeNull();
    expect(judgeServer(info('redis_version:7.2.4;redis_mode:cluster;cluster_enabled:1'), null).refusal).toMatch(/Redis Cluster/);
    expect(judgeServer(info('redis_version:6.0.9'), null).refusal).toMatch(/6\.2\+/);
    expect(judgeServer(info('redis_version:7.2.4;server_name:valkey;valkey_version:8.1.0'), 'noeviction')).toMatchObject({
      server: 'valkey',
      version: '8.1.0',
      refusal: null,
    });
    expect(versionAtLeast62('6.2.0')).toBe(true);
    expect(versionAtLeast62('10.0')).toBe(true);
  });
  it('warns unless maxmemory-policy is noeviction, like potatoq migrate, and stays quiet when CONFIG is off', () => {
    expect(evictionWarning('noeviction')).toBeNull();
    expect(evictionWarning(null)).toBeNull();
    expect(evictionWarning('allkeys-lru')).toMatch(/'allkeys-lru'.*evict/);
  });
});

describe('outcomes and records', () => {
  it('maps script codes to the console outcome codes', () => {
    // Not a dead letter (any more): nothing done, like an id that is gone; a bulk job skips it.
    expect(describeCode('replay', 'i', 'not-dead:delayed')).toMatchObject({
      outcome: 'missing',
      message: expect.stringContaining('scheduled'),
    });
    expect(describeCode('replay', 'i', 'changed')).toMatchObject({ outcome: 'conflict', message: expect.stringContaining('kept') });
    expect(describeCode('revoke', 'i', 'dead').outcome).toBe('conflict');
    expect(describeCode('revoke', 'i', 'finished:FAILURE')).toMatchObject({
      outcome: 'missing',
      message: expect.stringContaining('FAILURE'),
    });
    expect(describeCode('discard', 'i', 'running').outcome).toBe('running');
    expect(describeCode('enqueue', 'i', 'exists').outcome).toBe('conflict');
  });
  it("writes the REVOKED record as ResultRecord.to_dict() with potatoq's float date_done", () => {
    const r = revokedRecord('a"b', 1700000000);
    expect(r.startsWith('{"task_id":"a\\"b","status":"REVOKED","result":null,')).toBe(true);
    expect(r).toContain('"date_done":1700000000.0,"name":null,');
    expect(JSON.parse(revokedRecord('x', 1.25)).date_done).toBe(1.25);
  });
});
