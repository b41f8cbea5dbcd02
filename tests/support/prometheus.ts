// Debian's `prometheus` package for the metrics tests (not shipped code): where its binaries
// are, and the loud skip (a failure under POTATOQ_CONSOLE_REQUIRE_SERVICES=1) when they are not.
import { execFileSync } from 'node:child_process';

export const PROMETHEUS = process.env.POTATOQ_TEST_PROMETHEUS ?? 'prometheus';
export const PROMTOOL = process.env.POTATOQ_TEST_PROMTOOL ?? 'promtool';

/** True when `bin --version` runs; otherwise a loud line, or a failure when services are required. */
export function binaryAvailable(bin: string): boolean {
  try {
    execFileSync(bin, ['--version'], { stdio: 'ignore' });
    return true;
  } catch (e) {
    const line = `\n!!! ${bin} is not installed (${(e as Error).message}; Debian: apt-get install prometheus): SKIPPING the Prometheus tests !!!\n`;
    if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
    console.warn(line);
    return false;
  }
}
