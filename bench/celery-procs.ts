// The real Celery side of `npm run bench:celery`: `celery worker -E` processes, `celery flower`,
// and the producer (bench/py/celery_bench_seed.py), all on bench/py/celery_bench_app.py. Every
// process is started in a process group of its own, so stopping it also stops its pool's
// children (prefork) even when the main process has to be killed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@/tests/support/free-port';
import { ROOT } from './potatoq-side';

const CELERY = path.join(ROOT, '.venv/bin/celery');
const PYTHON = path.join(ROOT, '.venv/bin/python');
const CWD = path.join(ROOT, 'bench/py');

export interface Proc {
  pid: number;
  log(): string;
  stop(): Promise<void>;
}

function start(cmd: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  let log = '';
  const child: ChildProcess = spawn(cmd, args, { cwd: CWD, env: { ...env, PYTHONUNBUFFERED: '1' }, detached: true });
  child.stdout?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-20_000)));
  const pid = child.pid ?? 0;
  const group = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // the group is gone already
    }
  };
  return {
    pid,
    log: () => log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          const kill = setTimeout(() => group('SIGKILL'), 10_000);
          child.on('exit', () => (clearTimeout(kill), resolve()));
          group('SIGTERM');
        });
      }
      group('SIGKILL'); // pool children that outlived their parent
    },
  };
}

/** `celery worker -E` (task events on, as Flower needs) on `queues`, prefork with `concurrency`. */
export function startWorker(env: NodeJS.ProcessEnv, name: string, queues: string[], concurrency: number): Proc {
  return start(
    CELERY,
    ['-A', 'celery_bench_app', 'worker', '-E', '-Q', queues.join(','), '-c', String(concurrency), '-n', `${name}@%h`, '-l', 'WARNING'],
    env,
  );
}

export interface Flower extends Proc {
  url: string;
}

/** `celery flower` 2.x on a free loopback port, API open (FLOWER_UNAUTHENTICATED_API, loopback
 *  only, as the console runs without authentication on loopback here), once it answers. */
export async function startFlower(env: NodeJS.ProcessEnv): Promise<Flower> {
  const port = await freePort();
  const p = start(CELERY, ['-A', 'celery_bench_app', 'flower', '--address=127.0.0.1', `--port=${port}`, '--logging=warning'], {
    ...env,
    FLOWER_UNAUTHENTICATED_API: 'true',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    const ok = await fetch(`${url}/healthcheck`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { ...p, url };
    await new Promise((r) => setTimeout(r, 200));
  }
  await p.stop();
  throw new Error(`Flower did not answer in 30 s: ${p.log()}`);
}

export interface Batch {
  task: 'bench.slow' | 'bench.ok' | 'bench.fail';
  queues: string[];
  n: number;
  first: number;
}

/** Sends `batches` through app.send_task in `parallel` producer processes (each batch split
 *  between them); returns per batch the first and the last id sent (the last of the last part). */
export async function produce(env: NodeJS.ProcessEnv, batches: Batch[], parallel = 2): Promise<Array<{ first: string; last: string }>> {
  const parts = Array.from({ length: parallel }, (_, k) =>
    batches.map((b) => {
      const size = Math.ceil(b.n / parallel);
      const first = b.first + k * size;
      return { ...b, first, n: Math.max(0, Math.min(size, b.first + b.n - first)) };
    }),
  );
  const run = promisify(execFile);
  const outs = await Promise.all(
    parts.map((p) =>
      run(PYTHON, [path.join(CWD, 'celery_bench_seed.py'), JSON.stringify(p)], {
        cwd: CWD,
        env,
        timeout: 600_000,
        maxBuffer: 1 << 20,
      }),
    ),
  );
  const ids = outs.map((o) => JSON.parse(o.stdout.trim().split('\n').pop()!) as Array<{ first: string | null; last: string | null }>);
  return batches.map((_, i) => ({
    first: ids.map((x) => x[i]!.first).find((x) => x !== null) ?? '',
    last:
      [...ids]
        .reverse()
        .map((x) => x[i]!.last)
        .find((x) => x !== null) ?? '',
  }));
}
