import 'server-only';
import { ConfigError } from '@/lib/config-error';
import { FILE_FIELDS, type FileField } from './fields';

/** The nested field names of FILE_FIELDS: `auth` -> `proxy` -> `secret`. */
type Shape = Map<string, Shape | FileField>;

function shapeOf(fields: readonly FileField[]): Shape {
  const root: Shape = new Map();
  for (const f of fields) {
    const parts = f.path.split('.');
    let node = root;
    for (const p of parts.slice(0, -1)) {
      let next = node.get(p);
      if (!(next instanceof Map)) node.set(p, (next = new Map()));
      node = next;
    }
    node.set(parts.at(-1)!, f);
  }
  return root;
}
const SHAPE = shapeOf(FILE_FIELDS);

const TYPE_WORDS: Record<FileField['kind'], string> = {
  text: 'must be a string',
  number: 'must be a number',
  flag: 'must be true or false',
  json: 'must be a list or an object',
  list: 'must be a list of strings or one comma-separated string',
};

/** The variable's text for a file value of the field's kind, or null when the type is wrong. */
function textOf(kind: FileField['kind'], v: unknown): string | null {
  switch (kind) {
    case 'text':
      return typeof v === 'string' ? v : null;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' && /^\d+$/.test(v.trim()) ? v : null;
    case 'flag':
      return typeof v === 'boolean' ? (v ? 'true' : 'false') : null;
    case 'json':
      return typeof v === 'object' && v !== null ? JSON.stringify(v) : null;
    case 'list':
      if (typeof v === 'string') return v;
      return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join(',') : null;
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/**
 * The variables the file sets, each as the text the environment would hold. Unknown keys and
 * values of the wrong type are refused naming the file and the field; what the value must be
 * beyond its type is left to the setting's own parser (the same for file and environment).
 */
export function fileToEnv(tree: Record<string, unknown>, file: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: Record<string, unknown>, shape: Shape, at: string) => {
    for (const [key, value] of Object.entries(node)) {
      const field = at ? `${at}.${key}` : key;
      const spec = shape.get(key);
      if (!spec) {
        const known = [...shape.keys()].join(', ');
        throw new ConfigError(`${file}: ${field}: unknown setting (known here: ${known})`);
      }
      if (value === null || value === undefined) continue;
      if (spec instanceof Map) {
        if (typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${file}: ${field}: must be an object of settings`);
        walk(value as Record<string, unknown>, spec, field);
        continue;
      }
      const text = textOf(spec.kind, value);
      if (text === null) throw new ConfigError(`${file}: ${field}: ${TYPE_WORDS[spec.kind]}`);
      out.set(spec.env, text);
    }
  };
  walk(tree, SHAPE, '');
  return out;
}
