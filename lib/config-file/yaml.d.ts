// The one function of js-yaml (a dependency without bundled types) the config file reader uses.
declare module 'js-yaml' {
  export const CORE_SCHEMA: unknown;
  export function load(text: string, options?: { schema?: unknown; filename?: string; json?: boolean }): unknown;
}
