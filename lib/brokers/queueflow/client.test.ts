import { describe, expect, it } from 'vitest';
import { isConsoleError } from '@/lib/brokers/errors';
import { createQfClient, errorFor, fieldOf, isDenied, serverMessage } from './client';

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe("QueueFlow's answers as the console's errors", () => {
  it('keeps the server message from a JSON body or from axum plain text', () => {
    expect(serverMessage('{"error":"access denied","timestamp":"2026-12-01T00:00:00Z"}')).toBe('access denied');
    expect(
      serverMessage('Failed to deserialize the JSON body into the target type: missing field `task_name` at line 1 column 14'),
    ).toMatch(/^Failed to deserialize/);
    expect(serverMessage('')).toBe('(empty answer)');
    // A proxy's error page: named by its title, never passed on as markup.
    expect(serverMessage('<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>x</h1></body></html>')).toBe(
      'an HTML page titled "502 Bad Gateway", not QueueFlow\'s answer (is something else in front of it?)',
    );
    expect(serverMessage('<html><body>login</body></html>')).not.toContain('<');
  });

  it.each([
    [401, 'BrokerUnavailable'],
    [403, 'BrokerUnavailable'],
    [404, 'NotFound'],
    [409, 'Conflict'],
    [400, 'InvalidInput'],
    [415, 'InvalidInput'],
    [422, 'InvalidInput'],
    [500, 'BrokerUnavailable'],
    [503, 'BrokerUnavailable'],
  ] as const)('maps %i to %s with the server message', (status, code) => {
    const e = errorFor(status, '{"error":"the words"}', 'GET /api/v1/queues');
    expect([e.code, e.message.includes('the words')]).toEqual([code, true]);
  });

  it("makes QueueFlow's 401 and 403 the broker's error, never the console's own 401/403 (a browser would think it was signed out)", () => {
    const bad = errorFor(401, '{"error":"unauthorized"}', 'GET /api/v1/whoami');
    expect([bad.code, bad.status, bad.message]).toEqual([
      'BrokerUnavailable',
      503,
      "QueueFlow refused the console's token (401 unauthorized) for GET /api/v1/whoami: check the broker's token",
    ]);
    const denied = errorFor(403, '{"error":"access denied"}', 'GET /api/v1/jobs/x');
    expect([denied.code, denied.status, isDenied(denied), isDenied(bad)]).toEqual(['BrokerUnavailable', 503, true, false]);
  });

  it('names the field a validation message is about', () => {
    expect(fieldOf('validation error: max_retries must be <= 1000 (got 1001)')).toBe('max_retries');
    expect(fieldOf('validation error: task_name is required')).toBe('task_name');
    expect(fieldOf('Failed to deserialize the JSON body into the target type: payload: invalid type: sequence')).toBe('payload');
    expect(fieldOf('Failed to deserialize the JSON body into the target type: missing field `task_name` at line 1')).toBe('task_name');
    expect(fieldOf('conflict: job is already completed')).toBeNull();
    expect(fieldOf('validation error: invalid cursor')).toBeNull();
  });
});

describe('the QueueFlow client', () => {
  it('sends the token only in the Authorization header and never shows it', async () => {
    const seen: Array<{ url: string; auth: string | null }> = [];
    const fake: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), auth: new Headers(init?.headers).get('authorization') });
      return new Response('{"error":"unauthorized"}', { status: 401, headers: { 'content-type': 'application/json' } });
    };
    const c = createQfClient({ url: 'http://qf.example:8080/base/', token: 's3cret-token', timeoutMs: 1000, fetch: fake });
    const e = await failure(c.get('/api/v1/jobs', { status: 'pending', cursor: undefined }));
    expect(seen).toEqual([{ url: 'http://qf.example:8080/base/api/v1/jobs?status=pending', auth: 'Bearer s3cret-token' }]);
    expect(isConsoleError(e) && e.code).toBe('BrokerUnavailable');
    expect(String((e as Error).message)).not.toContain('s3cret');
  });

  it('turns a deadline into BrokerTimeout and a refused connection into BrokerUnavailable', async () => {
    const hang: typeof fetch = (_i, init) =>
      new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(Object.assign(new Error('t'), { name: 'TimeoutError' }))),
      );
    const slow = await failure(createQfClient({ url: 'http://qf.example', token: 't', timeoutMs: 50, fetch: hang }).get('/health'));
    expect(isConsoleError(slow) && [slow.code, slow.message]).toEqual([
      'BrokerTimeout',
      'QueueFlow at qf.example did not answer GET /health within 0.05s',
    ]);
    const refuse: typeof fetch = () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }));
    const down = await failure(createQfClient({ url: 'http://qf.example', token: 't', timeoutMs: 50, fetch: refuse }).get('/health'));
    expect(isConsoleError(down) && [down.code, down.message]).toEqual([
      'BrokerUnavailable',
      'cannot reach QueueFlow at qf.example (ECONNREFUSED)',
    ]);
  });
});
