// `json.dumps(obj, separators=(",", ":"), ensure_ascii=False)` of plain JSON (no typed values):
// floats in Python's repr, integers as written, strings escaped as Python escapes them.
import type { JsonNode } from './json';
import { pyJsonFloat } from './pyfloat';
import { pyJsonString } from './pyval';

export function dumpsJson(n: JsonNode): string {
  switch (n.k) {
    case 'null':
      return 'null';
    case 'bool':
      return n.v ? 'true' : 'false';
    case 'int':
      return n.text;
    case 'float':
      return pyJsonFloat(n.v);
    case 'str':
      return pyJsonString(n.v);
    case 'arr':
      return `[${n.items.map(dumpsJson).join(',')}]`;
    case 'obj':
      return `{${n.entries.map(([k, x]) => `${pyJsonString(k)}:${dumpsJson(x)}`).join(',')}}`;
  }
}
