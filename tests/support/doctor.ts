// What the doctor's integration suites share: a URL with a login of the test's own, and the
// doctor run on a config file that lists only the given broker entries.
import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import type { DoctorBroker } from '@/lib/doctor/types';

/** `url` with `user` and `password` as its login (percent-encoded). */
export function withLogin(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/** Writes `<dir>/console.yaml` with these brokers (and a state store in `dir`), points the
 *  console at it instead of POTATOQ_CONSOLE_BROKERS, and runs the doctor once. */
export async function runDoctorOn(dir: string, entries: Array<Record<string, unknown>>): Promise<DoctorBroker[]> {
  const config = path.join(dir, 'console.yaml');
  fs.writeFileSync(config, `readTimeoutMs: 8000\nstate: ${path.join(dir, 'state.sqlite3')}\nbrokers: ${JSON.stringify(entries)}\n`);
  vi.stubEnv('POTATOQ_CONSOLE_BROKERS', '');
  vi.stubEnv('POTATOQ_CONSOLE_CONFIG', config);
  const { runDoctor } = await import('@/lib/doctor/run');
  return runDoctor();
}
