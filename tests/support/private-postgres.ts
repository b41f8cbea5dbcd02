// A throwaway PostgreSQL server of our own (initdb in a temp dir, its own port and socket dir),
// for tests that must stop or restart the server: restarting the machine's shared server would
// leave a postmaster parented to the test run (CI ends what a run leaves behind) and would cut
// every other client off. Started and removed by the test that needs it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

export interface PrivatePostgres {
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: every session is cut, the data stays. */
  restart(): void;
  /** Stops the server and deletes its data directory. */
  stop(): void;
}

function binDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')));
  versions.sort((x, y) => Number(x) - Number(y));
  const v = versions.at(-1);
  return v ? path.join(base, v, 'bin') : null;
}

/** Why a private server cannot be made here, or null when it can. */
export function privatePostgresMissing(): string | null {
  if (!binDir()) return 'no PostgreSQL server binaries under /usr/lib/postgresql';
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'pipe' });
    } catch {
      return 'running as root and there is no postgres user to run the server as';
    }
  }
  return null;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-private-pg-'));
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  // The server refuses to run as root: run its tools as the postgres user.
  const run = (tool: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : path.join(bin, tool), asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args, {
      stdio: 'pipe',
      timeout: 120_000,
      cwd: dir,
    });
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const ctl = (...args: string[]) => {
    try {
      run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', ...args]);
    } catch (e) {
      const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`pg_ctl ${args[0]} failed: ${(e as Error).message}\n${tail}`);
    }
  };
  ctl('-o', opts, 'start');
  let stopped = false;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: () => ctl('-m', 'fast', '-o', opts, 'restart'),
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        ctl('-m', 'immediate', 'stop');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
