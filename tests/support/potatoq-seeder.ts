// Talks to tests/py/seeder.py: the real potatoq writes and inspects the broker for tests.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

export const ROOT = path.resolve(__dirname, '../..');
export const PYTHON = path.join(ROOT, '.venv/bin/python');
export const POTATOQ = path.join(ROOT, '.venv/bin/potatoq');

export interface PySeeder {
  call<T = unknown>(op: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Starts one of the Python seeders in tests/py (the real potatoq writing and inspecting a
 * broker) and talks to it one JSON line per call, in order.
 */
export function spawnPySeeder(script: string, args: string[]): PySeeder {
  const name = path.basename(script, '.py');
  const child: ChildProcessWithoutNullStreams = spawn(PYTHON, [path.join(ROOT, 'tests/py', script), ...args], {
    cwd: path.join(ROOT, 'tests/py'),
    env: { ...process.env, PYTHONUNBUFFERED: '1', POTATOQ_NO_EMOJI: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = readline.createInterface({ input: child.stdout });
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  let chain: Promise<unknown> = Promise.resolve();
  return {
    call<T>(op: string, callArgs: Record<string, unknown> = {}): Promise<T> {
      const run = () =>
        new Promise<T>((resolve, reject) => {
          if (child.exitCode !== null) return reject(new Error(`${name} exited: ${stderr}`));
          waiting.push((line) => {
            const reply = JSON.parse(line) as { ok: boolean; result?: T; error?: string; traceback?: string };
            if (reply.ok) resolve(reply.result as T);
            else reject(new Error(`${name} ${op}: ${reply.error}\n${reply.traceback ?? ''}`));
          });
          child.stdin.write(JSON.stringify({ op, ...callArgs }) + '\n');
        });
      const next = chain.then(run, run);
      chain = next.catch(() => undefined);
      return next;
    },
    async close() {
      child.stdin.end();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 5000);
        child.on('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
      if (child.exitCode && child.exitCode !== 0) throw new Error(`${name} exited ${child.exitCode}: ${stderr}`);
    },
  };
}

/** The SQLite seeder (tests/py/seeder.py). */
export const startPySeeder = (brokerUrl: string): PySeeder => spawnPySeeder('seeder.py', [brokerUrl]);
