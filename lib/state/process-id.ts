import 'server-only';
import os from 'node:os';
import { randomBytes } from 'node:crypto';

const KEY = Symbol.for('potatoq.console.processId');
type Global = typeof globalThis & { [KEY]?: string };

/**
 * This console process, as it names itself in the state store: the owner of its bulk jobs, the
 * holder of its leases (pause holds, the trend sampler's). Host and pid so an operator can tell
 * which instance holds what; a random part because a pid is reused after a restart. On
 * globalThis: Next bundles route handlers, actions and instrumentation separately.
 */
export const processId = (): string =>
  ((globalThis as Global)[KEY] ??= `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`);
