// The js-yaml functions (a dependency without bundled types) the console uses: the config file
// reader's load, and dump for the generated alert rules (lib/alerts/rules.ts).
declare module 'js-yaml' {
  export const CORE_SCHEMA: unknown;
  export function dump(value: unknown, options?: { lineWidth?: number; noRefs?: boolean }): string;
  export function load(text: string, options?: { schema?: unknown; filename?: string; json?: boolean }): unknown;
}
