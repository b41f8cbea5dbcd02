import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { raw, type RawResponse } from './auth-probes';
import { SECRETS, scryptHash, startConsole, tokenHash, type RunningConsole } from './auth-server';
import { addDead, uniqueQueue } from './seed';

// The polled reads (GET /api/brokers/:id/dead, /queues, /tasks, /workers, /dead/groups, /dead/:id) are answered before Next's
// routing (lib/http/fast-reads.ts). A request that declares a body (here `Content-Length: 0`)
// still goes through Next's proxy and route handler, so the same request can be asked of both
// paths on one production server: every answer must be the same, refusals included.

const VIEWER = 'viewer-token-for-fast-reads-0123456789';
const TOKENS = JSON.stringify([
  { name: 'ci', hash: tokenHash(SECRETS.operatorToken), role: 'operator' },
  { name: 'ro', hash: tokenHash(VIEWER), role: 'viewer' },
]);
const operator = { authorization: `Bearer ${SECRETS.operatorToken}` };
const viewer = { authorization: `Bearer ${VIEWER}` };
const NEXT = { 'content-length': '0' };
// `etag`: only the fast path tags its 200s (the 304 path is its own test below).
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'vary', 'etag']);

const headersOf = (r: RawResponse) => Object.fromEntries(Object.entries(r.headers).filter(([k]) => !VOLATILE.has(k)));
/** Answered by the fast path: Next streams its bodies (no Content-Length) and adds its `vary`. */
const fast = (r: RawResponse) => r.headers['content-length'] !== undefined && !String(r.headers.vary ?? '').includes('rsc');

async function both(c: RunningConsole, path: string, headers: Record<string, string>) {
  const a = await raw(c.port, path, { headers });
  const b = await raw(c.port, path, { headers: { ...headers, ...NEXT } });
  return { fast: a, next: b };
}

let c: RunningConsole;
let queue: string;
let dead: string;
const marker = `fast-read-secret-${Math.random().toString(36).slice(2)}`;

test.describe.serial('fast reads answer exactly as Next does', () => {
  test.beforeAll(async () => {
    c = await startConsole({
      POTATOQ_CONSOLE_AUTH: 'accounts',
      POTATOQ_CONSOLE_SESSION_SECRET: SECRETS.sessionSecret,
      POTATOQ_CONSOLE_USERS: JSON.stringify([{ user: 'olga', hash: scryptHash(SECRETS.operatorPassword), role: 'operator' }]),
      POTATOQ_CONSOLE_TOKENS: TOKENS,
      POTATOQ_CONSOLE_REDACT_ARGS: '1',
      POTATOQ_CONSOLE_ALLOWED_HOSTS: '127.0.0.1',
    });
    queue = uniqueQueue('fast');
    dead = addDead(c.broker, { queue, args: [marker], reason: 'Traceback (most recent call last):\nValueError: fast read' });
  });
  test.afterAll(async () => c?.stop());

  test('the same status, body and security headers on every kind of answer', async () => {
    const cases: Array<[string, Record<string, string>, number]> = [
      [`/api/brokers/main/dead?queue=${queue}`, {}, 401],
      [`/api/brokers/main/queues`, { cookie: 'potatoq_session=forged.signature' }, 401],
      [`/api/brokers/main/dead?queue=${queue}`, { ...operator, host: 'evil.example' }, 421],
      [`/api/brokers/main/dead?queue=${queue}`, operator, 200],
      [`/api/brokers/%6Dain/dead?queue=${queue}&limit=5`, operator, 200],
      [`/api/brokers/main/dead?limit=abc`, operator, 400],
      [`/api/brokers/main/dead?cursor=not-a-cursor`, operator, 400],
      [`/api/brokers/nope/dead`, operator, 404],
      [`/api/brokers/nope/queues`, viewer, 404],
      [`/api/brokers/main/tasks?queue=${queue}`, {}, 401],
      [`/api/brokers/main/tasks?queue=${queue}&limit=5`, viewer, 200],
      [`/api/brokers/main/tasks?limit=abc`, operator, 400],
      [`/api/brokers/main/workers`, viewer, 200],
      [`/api/brokers/nope/workers`, operator, 404],
      [`/api/brokers/main/dead/groups?queue=${queue}`, operator, 200],
      [`/api/brokers/main/dead/groups`, { ...viewer, host: 'evil.example' }, 421],
      // One dead letter (its arguments redacted), as a failure's page reads it.
      [`/api/brokers/main/dead/${encodeURIComponent(dead)}`, {}, 401],
      [`/api/brokers/main/dead/${encodeURIComponent(dead)}`, { ...operator, host: 'evil.example' }, 421],
      [`/api/brokers/main/dead/${encodeURIComponent(dead)}`, operator, 200],
      [`/api/brokers/main/dead/${encodeURIComponent(dead)}`, viewer, 200],
      [`/api/brokers/main/dead/no-such-letter%20x`, operator, 404],
      [`/api/brokers/main/dead/replay`, operator, 404],
      [`/api/brokers/nope/dead/x`, operator, 404],
      [`/api/brokers/secretpg/dead/x`, operator, 503],
      // Its URL names a password; the answer never does.
      [`/api/brokers/secretpg/dead`, operator, 503],
    ];
    for (const [path, headers, status] of cases) {
      const r = await both(c, path, headers);
      const what = `${path} ${JSON.stringify(headers)}`;
      expect(fast(r.fast), `${what}: answered by the fast path`).toBe(true);
      expect(fast(r.next), `${what}: answered by Next`).toBe(false);
      expect(r.fast.status, what).toBe(status);
      expect(r.next.status, what).toBe(status);
      expect(r.fast.body, what).toBe(r.next.body);
      expect(headersOf(r.fast), what).toEqual(headersOf(r.next));
      expect(r.fast.body, what).not.toContain(SECRETS.brokerPassword);
    }
  });

  test('a signed-in read lists the letter with its arguments redacted, as configured', async () => {
    const r = await both(c, `/api/brokers/main/dead?queue=${queue}`, operator);
    const page = JSON.parse(r.fast.body) as { items: Array<{ id: string; summary: string }> };
    expect(page.items.map((d) => d.id)).toEqual([dead]);
    expect(page.items[0]!.summary).toContain('fast read');
    expect(r.fast.body).not.toContain(marker);
    expect(r.fast.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(r.fast.headers['cache-control']).toBe('no-store, no-transform');
    const one = await both(c, `/api/brokers/main/dead/${encodeURIComponent(dead)}`, operator);
    expect([fast(one.fast), one.fast.status]).toEqual([true, 200]);
    expect((JSON.parse(one.fast.body) as { id: string }).id).toBe(dead);
    expect(one.fast.body).not.toContain(marker);
    expect(one.fast.headers.etag).toMatch(/^W\/"/);
  });

  test('the overview is masked for the asking principal on both paths', async () => {
    type Overview = { id: string; capabilities: Record<string, { on: boolean; why?: string }> };
    for (const [who, headers] of [
      ['operator', operator],
      ['viewer', viewer],
    ] as const) {
      const r = await both(c, '/api/brokers/main/queues', headers);
      expect(r.fast.status).toBe(200);
      expect(fast(r.fast)).toBe(true);
      const [a, b] = [JSON.parse(r.fast.body) as Overview, JSON.parse(r.next.body) as Overview];
      expect(a.capabilities, who).toEqual(b.capabilities);
      expect(a.capabilities.replay?.on, who).toBe(who === 'operator');
      if (who === 'viewer') expect(a.capabilities.replay?.why).toBe('token:ro is a viewer');
    }
  });

  test('a poll sending its tag back gets a 304 only while its own answer is unchanged, per principal', async () => {
    const path = '/api/brokers/main/queues';
    const get = (headers: Record<string, string>, tag?: string) =>
      raw(c.port, path, { headers: { ...headers, ...(tag ? { 'if-none-match': tag } : {}) } });
    // The overview carries its read time, so its tag changes with each shared read (every 2 s):
    // a 200 and its 304 are asked back to back, again if a new read fell between them.
    const unchanged = async (headers: Record<string, string>) => {
      for (let i = 0; ; i++) {
        const first = await get(headers);
        const tag = String(first.headers.etag);
        const again = await get(headers, tag);
        if (again.status === 304 || i === 4) return { first, tag, again };
      }
    };
    const { first: op, tag: opTag, again } = await unchanged(operator);
    expect(op.status).toBe(200);
    expect(opTag).toMatch(/^W\/"/);
    expect([again.status, again.body, again.headers.etag]).toEqual([304, '', opTag]);
    expect(again.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(again.headers['x-content-type-options']).toBe('nosniff');
    expect(again.headers['cache-control']).toBe('no-store, no-transform');
    // The same client now asks as a viewer: its answer differs (masked), so it gets the body.
    const vw = await get(viewer, opTag);
    expect(vw.status).toBe(200);
    expect((JSON.parse(vw.body) as { capabilities: { replay: { on: boolean } } }).capabilities.replay.on).toBe(false);
    expect(vw.headers.etag).not.toBe(opTag);
    expect((await unchanged(viewer)).again.status).toBe(304);
    expect((await get(operator, String(vw.headers.etag))).status).toBe(200); // back to operator: the body again
    // Refusals come first, whatever the tag.
    expect((await get({}, opTag)).status).toBe(401);
    expect((await get({ ...operator, host: 'evil.example' }, opTag)).status).toBe(421);
    // Next's route (e.g. `next dev`) answers the body as before.
    expect((await get({ ...operator, ...NEXT }, opTag)).status).toBe(200);
    // A change in the broker: the old tag gets the new answer once the shared read is renewed.
    const groupsPath = `/api/brokers/main/dead?queue=${queue}`;
    const first = await raw(c.port, groupsPath, { headers: operator });
    const later = addDead(c.broker, { queue, args: ['later'], reason: 'Traceback\nValueError: later' });
    await expect
      .poll(async () => {
        const r = await raw(c.port, groupsPath, { headers: { ...operator, 'if-none-match': String(first.headers.etag) } });
        return r.status === 200 && r.body.includes(later);
      })
      .toBe(true);
  });

  test('a large answer is compressed when the client accepts it, and reads the same', async () => {
    const many = uniqueQueue('fast-many');
    for (let i = 0; i < 320; i++)
      addDead(c.broker, { queue: many, args: [i, 'x'.repeat(40)], reason: `Traceback\nKeyError: key-${i}-${'k'.repeat(60)}` });
    const get = (extra: Record<string, string>) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(
            {
              host: '127.0.0.1',
              port: c.port,
              path: `/api/brokers/main/dead?queue=${many}&limit=500`,
              headers: { ...operator, 'accept-encoding': 'gzip', ...extra },
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (d: Buffer) => chunks.push(d));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
            },
          )
          .on('error', reject);
      });
    const [a, b] = [await get({}), await get(NEXT)];
    expect(a.status).toBe(200);
    expect(a.headers['content-encoding']).toBe('gzip');
    expect(b.headers['content-encoding']).toBe('gzip');
    const [ja, jb] = [gunzipSync(a.body).toString('utf8'), gunzipSync(b.body).toString('utf8')];
    expect(ja.length).toBeGreaterThan(64 * 1024);
    expect(ja).toBe(jb);
    expect((JSON.parse(ja) as { items: unknown[] }).items).toHaveLength(320);
  });
});
