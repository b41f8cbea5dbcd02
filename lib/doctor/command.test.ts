import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The doctor's command (shared by `npm run doctor` and `potatoq-console doctor`) on local files
// only: a bad configuration, and a SQLite broker whose file is not there. Brokers that answer
// are in tests/doctor/*.int.test.ts and tests/package/pack.int.test.ts.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-command-'));
const saved = process.env.POTATOQ_CONSOLE_CONFIG;

async function runWith(config: string, json = false) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, config);
  process.env.POTATOQ_CONSOLE_CONFIG = file;
  // The configuration is read once per process: a fresh module graph per case.
  vi.resetModules();
  const { runDoctorCommand } = await import('./command');
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDoctorCommand({ json, out: (t) => void out.push(t), err: (t) => void err.push(t) });
  return { code, out: out.join(''), err: err.join(''), file };
}

afterEach(() => {
  if (saved === undefined) delete process.env.POTATOQ_CONSOLE_CONFIG;
  else process.env.POTATOQ_CONSOLE_CONFIG = saved;
});

describe('runDoctorCommand', () => {
  it('exits 2 on a bad configuration, naming the file and field, printing nothing on stdout nor the password', async () => {
    const r = await runWith('brokers:\n  - id: q\n    url: "redis://:Sup3rSecretPw@127.0.0.1:1/0"\n    readTimeoutMs: fast\n');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^doctor: bad configuration: /);
    expect(r.err).toContain(r.file);
    expect(r.err).not.toContain('Sup3rSecretPw');
  });

  it('exits 1 when a broker is unusable (a SQLite file that is not there), with the verdict and why', async () => {
    const missing = path.join(dir, 'gone.sqlite3');
    const r = await runWith(`state: ${path.join(dir, 'state.sqlite3')}\nbrokers:\n  - id: gone\n    url: "sqlite:///${missing}"\n`);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^gone \(potatoq · SQLite\): UNUSABLE$/m);
    expect(r.out).toContain('FAIL       connect and read the overview');
    expect(r.out).toMatch(/1 broker\(s\): 0 usable, 0 degraded, 1 unusable\n$/);
    expect(fs.existsSync(missing)).toBe(false);
    const j = await runWith(`state: ${path.join(dir, 'state.sqlite3')}\nbrokers:\n  - id: gone\n    url: "sqlite:///${missing}"\n`, true);
    expect(j.code).toBe(1);
    expect((JSON.parse(j.out) as { brokers: Array<{ id: string; verdict: string }> }).brokers).toMatchObject([
      { id: 'gone', verdict: 'unusable' },
    ]);
  });
});
