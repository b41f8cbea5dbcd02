// `decimal.Decimal(v)` construction (exact: no context rounding) and `str(Decimal)`, enough
// to tell which tagged decimals a worker accepts and how potatoq re-encodes them.

import { asciiDigits, pyStrip } from './digits';

export type PyDecimal =
  | { kind: 'finite'; neg: boolean; coeff: string; exp: bigint }
  | { kind: 'inf'; neg: boolean }
  | { kind: 'nan'; neg: boolean; payload: string }
  | { kind: 'snan'; neg: boolean; payload: string };

export function decimalFromString(raw: string): PyDecimal | null {
  // C `numeric_as_ascii`: every underscore is dropped, Unicode digits become ASCII.
  const s = pyStrip(asciiDigits(raw.replace(/_/g, '')));
  if (/[^\x00-\x7f]/.test(s)) return null;
  const m = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/.exec(s);
  if (m) {
    const intPart = m[2] ?? '';
    const frac = m[3] ?? m[4] ?? '';
    const coeff = (intPart + frac).replace(/^0+(?=\d)/, '');
    const exp = BigInt(m[5] ?? '0') - BigInt(frac.length);
    // mpdecimal's limits (64-bit): MAX_EMAX for the adjusted exponent, MIN_ETINY for the exponent.
    if (exp + BigInt(coeff.length - 1) > 999_999_999_999_999_999n || exp < -1_999_999_999_999_999_997n) return null;
    return { kind: 'finite', neg: m[1] === '-', coeff, exp };
  }
  const sp = /^([+-]?)(inf|infinity|nan(\d*)|snan(\d*))$/i.exec(s);
  if (!sp) return null;
  const neg = sp[1] === '-';
  const word = (sp[2] as string).toLowerCase();
  if (word === 'inf' || word === 'infinity') return { kind: 'inf', neg };
  const payload = (sp[3] ?? sp[4] ?? '').replace(/^0+/, '');
  return word.startsWith('s') ? { kind: 'snan', neg, payload } : { kind: 'nan', neg, payload };
}

export function decimalFromInt(text: string): PyDecimal {
  const neg = text.startsWith('-');
  return { kind: 'finite', neg, coeff: neg ? text.slice(1) : text, exp: 0n };
}

/** `Decimal((sign, digits, exponent))` from a JSON list; null where Python raises. */
export function decimalFromTuple(sign: unknown, digits: unknown, exp: unknown): PyDecimal | null {
  if (sign !== 0 && sign !== 1) return null;
  const neg = sign === 1;
  if (!Array.isArray(digits) || digits.some((d) => typeof d !== 'number' || !Number.isInteger(d) || d < 0 || d > 9)) return null;
  const coeff = (digits as number[]).join('').replace(/^0+(?=\d)/, '') || '0';
  if (exp === 'F') return { kind: 'inf', neg };
  if (exp === 'n' || exp === 'N') {
    const payload = coeff.replace(/^0+/, '');
    return exp === 'n' ? { kind: 'nan', neg, payload } : { kind: 'snan', neg, payload };
  }
  if (typeof exp !== 'bigint') return null;
  return { kind: 'finite', neg, coeff, exp };
}

/** Exact binary value of a double, as `Decimal(float)`. */
export function decimalFromFloat(x: number): PyDecimal {
  const neg = x < 0 || Object.is(x, -0);
  if (Number.isNaN(x)) return { kind: 'nan', neg: false, payload: '' };
  if (!Number.isFinite(x)) return { kind: 'inf', neg };
  const a = Math.abs(x);
  if (Number.isInteger(a)) return { kind: 'finite', neg, coeff: BigInt(a).toString(), exp: 0n };
  // a = m / 2^k exactly; m / 2^k = m * 5^k / 10^k.
  let m = a;
  let k = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    k++;
  }
  const coeff = (BigInt(m) * 5n ** BigInt(k)).toString();
  return { kind: 'finite', neg, coeff, exp: BigInt(-k) };
}

/** `str(Decimal)`: the to-scientific-string of the decimal specification. */
export function decimalToString(d: PyDecimal): string {
  const sign = d.neg ? '-' : '';
  if (d.kind === 'inf') return `${sign}Infinity`;
  if (d.kind === 'nan') return `${sign}NaN${d.payload}`;
  if (d.kind === 'snan') return `${sign}sNaN${d.payload}`;
  const c = d.coeff;
  const adjusted = d.exp + BigInt(c.length - 1);
  if (d.exp <= 0n && adjusted >= -6n) {
    const e = Number(d.exp);
    if (e === 0) return sign + c;
    const point = c.length + e;
    if (point > 0) return `${sign}${c.slice(0, point)}.${c.slice(point)}`;
    return `${sign}0.${'0'.repeat(-point)}${c}`;
  }
  const mant = c.length > 1 ? `${c[0]}.${c.slice(1)}` : c;
  return `${sign}${mant}E${adjusted >= 0n ? '+' : ''}${adjusted}`;
}

/** A key equal for numerically equal decimals (and for ints/floats of the same value). */
export function decimalKey(d: PyDecimal): string | null {
  if (d.kind === 'inf') return d.neg ? '-inf' : 'inf';
  if (d.kind !== 'finite') return null;
  const c = d.coeff.replace(/^0+/, '');
  if (c === '') return 'n:0';
  const trimmed = c.replace(/0+$/, '');
  const exp = d.exp + BigInt(c.length - trimmed.length);
  const sign = d.neg ? '-' : '';
  if (exp >= 0n && exp < 5000n) return `n:${sign}${trimmed}${'0'.repeat(Number(exp))}`;
  return `x:${sign}${trimmed}e${exp}`;
}
