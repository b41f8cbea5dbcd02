// The doctor's permission checks against real servers, each with a login the test creates and
// restricts: a Redis/Valkey ACL user that may read but not write nor run scripts (and one that
// may not read potatoq's keys at all), a PostgreSQL role with SELECT only on potatoq's tables,
// and a RabbitMQ user without the configure permission. Each verdict names what is switched off.
// int-lane: owns rabbitmq; uses redis/0 valkey/0 (a RabbitMQ user of its own, conservatively; ACL users on its own prefix)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DoctorBroker } from '@/lib/doctor/types';
import { PG_URL, dropSchema, migratedSchema, pgAvailable, sqlAdmin, type PgTarget } from '@/tests/support/postgres';
import { RMQ4_MGMT, RMQ4_URL, newTag, rabbitVersion } from '@/tests/support/rabbitmq';
import { newPrefix, redisTargets, testClient } from '@/tests/support/redis';
import { runDoctorOn, withLogin } from '@/tests/support/doctor';

const targets = await redisTargets();
const up = targets.length > 0 && (await pgAvailable()) && (await rabbitVersion(RMQ4_URL, 'doctor grants (RabbitMQ 4)')) !== null;

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

describe.skipIf(!up)('doctor permission checks with restricted logins', () => {
  const tag = newTag();
  const password = `Pw-${tag}-NotForLogs`;
  const redisUser = `doctor-ro-${tag}`;
  const redisBlind = `doctor-blind-${tag}`;
  const pgRole = `doctor_ro_${tag}`;
  const rabbitUser = `doctor-nocfg-${tag}`;
  const prefix = newPrefix();
  let dir: string;
  let pgTarget: PgTarget;
  let brokers: DoctorBroker[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-grants-'));
    const entries: Array<Record<string, unknown>> = [];
    for (const t of targets) {
      const c = testClient(t.url);
      // Reads and the commands a connection needs; no writes, no scripts, only this prefix's keys.
      await c.call(
        'ACL',
        'SETUSER',
        redisUser,
        'reset',
        'on',
        `>${password}`,
        `~${prefix}:*`,
        '+@read',
        '+@connection',
        '+info',
        '-@scripting',
      );
      // Logs in and connects, but may touch no key of this prefix.
      await c.call('ACL', 'SETUSER', redisBlind, 'reset', 'on', `>${password}`, '~elsewhere:*', '+@read', '+@connection', '+info');
      c.disconnect();
      entries.push({ id: `${t.name}-ro`, url: withLogin(t.url, redisUser, password), prefix });
      entries.push({ id: `${t.name}-blind`, url: withLogin(t.url, redisBlind, password), prefix });
    }
    pgTarget = migratedSchema();
    await sqlAdmin(`CREATE ROLE "${pgRole}" LOGIN PASSWORD '${password}'`);
    await sqlAdmin(`GRANT USAGE ON SCHEMA "${pgTarget.schema}" TO "${pgRole}"`);
    await sqlAdmin(`GRANT SELECT ON ALL TABLES IN SCHEMA "${pgTarget.schema}" TO "${pgRole}"`);
    entries.push({ id: 'pg-ro', url: withLogin(PG_URL, pgRole, password), ...pgTarget.options });
    await mgmt('PUT', `/api/users/${encodeURIComponent(rabbitUser)}`, { password, tags: 'management' });
    await mgmt('PUT', `/api/permissions/%2F/${encodeURIComponent(rabbitUser)}`, { configure: '^$', write: '.*', read: '.*' });
    fs.writeFileSync(path.join(dir, 'mgmt-password'), decodeURIComponent(admin.password));
    entries.push({
      id: 'rabbit-nocfg',
      url: withLogin(RMQ4_URL, rabbitUser, password),
      managementUrl: RMQ4_MGMT,
      managementUser: decodeURIComponent(admin.username),
      managementPasswordFile: path.join(dir, 'mgmt-password'),
    });
    entries.push({
      id: 'rabbit-nocfg-own-mgmt',
      url: withLogin(RMQ4_URL, rabbitUser, password),
      managementUrl: RMQ4_MGMT,
      managementUser: rabbitUser,
      managementPassword: password,
    });
    brokers = await runDoctorOn(dir, entries);
  }, 120_000);

  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    vi.unstubAllEnvs();
    for (const t of targets) {
      const c = testClient(t.url);
      await c.call('ACL', 'DELUSER', redisUser, redisBlind).catch(() => undefined);
      c.disconnect();
    }
    await mgmt('DELETE', `/api/users/${encodeURIComponent(rabbitUser)}`).catch(() => undefined);
    if (pgTarget) await dropSchema(pgTarget.schema);
    await sqlAdmin(`DROP ROLE IF EXISTS "${pgRole}"`).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const one = (id: string) => brokers.find((b) => b.id === id)!;
  const failed = (b: DoctorBroker) => b.checks.filter((c) => c.ok === false).map((c) => [c.check, c.switchesOff]);
  const WRITES = ['replay', 'discard', 'revoke', 'purge', 'enqueue'];

  it.each(targets.map((t) => t.name))('finds a %s ACL user without writes or scripts degraded, naming what that switches off', (name) => {
    const b = one(`${name}-ro`);
    expect(b.verdict).toBe('degraded');
    expect(failed(b)).toEqual([
      ["Redis ACL: run the console's Lua scripts (EVALSHA, EVAL)", WRITES],
      ["Redis ACL: change potatoq's keys (inside those scripts)", WRITES],
    ]);
    expect(b.checks.find((c) => c.check === "Redis ACL: read potatoq's keys")).toMatchObject({
      ok: true,
      detail: `granted to user "${redisUser}"`,
    });
    expect(b.checks.find((c) => /scripts/.test(c.check))?.detail).toMatch(/may not run EVALSHA, EVAL: .*reads key by key instead/);
    // CONFIG GET is refused to this user: the eviction policy is "unknown", not a pass.
    expect(b.checks.find((c) => /maxmemory-policy/.test(c.check))).toMatchObject({ ok: null });
    expect(JSON.stringify(b)).not.toContain(password);
  });

  it.each(targets.map((t) => t.name))('finds a %s ACL user who may not read potatoq keys unusable, saying so', (name) => {
    const b = one(`${name}-blind`);
    expect(b.verdict).toBe('unusable');
    expect(b.why.join(' ')).toMatch(/may not run .*SSCAN|read potatoq's keys/);
  });

  it('finds a PostgreSQL role with SELECT only degraded, naming the missing privileges and every write they switch off', () => {
    const b = one('pg-ro');
    expect(b.verdict).toBe('degraded');
    const byTable = Object.fromEntries(
      b.checks.filter((c) => /^PostgreSQL privileges on /.test(c.check)).map((c) => [c.check.slice(25), c]),
    );
    const t = (name: string) => `"${pgTarget.schema}"."potatoq_${name}"`;
    expect(byTable[t('jobs')]).toMatchObject({ ok: false, switchesOff: ['replay', 'revoke', 'purge', 'enqueue'] });
    expect(byTable[t('jobs')]?.detail).toBe(`role "${pgRole}" lacks INSERT, DELETE (has SELECT)`);
    expect(byTable[t('dead')]).toMatchObject({ ok: false, switchesOff: ['replay', 'discard'] });
    expect(byTable[t('results')]).toMatchObject({ ok: false, switchesOff: ['replay', 'revoke'] });
    expect(byTable[t('workers')]).toMatchObject({ ok: true });
    expect(b.off.map((o) => o.capability)).toEqual(expect.arrayContaining(WRITES));
  });

  it('finds a RabbitMQ user without configure permission degraded, with browse, replay and discard off', () => {
    const b = one('rabbit-nocfg');
    expect(b.verdict).toBe('degraded');
    expect(failed(b)).toEqual([['AMQP configure permission on vhost "/"', ['browseDead', 'replay', 'discard']]]);
    expect(b.checks.find((c) => c.check === 'RabbitMQ plugins')).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^enabled: .*rabbitmq_management/),
    });
  });

  it('says the plugins are unknown when the management login has no monitoring tag', () => {
    const b = one('rabbit-nocfg-own-mgmt');
    expect(b.checks.find((c) => c.check === 'RabbitMQ plugins')).toMatchObject({
      ok: null,
      detail: expect.stringMatching(/monitoring tag/),
    });
    expect(JSON.stringify(b)).not.toContain(password);
  });
});
