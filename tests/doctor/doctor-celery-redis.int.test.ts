// The doctor's permission checks for a Celery app on Redis, against real Redis 7 ACL users the
// test creates on this run's key prefixes (db 7): one with every right but the pidbox channels,
// one that may read but not write, one that may not run the read script, and a result backend
// login that may read records but not change them. Each verdict names what is switched off.
// The failure index's PSUBSCRIBE is asked by ACL DRYRUN where the login may (full) and run on a
// connection of its own where not (the others): refused without channels, granted with them.
// int-lane: uses redis/7 (ACL users of its own on its own prefixes)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DoctorBroker } from '@/lib/doctor/types';
import { newPrefix, redisAvailable, testClient } from '@/tests/support/redis';
import { redisDb } from '@/tests/brokers/celery/redis/support';
import { runDoctorOn, withLogin } from '@/tests/support/doctor';

const up = await redisAvailable();

describe.skipIf(!up)('doctor permission checks for Celery on Redis, with restricted ACL users', () => {
  const P = newPrefix();
  const BP = `${P}b:`;
  const RP = `${P}r:`;
  const password = `Pw-${P}-NotForLogs`;
  const users = { full: `dc-full-${P}`, ro: `dc-ro-${P}`, noscript: `dc-noscript-${P}`, backendRo: `dc-bro-${P}` };
  const URL7 = redisDb(7);
  let dir: string;
  let brokers: DoctorBroker[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-celery-'));
    const c = testClient(URL7);
    const acl = (user: string, ...rules: string[]) =>
      c.call('ACL', 'SETUSER', user, 'reset', 'on', `>${password}`, '+@connection', '+info', ...rules);
    // Everything on this run's keys, but no pub/sub channel (Redis 7 gives none by default).
    await acl(users.full, `~${P}*`, '+@all', 'resetchannels');
    await acl(users.ro, `~${P}*`, '+@read', '+@transaction', '+@scripting', '-@write', 'resetchannels');
    await acl(users.noscript, `~${P}*`, '+@read', '+@transaction', '+@write', '-@scripting', 'allchannels', '+publish', '+psubscribe');
    await acl(users.backendRo, `~${P}*`, '+@read', '+@transaction', '-@write', '-@scripting');
    c.disconnect();
    const entry = (id: string, user: string, backendUser: string) => ({
      id,
      kind: 'celery',
      url: withLogin(URL7, user, password),
      resultBackend: withLogin(URL7, backendUser, password),
      globalKeyprefix: BP,
      resultKeyprefix: RP,
      queues: [`${P}-work`],
      inspectTimeoutMs: 200,
    });
    const entries = [
      entry('full', users.full, users.full),
      entry('ro', users.ro, users.backendRo),
      entry('noscript', users.noscript, users.noscript),
    ];
    brokers = await runDoctorOn(dir, entries);
  }, 120_000);

  afterAll(async () => {
    const { resetAdapters } = await import('@/lib/brokers/registry');
    await resetAdapters();
    vi.unstubAllEnvs();
    const c = testClient(URL7);
    await c.call('ACL', 'DELUSER', ...Object.values(users)).catch(() => undefined);
    c.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const one = (id: string) => brokers.find((b) => b.id === id)!;
  const failed = (b: DoctorBroker) => b.checks.filter((c) => c.ok === false).map((c) => [c.check, c.switchesOff]);

  const follow = 'Redis ACL (result backend): follow the records Celery writes as it writes them (PSUBSCRIBE on their names)';

  it('finds a login without the pidbox channels degraded: live workers are off, failures read in full', () => {
    const b = one('full');
    expect(failed(b)).toEqual([
      ['Redis ACL: ask the workers over the pidbox (PUBLISH, and a reply queue of its own)', ['workers']],
      [follow, []],
    ]);
    expect(b.checks.find((c) => c.check === follow)?.detail).toMatch(/may not run PSUBSCRIBE: .*reading every record on each poll/);
    expect(b.checks.find((c) => /pidbox/.test(c.check))?.detail).toMatch(/may not run PUBLISH: .*live workers are unknown/);
    expect(
      b.checks.find((c) => c.check === "Redis ACL (result backend): change the result backend's records (SET, DEL, EVAL)"),
    ).toMatchObject({
      ok: true,
    });
    expect(b.verdict).toBe('degraded');
  });

  it('finds a read-only login degraded, naming every write it switches off on the broker and on the backend', () => {
    const b = one('ro');
    expect(b.verdict).toBe('degraded');
    expect(failed(b)).toEqual([
      ["Redis ACL: send and remove Celery's messages (LPUSH, LREM, DEL)", ['replay', 'revoke', 'purge', 'enqueue']],
      ['Redis ACL: ask the workers over the pidbox (PUBLISH, and a reply queue of its own)', ['workers']],
      ["Redis ACL (result backend): change the result backend's records (SET, DEL, EVAL)", ['replay', 'discard', 'revoke']],
      [follow, []],
    ]);
    expect(b.checks.find((c) => /queues \(kombu/.test(c.check))).toMatchObject({ ok: true, detail: `granted to user "${users.ro}"` });
    expect(b.why.join(' ')).toMatch(/switches off replay, revoke, purge, enqueue/);
    expect(JSON.stringify(b)).not.toContain(password);
  });

  it('finds a login that may not run the read script unusable, saying why', () => {
    const b = one('noscript');
    expect(b.verdict).toBe('unusable');
    expect(b.why.join(' ')).toMatch(/may not run EVALSHA, EVAL|read Celery's queues/);
    // All channels, no ACL DRYRUN: the subscription is tried on a connection of its own.
    expect(b.checks.find((c) => c.check === follow)).toMatchObject({ ok: true, detail: `granted to user "${users.noscript}"` });
  });
});
