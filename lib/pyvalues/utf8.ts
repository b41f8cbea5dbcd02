// UTF-8 decoding with Python's `bytes.decode('utf-8')` error text (what a RabbitMQ worker
// records as the reason for an undecodable body). The BOM is kept, as Python keeps it.

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type Utf8Result = { ok: true; text: string } | { ok: false; reason: string };

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** Second-byte range for a lead byte, per the Unicode "well-formed" table Python follows. */
function secondRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** Finds the first bad sequence as CPython does: the maximal valid prefix is the error range. */
function describe(bytes: Uint8Array): string {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return at(bytes, i, i + 1, 'invalid start byte');
    let j = i + 1;
    for (let k = 0; k < need; k++, j++) {
      if (j >= n) return at(bytes, i, j, 'unexpected end of data');
      const c = bytes[j] as number;
      const [lo, hi] = k === 0 ? secondRange(b) : [0x80, 0xbf];
      if (c < lo || c > hi) return at(bytes, i, j, 'invalid continuation byte');
    }
    i = j;
  }
  return at(bytes, 0, 1, 'invalid start byte');
}

function at(bytes: Uint8Array, start: number, end: number, why: string): string {
  const where = end - start === 1 ? `byte 0x${hex2(bytes[start] as number)} in position ${start}` : `bytes in position ${start}-${end - 1}`;
  return `'utf-8' codec can't decode ${where}: ${why}`;
}

export function decodeUtf8(bytes: Uint8Array): Utf8Result {
  try {
    return { ok: true, text: fatal.decode(bytes) };
  } catch {
    return { ok: false, reason: describe(bytes) };
  }
}
