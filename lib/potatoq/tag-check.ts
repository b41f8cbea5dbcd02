// Tagged values a producer should never write: a `{"__potatoq__": tag, "v": value}` object that
// potatoq's decoder keeps as a plain dict (an unknown tag, a value the tag's decoder rejects,
// e.g. a datetime "tomorrow 9am") or chokes on (`uuid` with a number). `potatoq call` writes
// them as given and the worker's task then gets a dict; the console refuses them, naming where.
import type { JsonNode } from '@/lib/pyvalues/json';
import { decodeTags, KNOWN_TAGS } from './tags';

export interface BadTag {
  /** Where, from the field's root: `0`, `when`, `items.2.at` (dot-joined keys and indexes). */
  path: string[];
  message: string;
}

const EXPECTED: Record<string, string> = {
  datetime: 'an ISO 8601 date-time such as 2026-12-01T09:00:00+00:00',
  date: 'an ISO 8601 date such as 2026-12-01',
  time: 'an ISO 8601 time such as 09:30:00',
  timedelta: 'a number of seconds',
  uuid: 'a UUID such as 1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  decimal: 'a decimal number as text, such as "0.10"',
  bytes: 'base64 text',
  set: 'a list of hashable values (no lists or objects)',
};

const isTagShape = (n: JsonNode): n is Extract<JsonNode, { k: 'obj' }> =>
  n.k === 'obj' && n.entries.length === 2 && n.entries.some(([k]) => k === '__potatoq__') && n.entries.some(([k]) => k === 'v');

const shown = (n: JsonNode | undefined): string => {
  if (!n) return 'nothing';
  if (n.k === 'str') return JSON.stringify(n.v.length > 60 ? `${n.v.slice(0, 60)}…` : n.v);
  if (n.k === 'int' || n.k === 'float') return n.text;
  if (n.k === 'arr') return 'a list';
  if (n.k === 'obj') return 'an object';
  return n.k === 'null' ? 'null' : String(n.v);
};

function checkTag(node: Extract<JsonNode, { k: 'obj' }>): string | null {
  const decoded = decodeTags(node);
  const bad = decoded.value.k === 'dict' && (decoded.value.note?.code === 'malformed-tag' || decoded.value.note?.code === 'unknown-tag');
  if (!bad && decoded.crash === null) return null;
  const tag = node.entries.find(([k]) => k === '__potatoq__')?.[1];
  const v = node.entries.find(([k]) => k === 'v')?.[1];
  const outcome =
    decoded.crash !== null
      ? `potatoq's worker could not decode the message at all (${decoded.crash})`
      : "potatoq's worker would receive a plain dict";
  if (tag?.k !== 'str' || !KNOWN_TAGS.has(tag.v)) {
    return `${shown(tag)} is not a tag potatoq knows (${[...KNOWN_TAGS].join(', ')}); ${outcome}`;
  }
  return `${shown(v)} is not a valid ${tag.v}: give ${EXPECTED[tag.v] ?? 'a valid value'}; ${outcome}`;
}

/**
 * Every bad tagged value in a parsed argument, innermost first (a bad item inside a set is
 * named, not the set). The caller bounds the depth (MAX_ARGUMENT_DEPTH) before calling.
 */
export function findBadTags(root: JsonNode, limit = 20): BadTag[] {
  const out: BadTag[] = [];
  const walk = (n: JsonNode, path: string[]): boolean => {
    if (out.length >= limit) return true;
    let inner = false;
    if (n.k === 'arr') n.items.forEach((item, i) => (inner = walk(item, [...path, String(i)]) || inner));
    else if (n.k === 'obj') for (const [k, v] of n.entries) inner = walk(v, [...path, k]) || inner;
    if (inner || !isTagShape(n)) return inner;
    const message = checkTag(n);
    if (message) out.push({ path, message });
    return message !== null;
  };
  walk(root, []);
  return out;
}
