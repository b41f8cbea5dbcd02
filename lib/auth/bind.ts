import 'server-only';
import net from 'node:net';
import { ConfigError } from '@/lib/config-error';
import { isLoopback } from './address';
import type { AuthConfig } from './config';

/**
 * The addresses this process listens on. `next start` opens its socket before it loads the
 * app, so at boot the listening server is among the process's active handles (undocumented
 * but long-stable Node API). Falls back to HOSTNAME (what `next start -H` and the standalone
 * server use); unknown means "every interface", which is what Next does without -H.
 */
export function listeningAddresses(env: Record<string, string | undefined> = process.env): string[] {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  const found = handles
    .filter((h): h is net.Server => h instanceof net.Server && h.listening)
    .map((s) => s.address())
    .flatMap((a) => (a && typeof a === 'object' ? [a.address] : []));
  if (found.length) return [...new Set(found)];
  return [env.HOSTNAME?.trim() || '0.0.0.0'];
}

export interface BindVerdict {
  /** Shown on every page: authentication is off and the console is reachable from elsewhere. */
  insecureBanner: string | null;
}

/** Mode none is for loopback; elsewhere it needs POTATOQ_CONSOLE_INSECURE_NO_AUTH and shows a banner. */
export function checkBind(config: AuthConfig, addresses: string[]): BindVerdict {
  if (config.mode !== 'none') return { insecureBanner: null };
  const exposed = addresses.filter((a) => !isLoopback(a));
  if (!exposed.length) return { insecureBanner: null };
  if (!config.insecure) {
    throw new ConfigError(
      `POTATOQ_CONSOLE_AUTH: authentication is off (mode none) but the server listens on ${exposed.join(', ')}; ` +
        'listen on 127.0.0.1 (next start -H 127.0.0.1), choose accounts or proxy, or set POTATOQ_CONSOLE_INSECURE_NO_AUTH=1',
    );
  }
  return {
    insecureBanner: `Authentication is off and this console listens on ${exposed.join(', ')}: anyone who can reach it can change your queues.`,
  };
}
