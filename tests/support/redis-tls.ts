// A private redis-server speaking TLS only, for the rediss:// / valkeys:// suites (not shipped
// code): a throwaway CA and a server certificate for 127.0.0.1 made by openssl at test time,
// a second unrelated CA (the "wrong" one), a free port, a password, no persistence.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '@/tests/support/free-port';

/** True when openssl is here (redis-server: redisServerAvailable); otherwise a loud line (a failure when services are required). */
export function opensslAvailable(suite: string): boolean {
  if (spawnSync('openssl', ['version']).status === 0) return true;
  const line = `\n!!! openssl is not installed: SKIPPING ${suite} !!!\n`;
  if (process.env.POTATOQ_CONSOLE_REQUIRE_SERVICES === '1') throw new Error(line);
  console.warn(line);
  return false;
}

export class TlsRedis {
  dir = '';
  port = 0;
  readonly password = `pw-${process.pid}-${Date.now()}`;
  private child: ChildProcess | null = null;
  log = '';

  get caFile(): string {
    return path.join(this.dir, 'ca.crt');
  }
  /** A CA that did not sign the server's certificate. */
  get otherCaFile(): string {
    return path.join(this.dir, 'other-ca.crt');
  }
  url(scheme: 'rediss' | 'valkeys' = 'rediss', db = 0): string {
    return `${scheme}://:${this.password}@127.0.0.1:${this.port}/${db}`;
  }

  private makeCerts(): void {
    const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: this.dir, stdio: 'pipe' });
    const days = ['-days', '2'];
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      ...days,
      '-subj',
      '/CN=potatoq-console test CA',
    );
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
    writeFileSync(path.join(this.dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    ssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      ...days,
      '-extfile',
      'ext.cnf',
    );
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'other-ca.key',
      '-out',
      'other-ca.crt',
      ...days,
      '-subj',
      '/CN=some other CA',
    );
  }

  /** Starts it and returns once a client trusting the CA gets PONG. */
  async start(): Promise<void> {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'ctr-redis-tls-'));
    this.makeCerts();
    this.port = await freePort();
    const f = (n: string) => path.join(this.dir, n);
    const c = spawn(
      'redis-server',
      [
        '--port',
        '0',
        '--tls-port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--tls-cert-file',
        f('server.crt'),
        '--tls-key-file',
        f('server.key'),
        '--tls-ca-cert-file',
        f('ca.crt'),
        '--tls-auth-clients',
        'no',
        '--requirepass',
        this.password,
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
        '--daemonize',
        'no',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    c.stdout?.on('data', (d: Buffer) => (this.log += d.toString()));
    c.stderr?.on('data', (d: Buffer) => (this.log += d.toString()));
    this.child = c;
    for (let i = 0; ; i++) {
      const r = this.client();
      try {
        if ((await r.ping()) === 'PONG') return;
      } catch (e) {
        if (i > 50 || c.exitCode !== null)
          // A build without TLS exits at once ("TLS is not supported"): its log says so.
          throw new Error(`TLS redis-server did not start: ${(e as Error).message}\n${this.log}`);
      } finally {
        r.disconnect();
      }
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  /** A plain ioredis client over TLS that trusts the test CA (for checking what the console wrote). */
  client(): Redis {
    const r = new Redis({
      host: '127.0.0.1',
      port: this.port,
      password: this.password,
      tls: { ca: readFileSync(this.caFile, 'utf8') },
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    r.on('error', () => undefined);
    return r;
  }

  async stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    if (c && c.exitCode === null) {
      await new Promise<void>((resolve) => {
        c.on('exit', () => resolve());
        c.kill('SIGTERM');
      });
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
