// Typed errors with a code and an HTTP status. Client-safe (no server imports), so the UI can
// reuse the codes. Messages must never contain broker URLs or credentials: whatever a layer puts
// into one (a driver's text, a URL) goes through the one redaction step when it is created and
// again when it is serialised.
import { redactSecrets } from '@/lib/text/secrets';

export type ErrorCode =
  | 'InvalidInput'
  | 'NotFound'
  | 'ReadOnly'
  | 'Unsupported'
  | 'Conflict'
  | 'BrokerUnavailable'
  | 'BrokerTimeout'
  | 'NotMigrated'
  | 'Forbidden'
  | 'Unauthorized'
  | 'Internal';

const STATUS: Record<ErrorCode, number> = {
  InvalidInput: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  ReadOnly: 403,
  Unsupported: 501,
  NotMigrated: 503,
  BrokerUnavailable: 503,
  BrokerTimeout: 504,
  Internal: 500,
};

// Next compiles server code into more than one module layer (pages and the server actions a
// client component imports), and the adapters are cached on globalThis across them: an error
// an adapter built in one layer throws must still be recognised in another, so `instanceof`
// checks a process-wide brand instead of the class object.
const redactFields = (f: Record<string, string>) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, redactSecrets(v)]));

const BRAND = Symbol.for('potatoq-console.ConsoleError');

export class ConsoleError extends Error {
  static [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
  }

  readonly code: ErrorCode;
  readonly status: number;
  /** Field-level messages for forms: path -> message. */
  readonly fields?: Record<string, string>;

  constructor(code: ErrorCode, message: string, fields?: Record<string, string>) {
    super(redactSecrets(message));
    Object.defineProperty(this, BRAND, { value: true });
    this.name = code;
    this.code = code;
    this.status = STATUS[code];
    this.fields = fields ? redactFields(fields) : undefined;
  }

  toJSON(): { error: { code: ErrorCode; message: string; fields?: Record<string, string> } } {
    const fields = this.fields ? { fields: redactFields(this.fields) } : {};
    return { error: { code: this.code, message: redactSecrets(this.message), ...fields } };
  }
}

export const isConsoleError = (e: unknown): e is ConsoleError => e instanceof ConsoleError;
