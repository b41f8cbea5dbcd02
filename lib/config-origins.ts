// Where each setting came from when a config file is in use (POTATOQ_CONSOLE_CONFIG): the
// loader (lib/config-file/) records, for every variable name, the file's field that maps to it
// and whether the environment set it. ConfigError (lib/config-error.ts) then names the file and
// the field instead of the variable, so every parser keeps naming variables and the operator
// still reads where to fix the value. A leaf: config-error.ts imports it, and every layer
// imports config-error.ts. Process-wide on globalThis (Next bundles each entry separately).

export interface SettingOrigins {
  /** The config file's path as given. */
  file: string;
  /** Variable name -> the file's field for it (`auth.proxy.secret`), for every known setting. */
  fields: ReadonlyMap<string, string>;
  /** Variables the environment set: those override the file, and their errors name the variable. */
  fromEnv: ReadonlySet<string>;
}

const ORIGINS = Symbol.for('potatoq-console.settingOrigins');
type Global = typeof globalThis & { [ORIGINS]?: SettingOrigins | null };

export function setSettingOrigins(origins: SettingOrigins | null): void {
  (globalThis as Global)[ORIGINS] = origins;
}

const LEADING_NAME = /^(POTATOQ_CONSOLE_[A-Z0-9_]+)(?=[[.:])/;

/**
 * The message with its leading variable name (`POTATOQ_CONSOLE_BROKERS[2].url: ...`) replaced
 * by the file and field (`/etc/console.json: brokers[2].url: ...`) when the value is the file's
 * (or the file is in use and the environment did not set it either). Unchanged otherwise.
 */
export function nameSettingOrigin(message: string): string {
  const origins = (globalThis as Global)[ORIGINS];
  if (!origins) return message;
  const m = LEADING_NAME.exec(message);
  if (!m) return message;
  const name = m[1]!;
  const field = origins.fields.get(name);
  if (!field || origins.fromEnv.has(name)) return message;
  return `${origins.file}: ${field}${message.slice(name.length)}`;
}
