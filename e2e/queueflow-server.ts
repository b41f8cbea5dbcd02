import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The REAL QueueFlow server (scripts/queueflow.sh: the crate built in the sid chroot, its own
// fresh PostgreSQL database) for the e2e console. Started by the config (main process, once
// per run) before the web server, whose broker list needs its URL and token; stopped by the
// teardown. Its address and credentials live in the run's dir (mode 700 temp dir), never in
// argv or a log. When it cannot start here (not root, not built), `why` says so and the
// QueueFlow spec skips loudly (fails under POTATOQ_CONSOLE_REQUIRE_SERVICES=1).

const ROOT = path.resolve(__dirname, '..');
const SCRIPT = path.join(ROOT, 'scripts/queueflow.sh');

export interface E2eQueueflow {
  url?: string;
  token?: string;
  workerToken?: string;
  runDir?: string;
  why: string | null;
}

const file = (dir: string) => path.join(dir, 'queueflow.json');

export function startE2eQueueflow(dir: string): E2eQueueflow {
  let qf: E2eQueueflow;
  if (process.env.POTATOQ_E2E_QUEUEFLOW === '0') qf = { why: 'POTATOQ_E2E_QUEUEFLOW=0' };
  else if (process.getuid?.() !== 0) qf = { why: 'scripts/queueflow.sh needs root (the server runs in the sid chroot)' };
  else {
    try {
      const out = execFileSync('bash', [SCRIPT, 'up'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 60 * 60_000 });
      const v = Object.fromEntries(
        out
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      qf = {
        url: v.QUEUEFLOW_URL,
        token: v.QUEUEFLOW_TOKEN,
        workerToken: v.QUEUEFLOW_WORKER_TOKEN,
        runDir: v.QUEUEFLOW_RUN_DIR,
        why: null,
      };
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      qf = {
        why: `scripts/queueflow.sh up failed: ${String(err.stderr ?? err.message)
          .trim()
          .split('\n')
          .slice(-3)
          .join(' / ')}`,
      };
    }
  }
  fs.writeFileSync(file(dir), JSON.stringify(qf), { mode: 0o600 });
  return qf;
}

export function e2eQueueflow(dir: string): E2eQueueflow {
  return fs.existsSync(file(dir))
    ? (JSON.parse(fs.readFileSync(file(dir), 'utf8')) as E2eQueueflow)
    : { why: 'the config did not start it' };
}

export function queueflowEntries(dir: string): Record<string, unknown>[] {
  const qf = e2eQueueflow(dir);
  return qf.url && qf.token ? [{ id: 'qf', kind: 'queueflow', name: 'Flows (QueueFlow)', url: qf.url, token: qf.token }] : [];
}

export function stopE2eQueueflow(dir: string): void {
  const qf = e2eQueueflow(dir);
  if (qf.runDir) execFileSync('bash', [SCRIPT, 'down', qf.runDir], { stdio: 'inherit' });
}
