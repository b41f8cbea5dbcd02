// potatoq's `serialization.dumps`: a Python value as potatoq's wire JSON, with its
// `{"__potatoq__": tag, "v": value}` tags for the types JSON lacks.
import { b64encode } from '@/lib/pyvalues/b64';
import { decimalToString } from '@/lib/pyvalues/pydecimal';
import { pyJsonFloat } from '@/lib/pyvalues/pyfloat';
import { isoDate, isoTime, pyJsonString, totalSeconds, uuidText, type PyVal } from '@/lib/pyvalues/pyval';

function tagged(tag: string, v: string): string {
  return `{"__potatoq__":"${tag}","v":${v}}`;
}

/** `serialization.dumps(value)`, byte for byte. */
export function dumpsPy(v: PyVal): string {
  const out: string[] = [];
  write(v, out);
  return out.join('');
}

function write(v: PyVal, out: string[]): void {
  switch (v.k) {
    case 'none':
      out.push('null');
      return;
    case 'bool':
      out.push(v.v ? 'true' : 'false');
      return;
    case 'int':
      out.push(v.text);
      return;
    case 'float':
      out.push(pyJsonFloat(v.v));
      return;
    case 'str':
      out.push(pyJsonString(v.v));
      return;
    case 'list':
    case 'set': {
      if (v.k === 'set') out.push('{"__potatoq__":"set","v":');
      out.push('[');
      v.items.forEach((item, i) => {
        if (i) out.push(',');
        write(item, out);
      });
      out.push(v.k === 'set' ? ']}' : ']');
      return;
    }
    case 'dict':
      out.push('{');
      v.entries.forEach(([key, item], i) => {
        out.push(i ? ',' : '', pyJsonString(key), ':');
        write(item, out);
      });
      out.push('}');
      return;
    case 'datetime':
      out.push(tagged('datetime', `"${isoDate(v.date)}T${isoTime(v.time)}"`));
      return;
    case 'date':
      out.push(tagged('date', `"${isoDate(v.date)}"`));
      return;
    case 'time':
      out.push(tagged('time', `"${isoTime(v.time)}"`));
      return;
    case 'timedelta':
      out.push(tagged('timedelta', pyJsonFloat(totalSeconds(v.us))));
      return;
    case 'uuid':
      out.push(tagged('uuid', `"${uuidText(v.hex)}"`));
      return;
    case 'decimal':
      out.push(tagged('decimal', `"${decimalToString(v.dec)}"`));
      return;
    case 'bytes':
      out.push(tagged('bytes', `"${b64encode(v.data)}"`));
      return;
    default: {
      const never: never = v;
      throw new Error(`unreachable ${String(never)}`);
    }
  }
}
