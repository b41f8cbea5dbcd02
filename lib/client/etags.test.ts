import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTagMemory } from './etags';

describe('createTagMemory', () => {
  it('holds a tagged answer and gives it back only for its own tag', () => {
    const m = createTagMemory();
    m.remember('/a', 'W/"1"', { n: 1 });
    expect(m.tagOf('/a')).toBe('W/"1"');
    expect(m.take('/a', 'W/"1"')).toEqual({ body: { n: 1 } });
    expect(m.take('/a', 'W/"2"')).toBeUndefined();
    expect(m.take('/a', null)).toBeUndefined();
    expect(m.take('/b', 'W/"1"')).toBeUndefined();
  });

  it('forgets an answer that came without a tag, or an error', () => {
    const m = createTagMemory();
    m.remember('/a', 'W/"1"', { n: 1 });
    m.remember('/a', null, { error: {} });
    expect(m.tagOf('/a')).toBeUndefined();
    expect(m.size()).toBe(0);
  });

  it('keeps at most `max` URLs, the least recently used going first', () => {
    const m = createTagMemory(2);
    m.remember('/a', 'W/"a"', 'a');
    m.remember('/b', 'W/"b"', 'b');
    m.take('/a', 'W/"a"'); // /a used last: /b goes first
    m.remember('/c', 'W/"c"', 'c');
    expect([m.tagOf('/a'), m.tagOf('/b'), m.tagOf('/c')]).toEqual(['W/"a"', undefined, 'W/"c"']);
    expect(createTagMemory(0).size()).toBe(0);
  });
});

describe('getJson with validators', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  const answer = (status: number, body: unknown, etag?: string) =>
    new Response(status === 304 ? null : JSON.stringify(body), { status, headers: etag ? { etag } : {} });

  it('sends the tag back and reuses its answer on a 304; asks again plainly when the 304 names another', async () => {
    vi.stubGlobal('window', {});
    const sent: Array<string | undefined> = [];
    const replies = [
      answer(200, { v: 1 }, 'W/"1"'),
      answer(304, null, 'W/"1"'),
      answer(304, null, 'W/"x"'),
      answer(200, { v: 2 }, 'W/"2"'),
    ];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push((init.headers as Record<string, string>)['if-none-match']);
      return replies.shift()!;
    });
    const { getJson } = await import('./api');
    expect(await getJson('/api/x')).toEqual({ v: 1 });
    expect(await getJson('/api/x')).toEqual({ v: 1 });
    expect(await getJson('/api/x')).toEqual({ v: 2 });
    expect(sent).toEqual([undefined, 'W/"1"', 'W/"1"', undefined]);
  });

  it('keeps nothing when not in a browser', async () => {
    const sent: Array<string | undefined> = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push((init.headers as Record<string, string>)['if-none-match']);
      return answer(200, { v: 1 }, 'W/"1"');
    });
    const { getJson } = await import('./api');
    await getJson('/api/x');
    await getJson('/api/x');
    expect(sent).toEqual([undefined, undefined]);
  });
});
