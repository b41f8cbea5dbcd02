import 'server-only';

/** A LIKE pattern that matches `text` literally anywhere (escape character `\`). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Builds `WHERE a AND b ...` from optional conditions, collecting their parameters. */
export class Where {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, ...params: unknown[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }

  addIf(value: unknown, sql: string, ...params: unknown[]): this {
    return value === undefined || value === null || value === '' ? this : this.add(sql, ...params);
  }

  toString(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

/** Payload columns for lists: small payloads whole, big ones only measured. */
export const PAYLOAD_FOR_PREVIEW = `CASE WHEN length(payload) <= 65536 THEN payload END AS payload, length(CAST(payload AS BLOB)) AS size`;
