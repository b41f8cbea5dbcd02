import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

// A real `celery worker` of tests/py/rt_celery_app (or another app there) for the int and e2e suites (no path aliases:
// Playwright loads this too).

const ROOT = path.resolve(__dirname, '../..');

/** `celery worker` (solo pool unless `pool` says otherwise) on `queues` as `name@host`, with `env`; its output collects in `log()`. */
export function spawnCeleryWorker(
  env: NodeJS.ProcessEnv,
  queues: string[],
  name: string,
  pool: string[] = ['-P', 'solo'],
  app = 'rt_celery_app',
): { proc: ChildProcess; log: () => string } {
  let log = '';
  const proc = spawn(
    path.join(ROOT, '.venv/bin/celery'),
    ['-A', app, 'worker', ...pool, '-Q', queues.join(','), '-n', `${name}@%h`, '--without-mingle', '--without-gossip', '-l', 'INFO'],
    { cwd: path.join(ROOT, 'tests/py'), env },
  );
  proc.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  return { proc, log: () => log };
}
