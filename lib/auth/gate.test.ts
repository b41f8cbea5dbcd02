import { afterEach, describe, expect, it } from 'vitest';
import { parseAuthConfig, setAuthConfigForTests } from './config';
import { API_CSP } from './csp';
import { gate, securityHeaders, type GateRequest } from './gate';

// The gate's answers for API reads against pages: an API answer needs no nonce and gets the one
// API header set; a page gets a fresh nonce in its CSP each time.
const ask = (pathname: string, headers: Record<string, string> = {}): GateRequest => ({
  method: 'GET',
  pathname,
  search: '',
  headers: new Headers({ host: 'localhost:3000', ...headers }),
  protocol: 'http',
});

afterEach(() => setAuthConfigForTests(null));

describe('gate: security headers per kind of answer', () => {
  it('passes an API read with the API CSP and no nonce, the same headers every time', () => {
    setAuthConfigForTests(parseAuthConfig({}));
    const a = gate(ask('/api/brokers/b/queues'));
    const b = gate(ask('/api/brokers/b/dead'));
    expect(a).toMatchObject({ kind: 'pass', nonce: '', csp: API_CSP });
    expect(a.headers).toEqual(securityHeaders(API_CSP, false));
    expect(b.headers).toEqual(a.headers);
    expect(Object.isFrozen(a.headers)).toBe(true);
  });

  it('gives a page a fresh nonce in its CSP each time', () => {
    setAuthConfigForTests(parseAuthConfig({}));
    const [a, b] = [gate(ask('/')), gate(ask('/'))];
    if (a.kind !== 'pass' || b.kind !== 'pass') throw new Error('expected pass');
    expect(a.nonce).not.toBe('');
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.headers['content-security-policy']).toContain(`'nonce-${a.nonce}'`);
  });

  it('still refuses first: a foreign Host, an API read without sign-in', () => {
    setAuthConfigForTests(parseAuthConfig({}));
    expect(gate(ask('/api/brokers/b/queues', { host: 'evil.example' }))).toMatchObject({ kind: 'text', status: 421 });
    setAuthConfigForTests(parseAuthConfig({ POTATOQ_CONSOLE_AUTH: 'proxy', POTATOQ_CONSOLE_PROXY_SECRET: 's'.repeat(32) }));
    const no = gate(ask('/api/brokers/b/queues'));
    expect(no).toMatchObject({ kind: 'json', status: 401 });
    expect(no.headers['content-security-policy']).toBe(API_CSP);
  });
});
