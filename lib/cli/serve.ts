import fs from 'node:fs';
import path from 'node:path';
import { UsageError, checkHost, checkPort, type Flags } from './args';
import type { CliContext, Command, Env, ServerOptions } from './command';

const listenFlags: Flags = {
  host: { placeholder: 'H', help: 'address to listen on (default 127.0.0.1; without sign-in only loopback is allowed)', check: checkHost },
  port: { placeholder: 'P', help: 'port to listen on (default $PORT, else 3000)', check: checkPort },
};

/** Host and port from the flags, else `PORT`, else loopback:3000. A bad `PORT` is named. */
function listenOn(flags: Record<string, string>, env: Env): ServerOptions {
  const envPort = env.PORT?.trim();
  if (!flags.port && envPort) {
    const why = checkPort(envPort);
    if (why) throw new UsageError(`PORT: ${why}`);
  }
  return { host: flags.host ?? '127.0.0.1', port: Number(flags.port ?? (envPort || 3000)) };
}

function origin({ host, port }: ServerOptions): string {
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

export const serveCommand: Command = {
  summary: 'serve the console for the brokers configured in a file or the environment',
  flags: {
    config: { placeholder: 'FILE', help: 'configuration file (sets POTATOQ_CONSOLE_CONFIG; environment variables override it)' },
    ...listenFlags,
  },
  details:
    'Without --config and without POTATOQ_CONSOLE_BROKERS it serves the embedded demo broker.\n' +
    'Relative paths (the demo and state files, sqlite:/// URLs) are taken from the current directory.',
  async run(flags, ctx) {
    if (flags.config) {
      const file = path.resolve(ctx.cwd, flags.config);
      if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new UsageError(`serve: --config: no such file "${file}"`);
      ctx.env.POTATOQ_CONSOLE_CONFIG = file;
    }
    const listen = listenOn(flags, ctx.env);
    const from = ctx.env.POTATOQ_CONSOLE_CONFIG ? `configuration ${ctx.env.POTATOQ_CONSOLE_CONFIG}` : 'configuration from the environment';
    ctx.err(`potatoq-console ${ctx.version}: serving ${origin(listen)} (${from})\n`);
    await ctx.startServer(listen);
    return 0;
  },
};

export const demoCommand: Command = {
  summary: 'serve the console on its embedded demo broker (a SQLite file seeded with sample work)',
  flags: listenFlags,
  details:
    'The demo broker is .data/demo.sqlite3 in the current directory (POTATOQ_CONSOLE_DEMO_PATH moves it),\n' +
    'created with sample work when missing. Configured brokers (POTATOQ_CONSOLE_BROKERS,\n' +
    'POTATOQ_CONSOLE_CONFIG) are ignored.',
  async run(flags, ctx: CliContext) {
    delete ctx.env.POTATOQ_CONSOLE_BROKERS;
    delete ctx.env.POTATOQ_CONSOLE_CONFIG;
    const listen = listenOn(flags, ctx.env);
    const file = path.resolve(ctx.cwd, ctx.env.POTATOQ_CONSOLE_DEMO_PATH || path.join('.data', 'demo.sqlite3'));
    ctx.err(`potatoq-console ${ctx.version}: serving the demo broker ${file} on ${origin(listen)}\n`);
    await ctx.startServer(listen);
    return 0;
  },
};
