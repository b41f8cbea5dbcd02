import 'server-only';
import { ConsoleError } from './errors';

/**
 * Keyset cursors: the sort key of the last row of a page, typed so the next query binds
 * exactly what SQLite compared (an INTEGER priority is not the TEXT '5'; a foreign producer
 * may have written either).
 */
export type KeyValue = number | bigint | string | null;
type Encoded = ['i', string] | ['r', number] | ['t', string] | ['n'];

function enc(v: KeyValue): Encoded {
  if (v === null) return ['n'];
  if (typeof v === 'bigint') return ['i', v.toString()];
  if (typeof v === 'number') return Number.isInteger(v) ? ['i', String(v)] : ['r', v];
  return ['t', v];
}

function dec(e: unknown): KeyValue {
  if (!Array.isArray(e)) throw new Error('bad cursor');
  const [kind, v] = e as [unknown, unknown];
  if (kind === 'n') return null;
  if (kind === 'i' && typeof v === 'string' && /^-?\d{1,20}$/.test(v)) return BigInt(v);
  if (kind === 'r' && typeof v === 'number') return v;
  if (kind === 't' && typeof v === 'string') return v;
  throw new Error('bad cursor');
}

export function encodeCursor(scope: string, values: KeyValue[]): string {
  return Buffer.from(JSON.stringify([scope, ...values.map(enc)]), 'utf8').toString('base64url');
}

/** The key values of a cursor made for `scope`; a cursor of another list is refused. */
export function decodeCursor(scope: string, cursor: string | undefined, arity: number): KeyValue[] | null {
  if (!cursor) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed[0] !== scope || parsed.length !== arity + 1) throw new Error('bad cursor');
    return parsed.slice(1).map(dec);
  } catch {
    throw new ConsoleError('InvalidInput', 'this page link is out of date or belongs to another list; start from the first page', {
      cursor: 'invalid cursor',
    });
  }
}
