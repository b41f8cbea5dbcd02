// The closing summary of `npm test` (scripts/test-failures.mjs) and the reporter that records
// unhandled errors (scripts/vitest-unhandled.mjs): a tier whose tests all passed but which failed
// on an uncaught error names that error with its file and test, not "no failed tests".
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});
const tmp = () => (dir = mkdtempSync(path.join(os.tmpdir(), 'test-failures-')));
const summary = (...args: string[]) =>
  execFileSync(process.execPath, ['scripts/test-failures.mjs', ...args], { cwd: root, encoding: 'utf8' });
const allPassed = (file: string) => ({
  testResults: [
    { name: path.join(root, file), status: 'passed', message: '', assertionResults: [{ status: 'passed', fullName: 'a test' }] },
  ],
});

describe('the failed-tests summary', () => {
  it('names an unhandled error with its file and test when every test passed', () => {
    const d = tmp();
    writeFileSync(path.join(d, 'int.json'), JSON.stringify(allPassed('lib/x/redis-tls.int.test.ts')));
    writeFileSync(
      path.join(d, 'int.unhandled.json'),
      JSON.stringify({
        unhandled: [
          {
            file: 'lib/x/redis-tls.int.test.ts',
            test: 'reads over TLS',
            type: 'Uncaught Exception',
            message: 'Error: tlsv1 alert decode error (ERR_SSL_TLSV1_ALERT_DECODE_ERROR)',
          },
        ],
      }),
    );
    const out = summary(`integration=${path.join(d, 'int.json')}`);
    expect(out).toContain('integration: 1 failed');
    expect(out).toContain('Uncaught Exception in lib/x/redis-tls.int.test.ts › reads over TLS');
    expect(out).toContain('ERR_SSL_TLSV1_ALERT_DECODE_ERROR');
    expect(out).not.toContain('no failed tests');
  });

  it('says there were no failed tests when there are neither failures nor unhandled errors', () => {
    const d = tmp();
    writeFileSync(path.join(d, 'unit.json'), JSON.stringify(allPassed('lib/a.test.ts')));
    writeFileSync(path.join(d, 'unit.unhandled.json'), JSON.stringify({ unhandled: [] }));
    expect(summary(`unit=${path.join(d, 'unit.json')}`)).toContain('(no failed tests in the reports)');
  });
});

describe('the unhandled-errors reporter', () => {
  it('writes each error vitest reports with the test file and test it happened in', () => {
    const d = tmp();
    const out = path.join(d, 'int.unhandled.json');
    const script = `
      const { default: R } = await import(${JSON.stringify(path.join(root, 'scripts/vitest-unhandled.mjs'))});
      const e = Object.assign(new Error('tlsv1 alert decode error'), {
        code: 'ERR_SSL_TLSV1_ALERT_DECODE_ERROR', type: 'Uncaught Exception',
        VITEST_TEST_PATH: ${JSON.stringify(path.join(root, 'lib/x/redis-tls.int.test.ts'))}, VITEST_TEST_NAME: 'reads over TLS',
      });
      new R().onFinished([], [e, 'a bare string']);`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      env: { ...process.env, VITEST_UNHANDLED_REPORT: out },
    });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      unhandled: [
        {
          file: 'lib/x/redis-tls.int.test.ts',
          test: 'reads over TLS',
          type: 'Uncaught Exception',
          message: 'Error: tlsv1 alert decode error (ERR_SSL_TLSV1_ALERT_DECODE_ERROR)',
        },
        { file: null, test: null, type: 'Unhandled Error', message: 'a bare string' },
      ],
    });
  });
});
