// Base64 as Python's `base64` module does it (potatoq's tags, kombu's bodies): `base64.b64encode` to write, and `base64.b64decode(v)` (3.11,
// validate=False → `binascii.a2b_base64(strict_mode=False)`) to read. The non-strict
// decoder skips characters outside the standard alphabet and stops at the first complete
// pad sequence; it fails only on a dangling quantum. Pure TS so it also runs in the browser.

const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const TABLE = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++) TABLE[ALPHA.charCodeAt(i)] = i;

export function b64encode(data: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < data.length; i += 3) {
    const n = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
    out += ALPHA[n >> 18]! + ALPHA[(n >> 12) & 63]! + ALPHA[(n >> 6) & 63]! + ALPHA[n & 63]!;
  }
  const rest = data.length - i;
  if (rest === 1) {
    const n = data[i]! << 16;
    out += `${ALPHA[n >> 18]!}${ALPHA[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (data[i]! << 16) | (data[i + 1]! << 8);
    out += `${ALPHA[n >> 18]!}${ALPHA[(n >> 12) & 63]!}${ALPHA[(n >> 6) & 63]!}=`;
  }
  return out;
}

/** `binascii.a2b_base64(data, strict_mode=False)`; null where it raises binascii.Error. */
export function a2bBase64(ascii: Uint8Array): Uint8Array | null {
  const out = new Uint8Array(Math.floor((ascii.length * 3) / 4) + 3);
  let o = 0;
  let quad = 0;
  let left = 0;
  let pads = 0;
  for (let i = 0; i < ascii.length; i++) {
    const ch = ascii[i]!;
    if (ch === 0x3d) {
      if (quad >= 2 && quad + ++pads >= 4) return out.slice(0, o);
      continue;
    }
    const v = TABLE[ch]!;
    if (v < 0) continue;
    pads = 0;
    switch (quad) {
      case 0:
        quad = 1;
        left = v;
        break;
      case 1:
        quad = 2;
        out[o++] = ((left << 2) | (v >> 4)) & 0xff;
        left = v & 0x0f;
        break;
      case 2:
        quad = 3;
        out[o++] = ((left << 4) | (v >> 2)) & 0xff;
        left = v & 0x03;
        break;
      default:
        quad = 0;
        out[o++] = ((left << 6) | v) & 0xff;
        left = 0;
    }
  }
  return quad === 0 ? out.slice(0, o) : null;
}
