// Python's constructors for the types JSON lacks, with the rules of the versions workers run
// (`datetime.fromisoformat` of 3.11's C module, `uuid.UUID` after potatoq's `.replace` calls,
// `Decimal`, non-validating `b64decode`, `timedelta(seconds=)`, `set()`): a JSON value in, the
// Python value out, or null when the constructor rejects it. Used by potatoq's tag decoder and
// by the console's typed editor (typed-edit.ts).
import { a2bBase64 } from './b64';
import { asciiDigits, intStrip } from './digits';
import { pyDateFromIso, pyDatetimeFromIso, pyTimeFromIso } from './isodate';
import { decimalFromFloat, decimalFromInt, decimalFromString, decimalFromTuple, decimalKey } from './pydecimal';
import { type PyVal, pyTypeName } from './pyval';
import { pySetOrder } from './pyset';
import { timedeltaFromSeconds } from './timedelta';

/** The kinds `constructTyped` builds. */
export const TYPED_KINDS = new Set(['datetime', 'date', 'time', 'timedelta', 'uuid', 'decimal', 'bytes', 'set']);

/** Where a constructor's uncaught exception text goes (the first one wins). */
export interface Crash {
  crash: string | null;
}

/**
 * The Python value the constructor of `kind` builds from `v` (a decoded JSON value), null when
 * the constructor rejects it (the caller keeps the dict). `ctx.crash` receives the exception
 * text when the constructor call itself escapes a `try` (`uuid.UUID(v)` with a number: its
 * `v.replace` raises AttributeError).
 */
export function constructTyped(kind: string, v: PyVal, ctx: Crash): PyVal | null {
  switch (kind) {
    case 'datetime': {
      const r = v.k === 'str' ? pyDatetimeFromIso(v.v) : null;
      return r && { k: 'datetime', date: r.date, time: r.time };
    }
    case 'date': {
      const r = v.k === 'str' ? pyDateFromIso(v.v) : null;
      return r && { k: 'date', date: r };
    }
    case 'time': {
      const r = v.k === 'str' ? pyTimeFromIso(v.v) : null;
      return r && { k: 'time', time: r };
    }
    case 'timedelta': {
      const us = timedeltaFromSeconds(v);
      return us === null ? null : { k: 'timedelta', us };
    }
    case 'uuid':
      return decodeUuid(v, ctx);
    case 'decimal': {
      const dec =
        v.k === 'str'
          ? decimalFromString(v.v)
          : v.k === 'int'
            ? decimalFromInt(v.text)
            : v.k === 'bool'
              ? decimalFromInt(v.v ? '1' : '0')
              : v.k === 'float'
                ? decimalFromFloat(v.v)
                : v.k === 'list' && v.items.length === 3
                  ? decimalFromList(v.items as [PyVal, PyVal, PyVal])
                  : null;
      return dec && { k: 'decimal', dec };
    }
    case 'bytes': {
      let ascii: Uint8Array | null = null;
      if (v.k === 'bytes') ascii = v.data;
      else if (v.k === 'str' && /^[\x00-\x7f]*$/.test(v.v)) ascii = Uint8Array.from(v.v, (c) => c.charCodeAt(0));
      const data = ascii && a2bBase64(ascii);
      return data && { k: 'bytes', data };
    }
    case 'set':
      return decodeSet(v);
    default:
      return null;
  }
}

function decimalFromList([sign, digits, exp]: [PyVal, PyVal, PyVal]) {
  const small = (v: PyVal) => (v.k === 'int' && v.text.length < 3 ? Number(v.text) : v.k === 'bool' ? Number(v.v) : null);
  const ds = digits.k === 'list' ? digits.items.map(small) : null;
  const e = exp.k === 'int' ? BigInt(exp.text) : exp.k === 'str' ? exp.v : null;
  return decimalFromTuple(small(sign), ds, e);
}

function decodeUuid(v: PyVal, ctx: Crash): PyVal | null {
  if (v.k !== 'str') {
    // None → TypeError (caught); datetime/date/time/bytes have a .replace that raises TypeError.
    if (v.k === 'none' || v.k === 'datetime' || v.k === 'date' || v.k === 'time' || v.k === 'bytes') return null;
    const name = v.k === 'timedelta' ? 'datetime.timedelta' : v.k === 'decimal' ? 'decimal.Decimal' : pyTypeName(v);
    ctx.crash ??= `'${name}' object has no attribute 'replace'`;
    return null;
  }
  let hex = v.v.replaceAll('urn:', '').replaceAll('uuid:', '');
  hex = hex.replace(/^[{}]+|[{}]+$/g, '').replaceAll('-', '');
  if ([...hex].length !== 32) return null;
  hex = asciiDigits(hex);
  // int(hex, 16): surrounding whitespace, a '+', a 0x prefix and single underscores between digits.
  const m = /^\+?(?:0[xX]_?)?([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)$/.exec(intStrip(hex));
  if (!m) return null;
  const digits = (m[1] as string).replaceAll('_', '').replace(/^0+/, '');
  if (digits.length > 32) return null;
  return { k: 'uuid', hex: digits.toLowerCase().padStart(32, '0') };
}

/** Equality key for set membership; null when Python can't hash the value. */
export function hashKey(v: PyVal): string | null {
  switch (v.k) {
    case 'none':
      return 'N';
    case 'bool':
      return v.v ? 'n:1' : 'n:0';
    case 'int':
      return `n:${v.text}`;
    case 'float':
      if (Number.isNaN(v.v)) return 'float-nan';
      return decimalKey(decimalFromFloat(v.v)) ?? 'float-nan';
    case 'str':
      return `s:${v.v}`;
    case 'decimal':
      if (v.dec.kind === 'snan') return null;
      return decimalKey(v.dec) ?? `dnan:${Math.random()}`;
    case 'list':
    case 'dict':
    case 'set':
      return null;
    default:
      return `${v.k}:${JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x instanceof Uint8Array ? Array.from(x) : x))}`;
  }
}

function decodeSet(v: PyVal): PyVal | null {
  let items: PyVal[];
  if (v.k === 'list' || v.k === 'set') items = v.items;
  else if (v.k === 'str') items = Array.from(v.v, (c): PyVal => ({ k: 'str', v: c }));
  else if (v.k === 'dict') items = v.entries.map(([key]): PyVal => ({ k: 'str', v: key }));
  else if (v.k === 'bytes') items = Array.from(v.data, (b): PyVal => ({ k: 'int', text: String(b) }));
  else return null;
  // Python keeps the first of equal members.
  const seen = new Set<string>();
  const out: PyVal[] = [];
  for (const item of items) {
    const key = hashKey(item);
    if (key === null) return null;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return { k: 'set', items: pySetOrder(out) };
}
