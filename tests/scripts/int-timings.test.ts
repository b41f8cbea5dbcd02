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
  it("takes each integration file's time (hooks included) from vitest's default reporter, coloured or not, and nothing else", () => {
    const log = [
      ' \u001b[32m✓\u001b[39m \u001b[30m\u001b[42m int \u001b[49m\u001b[39m tests/a.int.test.ts \u001b[2m(\u001b[22m\u001b[2m4 tests\u001b[22m\u001b[2m)\u001b[22m\u001b[33m 12449\u001b[2mms\u001b[22m\u001b[39m',
      ' ✓ |int| tests/b/c.int.test.ts (6 tests) 85573ms',
      ' × |int| tests/failed.int.test.ts (2 tests | 1 failed) 950ms',
      '   ✓ a test of tests/a.int.test.ts (1 tests) 5ms',
      ' ✓ |unit| tests/unit.test.ts (3 tests) 40ms',
      ' ↓ |int| tests/skipped.int.test.ts (16 tests | 16 skipped)',
      'stdout | tests/x.int.test.ts',
    ].join('\n');
    expect(durationsIn(log)).toEqual({ 'tests/a.int.test.ts': 12_400, 'tests/b/c.int.test.ts': 85_600, 'tests/failed.int.test.ts': 1000 });
    expect(durationsIn('')).toEqual({});
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
