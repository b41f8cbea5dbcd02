// The SDJ store is a system folder: it may use the contract's errors, shared text helpers and
// its drivers, never another system's folder or the console's services (audit, leases, bulk,
// auth, actions, client, metrics), which the service passes in.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ALLOWED = [
  /^\.\//,
  /^@\/lib\/brokers\/(errors|types|model|schema|schema-edit|typed-value|parse-input|options|adapter-context|diagnosis|message-view|task-queues|form-values|json-typed|schedule|schedule-model|time-range)$/,
  /^@\/lib\/(text|triage)\//,
  // The adapter kit: result assembly, capabilities, lazy opens (shared by every adapter).
  /^@\/lib\/brokers\/kit\/[\w-]+$/,
  // The task family's contract and its one builder (system-neutral).
  /^@\/lib\/brokers\/family\/(schema|build)$/,
  /^@\/lib\/trends\/ranges$/,
  // Unit tests' own support (tests/layout.test.ts keeps it out of shipped code).
  /^@\/tests\/support\//,
  /^(server-only|zod|pg|mysql2\/promise|node:crypto|node:fs|node:path|vitest)$/,
];
const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'"\n]+)['"]/g;

describe('lib/brokers/sdj imports', () => {
  it('reaches only the contract, shared helpers and its drivers', () => {
    const dir = __dirname;
    const bad = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(path.join(dir, f), 'utf8').matchAll(SPEC)].map((m) => `${f}: ${m[1]}`))
      .filter((x) => !ALLOWED.some((re) => re.test(x.split(': ')[1]!)));
    expect(bad).toEqual([]);
  });
});
