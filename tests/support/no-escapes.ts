// Registered for every vitest project (vitest.config.ts setupFiles): an error that reaches the
// process's last-resort handlers (an uncaught exception, an unhandled rejection) while a test
// runs fails that test, by name, in addition to vitest's "Unhandled Errors" for the run. In
// production such an error is a console process that would die for one broker's bad answer.
import { afterEach } from 'vitest';

const escaped: unknown[] = [];
const g = globalThis as unknown as { __noEscapesInstalled?: boolean };
if (!g.__noEscapesInstalled) {
  g.__noEscapesInstalled = true;
  process.on('uncaughtException', (e) => escaped.push(e));
  process.on('unhandledRejection', (e) => escaped.push(e));
}

afterEach(() => {
  if (!escaped.length) return;
  const all = escaped.splice(0);
  const what = all.map((e) =>
    e instanceof Error
      ? `${e.name}: ${e.message}${(e as { code?: unknown }).code ? ` (${String((e as { code?: unknown }).code)})` : ''}`
      : String(e),
  );
  throw new Error(`${all.length} error(s) escaped to the process during this test: ${what.join('; ')}`);
});
