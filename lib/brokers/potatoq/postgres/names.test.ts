import { describe, expect, it } from 'vitest';
import { channelFor, normalizeUrl, pgNames, quoteIdent } from './names';
import { clampPriority } from './writes';

describe('PostgreSQL names as potatoq builds them', () => {
  it('quotes identifiers the way psycopg does, so any schema or prefix is safe', () => {
    expect(quoteIdent('potatoq_jobs')).toBe('"potatoq_jobs"');
    expect(quoteIdent('we"ird; DROP TABLE x')).toBe('"we""ird; DROP TABLE x"');
    expect(() => quoteIdent('')).toThrow();
    expect(() => quoteIdent('a\u0000b')).toThrow();
  });

  it('qualifies tables with the schema only when one is set, and honours table_prefix', () => {
    expect(pgNames({}).jobs).toBe('"potatoq_jobs"');
    expect(pgNames({ schema: '' }).dead).toBe('"potatoq_dead"');
    expect(pgNames({ schema: 'App', table_prefix: 'pq_' }).results).toBe('"App"."pq_results"');
    expect(pgNames({ tablePrefix: 'x_' }).workers).toBe('"x_workers"');
    expect(() => pgNames({ schema: 5 })).toThrow(/schema must be a string/);
  });

  it("uses potatoq's channel names: the queue, or its sha1 beyond 63 characters", () => {
    expect(channelFor('default')).toBe('potatoq:default');
    const at63 = 'q'.repeat(55);
    expect(channelFor(at63)).toBe(`potatoq:${at63}`);
    expect(channelFor(`${at63}q`)).toBe('potatoq:cc30d5bc02bd26f3da6c5801880078dad9a63032'); // hashlib.sha1(b'q' * 56)
    // Python counts code points: 55 'é' make a 63-character channel even though UTF-16 and UTF-8 differ.
    expect(channelFor('é'.repeat(55))).toBe(`potatoq:${'é'.repeat(55)}`);
    expect(channelFor('😀'.repeat(55))).toBe(`potatoq:${'😀'.repeat(55)}`);
  });

  it('accepts any scheme before :// like potatoq', () => {
    expect(normalizeUrl('postgres+psycopg://u@h/db')).toBe('postgresql://u@h/db');
    expect(normalizeUrl('postgres://h/db')).toBe('postgresql://h/db');
    expect(() => normalizeUrl('nonsense')).toThrow();
  });

  it('clamps priorities to smallint as potatoq does', () => {
    expect(clampPriority('99999')).toBe(32767);
    expect(clampPriority('-99999')).toBe(-32768);
    expect(clampPriority(null)).toBe(0);
    expect(clampPriority('True')).toBe(1);
  });
});
