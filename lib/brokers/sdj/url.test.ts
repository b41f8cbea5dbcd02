import { describe, expect, it } from 'vitest';
import { parseSdjUrl } from './url';

const fails = (url: string) => {
  try {
    parseSdjUrl(url);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('parseSdjUrl', () => {
  it('reads PostgreSQL and MySQL URLs with their default ports', () => {
    expect(parseSdjUrl('postgresql://u:p@db.example:6543/app')).toMatchObject({
      dialect: 'postgres',
      host: 'db.example',
      port: 6543,
      database: 'app',
    });
    expect(parseSdjUrl('postgres://u@h/app').port).toBe(5432);
    expect(parseSdjUrl('mysql://u:p%40ss@h/app')).toMatchObject({ dialect: 'mysql', port: 3306, user: 'u', password: 'p@ss' });
  });

  it('names the field and never repeats the password', () => {
    const cases = [
      'redis://u:hunter2secret@h/0',
      'mysql://u:hunter2secret@h',
      'mysql://u:hunter2secret@h/app?charset=x',
      'postgresql://u:hunter2secret@h:99999/app',
      'not a url hunter2secret',
    ];
    for (const c of cases) {
      const m = fails(c);
      expect(m).toMatch(/^url: /);
      expect(m).not.toContain('hunter2secret');
    }
    expect(fails('redis://h/0')).toContain('scheme "redis" is not supported');
    expect(fails('mysql://h/app?charset=x')).toContain('unknown MySQL parameter "charset"');
    expect(fails('mysql://h')).toContain('database name');
  });
});
