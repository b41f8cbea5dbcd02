// Python's float repr (`repr(x)` / `json.dumps`), which JS's Number#toString does not match:
// Python switches to exponent form at 1e16 and 1e-5, always shows `.0` on integral values,
// and pads the exponent to two digits (`1e+16`, `1e-05`).

/** Shortest round-trip digits and decimal-point position (value = 0.DIGITS × 10^decpt). */
function shortestDigits(x: number): { digits: string; decpt: number } {
  // toExponential() without an argument yields the shortest digits that round-trip, as
  // Python's repr does (both pick the closest among equally short candidates).
  const [mant, exp] = Math.abs(x).toExponential().split('e') as [string, string];
  return { digits: mant.replace('.', ''), decpt: Number(exp) + 1 };
}

/** `repr(float)`: `1.0`, `0.1`, `1e+16`, `1e-05`, `nan`, `inf`, `-0.0`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (x === 0) return `${sign}0.0`;
  const { digits, decpt } = shortestDigits(x);
  if (decpt <= -4 || decpt > 16) {
    const e = decpt - 1;
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const eabs = String(Math.abs(e)).padStart(2, '0');
    return `${sign}${mant}e${e < 0 ? '-' : '+'}${eabs}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** A float as Python's json encoder writes it (allow_nan=True): `NaN`, `Infinity`, `-Infinity`. */
export function pyJsonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return pyFloatRepr(x);
}

/** Python's `int(text)` for a JSON integer literal: only `-0` changes. */
export function normalizeIntText(text: string): string {
  return text === '-0' ? '0' : text;
}
