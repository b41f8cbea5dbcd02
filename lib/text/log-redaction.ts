import 'server-only';
import { formatWithOptions } from 'node:util';
import { redactSecrets } from './secrets';

/**
 * Every line the server process writes through `console` (the console's own events, Next's
 * report of an error, a driver's warning) goes through the one redaction step: the arguments
 * are formatted as console would format them, then redacted, then written. Installed once at
 * boot (instrumentation.ts); returns the undo, for tests.
 */

const METHODS = ['error', 'warn', 'info', 'log', 'debug'] as const;
const INSTALLED = Symbol.for('potatoq-console.logRedaction');
type Marked = Console & { [INSTALLED]?: boolean };

export function installLogRedaction(target: Console = console): () => void {
  const c = target as Marked;
  if (c[INSTALLED]) return () => {};
  const originals = METHODS.map((m) => [m, c[m]] as const);
  for (const [m, original] of originals) {
    c[m] = (...args: unknown[]) => original.call(c, redactSecrets(formatWithOptions({ colors: false }, ...args)));
  }
  c[INSTALLED] = true;
  return () => {
    for (const [m, original] of originals) c[m] = original;
    delete c[INSTALLED];
  };
}
