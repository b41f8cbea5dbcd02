import 'server-only';
import { createHash } from 'node:crypto';
import { ConsoleError } from '@/lib/brokers/errors';

/** potatoq's table names, honouring its `schema` and `table_prefix` transport options. */
export interface PgNames {
  schema: string | null;
  prefix: string;
  jobs: string;
  results: string;
  dead: string;
  workers: string;
  /** potatoq's periodic claims (name, fire_at): the Schedules tab reads them. */
  periodic: string;
  /** A chord's parts (group_id, idx, result) and its remaining count. */
  chordParts: string;
  chords: string;
  /** For messages: `"schema"."potatoq_"` or `search_path, prefix "potatoq_"`. */
  where: string;
}

/** An SQL identifier quoted as psycopg's `sql.Identifier` quotes it (`"` doubled). */
export function quoteIdent(name: string): string {
  if (name.length === 0) throw new ConsoleError('InvalidInput', 'an empty SQL identifier is not allowed');
  if (name.includes('\u0000')) throw new ConsoleError('InvalidInput', 'SQL identifiers cannot contain NUL characters');
  return `"${name.replace(/"/g, '""')}"`;
}

function optionString(o: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string') return v;
    if (v !== undefined && v !== null) throw new ConsoleError('InvalidInput', `broker option ${k} must be a string`);
  }
  return undefined;
}

/**
 * Names as potatoq's `PostgresBroker` builds them: `"<schema>"."<prefix><table>"` when a
 * schema is set, else the bare prefixed name resolved through the connection's search_path.
 * An empty schema counts as none, like Python's truthiness test.
 */
export function pgNames(options: Record<string, unknown>): PgNames {
  const schema = optionString(options, ['schema']) || null;
  const prefix = optionString(options, ['table_prefix', 'tablePrefix']) ?? 'potatoq_';
  const table = (t: string) => (schema ? `${quoteIdent(schema)}.${quoteIdent(prefix + t)}` : quoteIdent(prefix + t));
  return {
    schema,
    prefix,
    jobs: table('jobs'),
    results: table('results'),
    dead: table('dead'),
    workers: table('workers'),
    periodic: table('periodic'),
    chordParts: table('chord_parts'),
    chords: table('chords'),
    where: schema ? `schema "${schema}", table prefix "${prefix}"` : `the search_path, table prefix "${prefix}"`,
  };
}

/**
 * potatoq's `_channel`: `potatoq:<queue>`, or `potatoq:` + sha1 hex of the queue's UTF-8 when
 * longer than 63 characters (Python `len`: code points, not UTF-16 units or bytes). The
 * channel carries neither schema nor prefix. pg_notify takes it as a plain string.
 */
export function channelFor(queue: string): string {
  const name = `potatoq:${queue}`;
  if ([...name].length <= 63) return name;
  return `potatoq:${createHash('sha1').update(queue, 'utf8').digest('hex')}`;
}

/** potatoq accepts any scheme before `://` and rewrites it to `postgresql://`. */
export function normalizeUrl(url: string): string {
  const at = url.indexOf('://');
  if (at < 0) throw new ConsoleError('InvalidInput', 'a PostgreSQL broker URL must look like postgresql://user@host/db');
  return `postgresql://${url.slice(at + 3)}`;
}
