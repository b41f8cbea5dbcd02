import { describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';

const { handle, readJsonBody, MAX_BODY_BYTES } = await import('./http');

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request('http://localhost/api/x', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('readJsonBody', () => {
  it('parses JSON and treats an empty body as {}', async () => {
    await expect(readJsonBody(post('{"ids":["a"]}'))).resolves.toEqual({ ids: ['a'] });
    await expect(readJsonBody(post(''))).resolves.toEqual({});
  });
  it('answers 413 for a body over the limit, even without a Content-Length', async () => {
    const res = await handle(async () => readJsonBody(post('x'.repeat(MAX_BODY_BYTES + 1))));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'PayloadTooLarge' } });
  });
  it('answers 400 InvalidInput for a body that is not JSON', async () => {
    const res = await handle(async () => readJsonBody(post('{nope')));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'InvalidInput', message: 'request body is not valid JSON' } });
  });
});

describe('handle', () => {
  it('maps a ConsoleError to its status with fields', async () => {
    const res = await handle(async () => {
      throw new ConsoleError('InvalidInput', 'ids: no ids given', { ids: 'no ids given' });
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'InvalidInput', message: 'ids: no ids given', fields: { ids: 'no ids given' } } });
  });
});
