import 'server-only';
import { randomBytes } from 'node:crypto';
import http from 'node:http';

/**
 * Next.js exposes no client address to route handlers, server actions or the proxy, and its own
 * `x-forwarded-for` is only filled when the client did not send one (so it can be forged). Boot
 * tags every request with the socket's peer address under PEER_HEADER, overwriting any copy a
 * client sent, and prefixes it with a per-process random key: without the key (tagging not
 * installed, or a forged header) the address is ignored and the trusted-proxy address check
 * fails closed. The key lives on globalThis because Next bundles instrumentation, the proxy
 * and route handlers as separate module instances of this file.
 */
export const PEER_HEADER = 'x-potatoq-peer';
const KEY = Symbol.for('potatoq.console.peerKey');
const HOOK = Symbol.for('potatoq.console.requestHook');
/** Answers a request before Next sees it (true), or leaves it to Next (false). */
export type RequestHook = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
type Global = typeof globalThis & { [KEY]?: string; [HOOK]?: RequestHook };

/** Runs after the tagging, so what it reads is tagged like what Next reads (lib/http/fast-reads.ts). */
export function setRequestHook(hook: RequestHook): void {
  (globalThis as Global)[HOOK] = hook;
}

export function installPeerTagging(): void {
  const g = globalThis as Global;
  if (g[KEY]) return;
  const key = randomBytes(18).toString('base64url');
  g[KEY] = key;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function patchedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_HEADER] = `${key} ${req.socket?.remoteAddress ?? ''}`;
      const hook = g[HOOK];
      if (hook && hook(req, args[1] as http.ServerResponse)) return true;
    }
    return (emit as (this: http.Server, e: string | symbol, ...a: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
}

/** The client's socket address as tagged at the socket, or null when it cannot be trusted. */
export function peerAddress(headers: Headers): string | null {
  const key = (globalThis as Global)[KEY];
  const v = headers.get(PEER_HEADER);
  if (!key || !v) return null;
  const space = v.indexOf(' ');
  if (space < 0 || v.slice(0, space) !== key) return null;
  return v.slice(space + 1) || null;
}
