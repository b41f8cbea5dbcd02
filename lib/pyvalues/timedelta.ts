// `datetime.timedelta(seconds=v)` of CPython's C module: float seconds are split with modf and
// the leftover microseconds rounded half-to-even, exactly as `delta_new` does, so the value
// potatoq re-encodes (`total_seconds()`) matches.
import type { PyVal } from './pyval';

const MAX_US = (999_999_999n * 86_400n + 86_399n) * 1_000_000n + 999_999n;
const MIN_US = -999_999_999n * 86_400n * 1_000_000n;

/** C `round()`: half away from zero. */
const roundAway = (x: number) => Math.sign(x) * Math.floor(Math.abs(x) + 0.5);

/** Microseconds of `timedelta(seconds=v)`, or null where Python raises. */
export function timedeltaFromSeconds(v: PyVal): bigint | null {
  let us: bigint;
  if (v.k === 'int') us = BigInt(v.text) * 1_000_000n;
  else if (v.k === 'bool') us = v.v ? 1_000_000n : 0n;
  else if (v.k === 'float') {
    const x = v.v;
    if (!Number.isFinite(x)) return null;
    const intpart = Math.trunc(x);
    const frac = x - intpart;
    us = BigInt(intpart) * 1_000_000n;
    if (frac !== 0) {
      const scaled = frac * 1e6;
      const whole = Math.trunc(scaled);
      us += BigInt(whole);
      const leftover = scaled - whole;
      if (leftover) {
        let r = roundAway(leftover);
        if (Math.abs(r - leftover) === 0.5) {
          const odd = Number(((us % 2n) + 2n) % 2n);
          r = 2 * roundAway((leftover + odd) * 0.5) - odd;
        }
        us += BigInt(r);
      }
    }
  } else return null;
  return us > MAX_US || us < MIN_US ? null : us;
}
