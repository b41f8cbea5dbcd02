import 'server-only';
import { createHash } from 'node:crypto';

// Validators for the polled reads (lib/http/fast-reads.ts). The tag is a digest of the exact
// bytes a principal would be sent, computed after the gate and after the answer is shaped for
// that principal (masked overview, redacted arguments): a 304 therefore only ever tells a client
// that what it already holds is byte for byte what it would get now. It carries no body, so it
// cannot hand one role's answer to another; a principal whose answer differs gets the 200.

/** A weak tag of a JSON body (weak: the same JSON, whether sent compressed or not). */
export function etagOf(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/** Header values longer than this are not compared (an honest client sends one tag). */
const MAX_IF_NONE_MATCH = 2048;

/** Does `If-None-Match` name `etag` (weak comparison, RFC 9110 13.1.2)? `*` matches any answer. */
export function notModified(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (typeof ifNoneMatch !== 'string' || ifNoneMatch.length > MAX_IF_NONE_MATCH) return false;
  const opaque = (t: string) => (t.startsWith('W/') ? t.slice(2) : t);
  const want = opaque(etag);
  for (const t of ifNoneMatch.split(',')) {
    const v = t.trim();
    if (v === '*' || opaque(v) === want) return true;
  }
  return false;
}
