import 'server-only';
import { a2bBase64 } from '@/lib/pyvalues/b64';
import { pyDatetimeFromIso, pyTimeFromIso } from '@/lib/pyvalues/isodate';
import { parseJson, type JsonNode } from '@/lib/pyvalues/json';
import { decimalFromString, decimalToString } from '@/lib/pyvalues/pydecimal';
import { pyJsonFloat } from '@/lib/pyvalues/pyfloat';
import { isoDate, isoTime, toPy, type PyVal } from '@/lib/pyvalues/pyval';

// kombu 5.7's JSON serializer (`kombu/utils/json.py`), the one Celery's messages and the Redis
// result backend use: `{"__type__": t, "__value__": v}` markers for datetime, date, time,
// Decimal, UUID (`{"hex": ...}`), bytes (UTF-8 text) and base64 (other bytes). `loads` applies
// the marker hook bottom-up and **raises** on an unknown `__type__` (`ValueError("Unsupported
// type")`): a worker cannot decode such a message at all, so the console reports it.

export interface KombuDecode {
  value: PyVal;
  /** Python's error when kombu's `loads` would raise on this value, null when it decodes. */
  crash: string | null;
}

const marker = (entries: Array<[string, PyVal]>) => {
  if (entries.length !== 2) return null;
  const t = entries.find((e) => e[0] === '__type__')?.[1];
  const v = entries.find((e) => e[0] === '__value__')?.[1];
  return t && v ? { t, v } : null;
};

function decodeMarker(t: PyVal, v: PyVal): PyVal | null {
  if (t.k !== 'str') return null;
  switch (t.v) {
    case 'datetime': {
      const r = v.k === 'str' ? pyDatetimeFromIso(v.v) : null;
      return r && { k: 'datetime', date: r.date, time: r.time };
    }
    case 'date': {
      // `datetime.fromisoformat(o).date()`
      const r = v.k === 'str' ? pyDatetimeFromIso(v.v) : null;
      return r && { k: 'date', date: r.date };
    }
    case 'time': {
      const r = v.k === 'str' ? pyTimeFromIso(v.v) : null;
      return r && { k: 'time', time: r };
    }
    case 'decimal': {
      const d = v.k === 'str' ? decimalFromString(v.v) : null;
      return d && { k: 'decimal', dec: d };
    }
    case 'uuid': {
      // `uuid.UUID(**o)` with `o = {"hex": "..."}`.
      const hex = v.k === 'dict' && v.entries.length === 1 && v.entries[0]![0] === 'hex' ? v.entries[0]![1] : null;
      const text = hex?.k === 'str' ? hex.v.replace(/^urn:uuid:|[{}-]/g, '') : null;
      return text && /^[0-9a-fA-F]{32}$/.test(text) ? { k: 'uuid', hex: text.toLowerCase() } : null;
    }
    case 'bytes':
      return v.k === 'str' ? { k: 'bytes', data: new TextEncoder().encode(v.v) } : null;
    case 'base64': {
      const data = v.k === 'str' && /^[\x00-\x7f]*$/.test(v.v) ? a2bBase64(Uint8Array.from(v.v, (c) => c.charCodeAt(0))) : null;
      return data && { k: 'bytes', data };
    }
    default:
      return null;
  }
}

/** kombu's `loads` of a parsed JSON tree: markers become Python values. */
export function decodeKombu(node: JsonNode): KombuDecode {
  const out: KombuDecode = { value: { k: 'none' }, crash: null };
  out.value = toPy(node, (entries) => {
    const m = marker(entries);
    if (!m) return { k: 'dict', entries };
    const decoded = decodeMarker(m.t, m.v);
    if (decoded) return decoded;
    out.crash ??=
      m.t.k === 'str' && ['datetime', 'date', 'time', 'decimal', 'uuid', 'bytes', 'base64'].includes(m.t.v)
        ? `kombu cannot decode the ${m.t.v} value ${JSON.stringify(m.v.k === 'str' ? m.v.v : m.v.k)}`
        : `ValueError: ('Unsupported type', <class 'type'>, ...): kombu's JSON decoder knows no "__type__" ${m.t.k === 'str' ? JSON.stringify(m.t.v) : m.t.k}`;
    return { k: 'dict', entries };
  });
  return out;
}

/** kombu's `loads` of JSON text; throws PyJsonError on text that is not JSON. */
export const loadsKombu = (text: string): KombuDecode => decodeKombu(parseJson(text));

// Python's json encoder with its defaults (ensure_ascii=True, separators ", " and ": "), as
// kombu's `dumps` calls it.
function asciiString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || c > 0x7e) {
      if (c > 0xffff) {
        const v = c - 0x10000;
        out += `\\u${(0xd800 + (v >> 10)).toString(16).padStart(4, '0')}\\u${(0xdc00 + (v & 0x3ff)).toString(16).padStart(4, '0')}`;
      } else out += `\\u${c.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

const as = (t: string, v: string) => `{"__type__": "${t}", "__value__": ${v}}`;

export class KombuEncodeError extends Error {}

/** `kombu.utils.json.dumps(value)`, byte for byte. Sets and timedeltas are not JSON
 *  serializable for kombu (TypeError), as in Python. */
export function dumpsKombu(v: PyVal): string {
  switch (v.k) {
    case 'none':
      return 'null';
    case 'bool':
      return v.v ? 'true' : 'false';
    case 'int':
      return v.text;
    case 'float':
      return pyJsonFloat(v.v);
    case 'str':
      return asciiString(v.v);
    case 'list':
      return `[${v.items.map(dumpsKombu).join(', ')}]`;
    case 'dict':
      return `{${v.entries.map(([k, x]) => `${asciiString(k)}: ${dumpsKombu(x)}`).join(', ')}}`;
    case 'datetime':
      return as('datetime', asciiString(`${isoDate(v.date)}T${isoTime(v.time)}`));
    case 'date':
      return as('date', asciiString(isoDate(v.date)));
    case 'time':
      return as('time', asciiString(isoTime(v.time)));
    case 'decimal':
      return as('decimal', asciiString(decimalToString(v.dec)));
    case 'uuid':
      return as('uuid', `{"hex": "${v.hex}"}`);
    case 'bytes': {
      const text = utf8Text(v.data);
      return text === null ? as('base64', asciiString(Buffer.from(v.data).toString('base64'))) : as('bytes', asciiString(text));
    }
    case 'timedelta':
    case 'set':
      throw new KombuEncodeError(`Object of type ${v.k} is not JSON serializable`);
    default: {
      const never: never = v;
      return never;
    }
  }
}

function utf8Text(data: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return null;
  }
}
