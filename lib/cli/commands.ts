import type { Command } from './command';
import { doctorCommand } from './doctor';
import { demoCommand, serveCommand } from './serve';

/**
 * The table of subcommands: `potatoq-console <name>`. A new command is one entry here (its
 * flags, a one-line summary and `run`); parsing, `--help` and exit codes come from main.ts.
 */
export const COMMANDS: Readonly<Record<string, Command>> = {
  serve: serveCommand,
  demo: demoCommand,
  doctor: doctorCommand,
};
