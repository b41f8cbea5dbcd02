import { describe, expect, it } from 'vitest';
import { parseAuthConfig } from './config';
import { resolveFromHeaders, resolveScraper } from './resolve';
import { METRICS_TOKEN, OPERATOR_TOKEN, VIEWER_TOKEN, accountsConfig, sessionCookie } from '@/tests/support/auth';

const bearer = (t: string) => new Headers({ authorization: `Bearer ${t}` });

describe('the metrics-only token role', () => {
  it('is accepted in POTATOQ_CONSOLE_TOKENS and a misspelt role names the field', () => {
    expect(accountsConfig().tokens.find((t) => t.name === 'prom')).toMatchObject({ role: 'metrics' });
    expect(() =>
      parseAuthConfig({ POTATOQ_CONSOLE_TOKENS: JSON.stringify([{ name: 'p', hash: `sha256:${'a'.repeat(64)}`, role: 'metric' }]) }),
    ).toThrow(/POTATOQ_CONSOLE_TOKENS\[0\]\.role: must be "viewer", "operator" or "metrics"/);
  });

  it('reads /metrics (resolveScraper) and is refused everywhere else with 403, not 401', () => {
    expect(resolveScraper(accountsConfig(), bearer(METRICS_TOKEN))).toMatchObject({
      ok: true,
      principal: { user: 'token:prom', role: 'metrics', via: 'token' },
    });
    expect(resolveFromHeaders(accountsConfig(), bearer(METRICS_TOKEN))).toMatchObject({
      ok: false,
      code: 'Forbidden',
      reason: expect.stringMatching(/may read \/metrics and nothing else/),
    });
  });

  it('lets viewer and operator tokens and signed-in users scrape too, and nobody unauthenticated', () => {
    expect(resolveScraper(accountsConfig(), bearer(VIEWER_TOKEN))).toMatchObject({ ok: true, principal: { role: 'viewer' } });
    expect(resolveScraper(accountsConfig(), bearer(OPERATOR_TOKEN))).toMatchObject({ ok: true, principal: { role: 'operator' } });
    expect(resolveScraper(accountsConfig(), new Headers({ cookie: sessionCookie('vic') }))).toMatchObject({
      ok: true,
      principal: { user: 'vic' },
    });
    expect(resolveScraper(accountsConfig(), new Headers())).toMatchObject({ ok: false, code: 'Unauthorized' });
    expect(resolveScraper(accountsConfig(), bearer('pqc_wrong'))).toMatchObject({ ok: false, code: 'Unauthorized' });
  });
});
