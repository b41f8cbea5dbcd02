// Iteration order of a CPython 3.11 set built by `set(list)`, for members whose hash we can
// compute: numbers (Python's numeric hash: m/n ↦ m·n⁻¹ mod 2^61-1, the same for equal ints,
// floats and decimals; ±inf ↦ ±314159). potatoq
// re-encodes a set in this order, so replaying `{"v":[3,2,1]}` writes `[1,2,3]`. Sets with
// strings (hash randomised per process) or other members keep their first-seen order.
import { decimalFromFloat, type PyDecimal } from './pydecimal';
import type { PyVal } from './pyval';

const P = (1n << 61n) - 1n;
const U64 = 1n << 64n;

function intHash(n: bigint): bigint {
  let h = (n < 0n ? -n : n) % P;
  if (n < 0n) h = -h;
  return h === -1n ? -2n : h;
}

function modpow(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = base % P;
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}
const INV10 = modpow(10n, P - 2n);

/** `Decimal.__hash__` for finite values; NaNs hash by identity (null: unknowable). */
function decimalHash(d: PyDecimal): bigint | null {
  if (d.kind === 'inf') return d.neg ? -314159n : 314159n;
  if (d.kind !== 'finite') return null;
  const scale = d.exp >= 0n ? modpow(10n, d.exp) : modpow(INV10, -d.exp);
  const h = (BigInt(d.coeff) * scale) % P;
  const signed = d.neg ? -h : h;
  return signed === -1n ? -2n : signed;
}

function hashOf(v: PyVal): bigint | null {
  if (v.k === 'int') return intHash(BigInt(v.text));
  if (v.k === 'bool') return v.v ? 1n : 0n;
  if (v.k === 'float') return Number.isNaN(v.v) ? null : decimalHash(decimalFromFloat(v.v));
  if (v.k === 'decimal') return decimalHash(v.dec);
  return null;
}

/** Members (already de-duplicated, in insertion order) in the order Python iterates them. */
export function pySetOrder(items: PyVal[]): PyVal[] {
  const hashes = items.map(hashOf);
  if (hashes.some((h) => h === null)) return items;
  let mask = 7n;
  let table: Array<number | undefined> = new Array(8);
  let fill = 0;
  const insert = (idx: number) => {
    const h = hashes[idx] as bigint;
    let perturb = (h + U64) % U64;
    let i = perturb & mask;
    for (;;) {
      const probes = i + 9n <= mask ? 9 : 0;
      for (let j = 0; j <= probes; j++) {
        const at = Number(i) + j;
        if (table[at] === undefined) {
          table[at] = idx;
          return;
        }
      }
      perturb >>= 5n;
      i = (i * 5n + 1n + perturb) & mask;
    }
  };
  for (let idx = 0; idx < items.length; idx++) {
    insert(idx);
    fill++;
    if (BigInt(fill) * 5n >= mask * 3n) {
      const minused = fill > 50000 ? fill * 2 : fill * 4;
      let size = 8;
      while (size <= minused) size *= 2;
      const old = table;
      table = new Array(size);
      mask = BigInt(size - 1);
      for (const e of old) if (e !== undefined) insert(e);
    }
  }
  return table.filter((e): e is number => e !== undefined).map((e) => items[e] as PyVal);
}
