import 'server-only';
import type { AuditEntry, AuditStore } from '@/lib/audit/types';
import { parseAuthConfig, type AuthConfig } from '@/lib/auth/config';
import { tokenDigest } from '@/lib/auth/password';
import { SESSION_COOKIE, fingerprint, signSession } from '@/lib/auth/session';

// Fixtures for unit tests of the gate and the auth modes. Not imported by the app.

export const TEST_SECRET = 'test-session-secret-0123456789abcdef';
// scrypt of "pw" (any valid hash works: tests sign cookies directly).
export const TEST_HASH = 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
export const OPERATOR_TOKEN = 'pqc_operator-token-for-tests';
export const VIEWER_TOKEN = 'pqc_viewer-token-for-tests';
export const METRICS_TOKEN = 'pqc_metrics-token-for-tests';

export function accountsConfig(over: Record<string, string> = {}): AuthConfig {
  return parseAuthConfig({
    POTATOQ_CONSOLE_AUTH: 'accounts',
    POTATOQ_CONSOLE_SESSION_SECRET: TEST_SECRET,
    POTATOQ_CONSOLE_USERS: JSON.stringify([
      { user: 'olga', hash: TEST_HASH, role: 'operator', readOnlyBrokers: ['prod'] },
      { user: 'vic', hash: TEST_HASH, role: 'viewer' },
    ]),
    POTATOQ_CONSOLE_TOKENS: JSON.stringify([
      { name: 'ci', hash: tokenDigest(OPERATOR_TOKEN), role: 'operator' },
      { name: 'dash', hash: tokenDigest(VIEWER_TOKEN), role: 'viewer' },
      { name: 'prom', hash: tokenDigest(METRICS_TOKEN), role: 'metrics' },
    ]),
    ...over,
  });
}

export function sessionCookie(user: string, hash = TEST_HASH, expIn = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  return `${SESSION_COOKIE}=${signSession(TEST_SECRET, { u: user, f: fingerprint(TEST_SECRET, hash), iat: now, exp: now + expIn })}`;
}

export function memoryAuditStore(): AuditStore & { entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return {
    entries,
    async begin(e) {
      entries.push({ ...e });
    },
    async finish(id, p) {
      const e = entries.find((x) => x.id === id);
      if (!e) return;
      const { addIds = [], ...rest } = p;
      Object.assign(e, rest, { queue: p.queue ?? e.queue, count: p.count ?? e.count, ids: [...e.ids, ...addIds] });
    },
    async list() {
      return { entries: [...entries].reverse(), nextCursor: null };
    },
    async close() {},
  };
}
