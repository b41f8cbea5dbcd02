// Starts tests/py/seeder_pg.py (the real potatoq on PostgreSQL) for tests and the benchmark.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { PYTHON, ROOT, type PySeeder } from '@/tests/support/potatoq-seeder';

export function spawnSeeder(url: string, options: Record<string, unknown>): PySeeder {
  const child = spawn(PYTHON, [path.join(ROOT, 'tests/py/seeder_pg.py'), url, JSON.stringify(options)], {
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
    call<T>(op: string, args: Record<string, unknown> = {}): Promise<T> {
      const run = () =>
        new Promise<T>((resolve, reject) => {
          if (child.exitCode !== null) return reject(new Error(`seeder_pg exited: ${stderr}`));
          waiting.push((line) => {
            const reply = JSON.parse(line) as { ok: boolean; result?: T; error?: string; traceback?: string };
            if (reply.ok) resolve(reply.result as T);
            else reject(new Error(`seeder_pg ${op}: ${reply.error}\n${reply.traceback ?? ''}`));
          });
          child.stdin.write(JSON.stringify({ op, ...args }) + '\n');
        });
      const next = chain.then(run, run);
      chain = next.catch(() => undefined);
      return next;
    },
    async close() {
      child.stdin.end();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const t = setTimeout(() => (child.kill('SIGKILL'), resolve()), 5000);
        child.on('exit', () => (clearTimeout(t), resolve()));
      });
    },
  };
}
