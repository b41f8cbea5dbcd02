import { describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';

const { handle, jsonOk, readJsonBody, MAX_BODY_BYTES, UNCOMPRESSED_JSON_BYTES } = await import('./http');

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

describe('jsonOk', () => {
  it('sends a polled-size answer as no-transform (not compressed in-process), a large one compressible', async () => {
    const small = jsonOk({ items: [{ id: 'a' }] });
    expect(small.headers.get('content-type')).toBe('application/json');
    expect(small.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(await small.json()).toEqual({ items: [{ id: 'a' }] });
    const large = jsonOk({ text: 'é'.repeat(UNCOMPRESSED_JSON_BYTES / 2) }); // 2 bytes each in UTF-8
    expect(large.headers.get('cache-control')).toBe('no-store');
    expect(jsonOk(undefined).status).toBe(200);
    expect(await jsonOk(undefined).text()).toBe('null');
  });
});
