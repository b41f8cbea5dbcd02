import type { Flags } from './args';

export type Env = Record<string, string | undefined>;

/** Where the listening server goes; the `serve` and `demo` commands fill it from their flags. */
export interface ServerOptions {
  host: string;
  port: number;
}

/** What a command may touch: injected, so the table is tested without a server or a process. */
export interface CliContext {
  version: string;
  /** The package's prebuilt standalone server (dist/server). */
  serverDir: string;
  /** The environment the server will read; commands set variables here (e.g. POTATOQ_CONSOLE_CONFIG). */
  env: Env;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Resolves once the server listens; the process then lives as long as the server. */
  startServer: (options: ServerOptions) => Promise<void>;
  /** Runs the package's doctor (dist/server/doctor.cjs) on the configuration in `env`; resolves to its exit code. */
  runDoctor: (options: { json: boolean }) => Promise<number>;
}

/** One entry of the command table (lib/cli/commands.ts). `run` resolves to the exit code. */
export interface Command {
  summary: string;
  flags: Flags;
  /** Lines shown under `potatoq-console <command> --help`. */
  details?: string;
  run: (flags: Record<string, string>, ctx: CliContext) => Promise<number>;
}
