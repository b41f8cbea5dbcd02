import { describe, expect, it } from 'vitest';
import { matchFastRead } from './fast-reads';

describe('matchFastRead: which requests are answered before Next', () => {
  it('takes GET of the polled reads, with or without a query string', () => {
    expect(matchFastRead('GET', '/api/brokers/main/dead', {})).toEqual({
      read: 'dead',
      broker: 'main',
      pathname: '/api/brokers/main/dead',
      search: '',
    });
    expect(matchFastRead('GET', '/api/brokers/main/dead?limit=100&queue=a', {})).toMatchObject({
      read: 'dead',
      search: '?limit=100&queue=a',
    });
    expect(matchFastRead('GET', '/api/brokers/pg-1/queues', {})).toMatchObject({ read: 'queues', broker: 'pg-1' });
    expect(matchFastRead('GET', '/api/brokers/b/tasks?state=ready&queue=q', {})).toMatchObject({
      read: 'tasks',
      search: '?state=ready&queue=q',
    });
    expect(matchFastRead('GET', '/api/brokers/b/workers', {})).toMatchObject({ read: 'workers', broker: 'b' });
    expect(matchFastRead('GET', '/api/brokers/b/dead/groups?queue=q', {})).toMatchObject({ read: 'dead/groups', broker: 'b' });
  });

  it('takes GET of one dead letter, its id decoded, the action paths read as ids', () => {
    expect(matchFastRead('GET', '/api/brokers/main/dead/d-1', {})).toEqual({
      read: 'dead/:id',
      broker: 'main',
      id: 'd-1',
      pathname: '/api/brokers/main/dead/d-1',
      search: '',
    });
    expect(matchFastRead('GET', '/api/brokers/main/dead/a%20b%3Fc', {})).toMatchObject({ id: 'a b?c' });
    // GET on an action's path is the letter of that id (app/api/brokers/[broker]/dead/replay).
    expect(matchFastRead('GET', '/api/brokers/main/dead/replay', {})).toMatchObject({ read: 'dead/:id', id: 'replay' });
  });

  it('decodes the broker id as Next decodes a route segment', () => {
    expect(matchFastRead('GET', '/api/brokers/%6Dain/dead', {})?.broker).toBe('main');
    expect(matchFastRead('GET', '/api/brokers/a%20b/queues', {})?.broker).toBe('a b');
  });

  it('leaves everything else to Next', () => {
    const cases: Array<[string | undefined, string | undefined, Record<string, string>]> = [
      ['HEAD', '/api/brokers/main/dead', {}],
      ['POST', '/api/brokers/main/dead', {}],
      ['get', '/api/brokers/main/dead', {}],
      ['GET', '/api/brokers/main/dead/', {}],
      ['GET', '/api/brokers/main/dead/d-1/', {}],
      ['GET', '/api/brokers/main/dead/d-1/x', {}],
      ['GET', '/api/brokers/main/dead/export', {}],
      ['GET', '/api/brokers/main/dead/%65xport', {}],
      ['GET', '/api/brokers/main/dead/%ff', {}],
      ['HEAD', '/api/brokers/main/dead/d-1', {}],
      ['GET', '/api/brokers/main/dead/d-1', { 'content-length': '0' }],
      ['GET', '/api/brokers/main/dead/groups/', {}],
      ['GET', '/api/brokers/main/tasks/t-1', {}],
      ['GET', '/api/brokers/main/tasks/revoke', {}],
      ['GET', '/api/brokers/main/workers/w', {}],
      ['GET', '/api/brokers/main/queues/q1/purge', {}],
      ['GET', '/api/brokers//dead', {}],
      ['GET', '//api/brokers/main/dead', {}],
      ['GET', '/api/brokers/main/./dead', {}],
      ['GET', 'http://evil.example/api/brokers/main/dead', {}],
      ['GET', '/api/brokers/%ff/dead', {}],
      // A request that declares a body goes to Next, which bounds bodies.
      ['GET', '/api/brokers/main/dead', { 'content-length': '0' }],
      ['GET', '/api/brokers/main/dead', { 'transfer-encoding': 'chunked' }],
      [undefined, '/api/brokers/main/dead', {}],
      ['GET', undefined, {}],
    ];
    for (const [method, url, headers] of cases) expect(matchFastRead(method, url, headers), `${method} ${url}`).toBeNull();
  });
});
