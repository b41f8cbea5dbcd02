import 'server-only';

/** An ILIKE pattern matching `text` literally anywhere (escape character `\`). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `WHERE a AND b ...` with numbered placeholders; `p(v)` binds a value and returns `$n`. */
export class PgWhere {
  private readonly parts: string[] = [];
  readonly params: unknown[];

  constructor(params: unknown[] = []) {
    this.params = params;
  }

  p(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(sql: string): this {
    this.parts.push(sql);
    return this;
  }

  /** Adds `build(placeholder)` when `value` is given. */
  addIf(value: string | undefined, build: (ph: string) => string): this {
    return value === undefined || value === '' ? this : this.add(build(this.p(value)));
  }

  toString(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

/** Epoch seconds (float8) for display; the text form keeps microseconds exact for cursors. */
export const epoch = (col: string, as: string) => `extract(epoch FROM ${col})::float8 AS ${as}`;

/** Payload columns for lists: small payloads whole, big ones only measured. */
export const PAYLOAD_FOR_PREVIEW = `CASE WHEN length(payload) <= 65536 THEN payload END AS payload, octet_length(payload) AS size`;
