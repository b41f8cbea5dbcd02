// `serialization._object_hook`, applied bottom-up like json's object_hook: a dict with exactly
// the keys `__potatoq__` and `v` and a known tag becomes the Python value when the decoder
// accepts `v`; otherwise it stays a plain dict (flagged here so the console can say why).
// One case escapes potatoq's try/except: `uuid.UUID(v)` with a non-string `v` raises
// AttributeError, and an unhashable tag raises TypeError; both make `loads` itself fail,
// so a worker cannot decode the payload at all (`crash`).
import { a2bBase64 } from '@/lib/pyvalues/b64';
import { asciiDigits, intStrip } from '@/lib/pyvalues/digits';
import { pyDateFromIso, pyDatetimeFromIso, pyTimeFromIso } from '@/lib/pyvalues/isodate';
import type { JsonNode } from '@/lib/pyvalues/json';
import { decimalFromFloat, decimalFromInt, decimalFromString, decimalFromTuple, decimalKey } from '@/lib/pyvalues/pydecimal';
import { type PyVal, pyTypeName, toPy } from '@/lib/pyvalues/pyval';
import type { ValueNote } from '@/lib/brokers/typed-value';
import { pySetOrder } from '@/lib/pyvalues/pyset';
import { timedeltaFromSeconds } from '@/lib/pyvalues/timedelta';

/** Why a dict that looks tagged reaches potatoq's workers as a plain dict. */
export type DictFlag = 'unknown-tag' | 'malformed-tag' | 'legacy-tag';

/** The flags in words, carried on the dict (`PyVal` `note`) to the console's typed value. */
export const TAG_NOTES: Record<DictFlag, ValueNote> = {
  'unknown-tag': {
    code: 'unknown-tag',
    label: 'unknown tag',
    why: 'A __potatoq__ tag this potatoq does not know (a newer producer?). Workers receive it as a plain dict.',
  },
  'malformed-tag': {
    code: 'malformed-tag',
    label: 'malformed tag',
    why: "A known tag whose value potatoq's decoder rejects. Workers receive it as a plain dict.",
  },
  'legacy-tag': {
    code: 'legacy-tag',
    label: 'written by an older potatoq',
    why: 'A {"__type__", "__value__"} value from an older potatoq. Today\'s workers receive it as a plain dict.',
  },
};

export interface TagDecode {
  value: PyVal;
  /** Python's exception text when `serialization.loads` would raise on this value. */
  crash: string | null;
  flags: Set<DictFlag>;
}

export const KNOWN_TAGS = new Set(['datetime', 'date', 'time', 'timedelta', 'uuid', 'decimal', 'bytes', 'set']);

/** `serialization.loads` after JSON parsing: JSON tree → Python value. */
export function decodeTags(node: JsonNode): TagDecode {
  const ctx: TagDecode = { value: { k: 'none' }, crash: null, flags: new Set() };
  ctx.value = toPy(node, (entries) => hook(entries, ctx));
  return ctx;
}

function hook(entries: Array<[string, PyVal]>, ctx: TagDecode): PyVal {
  if (entries.length !== 2) return { k: 'dict', entries };
  const tag = entries.find((e) => e[0] === '__potatoq__')?.[1];
  const v = entries.find((e) => e[0] === 'v')?.[1];
  if (tag === undefined || v === undefined) {
    if (entries.some((e) => e[0] === '__type__') && entries.some((e) => e[0] === '__value__')) {
      ctx.flags.add('legacy-tag');
      return { k: 'dict', entries, note: TAG_NOTES['legacy-tag'] };
    }
    return { k: 'dict', entries };
  }
  if (tag.k === 'list' || tag.k === 'dict' || tag.k === 'set') {
    ctx.crash ??= `unhashable type: '${tag.k}'`;
    ctx.flags.add('malformed-tag');
    return { k: 'dict', entries, note: TAG_NOTES['malformed-tag'] };
  }
  if (tag.k !== 'str' || !KNOWN_TAGS.has(tag.v)) {
    ctx.flags.add('unknown-tag');
    return { k: 'dict', entries, note: TAG_NOTES['unknown-tag'] };
  }
  const decoded = decodeOne(tag.v, v, ctx);
  if (decoded) return decoded;
  ctx.flags.add('malformed-tag');
  return { k: 'dict', entries, note: TAG_NOTES['malformed-tag'] };
}

function decodeOne(tag: string, v: PyVal, ctx: TagDecode): PyVal | null {
  switch (tag) {
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

function decodeUuid(v: PyVal, ctx: TagDecode): PyVal | null {
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
