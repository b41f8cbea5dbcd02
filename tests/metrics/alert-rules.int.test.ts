import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROMTOOL, binaryAvailable } from '@/tests/support/prometheus';

// The example alert rules of docs/metrics.md, checked by the real promtool: they parse, and
// they fire (and stay quiet) on the series in alerts.promtest.yml.
const ROOT = path.resolve(__dirname, '../..');
const RULES = path.join(ROOT, 'docs/prometheus/alerts.yml');
const CASES = path.join(__dirname, 'alerts.promtest.yml');
const available = binaryAvailable(PROMTOOL);

const promtool = (...args: string[]) => {
  try {
    return { code: 0, out: execFileSync(PROMTOOL, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    const x = e as { status: number; stdout: string; stderr: string };
    return { code: x.status, out: `${x.stdout}${x.stderr}` };
  }
};

describe.skipIf(!available)('example alert rules (promtool)', () => {
  it('pass `promtool check rules`', () => {
    const r = promtool('check', 'rules', RULES);
    // Every rule the file declares is one promtool found (none silently dropped).
    const declared = readFileSync(RULES, 'utf8').match(/^\s*- alert:/gm)?.length ?? 0;
    expect(declared).toBeGreaterThanOrEqual(8);
    expect(r.out).toMatch(new RegExp(`SUCCESS: ${declared} rules found`));
    expect(r.code).toBe(0);
  });
  it('fire on old waiting work, a rising dead-letter count, uncounted dead letters, no workers and a broker that is down, and not before, nor on what a broker does not report', () => {
    const r = promtool('test', 'rules', CASES);
    expect(r.out).toMatch(/SUCCESS/);
    expect(r.code).toBe(0);
  });
});
