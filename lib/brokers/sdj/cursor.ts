import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { UUID } from './db';

// A keyset position: the sort timestamp as the database printed it (full precision) and the id.
// Opaque to callers (base64url JSON); anything that does not decode is refused by name.

export interface SdjCursor {
  at: string;
  id: string;
}

export const encodeCursor = (c: SdjCursor) => Buffer.from(JSON.stringify([c.at, c.id]), 'utf8').toString('base64url');

const TS = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)?$/;

export function decodeCursor(s: string | null | undefined): SdjCursor | null {
  if (s === null || s === undefined || s === '') return null;
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && TS.test(v[0]) && typeof v[1] === 'string' && UUID.test(v[1]))
      return { at: v[0], id: v[1] };
  } catch {
    // refused below
  }
  throw new ConsoleError('InvalidInput', 'cursor: not a cursor this list gave out', { cursor: 'not a cursor this list gave out' });
}
