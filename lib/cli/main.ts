import { UsageError, parseFlags } from './args';
import type { CliContext, Command } from './command';
import { COMMANDS } from './commands';

/**
 * `potatoq-console`: dispatches to the command table. Exit codes: 0 done (or serving),
 * 1 the command failed, 2 the command line was wrong (unknown command or flag, bad value).
 */
export async function main(
  argv: readonly string[],
  ctx: CliContext,
  commands: Readonly<Record<string, Command>> = COMMANDS,
): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === undefined) throw new UsageError('missing command');
    if (first === '--version' || first === '-v') return say(ctx.out, `${ctx.version}\n`);
    if (first === '--help' || first === '-h' || first === 'help') {
      const about = rest[0];
      if (about === undefined) return say(ctx.out, overview(commands));
      const command = lookup(commands, about);
      return say(ctx.out, commandHelp(about, command));
    }
    const command = lookup(commands, first);
    if (rest.includes('--help') || rest.includes('-h')) return say(ctx.out, commandHelp(first, command));
    const flags = parseFlags(first, rest, command.flags);
    return await command.run(flags, ctx);
  } catch (e) {
    if (e instanceof UsageError) {
      ctx.err(`potatoq-console: ${e.message}\nRun "potatoq-console --help" for the commands and their options.\n`);
      return 2;
    }
    ctx.err(`potatoq-console: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

function say(out: (text: string) => void, text: string): number {
  out(text);
  return 0;
}

function lookup(commands: Readonly<Record<string, Command>>, name: string): Command {
  if (name.startsWith('-')) throw new UsageError(`unknown option ${name}`);
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) throw new UsageError(`unknown command "${name}" (commands: ${Object.keys(commands).join(', ')})`);
  return command;
}

function overview(commands: Readonly<Record<string, Command>>): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: potatoq-console <command> [options]',
    '',
    'Commands:',
    ...rows,
    '',
    'Options:',
    '  --version  print the version',
    '  --help     print this help; "potatoq-console <command> --help" for a command',
    '',
  ].join('\n');
}

function commandHelp(name: string, command: Command): string {
  const flags = Object.entries(command.flags).map(
    ([flag, spec]) => [spec.placeholder === null ? `--${flag}` : `--${flag} ${spec.placeholder}`, spec.help] as const,
  );
  const width = Math.max(0, ...flags.map(([f]) => f.length));
  return [
    `Usage: potatoq-console ${name}${flags.length ? ' [options]' : ''}`,
    '',
    command.summary,
    ...(command.details ? ['', command.details] : []),
    ...(flags.length ? ['', 'Options:', ...flags.map(([f, help]) => `  ${f.padEnd(width)}  ${help}`)] : []),
    '',
  ].join('\n');
}
