// A vitest reporter (registered by scripts/test-all.sh) that writes the run's unhandled errors
// (an uncaught exception or unhandled rejection in a test file: vitest fails the run for them
// but its json reporter leaves them out) to the file named by VITEST_UNHANDLED_REPORT, with the
// test file and the test that was running, so scripts/test-failures.mjs can name them.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** One unhandled error as the summary shows it: where (file and test) and what. */
export function describeUnhandled(e, root = process.cwd()) {
  const x = e && typeof e === 'object' ? e : { message: String(e) };
  const file = typeof x.VITEST_TEST_PATH === 'string' ? path.relative(root, x.VITEST_TEST_PATH) : null;
  const test = typeof x.VITEST_TEST_NAME === 'string' ? x.VITEST_TEST_NAME : null;
  const code = typeof x.code === 'string' ? ` (${x.code})` : '';
  return {
    file,
    test,
    // vitest names the kind ("Uncaught Exception", "Unhandled Rejection") in `type`.
    type: typeof x.type === 'string' ? x.type : 'Unhandled Error',
    message: `${typeof x.name === 'string' ? `${x.name}: ` : ''}${String(x.message ?? '')}${code}`,
  };
}

export default class UnhandledReporter {
  onFinished(_files, errors = []) {
    const out = process.env.VITEST_UNHANDLED_REPORT;
    if (!out) return;
    writeFileSync(out, JSON.stringify({ unhandled: errors.map((e) => describeUnhandled(e)) }, null, 1));
  }
}
