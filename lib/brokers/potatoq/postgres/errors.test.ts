import { describe, expect, it, vi } from 'vitest';
import { mapPgError } from './errors';
import type { PgNames } from './names';

const names = { where: 'schema public' } as PgNames;
const timeouts = { statementMs: 5000, lockMs: 2000 };

describe('PostgreSQL errors as console errors', () => {
  it('gives callers the SQLSTATE of a server error, never its text (it can quote the query and its values)', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00 near \'card-4111\''), {
      code: '22021',
      severity: 'ERROR',
    });
    const e = mapPgError(server, names, timeouts) as Error;
    expect(e).toMatchObject({ code: 'BrokerUnavailable' });
    expect(e.message).toContain('22021');
    expect(e.message).not.toMatch(/UTF8|0x00|card-4111/);
    expect(log.mock.calls[0]![0]).toContain('card-4111');
    log.mockRestore();
  });

  it('keeps the actionable messages it knows', () => {
    expect(mapPgError(Object.assign(new Error('x'), { code: '42P01' }), names, timeouts)).toMatchObject({ code: 'NotMigrated' });
    expect(mapPgError(Object.assign(new Error('x'), { code: '57014' }), names, timeouts)).toMatchObject({ code: 'BrokerTimeout' });
  });
});
