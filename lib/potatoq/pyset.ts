// Iteration order of a CPython 3.11 set built by `set(list)`, for members whose hash we can
// compute (ints, bools, integral floats and decimals: hash(n) = n mod 2^61-1). potatoq
// re-encodes a set in this order, so replaying `{"v":[3,2,1]}` writes `[1,2,3]`. Sets with
// strings (hash randomised per process) or other members keep their first-seen order.
import { decimalKey } from './pydecimal';
import type { PyVal } from './pyval';

const P = (1n << 61n) - 1n;
const U64 = 1n << 64n;

function intHash(n: bigint): bigint {
  let h = (n < 0n ? -n : n) % P;
  if (n < 0n) h = -h;
  return h === -1n ? -2n : h;
}

function hashOf(v: PyVal): bigint | null {
  if (v.k === 'int') return intHash(BigInt(v.text));
  if (v.k === 'bool') return v.v ? 1n : 0n;
  if (v.k === 'float' && Number.isInteger(v.v)) return intHash(BigInt(v.v));
  if (v.k === 'decimal') {
    const key = decimalKey(v.dec);
    return key?.startsWith('n:') ? intHash(BigInt(key.slice(2))) : null;
  }
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
