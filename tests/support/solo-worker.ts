// A real `potatoq worker -P solo` for the round-trip suites, with its output kept for failure
// messages, and the polling helper those suites wait on it with.
import { spawn, type ChildProcess } from 'node:child_process';
import { POTATOQ } from './potatoq-seeder';

export class SoloWorker {
  /** Everything the worker printed, for "timed out waiting for …" messages. */
  log = '';
  private child: ChildProcess | null = null;

  /** `app`: the potatoq app module (`-A`), found in `cwd`; `env` configures its broker. */
  constructor(
    private readonly app: string,
    private readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  start(queues: string[], extraEnv: Record<string, string> = {}): void {
    if (this.child && this.child.exitCode === null) throw new Error('the worker is already running');
    const c = spawn(
      POTATOQ,
      ['-A', this.app, '--no-color', '--no-emoji', 'worker', '-P', 'solo', '-Q', queues.join(','), '--no-scheduler'],
      {
        cwd: this.cwd,
        env: { ...this.env, ...extraEnv },
      },
    );
    c.stdout?.on('data', (d: Buffer) => (this.log += d.toString()));
    c.stderr?.on('data', (d: Buffer) => (this.log += d.toString()));
    this.child = c;
  }

  /** A warm shutdown (SIGTERM), SIGKILL after 15 s; a no-op when it is not running. */
  async stop(): Promise<void> {
    const w = this.child;
    this.child = null;
    if (!w || w.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => w.kill('SIGKILL'), 15_000);
      w.on('exit', () => (clearTimeout(kill), resolve()));
      w.kill('SIGTERM');
    });
  }
}

/** Polls `fn` until it returns something truthy; on time-out the error ends with `log()`. */
export async function until<T>(
  what: string,
  fn: () => Promise<T | null | false | undefined> | T | null | false | undefined,
  ms = 30_000,
  log?: () => string,
  everyMs = 200,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${log ? `\n${log().slice(-4000)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
