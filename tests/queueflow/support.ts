// The REAL QueueFlow server (scripts/queueflow.sh: the crate built in the sid chroot) and the
// REAL Python client 0.5.0 (producer, worker, and a reader through its own models) for the
// QueueFlow int tests. Tokens travel in environment variables and Authorization headers only:
// nothing here prints, logs or puts one in an error message.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/queueflow.sh');
/** The Python with the `queueflow` client; the project's venv unless QUEUEFLOW_TEST_PYTHON says otherwise. */
export const QF_PYTHON = process.env.QUEUEFLOW_TEST_PYTHON || path.join(ROOT, '.venv/bin/python');
const required = process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1';

export interface QueueflowServer {
  url: string;
  version: string;
  /** Read-write API key of tenant A (`tenant`). */
  token: string;
  tenant: string;
  /** Read-write API key of tenant B. */
  tokenB: string;
  tenantB: string;
  /** Read-only (`:ro`) API key of tenant A. */
  tokenRo: string;
  workerToken: string;
  /** HS256 secret the server validates tenant JWTs with. */
  jwtSecret: string;
  /** The queue the server's own Rust workers drain (builtin tasks only). */
  inprocQueue: string;
  /** The server's own PostgreSQL database (seeders backdate letters there). */
  databaseUrl: string;
  runDir: string;
  log(): string;
  stop(): void;
}

/** Why the real server or client cannot run here, or null when both can. */
function missing(): string | null {
  if (process.getuid?.() !== 0) return 'scripts/queueflow.sh needs root (the server is built and run in the sid chroot)';
  try {
    execFileSync(
      QF_PYTHON,
      ['-c', 'import queueflow, importlib.metadata as m; assert m.version("queueflow") == "0.5.0", m.version("queueflow")'],
      { stdio: 'pipe' },
    );
  } catch (e) {
    return `${QF_PYTHON} has no queueflow 0.5.0 client (set QUEUEFLOW_TEST_PYTHON, or rebuild .venv with scripts/ensure-venv.sh): ${String(
      (e as { stderr?: Buffer }).stderr ?? e,
    )
      .trim()
      .split('\n')
      .at(-1)}`;
  }
  return null;
}

function skipLoudly(why: string): null {
  const line = `QueueFlow tests skipped: ${why}`;
  if (required) throw new Error(`${line} (POTATOQ_CONSOLE_REQUIRE_SERVICES=1)`);
  console.warn(`\n*** ${line} ***\n`);
  return null;
}

/**
 * Installs (cold: a cargo build of many minutes; warm: a no-op) and starts a server of our own
 * on a free port and a fresh database (or the one `databaseUrl` names). Null, after a loud line, when that is impossible here.
 */
export function startQueueflow(databaseUrl?: string): QueueflowServer | null {
  // Like the other suites: make sure .venv has the pins (queueflow==0.5.0 among them), unless a
  // Python was named explicitly.
  if (!process.env.QUEUEFLOW_TEST_PYTHON) {
    try {
      execFileSync('bash', [path.join(ROOT, 'scripts/ensure-venv.sh')], { stdio: 'inherit' });
    } catch {
      return skipLoudly('scripts/ensure-venv.sh failed');
    }
  }
  const why = missing();
  if (why) return skipLoudly(why);
  let out: string;
  try {
    execFileSync('bash', [SCRIPT, 'install'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60 * 60_000 });
    out = execFileSync('bash', [SCRIPT, 'up', ...(databaseUrl ? [databaseUrl] : [])], {
      // A suite killed before its afterAll (a timeout) leaves no server: the script's reaper
      // stops it once this process is gone.
      env: { ...process.env, QUEUEFLOW_OWNER_PID: String(process.pid) },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
      encoding: 'utf8',
    });
  } catch (e) {
    const err = e as { stderr?: Buffer | string; message: string };
    return skipLoudly(
      `scripts/queueflow.sh failed: ${String(err.stderr ?? err.message)
        .trim()
        .split('\n')
        .slice(-8)
        .join('\n')}`,
    );
  }
  const v = Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const get = (k: string): string => {
    const x = v[k];
    if (!x) throw new Error(`scripts/queueflow.sh up printed no ${k}`);
    return x;
  };
  const runDir = get('QUEUEFLOW_RUN_DIR');
  let stopped = false;
  return {
    url: get('QUEUEFLOW_URL'),
    version: get('QUEUEFLOW_VERSION'),
    token: get('QUEUEFLOW_TOKEN'),
    tenant: get('QUEUEFLOW_TENANT'),
    tokenB: get('QUEUEFLOW_TOKEN_B'),
    tenantB: get('QUEUEFLOW_TENANT_B'),
    tokenRo: get('QUEUEFLOW_TOKEN_RO'),
    workerToken: get('QUEUEFLOW_WORKER_TOKEN'),
    jwtSecret: get('QUEUEFLOW_JWT_SECRET'),
    inprocQueue: get('QUEUEFLOW_INPROC_QUEUE'),
    databaseUrl: get('QUEUEFLOW_DATABASE_URL'),
    runDir,
    log: () => (fs.existsSync(path.join(runDir, 'server.log')) ? fs.readFileSync(path.join(runDir, 'server.log'), 'utf8') : ''),
    stop: () => {
      if (stopped) return;
      stopped = true;
      execFileSync('bash', [SCRIPT, 'down', runDir], { stdio: 'inherit' });
    },
  };
}

export interface ApiAnswer<T = unknown> {
  status: number;
  /** Parsed JSON when the server said application/json, else the raw text (or null when empty). */
  body: T;
  contentType: string | null;
}

/** One HTTP call; `token` goes only into the Authorization header. */
export async function call<T = unknown>(
  s: QueueflowServer,
  method: string,
  route: string,
  opts: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  const token = opts.token === undefined ? s.token : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const r = await fetch(`${s.url}${route}`, { method, headers, body });
  const text = await r.text();
  const contentType = r.headers.get('content-type');
  const parsed = contentType?.includes('application/json') && text ? (JSON.parse(text) as unknown) : text || null;
  return { status: r.status, body: parsed as T, contentType };
}

/** An HS256 JWT as QueueFlow takes it (`sub` = tenant; `exp` enforced; `scope` optional). */
export function signJwt(secret: string, claims: Record<string, unknown>): string {
  const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** The real client's producer: creates the jobs through QueueFlow.create_job, returns their records. */
export function produce(
  s: QueueflowServer,
  jobs: Array<Record<string, unknown>>,
  token = s.token,
): Array<Record<string, unknown> & { id: string; status: string }> {
  const out = execFileSync(QF_PYTHON, [path.join(__dirname, 'qf_produce.py')], {
    input: JSON.stringify(jobs),
    env: pyEnv(s, token),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(out) as Array<Record<string, unknown> & { id: string; status: string }>;
}

/** Reads queues, dead letters and whoami through the client's own pydantic models. */
export function inspectWithClient(
  s: QueueflowServer,
  queue?: string,
): { queues: Array<Record<string, unknown>>; dead_letters: Array<Record<string, unknown>>; whoami: Record<string, unknown> } {
  const out = execFileSync(QF_PYTHON, [path.join(__dirname, 'qf_inspect.py'), ...(queue ? [queue] : [])], {
    env: pyEnv(s, s.token),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(out) as ReturnType<typeof inspectWithClient>;
}

function pyEnv(s: QueueflowServer, token: string): NodeJS.ProcessEnv {
  return { ...process.env, PYTHONUNBUFFERED: '1', QUEUEFLOW_URL: s.url, QUEUEFLOW_TOKEN: token, QUEUEFLOW_WORKER_TOKEN: s.workerToken };
}

/** The client's run_worker on one queue (tests/queueflow/qf_worker.py); records runs per job id. */
export class PyWorker {
  log = '';
  readonly out = fs.mkdtempSync(path.join(os.tmpdir(), 'qf-worker-'));
  private child: ChildProcess | null = null;

  /** `leaseSecs`: the worker's lease; it heartbeats (and so notices a cancel) every half of it. */
  constructor(
    private readonly s: QueueflowServer,
    readonly queue: string,
    private readonly leaseSecs = 30,
  ) {}

  start(): void {
    const c = spawn(QF_PYTHON, [path.join(__dirname, 'qf_worker.py')], {
      env: { ...pyEnv(this.s, this.s.token), QF_QUEUE: this.queue, QF_OUT: this.out, QF_LEASE_SECS: String(this.leaseSecs) },
    });
    c.stdout?.on('data', (d: Buffer) => (this.log += d.toString()));
    c.stderr?.on('data', (d: Buffer) => (this.log += d.toString()));
    this.child = c;
  }

  /** Every handler run of that job, in order (empty: it never ran here). */
  runs(jobId: string): Array<{ task: string; outcome: string; payload: Record<string, unknown> }> {
    const f = path.join(this.out, jobId);
    if (!fs.existsSync(f)) return [];
    // The worker may be writing: a line counts once its newline is there (the file can also be
    // read between its creation and its first line).
    return fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .slice(0, -1)
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { task: string; outcome: string; payload: Record<string, unknown> });
  }

  /** SIGKILL: the worker stops heartbeating at once, holding whatever it leased. */
  async kill(): Promise<void> {
    const w = this.child;
    this.child = null;
    if (!w || w.exitCode !== null || w.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      w.on('exit', () => resolve());
      w.kill('SIGKILL');
    });
  }

  async stop(): Promise<void> {
    const w = this.child;
    this.child = null;
    if (w && w.exitCode === null) {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => w.kill('SIGKILL'), 15_000);
        w.on('exit', () => (clearTimeout(kill), resolve()));
        w.kill('SIGTERM');
      });
    }
    fs.rmSync(this.out, { recursive: true, force: true });
  }
}

/** Polls `fn` until it returns something truthy; the time-out error ends with `log()`. */
export async function until<T>(
  what: string,
  fn: () => Promise<T | null | false | undefined> | T | null | false | undefined,
  ms = 30_000,
  log?: () => string,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${log ? `\n${log().slice(-3000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A queue name no other test (or run) uses. */
export const uniqueQueue = (prefix: string): string => `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
