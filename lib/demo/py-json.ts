// Writes JSON text exactly as Python's `json` module does, for the demo's fixed data: potatoq's
// compact form (`separators=(",", ":")`, `ensure_ascii=False`) or `json.dumps`'s default
// spacing (worker heartbeat info). Python tells ints from floats (`5` vs `5.0`) and writes
// NaN/Infinity bare, so floats are wrapped. The demo-worker test proves byte equality by
// re-encoding every seeded payload with the real potatoq.

export class PyFloat {
  constructor(readonly value: number) {}
}

/** A float as Python writes it (`5400.0`, `NaN`, `1e-05`). */
export const float = (value: number) => new PyFloat(value);

export type Py = null | boolean | string | number | bigint | PyFloat | Py[] | { [key: string]: Py };

function reprFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) {
    // Python: 1e-05, 1.5e+16 (two-digit exponent, explicit sign).
    const [mantissa, exp] = x.toExponential().split('e') as [string, string];
    const sign = exp.startsWith('-') ? '-' : '+';
    return `${mantissa}e${sign}${exp.replace(/^[-+]/, '').padStart(2, '0')}`;
  }
  const text = Object.is(x, -0) ? '-0' : String(x);
  return Number.isInteger(x) ? `${text}.0` : text;
}

/** `compact` = potatoq's serializer; otherwise `json.dumps(obj)` defaults. */
export function pyDumps(value: Py, compact = true): string {
  const comma = compact ? ',' : ', ';
  const colon = compact ? ':' : ': ';
  const write = (v: Py): string => {
    if (v === null) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new Error(`use a bigint or float() for ${v}`);
      return String(v);
    }
    if (v instanceof PyFloat) return reprFloat(v.value);
    if (Array.isArray(v)) return `[${v.map(write).join(comma)}]`;
    return `{${Object.entries(v)
      .map(([k, item]) => `${JSON.stringify(k)}${colon}${write(item)}`)
      .join(comma)}}`;
  };
  return write(value);
}

/** `{"__potatoq__": tag, "v": value}`: potatoq's tagged value. */
export function tagged(tag: string, v: Py): Py {
  return { __potatoq__: tag, v };
}
