// Python's `repr()`/`str()` of decoded values, for texts potatoq builds with f-strings
// (`Message {id} uses protocol v{version}`) and for Python-looking previews.
import { decimalToString } from './pydecimal';
import { pyFloatRepr } from './pyfloat';
import { isoDate, isoTime, type PyVal, uuidText } from './pyval';

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\\]/gu;

export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(NON_PRINTABLE, (c) => {
    if (c === ' ') return c;
    if (c === '\\') return '\\\\';
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const cp = c.codePointAt(0) as number;
    if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
    if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
    return `\\U${cp.toString(16).padStart(8, '0')}`;
  });
  return quote + (quote === "'" ? body.replaceAll("'", "\\'") : body) + quote;
}

function bytesRepr(data: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const b of data) {
    if (b === 0x27) hasSingle = true;
    if (b === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? '"' : "'";
  let out = '';
  for (const b of data) {
    if (b === 0x5c || (b === 0x27 && quote === "'")) out += `\\${String.fromCharCode(b)}`;
    else if (b === 0x09) out += '\\t';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `b${quote}${out}${quote}`;
}

function tzRepr(tz: number): string {
  return tz === 0 ? 'datetime.timezone.utc' : `datetime.timezone(${timedeltaRepr(BigInt(tz))})`;
}

function timedeltaRepr(us: bigint): string {
  const days = us >= 0n ? us / 86_400_000_000n : -((-us + 86_399_999_999n) / 86_400_000_000n);
  const rest = us - days * 86_400_000_000n;
  const parts: string[] = [];
  if (days) parts.push(`days=${days}`);
  if (rest / 1_000_000n) parts.push(`seconds=${rest / 1_000_000n}`);
  if (rest % 1_000_000n) parts.push(`microseconds=${rest % 1_000_000n}`);
  return `datetime.timedelta(${parts.join(', ') || '0'})`;
}

/** `str(timedelta)`: `1 day, 2:03:04.000005`, `-1 day, 23:59:59`. */
export function timedeltaStr(us: bigint): string {
  const days = us >= 0n ? us / 86_400_000_000n : -((-us + 86_399_999_999n) / 86_400_000_000n);
  const rest = us - days * 86_400_000_000n;
  const secs = rest / 1_000_000n;
  const micro = rest % 1_000_000n;
  const hms = `${secs / 3600n}:${String((secs % 3600n) / 60n).padStart(2, '0')}:${String(secs % 60n).padStart(2, '0')}`;
  const frac = micro ? `.${String(micro).padStart(6, '0')}` : '';
  const d = days ? `${days} day${days === 1n || days === -1n ? '' : 's'}, ` : '';
  return d + hms + frac;
}

export function pyRepr(v: PyVal): string {
  switch (v.k) {
    case 'none':
      return 'None';
    case 'bool':
      return v.v ? 'True' : 'False';
    case 'int':
      return v.text;
    case 'float':
      return pyFloatRepr(v.v);
    case 'str':
      return pyStrRepr(v.v);
    case 'list':
      return `[${v.items.map(pyRepr).join(', ')}]`;
    case 'set':
      return v.items.length ? `{${v.items.map(pyRepr).join(', ')}}` : 'set()';
    case 'dict':
      return `{${v.entries.map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
    case 'datetime': {
      const { date: d, time: t } = v;
      const nums = [d.year, d.month, d.day, t.hour, t.minute];
      if (t.second || t.us) nums.push(t.second);
      if (t.us) nums.push(t.us);
      const tz = t.tz === null ? '' : `, tzinfo=${tzRepr(t.tz)}`;
      return `datetime.datetime(${nums.join(', ')}${tz})`;
    }
    case 'date':
      return `datetime.date(${v.date.year}, ${v.date.month}, ${v.date.day})`;
    case 'time': {
      const t = v.time;
      const nums = [t.hour, t.minute];
      if (t.second || t.us) nums.push(t.second);
      if (t.us) nums.push(t.us);
      return `datetime.time(${nums.join(', ')}${t.tz === null ? '' : `, tzinfo=${tzRepr(t.tz)}`})`;
    }
    case 'timedelta':
      return timedeltaRepr(v.us);
    case 'uuid':
      return `UUID('${uuidText(v.hex)}')`;
    case 'decimal':
      return `Decimal('${decimalToString(v.dec)}')`;
    case 'bytes':
      return bytesRepr(v.data);
    default: {
      const never: never = v;
      return never;
    }
  }
}

/** `str(x)`, as an f-string interpolates it. */
export function pyStr(v: PyVal): string {
  switch (v.k) {
    case 'str':
      return v.v;
    case 'datetime':
      return `${isoDate(v.date)} ${isoTime(v.time)}`;
    case 'date':
      return isoDate(v.date);
    case 'time':
      return isoTime(v.time);
    case 'timedelta':
      return timedeltaStr(v.us);
    case 'uuid':
      return uuidText(v.hex);
    case 'decimal':
      return decimalToString(v.dec);
    default:
      return pyRepr(v);
  }
}
