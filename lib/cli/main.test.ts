import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliContext, Command, Env, ServerOptions } from './command';
import { COMMANDS } from './commands';
import { main } from './main';

function context(env: Env = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const started: ServerOptions[] = [];
  const ctx: CliContext = {
    version: '9.8.7',
    serverDir: '/nowhere',
    env,
    cwd: os.tmpdir(),
    out: (t) => void out.push(t),
    err: (t) => void err.push(t),
    startServer: async (o) => void started.push(o),
    runDoctor: () => Promise.reject(new Error('not the doctor')),
  };
  return { ctx, out, err, started, env };
}

describe('potatoq-console command line', () => {
  it('prints the version and the help, exit 0', async () => {
    const v = context();
    expect(await main(['--version'], v.ctx)).toBe(0);
    expect(v.out.join('')).toBe('9.8.7\n');
    const h = context();
    expect(await main(['--help'], h.ctx)).toBe(0);
    for (const name of Object.keys(COMMANDS)) expect(h.out.join('')).toContain(`  ${name} `);
    const s = context();
    expect(await main(['serve', '--help'], s.ctx)).toBe(0);
    expect(s.out.join('')).toMatch(/--config FILE[\s\S]*--host H[\s\S]*--port P/);
    expect(s.started).toEqual([]);
  });

  it.each([
    [[], /missing command/],
    [['start'], /unknown command "start" \(commands: serve, demo, doctor\)/],
    [['--verbose'], /unknown option --verbose/],
    [['serve', '--prot', '80'], /serve: unknown option --prot \(known: --config, --host, --port\)/],
    [['demo', '--config', 'x.json'], /demo: unknown option --config/],
    [['serve', '--port'], /--port needs a value/],
    [['serve', '--port', '70000'], /--port: must be a port number from 1 to 65535, not "70000"/],
    [['serve', '--port=0'], /--port: must be a port number/],
    [['serve', '--host', 'http://x'], /--host: must be a host name or IP address/],
    [['serve', '--port', '1', '--port', '2'], /--port given twice/],
    [['serve', 'extra'], /serve: unexpected argument "extra"/],
    [['serve', '--config', '/no/such/file.json'], /--config: no such file "\/no\/such\/file.json"/],
  ])('refuses %j with exit 2 and nothing started', async (argv, message) => {
    const c = context();
    expect(await main(argv, c.ctx)).toBe(2);
    expect(c.err.join('')).toMatch(message);
    expect(c.err.join('')).toContain('potatoq-console --help');
    expect(c.started).toEqual([]);
  });

  it('serve: --config sets POTATOQ_CONSOLE_CONFIG (absolute) and listens where told', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-'));
    fs.writeFileSync(path.join(dir, 'console.json'), '{}');
    const c = context();
    c.ctx.cwd = dir;
    expect(await main(['serve', '--config', 'console.json', '--host=::1', '--port', '8099'], c.ctx)).toBe(0);
    expect(c.env.POTATOQ_CONSOLE_CONFIG).toBe(path.join(dir, 'console.json'));
    expect(c.started).toEqual([{ host: '::1', port: 8099 }]);
    expect(c.err.join('')).toContain('serving http://[::1]:8099');
  });

  it('serve: defaults to loopback and $PORT, and names a bad PORT', async () => {
    const c = context({ PORT: '4123' });
    expect(await main(['serve'], c.ctx)).toBe(0);
    expect(c.started).toEqual([{ host: '127.0.0.1', port: 4123 }]);
    const bad = context({ PORT: 'eighty' });
    expect(await main(['serve'], bad.ctx)).toBe(2);
    expect(bad.err.join('')).toMatch(/PORT: must be a port number/);
  });

  it('demo: ignores configured brokers and a config file', async () => {
    const c = context({ POTATOQ_CONSOLE_BROKERS: 'sqlite:////x.db', POTATOQ_CONSOLE_CONFIG: '/etc/x.json' });
    expect(await main(['demo', '--port', '3999'], c.ctx)).toBe(0);
    expect(c.env.POTATOQ_CONSOLE_BROKERS).toBeUndefined();
    expect(c.env.POTATOQ_CONSOLE_CONFIG).toBeUndefined();
    expect(c.started).toEqual([{ host: '127.0.0.1', port: 3999 }]);
    expect(c.err.join('')).toContain(path.join(os.tmpdir(), '.data', 'demo.sqlite3'));
  });

  it('a command that fails exits 1 with its message; a new table entry needs nothing else', async () => {
    const boom: Command = {
      summary: 'fails',
      flags: {},
      run: async () => {
        throw new Error('cannot reach the broker');
      },
    };
    const c = context();
    expect(await main(['boom'], c.ctx, { ...COMMANDS, boom })).toBe(1);
    expect(c.err.join('')).toBe('potatoq-console: cannot reach the broker\n');
    const s = context();
    expect(await main(['serve'], s.ctx)).toBe(0);
    s.ctx.startServer = () => Promise.reject(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3000'));
    expect(await main(['serve'], s.ctx)).toBe(1);
    expect(s.err.join('')).toContain('EADDRINUSE');
  });
});
