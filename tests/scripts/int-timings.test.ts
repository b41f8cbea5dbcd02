import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script with no declarations
import { durationsIn, merged } from '../../scripts/int-timings.mjs';

// The recorded times scripts/int-lanes.mjs balances its lanes by (scripts/int-timings.mjs).

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('int-timings', () => {
  it("takes each integration file's time from a vitest JSON report, rounded, and nothing else", () => {
    const root = '/repo';
    const report = {
      testResults: [
        { name: '/repo/tests/a.int.test.ts', startTime: 1000, endTime: 13_449 },
        { name: '/repo/tests/b.test.ts', startTime: 0, endTime: 5000 },
        { name: '/repo/tests/c.int.test.ts', startTime: 5000, endTime: 5000 },
      ],
    };
    expect(durationsIn(root, report)).toEqual({ 'tests/a.int.test.ts': 12_400 });
    expect(durationsIn(root, {})).toEqual({});
  });

  it('keeps old times, replaces measured ones, drops files that are gone, and defaults to the median', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'timings-'));
    dirs.push(root);
    fs.mkdirSync(path.join(root, 'tests'));
    for (const f of ['a', 'b', 'c']) fs.writeFileSync(path.join(root, `tests/${f}.int.test.ts`), '');
    const old = { defaultMs: 1, files: { 'tests/a.int.test.ts': 100, 'tests/b.int.test.ts': 200, 'tests/gone.int.test.ts': 5 } };
    expect(merged(root, old, { 'tests/b.int.test.ts': 900, 'tests/c.int.test.ts': 300 })).toEqual({
      defaultMs: 300,
      files: { 'tests/a.int.test.ts': 100, 'tests/b.int.test.ts': 900, 'tests/c.int.test.ts': 300 },
    });
  });
});
