// Inserting a value into the text of a JSON list/object editor, at the cursor.

/**
 * Inserts a value at the cursor of a JSON list/object editor, adding the comma it needs.
 * An empty list becomes `[value]`; in an object the value goes under `key`.
 */
export function insertValue(
  text: string,
  at: number,
  value: string,
  container: 'list' | 'object',
  key = 'key',
): { text: string; cursor: number } {
  const k = JSON.stringify(key);
  const trimmed = text.trim();
  if (container === 'list' && (trimmed === '' || trimmed === '[]')) return { text: `[${value}]`, cursor: value.length + 1 };
  if (container === 'object' && (trimmed === '' || trimmed === '{}')) {
    const body = `{${k}: ${value}}`;
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
  const ins = container === 'object' && prev !== ':' ? `${lead}${k}: ${value}${trail}` : `${lead}${value}${trail}`;
  return { text: before + ins + after, cursor: before.length + ins.length };
}
