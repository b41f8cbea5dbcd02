// What makes two failures "the same error": the exception's type, its message with the parts
// that vary per task (numbers, ids, hex, quoted values, paths, times) replaced by placeholders,
// and the innermost frame of the project's own code. Neutral: every system maps its error
// record (a Python traceback for potatoq and Celery) to `ErrorParts` and groups by `key`.
// Pure and client-safe.

import { normaliseMessage } from './normalise';

export interface ErrorFrame {
  file: string;
  func: string;
}

export interface ErrorParts {
  /** The exception's type as the system names it (`billing.CardDeclined`), null when none. */
  type: string | null;
  message: string;
  /** Outermost first, as Python prints them. */
  frames: ErrorFrame[];
}

export interface Fingerprint {
  /** Stable short key (`fp-` + 16 hex): the dead list's `group` filter. */
  key: string;
  /** `Type: normalised message`, what the groups page shows. */
  pattern: string;
  type: string | null;
  /** The innermost frame of the project's own code (`shop/billing.py in charge`), null when none. */
  frame: string | null;
}

/** The message with what varies per task replaced by placeholders: see `./normalise.ts`. */
export { MESSAGE_PREFIX_CHARS, normaliseMessage, type Work } from './normalise';

/** A frame of installed packages, the standard library or the interpreter, not the project's own. */
export function isLibraryFrame(file: string): boolean {
  const f = file.replace(/\\/g, '/');
  if (/^<.*>$/.test(f)) return true;
  if (/\/(site|dist)-packages\//.test(f)) return true;
  // The standard library: .../lib/python3.11/json/decoder.py (its site-packages matched above).
  return /\/lib(64)?\/python\d+(\.\d+)?\//.test(f) || /^[A-Za-z]:\/(.*\/)?Lib\//.test(f) || /^\/usr\/lib\/python/.test(f);
}

/** The last two segments of a path: stable across deploy directories (`/srv/app-v2/shop/billing.py` -> `shop/billing.py`). */
function shortFile(file: string): string {
  return file.replace(/\\/g, '/').split('/').filter(Boolean).slice(-2).join('/');
}

export function ownFrame(frames: ErrorFrame[]): string | null {
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i]!;
    if (!isLibraryFrame(f.file)) return `${shortFile(f.file)} in ${f.func}`;
  }
  return null;
}

/** 64-bit FNV-1a over UTF-8, hex: stable across processes and runtimes (no crypto needed
 *  client-side). In two 32-bit halves: the prime is 2^40 + 0x1b3, so h * prime is h * 0x1b3
 *  plus the low half shifted into the high one by 8; every partial product is exact in a double. */
export function fnv1a64(s: string): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (const b of new TextEncoder().encode(s)) {
    lo ^= b;
    const low = (lo >>> 0) * 0x1b3;
    const carry = Math.floor(low / 0x100000000);
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) >>> 0;
    lo = low >>> 0;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

export function fingerprintError(e: ErrorParts): Fingerprint {
  const message = normaliseMessage(e.message);
  const pattern = e.type ? (message ? `${e.type}: ${message}` : e.type) : message;
  const frame = ownFrame(e.frames);
  return { key: `fp-${fnv1a64(`${e.type ?? ''}\n${message}\n${frame ?? ''}`)}`, pattern, type: e.type, frame };
}
