import 'server-only';
import { createHash } from 'node:crypto';
import { HEAD_LIMIT, parseEnvelope, type CeleryEnvelope, type ParseOpts } from '../message';
import type { RawItem, ReadShape, ReadStats } from './read-script';

// How much of kombu's messages each read takes, and how much one request may read. Every poll
// is bounded in bytes: Redis reads at most `SCAN_BYTES` of items for it (and ships back only
// their envelopes past `shape.whole`), and the console parses at most `PARSE_CHARS` of JSON.

const KB = 1024;
const MB = KB * KB;

/** Item bytes one request (an overview poll, a list page, a find) reads at most. */
export const SCAN_BYTES = 64 * MB;
/** JSON characters one request parses at most. */
export const PARSE_CHARS = 16 * MB;
/** Item bytes one script call reads at most, so no call holds Redis long. */
const CALL_BYTES = 8 * MB;
/** Bytes of a message shown as its raw text on its page. */
export const RAW_LIMIT = 256 * KB;
/** Bytes a message without a task id is known by (with its size). */
const ID_BYTES = 512;

export interface ReadProfile {
  shape: ReadShape;
  parse: Pick<ParseOpts, 'body' | 'bodyLimit'>;
}

/** Headers and properties only (task, id, ETA, priority): counts, finds, task names. A body
 *  is decoded only when the headers carry no task (protocol 1 keeps it there) and, as on a list
 *  page, it is within 64 KB, so a message has the same id in every read. */
export const HEADS: ReadProfile = {
  shape: { whole: 64 * KB, head: HEAD_LIMIT, prefix: ID_BYTES },
  parse: { body: 'auto', bodyLimit: 64 * KB },
};
/** A list page: arguments of messages up to 64 KB; larger ones by their headers. */
export const PAGE: ReadProfile = {
  shape: { whole: 64 * KB, head: HEAD_LIMIT, prefix: ID_BYTES },
  parse: { body: 'decode', bodyLimit: 64 * KB },
};
/** One message's page: its body up to 1 MB, and its first RAW_LIMIT bytes as raw text. */
export const DETAIL: ReadProfile = {
  shape: { whole: MB, head: HEAD_LIMIT, prefix: RAW_LIMIT },
  parse: { body: 'decode', bodyLimit: MB },
};

/** What one request may still read and parse; `cut` once a read stopped because it ran out. */
export class ReadBudget {
  cut = false;
  constructor(
    public bytes: number,
    public parsed: number = PARSE_CHARS,
  ) {}
  spent(): boolean {
    return this.bytes <= 0 || this.parsed <= 0;
  }
  perCall(): number {
    return Math.max(1, Math.min(this.bytes, CALL_BYTES));
  }
}

/** The id of a message that carries none (not JSON, pickle without headers, ...): stable
 *  whatever part of it a read took, so its page and revoke find it again. */
export function anonymousId(size: number, first: Buffer): string {
  const h = createHash('sha256').update(`${size}:`).update(first.subarray(0, ID_BYTES)).digest('hex');
  return `no-id-${h.slice(0, 24)}`;
}

const cutOf = (kind: RawItem['kind']): ParseOpts['cut'] => (kind === 'h' ? 'head' : kind === 'p' ? 'prefix' : undefined);

function account(r: { stats: ReadStats }, budget: ReadBudget, size: number, parsed: number) {
  budget.bytes -= Math.max(0, size);
  budget.parsed -= parsed;
  r.stats.parsed += parsed;
}

/** One list item as read, decoded as `profile` says, its cost charged to `budget`. */
export function decodeItem(
  r: { stats: ReadStats },
  raw: RawItem,
  profile: ReadProfile,
  budget: ReadBudget,
): { raw: Buffer | null; first: Buffer; env: CeleryEnvelope; id: string } {
  const env = parseEnvelope(raw.text.toString('utf8'), { ...profile.parse, size: raw.size, cut: cutOf(raw.kind) });
  account(r, budget, raw.size, env.parsed);
  const first = raw.kind === 'h' ? raw.prefix : raw.text;
  return { raw: raw.kind === 'w' ? raw.text : null, first, env, id: env.info.id ?? anonymousId(raw.size, first) };
}

/** One `unacked` entry (`[message, exchange, routing_key]`), decoded as `profile` says. */
export function reservedEntry(
  r: { stats: ReadStats },
  raw: RawItem,
  budget: ReadBudget,
  profile: ReadProfile = HEADS,
): { first: Buffer; env: CeleryEnvelope; id: string; queue: string } {
  const text = raw.text.toString('utf8');
  let message: unknown = null;
  let rk: unknown = null;
  if (raw.kind !== 'p') {
    try {
      [message, , rk] = JSON.parse(text) as [unknown, unknown, unknown];
    } catch {
      message = null;
    }
  }
  const inner = message && typeof message === 'object' ? JSON.stringify(message) : text;
  const env = parseEnvelope(inner, {
    ...profile.parse,
    size: raw.size,
    cut: message ? cutOf(raw.kind) : raw.kind === 'w' ? undefined : 'prefix',
  });
  account(r, budget, raw.size, text.length + env.parsed);
  const first = raw.kind === 'h' ? raw.prefix : raw.text;
  return { first, env, id: env.info.id ?? anonymousId(raw.size, first), queue: typeof rk === 'string' ? rk : '' };
}
