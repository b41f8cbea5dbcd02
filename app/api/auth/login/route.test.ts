import { afterEach, describe, expect, it } from 'vitest';
import { setAuthConfigForTests } from '@/lib/auth/config';
import { accountsConfig } from '@/tests/support/auth';
import { POST } from './route';

// The sign-in route counts a body while it streams: a chunked upload that never ends is cut
// at 16 KB (413) after reading little more than that, instead of being buffered whole.
afterEach(() => setAuthConfigForTests(null));

function endless(): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  const chunk = new Uint8Array(1024).fill(97);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

describe('POST /api/auth/login', () => {
  it('answers 413 to a chunked body past 16 KB without reading it to the end', async () => {
    setAuthConfigForTests(accountsConfig());
    const body = endless();
    const req = new Request('http://127.0.0.1:3000/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    const res = await POST(req);
    expect(res.status).toBe(413);
    expect(body.pulled()).toBeLessThan(64 * 1024);
    expect(body.cancelled()).toBe(true);
  });

  it('refuses a cross-site sign-in whose forged X-Forwarded-Host names the other site', async () => {
    setAuthConfigForTests(accountsConfig());
    const req = new Request('http://console.example/api/auth/login', {
      method: 'POST',
      headers: {
        host: 'console.example',
        origin: 'https://evil.example',
        'x-forwarded-host': 'evil.example',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ user: 'olga', password: 'pw' }),
    });
    const res = await POST(req);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      error: { code: 'Forbidden', message: expect.stringMatching(/does not match host console\.example/) },
    });
  });
});
