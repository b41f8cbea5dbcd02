// The doctor against a real QueueFlow server (started by the suite's helper): a tenant key is
// usable, and a read-only key is named as such with every write off and why; the keys come
// from a file and from a variable named in the config file, and neither is ever printed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startQueueflow } from '@/tests/queueflow/support';

const s = startQueueflow();

afterAll(async () => {
  const { resetAdapters } = await import('@/lib/brokers/registry');
  await resetAdapters();
  vi.unstubAllEnvs();
  s?.stop();
});

describe.skipIf(!s)('doctor against a real QueueFlow server', () => {
  it('names the server version and the token scope, and what a read-only token switches off', async () => {
    if (!s) throw new Error('unreachable');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-qf-'));
    fs.writeFileSync(path.join(dir, 'token'), `${s.token}\n`);
    const config = path.join(dir, 'console.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        brokers: [
          { id: 'flow', kind: 'queueflow', url: s.url, tokenFile: path.join(dir, 'token') },
          { id: 'flow-ro', kind: 'queueflow', url: s.url, token: { env: 'DOCTOR_QF_RO' } },
        ],
      }),
    );
    vi.stubEnv('POTATOQ_CONSOLE_BROKERS', '');
    vi.stubEnv('POTATOQ_CONSOLE_CONFIG', config);
    vi.stubEnv('DOCTOR_QF_RO', s.tokenRo);
    const { runDoctor } = await import('@/lib/doctor/run');
    const [rw, ro] = await runDoctor();

    expect(rw).toMatchObject({ id: 'flow', system: 'QueueFlow · PostgreSQL', verdict: 'usable', why: [] });
    expect(rw!.version).toContain(`QueueFlow ${s.version}`);
    expect(rw!.version).not.toContain('read-only');
    expect(rw!.off.map((o) => o.capability)).not.toContain('replay');

    expect(ro!.version).toContain('read-only token');
    // The token's scope is the operator's choice: usable, with every write off and why.
    expect(ro!.verdict).toBe('usable');
    expect(ro!.checks.map((c) => c.check)).toContain('read-only');
    const off = Object.fromEntries(ro!.off.map((o) => [o.capability, o.why]));
    for (const k of ['replay', 'revoke', 'purge', 'enqueue']) expect(off[k], k).toBeTruthy();

    const printed = JSON.stringify([rw, ro]);
    expect(printed).not.toContain(s.token);
    expect(printed).not.toContain(s.tokenRo);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
