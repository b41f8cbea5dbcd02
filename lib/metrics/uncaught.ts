import 'server-only';
import { Counter, Registry } from 'prom-client';
import { redactSecrets } from '@/lib/text/secrets';

// The last line of defence: an error no socket, client, timer or promise of the console handled
// (a bug: every one is meant to be handled where it arises). Node's default ends the process,
// and with it the pages of every broker, for one broker's bad answer; instead it is logged
// (name, code, the message through the redaction step, where it was thrown) and counted in
// potatoq_console_uncaught_total, which an alert can watch, and the console keeps serving.

interface Uncaught {
  registry: Registry;
  counter: Counter<'kind'>;
  installed: boolean;
}

// One per process, across Next's module instances.
const g = globalThis as unknown as { __potatoqUncaught?: Uncaught };

function state(): Uncaught {
  if (g.__potatoqUncaught) return g.__potatoqUncaught;
  const registry = new Registry();
  const counter = new Counter({
    name: 'potatoq_console_uncaught_total',
    help: 'Errors nothing in the console handled (kind: exception or rejection), logged as console.uncaught; the process keeps serving. Any is a bug.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  // Both series from the start (at 0), so increase() sees the first one.
  for (const kind of ['exception', 'rejection']) counter.labels({ kind }).inc(0);
  g.__potatoqUncaught = { registry, counter, installed: false };
  return g.__potatoqUncaught;
}

/** The text through the console's one redaction step (every URL form, configured secrets). */
const maskUrlCredentials = redactSecrets;

/** The log line of one uncaught error: what and where, never a credential in a URL. */
export function uncaughtLine(kind: 'exception' | 'rejection', e: unknown): Record<string, unknown> {
  const err = e instanceof Error ? (e as Error & { code?: unknown }) : null;
  // The stack's frames (file:line), not its first line: that is the message, already masked.
  const frames = (err?.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .slice(0, 8)
    .map((l) => maskUrlCredentials(l.trim()));
  return {
    event: 'console.uncaught',
    kind,
    name: err?.name ?? typeof e,
    code: typeof err?.code === 'string' ? err.code : null,
    message: maskUrlCredentials(err ? err.message : String(e)),
    at: frames,
  };
}

/** Logs and counts one error nothing handled. */
export function recordUncaught(kind: 'exception' | 'rejection', e: unknown): void {
  state().counter.inc({ kind });
  try {
    process.stderr.write(`${JSON.stringify(uncaughtLine(kind, e))}\n`);
  } catch {
    // A log that cannot be written must not turn into another uncaught error.
  }
}

/** Installs the process-level handlers once (instrumentation.ts, at server start). */
export function installUncaughtGuard(): void {
  const s = state();
  if (s.installed) return;
  s.installed = true;
  process.on('uncaughtException', (e) => recordUncaught('exception', e));
  process.on('unhandledRejection', (reason) => recordUncaught('rejection', reason));
}

export const uncaughtRegistry = (): Registry => state().registry;
