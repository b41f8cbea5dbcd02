/**
 * The command line's grammar, kept apart from what the commands do so it is tested without
 * starting anything: `potatoq-console <command> [--flag value | --flag=value]...`.
 * Every mistake is a `UsageError` (exit 2), named as the user typed it.
 */

export class UsageError extends Error {
  override name = 'UsageError';
}

/** A flag that takes a value; `check` turns the text into the value or says why not. */
export interface FlagSpec {
  /** Shown in the help: `--port P`; `null` for a switch (`--json`), which takes no value. */
  placeholder: string | null;
  help: string;
  check?: (raw: string) => string | null;
}

export type Flags = Record<string, FlagSpec>;

/** Parses the words after the command against its flags; repeats and unknown flags are refused.
 *  A switch given is `'true'`; one not given is absent. */
export function parseFlags(command: string, words: readonly string[], flags: Flags): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('--')) throw new UsageError(`${command}: unexpected argument "${word}"`);
    const eq = word.indexOf('=');
    const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
    const spec = Object.hasOwn(flags, name) ? flags[name] : undefined;
    if (!spec) throw new UsageError(`${command}: unknown option --${name}${knownFlags(flags)}`);
    let value: string | undefined;
    if (spec.placeholder === null) {
      if (eq >= 0) throw new UsageError(`${command}: --${name} takes no value`);
      value = 'true';
    } else if (eq >= 0) value = word.slice(eq + 1);
    else {
      value = words[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${command}: --${name} needs a value (${spec.placeholder})`);
      i++;
    }
    if (value === '') throw new UsageError(`${command}: --${name} needs a value (${spec.placeholder})`);
    if (Object.hasOwn(out, name)) throw new UsageError(`${command}: --${name} given twice`);
    const why = spec.check?.(value);
    if (why) throw new UsageError(`${command}: --${name}: ${why}`);
    out[name] = value;
  }
  return out;
}

function knownFlags(flags: Flags): string {
  const names = Object.keys(flags);
  return names.length ? ` (known: ${names.map((n) => `--${n}`).join(', ')})` : ' (it takes none)';
}

/** A TCP port to listen on: 1-65535. */
export function checkPort(raw: string): string | null {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535)
    return `must be a port number from 1 to 65535, not "${raw.slice(0, 40)}"`;
  return null;
}

/** A host name or IP address to listen on (no scheme, no port). */
export function checkHost(raw: string): string | null {
  if (!/^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)$/.test(raw))
    return `must be a host name or IP address such as 127.0.0.1, ::1 or 0.0.0.0, not "${raw.slice(0, 60)}"`;
  return null;
}
