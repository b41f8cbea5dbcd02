import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

function errorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    parseConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('parseConfig accepted a bad configuration');
}

describe('parseConfig', () => {
  it('serves the embedded demo broker when nothing is configured', () => {
    const config = parseConfig({});
    expect(config.demo).toBe(true);
    expect(config.demoPath).toBe(path.resolve('.data', 'demo.sqlite3'));
    expect(config.brokers).toEqual([
      { id: 'demo', name: 'Demo', kind: 'potatoq', url: `sqlite:///${config.demoPath}`, readOnly: false, options: { demo: true } },
    ]);
  });

  it('treats a blank variable like an unset one', () => {
    expect(parseConfig({ POTATOQ_CONSOLE_BROKERS: '  \n' }).demo).toBe(true);
  });

  it('puts the demo file where POTATOQ_CONSOLE_DEMO_PATH says, made absolute', () => {
    const config = parseConfig({ POTATOQ_CONSOLE_DEMO_PATH: 'tmp/x.sqlite3' });
    expect(config.demoPath).toBe(path.resolve('tmp/x.sqlite3'));
    expect(config.brokers[0]?.url).toBe(`sqlite:///${path.resolve('tmp/x.sqlite3')}`);
  });

  it('accepts a single URL and names the broker after its scheme', () => {
    const config = parseConfig({ POTATOQ_CONSOLE_BROKERS: 'sqlite:////var/lib/app/potatoq.sqlite3' });
    expect(config.demo).toBe(false);
    expect(config.demoPath).toBeNull();
    expect(config.brokers).toEqual([
      { id: 'sqlite', name: 'sqlite', kind: 'potatoq', url: 'sqlite:////var/lib/app/potatoq.sqlite3', readOnly: false, options: {} },
    ]);
  });

  it('strips a driver suffix from the scheme when deriving the id', () => {
    const config = parseConfig({ POTATOQ_CONSOLE_BROKERS: 'postgres+psycopg://db/app' });
    expect(config.brokers[0]?.id).toBe('postgres');
  });

  it('reads a JSON array, keeping extra keys as adapter options', () => {
    const config = parseConfig({
      POTATOQ_CONSOLE_BROKERS: JSON.stringify([
        { id: 'main', name: 'Main', url: 'sqlite:///a.db', readOnly: true },
        { id: 'pg', url: 'postgresql://u:p@h/db', schema: 'jobs', table_prefix: 'pq_' },
      ]),
    });
    expect(config.brokers).toEqual([
      { id: 'main', name: 'Main', kind: 'potatoq', url: 'sqlite:///a.db', readOnly: true, options: {} },
      {
        id: 'pg',
        name: 'pg',
        kind: 'potatoq',
        url: 'postgresql://u:p@h/db',
        readOnly: false,
        options: { schema: 'jobs', table_prefix: 'pq_' },
      },
    ]);
  });

  it('reads a single JSON object as a one-broker list', () => {
    const config = parseConfig({ POTATOQ_CONSOLE_BROKERS: '{"id":"one","url":"redis://localhost:6379/0"}' });
    expect(config.brokers.map((b) => b.id)).toEqual(['one']);
  });

  it('names the variable when the JSON does not parse', () => {
    expect(errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id": "x",' }).message).toMatch(/^POTATOQ_CONSOLE_BROKERS: not valid JSON/);
  });

  it('never quotes the configuration in its messages: no piece of a password', () => {
    const pw = 'Xy7secretpw';
    for (const raw of [
      `{"url":"redis://u:${pw}@h/0", "a": tru}`,
      `x[{"url":"redis://u:${pw}@h/0"}]`,
      `[{"url":"redis://u:${pw}@h"},]`,
      `[{"id":"a","url":"redis://u:${pw}@h/0"},{"id":"a","url":"redis://u:${pw}@h/1"}]`,
      `[{"id":"b","url":"redis://u:${pw}@h/0","timeoutMs":"x"}]`,
      `[{"id":"c","url":"nope://u:${pw}@h/0"}]`,
      `[{"id":"d","kind":"queueflow","url":"http://u:${pw}@qf"}]`,
    ]) {
      const message = errorOf({ POTATOQ_CONSOLE_BROKERS: raw }).message;
      for (let i = 0; i + 4 <= pw.length; i++) expect(message).not.toContain(pw.slice(i, i + 4));
    }
  });

  it('names the entry and field of a bad id', () => {
    const e = errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"Bad Id","url":"sqlite:///a.db"}]' });
    expect(e.message).toMatch(/^POTATOQ_CONSOLE_BROKERS\[0\]\.id: /);
  });

  it('names the missing url of the second entry', () => {
    const e = errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","url":"sqlite:///a.db"},{"id":"b"}]' });
    expect(e.message).toMatch(/^POTATOQ_CONSOLE_BROKERS\[1\]\.url: /);
  });

  it('refuses an unknown URL scheme, listing the known ones', () => {
    const e = errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","url":"mysql://h/db"}]' });
    expect(e.message).toContain('POTATOQ_CONSOLE_BROKERS[0].url: scheme must be one of sqlite');
  });

  it('refuses a bare word that is not a URL', () => {
    expect(errorOf({ POTATOQ_CONSOLE_BROKERS: 'localhost' }).message).toMatch(/^POTATOQ_CONSOLE_BROKERS: must be a URL/);
  });

  it('refuses a readOnly that is not a boolean', () => {
    const e = errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","url":"sqlite:///a.db","readOnly":"yes"}]' });
    expect(e.message).toBe('POTATOQ_CONSOLE_BROKERS[0].readOnly: must be true or false');
  });

  it('refuses an empty list', () => {
    expect(errorOf({ POTATOQ_CONSOLE_BROKERS: '[]' }).message).toMatch(/^POTATOQ_CONSOLE_BROKERS: must list at least one broker/);
  });

  it('refuses duplicate ids, naming the second one', () => {
    const e = errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","url":"sqlite:///a.db"},{"id":"a","url":"sqlite:///b.db"}]' });
    expect(e.message).toBe('POTATOQ_CONSOLE_BROKERS[1].id: duplicate id "a"');
  });

  it('reads an explicit kind, and takes entries without one as potatoq', () => {
    const config = parseConfig({
      POTATOQ_CONSOLE_BROKERS: JSON.stringify([
        { id: 'pq', kind: 'potatoq', url: 'sqlite:///a.db' },
        { id: 'plain', url: 'amqp://h//' },
        { id: 'jobs', kind: 'sdj', url: 'mysql://u@h/app', schema: 'x' },
        { id: 'flow', kind: 'queueflow', url: 'https://flow.example', token: 'k' },
        { id: 'cel', kind: 'celery', url: 'redis://h/0' },
      ]),
    });
    expect(config.brokers.map((b) => [b.id, b.kind])).toEqual([
      ['pq', 'potatoq'],
      ['plain', 'potatoq'],
      ['jobs', 'sdj'],
      ['flow', 'queueflow'],
      ['cel', 'celery'],
    ]);
    expect(config.brokers[2]?.options).toEqual({ schema: 'x' });
  });

  it('refuses an unknown kind, listing the known ones', () => {
    const e = errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","kind":"sidekiq","url":"redis://h"}]' });
    expect(e.message).toBe('POTATOQ_CONSOLE_BROKERS[0].kind: must be one of potatoq, celery, sdj, queueflow');
  });

  it("checks the URL against the named system's schemes", () => {
    const e = errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","kind":"queueflow","url":"sqlite:///a.db"}]' });
    expect(e.message).toBe("POTATOQ_CONSOLE_BROKERS[0].url: a QueueFlow broker's scheme must be http or https");
  });

  it('takes a QueueFlow credential only as its token option, never in the URL', () => {
    const inUrl = errorOf({
      POTATOQ_CONSOLE_BROKERS: '[{"id":"a","kind":"queueflow","url":"https://user:secret@flow.example","token":"k"}]',
    });
    expect(inUrl.message).toBe('POTATOQ_CONSOLE_BROKERS[0].url: put the QueueFlow credential in "token", not in the URL');
    expect(inUrl.message).not.toContain('secret');
    expect(errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","kind":"queueflow","url":"https://flow.example"}]' }).message).toBe(
      'POTATOQ_CONSOLE_BROKERS[0].token: token must be the tenant API key or JWT (a string)',
    );
    expect(
      errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","kind":"queueflow","url":"https://flow.example","token":"k","tenant":"x"}]' }).message,
    ).toBe('POTATOQ_CONSOLE_BROKERS[0]: unknown option "tenant" for this broker');
  });

  it('names a bad option value', () => {
    const e = errorOf({
      POTATOQ_CONSOLE_BROKERS: '[{"id":"a","url":"postgresql://h/db"},{"id":"b","url":"postgresql://h/db","countCap":"many"}]',
    });
    expect(e.message).toBe('POTATOQ_CONSOLE_BROKERS[1].countCap: countCap must be a number');
    expect(errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","url":"amqp://h//","timeoutMs":-5}]' }).message).toBe(
      'POTATOQ_CONSOLE_BROKERS[0].timeoutMs: timeoutMs must be more than 0',
    );
    expect(errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","url":"amqp://h//","resultBackendOptions":{"prefix":3}}]' }).message).toBe(
      'POTATOQ_CONSOLE_BROKERS[0].resultBackendOptions.prefix: prefix must be a string',
    );
  });

  it("refuses an option the broker's store does not have", () => {
    const e = errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","url":"sqlite:///a.db","poolSize":10}]' });
    expect(e.message).toBe('POTATOQ_CONSOLE_BROKERS[0]: unknown option "poolSize" for this broker');
  });

  it('shares reads for 2 s in at most 64 MB by default; 0 turns sharing off; past the poll is refused', () => {
    expect(parseConfig({}).readCache).toEqual({ ttlMs: 2000, maxBytes: 64 * 1024 * 1024 });
    expect(parseConfig({ POTATOQ_CONSOLE_READ_CACHE_MS: '0', POTATOQ_CONSOLE_READ_CACHE_MB: '8' }).readCache).toEqual({
      ttlMs: 0,
      maxBytes: 8 * 1024 * 1024,
    });
    for (const bad of ['5000', '-1', '2s', '1.5'])
      expect(errorOf({ POTATOQ_CONSOLE_READ_CACHE_MS: bad }).message).toMatch(
        /^POTATOQ_CONSOLE_READ_CACHE_MS: must be a whole number of milliseconds from 0 to 4000/,
      );
    expect(errorOf({ POTATOQ_CONSOLE_READ_CACHE_MB: '0' }).message).toMatch(/^POTATOQ_CONSOLE_READ_CACHE_MB: must be a whole number/);
  });

  it('keeps the default time limits and refuses a bad one, naming the variable', () => {
    expect(parseConfig({}).timeouts).toEqual({ readMs: 10_000, writeMs: 120_000 });
    expect(parseConfig({ POTATOQ_CONSOLE_READ_TIMEOUT_MS: '2500' }).timeouts.readMs).toBe(2500);
    for (const bad of ['10s', '0', '-1', '1.5']) {
      expect(errorOf({ POTATOQ_CONSOLE_WRITE_TIMEOUT_MS: bad }).message).toMatch(
        /^POTATOQ_CONSOLE_WRITE_TIMEOUT_MS: must be a whole number of milliseconds/,
      );
    }
  });

  it("names each broker's environment: its own over the console's, none when neither is set", () => {
    const brokers = JSON.stringify([
      { id: 'a', url: 'sqlite:///a.db' },
      { id: 'b', url: 'sqlite:///b.db', environment: 'staging' },
    ]);
    const config = parseConfig({ POTATOQ_CONSOLE_BROKERS: brokers, POTATOQ_CONSOLE_ENVIRONMENT: 'production' });
    expect(config.environment).toBe('production');
    expect(config.brokers.map((b) => [b.id, b.environment, b.options])).toEqual([
      ['a', 'production', {}],
      ['b', 'staging', {}],
    ]);
    const plain = parseConfig({ POTATOQ_CONSOLE_BROKERS: brokers });
    expect(plain.environment).toBeNull();
    expect(plain.brokers.map((b) => b.environment)).toEqual([undefined, 'staging']);
  });

  it('refuses an environment name nobody could type, naming the field', () => {
    expect(errorOf({ POTATOQ_CONSOLE_ENVIRONMENT: 'prod uction' }).message).toMatch(/^POTATOQ_CONSOLE_ENVIRONMENT: must be 1-32 letters/);
    const e = errorOf({ POTATOQ_CONSOLE_BROKERS: '[{"id":"a","url":"sqlite:///a.db","environment":"<b>prod</b>"}]' });
    expect(e.message).toMatch(/^POTATOQ_CONSOLE_BROKERS\[0\]\.environment: must be 1-32 letters/);
  });
});
