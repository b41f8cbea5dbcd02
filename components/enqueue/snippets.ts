// Tagged-value snippets for the args/kwargs editors: the exact `{"__potatoq__", "v"}` objects
// potatoq's decoder turns into Python values.

export type SnippetKind = 'datetime' | 'date' | 'decimal' | 'uuid' | 'bytes' | 'set' | 'timedelta';

export const SNIPPET_KINDS: SnippetKind[] = ['datetime', 'date', 'decimal', 'uuid', 'bytes', 'set', 'timedelta'];

function randomUuid(): string {
  if (typeof globalThis.crypto?.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const hex = Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function snippet(kind: SnippetKind, now = new Date()): string {
  const tag = (v: string) => `{"__potatoq__":"${kind}","v":${v}}`;
  switch (kind) {
    case 'datetime':
      return tag(JSON.stringify(now.toISOString().replace('Z', '+00:00')));
    case 'date':
      return tag(JSON.stringify(now.toISOString().slice(0, 10)));
    case 'decimal':
      return tag('"0.10"');
    case 'uuid':
      return tag(JSON.stringify(randomUuid()));
    case 'bytes':
      return tag('"aGVsbG8="');
    case 'set':
      return tag('[1,2,3]');
    case 'timedelta':
      return tag('90.0');
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/**
 * Inserts a value at the cursor of a JSON list/object editor, adding the comma it needs.
 * An empty list becomes `[value]`; in an object the caller's text decides the key.
 */
export function insertValue(text: string, at: number, value: string, container: 'list' | 'object'): { text: string; cursor: number } {
  const trimmed = text.trim();
  if (container === 'list' && (trimmed === '' || trimmed === '[]')) return { text: `[${value}]`, cursor: value.length + 1 };
  if (container === 'object' && (trimmed === '' || trimmed === '{}')) {
    const body = `{"key": ${value}}`;
    return { text: body, cursor: body.length - 1 };
  }
  // A cursor after the closing bracket (the usual spot after typing) means "append".
  const close = container === 'list' ? ']' : '}';
  if (text.slice(at).trim() === '' && text.trimEnd().endsWith(close)) at = text.lastIndexOf(close);
  const before = text.slice(0, at);
  const after = text.slice(at);
  const prev = before.trimEnd().slice(-1);
  const next = after.trimStart().slice(0, 1);
  const lead = prev === '[' || prev === ',' || prev === ':' || prev === '{' ? '' : ', ';
  const trail = next && next !== ']' && next !== '}' && next !== ',' ? ', ' : '';
  const ins = container === 'object' && prev !== ':' ? `${lead}"key": ${value}${trail}` : `${lead}${value}${trail}`;
  return { text: before + ins + after, cursor: before.length + ins.length };
}
