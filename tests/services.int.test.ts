// The services the suites run against, as scripts/services.sh brings them up: each one answers
// at the URL the suites read, and is the version the project was verified with. A service
// that is not configured skips loudly (fails under POTATOQ_CONSOLE_REQUIRE_SERVICES=1).
// int-lane: uses redis/0 valkey/0 rabbitmq (reads each server's version and settings)
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const required = process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1';
const env = (name: string, fallback?: string) => process.env[name] ?? fallback;

/** `it` when the variable is set (or has a default), else a loud skip (a failure in CI). */
function withService(what: string, url: string | undefined, body: (url: string) => Promise<void>) {
  if (url) return it(`${what} answers at its URL with the verified version`, () => body(url), 120_000);
  if (required) return it(`${what} is configured`, () => expect.fail(`${what}: its variable is not set (scripts/services.sh env)`));
  console.warn(`\n!!! ${what}: not configured (scripts/services.sh up; scripts/services.sh env): SKIPPING !!!\n`);
  return it.skip(`${what} answers at its URL`, () => undefined);
}

async function amqpVersion(url: string): Promise<string> {
  const c = await amqp.connect(url, { timeout: 5000 });
  try {
    return String((c.connection.serverProperties as Record<string, unknown>).version ?? '');
  } finally {
    await c.close();
  }
}

async function managementVersion(base: string, user: string, password: string): Promise<string> {
  const r = await fetch(`${base}/api/overview`, {
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
  });
  expect(r.status).toBe(200);
  return String(((await r.json()) as { rabbitmq_version?: string }).rabbitmq_version);
}

describe('the services scripts/services.sh starts', () => {
  withService('PostgreSQL 15', env('POTATOQ_CONSOLE_TEST_PG_URL', 'postgresql://postgres@127.0.0.1:5432/test'), async (url) => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    await c.connect();
    try {
      const r = await c.query<{ v: string; db: string }>('SELECT current_setting($1) AS v, current_database() AS db', [
        'server_version_num',
      ]);
      expect(Math.floor(Number(r.rows[0]!.v) / 10000)).toBe(15);
      expect(r.rows[0]!.db).toBe(new URL(url).pathname.slice(1));
    } finally {
      await c.end();
    }
  });

  withService('Redis 7 without persistence', env('POTATOQ_TEST_REDIS_URL', 'redis://127.0.0.1:6379/0'), async (url) => {
    const r = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 3000, lazyConnect: true });
    await r.connect();
    try {
      expect(/redis_version:(\d+)\./.exec(await r.info('server'))?.[1]).toBe('7');
      const [, save] = (await r.config('GET', 'save')) as string[];
      expect(save).toBe('');
    } finally {
      r.disconnect();
    }
  });

  withService('Valkey 9 without persistence (the sid chroot)', env('POTATOQ_TEST_VALKEY_URL'), async (url) => {
    // ioredis knows redis:// only; valkey:// is the same protocol (potatoq rewrites it the same way).
    const r = new Redis(url.replace(/^valkey:/, 'redis:'), { maxRetriesPerRequest: 1, connectTimeout: 3000, lazyConnect: true });
    await r.connect();
    try {
      const info = await r.info('server');
      expect(/server_name:(\w+)/.exec(info)?.[1]).toBe('valkey');
      expect(/valkey_version:(\d+)\./.exec(info)?.[1]).toBe('9');
      const [, save] = (await r.config('GET', 'save')) as string[];
      expect(save).toBe('');
      const [, aof] = (await r.config('GET', 'appendonly')) as string[];
      expect(aof).toBe('no');
    } finally {
      r.disconnect();
    }
  });

  withService('RabbitMQ 3.10 (the machine’s)', env('POTATOQ_TEST_RABBITMQ3_URL'), async (url) => {
    expect(await amqpVersion(url)).toMatch(/^3\.10\./);
    const mgmt = env('POTATOQ_TEST_RABBITMQ3_MGMT');
    if (mgmt) expect(await managementVersion(mgmt, 'guest', 'guest')).toMatch(/^3\.10\./);
  });

  withService('RabbitMQ 4.3 with management (the sid chroot)', env('POTATOQ_TEST_RABBITMQ4_URL'), async (url) => {
    expect(await amqpVersion(url)).toMatch(/^4\.3\./);
    const u = new URL(url);
    expect(
      await managementVersion(
        env('POTATOQ_TEST_RABBITMQ4_MGMT', 'http://127.0.0.1:15673')!,
        decodeURIComponent(u.username),
        decodeURIComponent(u.password),
      ),
    ).toMatch(/^4\.3\./);
  });

  withService('MySQL 9 (the sid chroot)', env('POTATOQ_TEST_MYSQL_URL'), async (url) => {
    const c = await mysql.createConnection({ uri: url, connectTimeout: 5000 });
    try {
      const [rows] = await c.query('SELECT VERSION() AS v, DATABASE() AS db');
      const row = (rows as Array<{ v: string; db: string }>)[0]!;
      expect(row.v).toMatch(/^9\./);
      expect(row.db).toBe('test');
      // The user can make what a suite needs: its own database, tables with 16-byte ids.
      const db = `svc_${process.pid}_${Date.now()}`;
      await c.query(`CREATE DATABASE ${db}`);
      try {
        await c.query(`CREATE TABLE ${db}.t (id BINARY(16) PRIMARY KEY, args JSON)`);
        await c.query(`INSERT INTO ${db}.t VALUES (UUID_TO_BIN(UUID()), JSON_OBJECT('a', 1))`);
        const [n] = await c.query(`SELECT COUNT(*) AS n FROM ${db}.t`);
        expect(Number((n as Array<{ n: number }>)[0]!.n)).toBe(1);
      } finally {
        await c.query(`DROP DATABASE ${db}`);
      }
    } finally {
      await c.end();
    }
  });

  withService('Rust 1.96+ (sid’s cargo, in the chroot)', env('POTATOQ_TEST_CARGO'), async (cmd) => {
    const out = execFileSync(cmd, ['--version'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    const m = /^cargo (\d+)\.(\d+)\./.exec(out);
    expect(m, out).not.toBeNull();
    expect(Number(m![1]) * 1000 + Number(m![2])).toBeGreaterThanOrEqual(1096);
  });
});
