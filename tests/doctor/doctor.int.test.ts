// The doctor against real brokers, configured through a real config file (secrets from files):
// healthy potatoq SQLite, PostgreSQL and Redis brokers are usable; a RabbitMQ login the test
// creates without the write permission is degraded with what that switches off; an address
// nobody listens on is unusable, and the command exits 1 for it. No password is printed.
// int-lane: owns rabbitmq; uses redis/0 (a RabbitMQ user of its own, conservatively; a key prefix of its own)
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DoctorBroker } from '@/lib/doctor/types';
import { freePort } from '@/tests/support/free-port';
import { PG_URL, dropSchema, migratedSchema, pgAvailable, type PgTarget } from '@/tests/support/postgres';
import { RMQ4_MGMT, RMQ4_URL, newTag, rabbitVersion } from '@/tests/support/rabbitmq';
import { REDIS_URL, newPrefix, redisAvailable } from '@/tests/support/redis';
import { migratedDb } from '@/tests/support/sqlite-db';

const ROOT = path.resolve(__dirname, '../..');
const up = (await pgAvailable()) && (await redisAvailable()) && (await rabbitVersion(RMQ4_URL, 'doctor (RabbitMQ 4)')) !== null;

const admin = new URL(RMQ4_URL);
const adminAuth = `Basic ${Buffer.from(`${decodeURIComponent(admin.username)}:${decodeURIComponent(admin.password)}`).toString('base64')}`;
async function mgmt(method: string, route: string, body?: unknown): Promise<void> {
  const res = await fetch(`${RMQ4_MGMT}${route}`, {
    method,
    headers: { authorization: adminAuth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok && !(method === 'DELETE' && res.status === 404)) throw new Error(`${method} ${route}: HTTP ${res.status}`);
}

describe.skipIf(!up)('doctor against real brokers', () => {
  const tag = newTag();
  const user = `doctor-${tag}`;
  const password = `Pw-${tag}-NotForLogs`;
  let dir: string;
  let pgTarget: PgTarget;
  let config: string;
  let brokers: DoctorBroker[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-'));
    // A login that may configure and read but not write (publish) on the vhost.
    await mgmt('PUT', `/api/users/${encodeURIComponent(user)}`, { password, tags: '' });
    await mgmt('PUT', `/api/permissions/%2F/${encodeURIComponent(user)}`, { configure: '.*', write: '^$', read: '.*' });
    const limitedUrl = new URL(RMQ4_URL);
    limitedUrl.username = user;
    limitedUrl.password = password;
    fs.writeFileSync(path.join(dir, 'rabbit-url'), `${limitedUrl.toString()}\n`);
    fs.writeFileSync(path.join(dir, 'mgmt-password'), decodeURIComponent(admin.password));
    pgTarget = migratedSchema();
    // A SQLite file potatoq never migrated.
    const bare = path.join(dir, 'bare.sqlite3');
    new Database(bare).close();
    const entries = [
      { id: 'sqlite', url: `sqlite:///${migratedDb()}` },
      { id: 'pg', url: PG_URL, ...pgTarget.options },
      { id: 'redis', url: REDIS_URL, prefix: newPrefix() },
      {
        id: 'rabbit',
        urlFile: path.join(dir, 'rabbit-url'),
        managementUrl: RMQ4_MGMT,
        managementUser: decodeURIComponent(admin.username),
        managementPasswordFile: path.join(dir, 'mgmt-password'),
      },
      {
        id: 'celery-rabbit',
        kind: 'celery',
        urlFile: path.join(dir, 'rabbit-url'),
        queues: [`doctor_${tag}`],
        resultBackend: 'none',
      },
      { id: 'bare', url: `sqlite:///${bare}` },
      { id: 'gone', url: `redis://127.0.0.1:${await freePort()}/0` },
    ];
    config = path.join(dir, 'console.yaml');
    fs.writeFileSync(
      config,
      `# written by the doctor test\nreadTimeoutMs: 8000\nstate: ${path.join(dir, 'state.sqlite3')}\nbrokers: ${JSON.stringify(entries)}\n`,
    );
    vi.stubEnv('POTATOQ_CONSOLE_BROKERS', '');
    vi.stubEnv('POTATOQ_CONSOLE_CONFIG', config);
    const { runDoctor } = await import('@/lib/doctor/run');
    brokers = await runDoctor();
  }, 120_000);

  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    vi.unstubAllEnvs();
    await mgmt('DELETE', `/api/users/${encodeURIComponent(user)}`).catch(() => undefined);
    if (pgTarget) await dropSchema(pgTarget.schema);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const one = (id: string) => brokers.find((b) => b.id === id)!;

  it('finds healthy potatoq SQLite, PostgreSQL and Redis brokers usable, naming each system and version', () => {
    expect(brokers.map((b) => b.id)).toEqual(['sqlite', 'pg', 'redis', 'rabbit', 'celery-rabbit', 'bare', 'gone']);
    expect(['sqlite', 'pg', 'redis'].map((id) => [id, one(id).verdict, one(id).why])).toEqual([
      ['sqlite', 'usable', []],
      ['pg', 'usable', []],
      ['redis', 'usable', []],
    ]);
    expect(one('sqlite').system).toBe('potatoq · SQLite');
    expect(one('sqlite').version).toMatch(/^SQLite \d+\.\d+/);
    expect(one('pg').version).toMatch(/^PostgreSQL \d+/);
    expect(one('redis').version).toMatch(/^(Redis|Valkey) \d+\.\d+/);
    expect(one('redis').checks.find((c) => /maxmemory-policy/.test(c.check))).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^noeviction/),
    });
  });

  it('finds the RabbitMQ login without write permission degraded, saying what that switches off', () => {
    const b = one('rabbit');
    expect(b.verdict).toBe('degraded');
    expect(b.version).toMatch(/^RabbitMQ 4\./);
    const byName = Object.fromEntries(b.checks.map((c) => [c.check.replace(/ on vhost .*/, ''), c]));
    expect(byName['AMQP configure permission']?.ok).toBe(true);
    expect(byName['AMQP read permission']?.ok).toBe(true);
    expect(byName['AMQP write permission']).toMatchObject({ ok: false, switchesOff: ['replay', 'enqueue'] });
    expect(byName['RabbitMQ management API']).toMatchObject({ ok: true, detail: expect.stringContaining('management plugin 4.') });
    expect(b.why).toEqual([expect.stringMatching(/^AMQP write permission .*refused.*\(switches off replay, enqueue\)$/)]);
  });

  it('checks the same login for a Celery app, with what Celery loses without write and without the management API', () => {
    const b = one('celery-rabbit');
    expect(b.system).toBe('Celery · RabbitMQ');
    expect(b.verdict).toBe('degraded');
    const failed = b.checks.filter((c) => c.ok === false).map((c) => [c.check.replace(/ on vhost .*/, ''), c.switchesOff]);
    expect(failed).toEqual([
      ['AMQP write permission', ['enqueue', 'replay', 'revoke', 'workers']],
      ['RabbitMQ management API', []],
    ]);
  });

  it('finds a SQLite file potatoq never migrated unusable, saying so', () => {
    expect(one('bare')).toMatchObject({ verdict: 'unusable', version: null });
    expect(one('bare').why.join(' ')).toMatch(/migrat/i);
  });

  it('finds an address nobody listens on unusable, with why', () => {
    expect(one('gone')).toMatchObject({ verdict: 'unusable', version: null });
    expect(one('gone').why[0]).toMatch(/ECONNREFUSED|not reachable|refused/i);
  });

  it('prints the table from the command and exits 1 for the unusable broker, never printing a password', async () => {
    const run = promisify(execFile);
    const failed = await run('npx', ['vite-node', '--config', 'vitest.config.ts', 'scripts/doctor.ts', '--', '--config', config], {
      cwd: ROOT,
      env: { ...process.env, POTATOQ_CONSOLE_BROKERS: '', POTATOQ_CONSOLE_CONFIG: '' },
      timeout: 90_000,
    }).then(
      () => null,
      (e: { code?: number; stdout?: string; stderr?: string }) => e,
    );
    expect(failed?.code).toBe(1);
    const out = `${failed?.stdout ?? ''}${failed?.stderr ?? ''}`;
    expect(out).toMatch(/^rabbit \(potatoq · RabbitMQ\): degraded$/m);
    expect(out).toMatch(/^gone \(potatoq · Redis\): UNUSABLE$/m);
    expect(out).toMatch(/7 broker\(s\): 3 usable, 2 degraded, 2 unusable/);
    expect(out).not.toContain(password);
    expect(out).not.toContain(`:${decodeURIComponent(admin.password)}@`);
    expect(JSON.stringify(brokers)).not.toContain(password);
  }, 120_000);
});
