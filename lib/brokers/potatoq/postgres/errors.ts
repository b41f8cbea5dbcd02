import 'server-only';
import { ConsoleError } from '@/lib/brokers/errors';
import { redactSecrets } from '@/lib/text/secrets';
import type { PgNames } from './names';

/** SQLSTATEs and socket errors after which a fresh connection may succeed. */
const CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

const codeOf = (e: unknown): string | undefined => {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : undefined;
};

/** The connection broke (server restart, network): the statement never ran or was rolled back. */
export function isConnectionError(e: unknown): boolean {
  const code = codeOf(e);
  if (code && CONNECTION_CODES.has(code)) return true;
  const m = e instanceof Error ? e.message : '';
  return /Connection terminated|terminating connection|Client has encountered a connection error|connection is closed|not queryable/i.test(
    m,
  );
}

/** A whole transaction failed in a way that is safe to run again (it was rolled back). */
export const isRetryableTx = (e: unknown) => ['40P01', '40001'].includes(codeOf(e) ?? '');

export const notMigrated = (n: PgNames) =>
  new ConsoleError('NotMigrated', `potatoq's tables are not in this database/schema (${n.where}): run \`potatoq migrate\``);

/** Driver errors as console errors with an actionable message and no connection details. */
export function mapPgError(e: unknown, n: PgNames, timeouts: { statementMs: number; lockMs: number }): unknown {
  if (e instanceof ConsoleError) return e;
  const code = codeOf(e);
  const message = e instanceof Error ? e.message : String(e);
  switch (code) {
    case '42P01': // undefined_table
    case '3F000': // invalid_schema_name
      return notMigrated(n);
    case '57014':
      return new ConsoleError(
        'BrokerTimeout',
        `PostgreSQL cancelled the statement after ${timeouts.statementMs / 1000}s (the console's statement_timeout)`,
      );
    case '55P03':
      return new ConsoleError(
        'BrokerTimeout',
        `rows were locked by another session for more than ${timeouts.lockMs / 1000}s (the console's lock_timeout); try again`,
      );
    case '42501':
      return new ConsoleError('ReadOnly', `the console's PostgreSQL role lacks a privilege: ${message}`);
    case '25006':
      return new ConsoleError('ReadOnly', 'this PostgreSQL server only accepts reads (a standby, or default_transaction_read_only)');
    case '28P01':
    case '28000':
      return new ConsoleError('BrokerUnavailable', "PostgreSQL refused the console's credentials");
    case '3D000':
      return new ConsoleError('BrokerUnavailable', 'the configured PostgreSQL database does not exist');
    case '53300':
      return new ConsoleError('BrokerUnavailable', 'PostgreSQL has no free connection slots (too many clients)');
    default:
      break;
  }
  if (isConnectionError(e))
    return new ConsoleError(
      'BrokerUnavailable',
      `cannot reach PostgreSQL (${code ?? message}); the console reconnects on the next request`,
    );
  if (/timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(message)) {
    return new ConsoleError('BrokerUnavailable', 'PostgreSQL did not accept a connection in time');
  }
  // A server error's text can quote the statement and its values: callers get the SQLSTATE,
  // the console's log gets the text. Client-side driver errors (no SQLSTATE) say what broke.
  if (code && /^[0-9A-Z]{5}$/.test(code)) {
    console.error(JSON.stringify({ event: 'console.database-error', sqlstate: code, message: redactSecrets(message) }));
    return new ConsoleError('BrokerUnavailable', `PostgreSQL error ${code}; the console's log has the server's message`);
  }
  return new ConsoleError('BrokerUnavailable', `PostgreSQL error${code ? ` ${code}` : ''}: ${message}`);
}
