import 'server-only';
import { isIP } from 'node:net';
import { ConfigError } from '@/lib/config-error';
import { consoleEnv } from '@/lib/config-file/env';

/**
 * Which Host names this console answers (DNS rebinding: a page on `evil.example`, re-pointed at
 * 127.0.0.1, would otherwise read and change queues through the visitor's browser in mode none).
 * `POTATOQ_CONSOLE_ALLOWED_HOSTS` is a comma list of names (`console.example.com`, `*.corp.example`
 * for subdomains), checked in every mode when set. Unset, mode `none` answers only loopback
 * names (`localhost`, `*.localhost`) and IP literals (an address in Host cannot be re-pointed by
 * DNS); the other modes check no Host (their sessions and proxies are tied to the real name).
 * Any port is accepted.
 */

export type HostRule = { kind: 'any' } | { kind: 'loopback' } | { kind: 'list'; names: string[] };

const NAME = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

export function parseAllowedHosts(raw: string | undefined, mode: string): HostRule {
  const list = (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (!list.length) return mode === 'none' ? { kind: 'loopback' } : { kind: 'any' };
  for (const n of list) {
    const bare = n.replace(/^\[|\]$/g, '');
    if (!isIP(bare) && !NAME.test(n))
      throw new ConfigError(`POTATOQ_CONSOLE_ALLOWED_HOSTS: "${n}" is not a host name (no port, no scheme)`);
  }
  return { kind: 'list', names: list.map((n) => n.replace(/^\[|\]$/g, '')) };
}

/** The name part of a Host header (`[::1]:3000` -> `::1`), lower-case; null when malformed. */
export function hostName(host: string | null): string | null {
  if (!host) return null;
  const h = host.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(h);
  if (v6) return isIP(v6[1]!) === 6 ? v6[1]! : null;
  const m = /^([^:[\]/\s@]+)(?::\d{1,5})?$/.exec(h);
  return m ? m[1]!.replace(/\.$/, '') : null;
}

export function hostAllowed(rule: HostRule, host: string | null): boolean {
  if (rule.kind === 'any') return true;
  const name = hostName(host);
  if (!name) return false;
  if (rule.kind === 'loopback') return isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost');
  return rule.names.some((n) => (n.startsWith('*.') ? name.endsWith(n.slice(1)) && name.length > n.length - 1 : n === name));
}

const RULE = Symbol.for('potatoq.console.hostRule');
type Global = typeof globalThis & { [RULE]?: HostRule };

/** Parsed once per process (boot validates it, so a bad value stops startup). */
export function getHostRule(mode: string, env: Record<string, string | undefined> = consoleEnv()): HostRule {
  const g = globalThis as Global;
  g[RULE] ??= parseAllowedHosts(env.POTATOQ_CONSOLE_ALLOWED_HOSTS, mode);
  return g[RULE];
}
