// A JSON parser that reads exactly what Python's `json` (C scanner, 3.11) reads.
//
// Why our own and not a library: payloads carry bare NaN/Infinity/-Infinity and integers
// beyond 2^53 (contract 2.2). lossless-json keeps big numbers but rejects NaN/Infinity;
// json5 accepts them but turns numbers into doubles; neither reports errors in Python's words
// with Python's code-point positions, which is what potatoq stores as a dead letter's reason
// (`Expecting value: line 1 column 1 (char 0)`). So this is a small iterative scanner
// (an explicit stack: no recursion, so 100,000-deep input cannot overflow ours) that mirrors
// `Modules/_json.c`: same grammar, same error texts and positions, duplicate keys resolved
// like a dict (first position, last value), and Python's limits (4300-digit ints, recursion).
import { cursor, fail, isWs, matchNumber, PyJsonError, scanString, type JsonNode } from './json-scan';

export type { JsonNode };

export { PyJsonError };

/**
 * Deepest nesting we accept. CPython's C scanner counts against the recursion limit (1000):
 * called from shallow code it decodes 994 levels (golden.json `max_json_depth_ok`); a worker
 * calls it from a deeper stack, so its real limit is a little lower and not exact.
 */
export const PY_MAX_JSON_DEPTH = 990;
/** Objects with exactly these two keys, collected as they close (see parseJson). */
export interface TagWatch {
  keys: readonly [string, string];
  seen: JsonNode[];
}

type Frame = { arr: JsonNode[] } | { obj: Array<[string, JsonNode]>; index: Map<string, number> | null; key: string };

function addEntry(f: { obj: Array<[string, JsonNode]>; index: Map<string, number> | null }, key: string, v: JsonNode) {
  // Python builds a dict: a repeated key keeps its first position and its last value.
  if (f.obj.length < 16 && f.index === null) {
    const at = f.obj.findIndex((e) => e[0] === key);
    if (at >= 0) (f.obj[at] as [string, JsonNode])[1] = v;
    else f.obj.push([key, v]);
    if (f.obj.length === 16) f.index = new Map(f.obj.map((e, i) => [e[0], i]));
    return;
  }
  const index = f.index as Map<string, number>;
  const at = index.get(key);
  if (at !== undefined) (f.obj[at] as [string, JsonNode])[1] = v;
  else {
    index.set(key, f.obj.length);
    f.obj.push([key, v]);
  }
}

/**
 * Parses like `json.loads` (without the object hook). Throws PyJsonError with Python's text.
 * `tagLike`, when given, receives every closed object with exactly the two keys `tagLike.keys`,
 * in closing order: Python runs its object hook while parsing, so a tag that makes the hook
 * raise can win over a later syntax error (potatoq's decode.ts).
 */
export function parseJson(s: string, tagLike?: TagWatch): JsonNode {
  const n = s.length;
  let i = 0;
  while (i < n && isWs(s.charCodeAt(i))) i++;
  const stack: Frame[] = [];
  for (;;) {
    // Expecting a value at i.
    let value: JsonNode | null = null;
    if (i >= n) fail('Expecting value', s, i);
    const c = s.charCodeAt(i);
    if (c === 0x22) {
      value = { k: 'str', v: scanString(s, i + 1) };
      i = cursor.at;
    } else if (c === 0x7b || c === 0x5b) {
      if (stack.length + 1 > PY_MAX_JSON_DEPTH) {
        const what = c === 0x7b ? 'object' : 'array';
        throw new PyJsonError(`maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`, 'RecursionError');
      }
      i++;
      while (i < n && isWs(s.charCodeAt(i))) i++;
      if (c === 0x5b) {
        if (s.charCodeAt(i) === 0x5d) {
          value = { k: 'arr', items: [] };
          i++;
        } else {
          stack.push({ arr: [] });
          continue;
        }
      } else if (s.charCodeAt(i) === 0x7d) {
        value = { k: 'obj', entries: [] };
        i++;
      } else {
        i = readKey(s, i, stack, { obj: [], index: null, key: '' });
        continue;
      }
    } else if (c === 0x6e && s.startsWith('null', i)) {
      value = { k: 'null' };
      i += 4;
    } else if (c === 0x74 && s.startsWith('true', i)) {
      value = { k: 'bool', v: true };
      i += 4;
    } else if (c === 0x66 && s.startsWith('false', i)) {
      value = { k: 'bool', v: false };
      i += 5;
    } else if (c === 0x4e && s.startsWith('NaN', i)) {
      value = { k: 'float', v: NaN, text: 'NaN' };
      i += 3;
    } else if (c === 0x49 && s.startsWith('Infinity', i)) {
      value = { k: 'float', v: Infinity, text: 'Infinity' };
      i += 8;
    } else if (c === 0x2d && s.startsWith('-Infinity', i)) {
      value = { k: 'float', v: -Infinity, text: '-Infinity' };
      i += 9;
    } else {
      value = matchNumber(s, i);
      i = cursor.at;
    }
    // Close containers while the value completes them.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        while (i < n && isWs(s.charCodeAt(i))) i++;
        if (i !== n) fail('Extra data', s, i);
        return value;
      }
      while (i < n && isWs(s.charCodeAt(i))) i++;
      const d = s.charCodeAt(i);
      if ('arr' in top) {
        top.arr.push(value);
        if (d === 0x5d) {
          stack.pop();
          value = { k: 'arr', items: top.arr };
          i++;
          continue;
        }
        if (d !== 0x2c) fail("Expecting ',' delimiter", s, i);
        i++;
        while (i < n && isWs(s.charCodeAt(i))) i++;
        break;
      }
      addEntry(top, top.key, value);
      if (d === 0x7d) {
        stack.pop();
        value = { k: 'obj', entries: top.obj };
        if (tagLike && top.obj.length === 2 && top.index === null && top.obj.some((e) => e[0] === tagLike.keys[0])) {
          if (top.obj.some((e) => e[0] === tagLike.keys[1])) tagLike.seen.push(value);
        }
        i++;
        continue;
      }
      if (d !== 0x2c) fail("Expecting ',' delimiter", s, i);
      i++;
      while (i < n && isWs(s.charCodeAt(i))) i++;
      stack.pop();
      i = readKey(s, i, stack, top);
      break;
    }
  }
}

/** Reads `"key" :` at i, pushes the object frame, returns where the value starts. */
function readKey(s: string, i: number, stack: Frame[], frame: Extract<Frame, { obj: unknown }>): number {
  if (s.charCodeAt(i) !== 0x22) fail('Expecting property name enclosed in double quotes', s, i);
  const key = scanString(s, i + 1);
  i = cursor.at;
  while (i < s.length && isWs(s.charCodeAt(i))) i++;
  if (s.charCodeAt(i) !== 0x3a) fail("Expecting ':' delimiter", s, i);
  i++;
  while (i < s.length && isWs(s.charCodeAt(i))) i++;
  frame.key = key;
  stack.push(frame);
  return i;
}
