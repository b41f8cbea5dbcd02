// What makes two failures "the same error": the exception's type, its message with the parts
// that vary per task (numbers, ids, hex, quoted values, paths, times) replaced by placeholders,
// and the innermost frame of the project's own code. Neutral: every system maps its error
// record (a Python traceback for potatoq and Celery) to `ErrorParts` and groups by `key`.
// Pure and client-safe.

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

// Order matters: quoted values and paths first (they contain digits and slashes), then times,
// ids and hex, then any remaining number.
const RULES: Array<[RegExp, string]> = [
  [/(?<![\w'"])'(?:[^'\\\n]|\\.)*'(?![\w])/g, '<str>'],
  [/(?<![\w'"])"(?:[^"\\\n]|\\.)*"(?![\w])/g, '<str>'],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>)\]]+/gi, '<url>'],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, '<email>'],
  [/(?:\b[A-Za-z]:)?(?:[\\/][\w.@%+~-]+){2,}[\\/]?|(?:\.{1,2}|~)(?:\/[\w.@%+~-]+)+/g, '<path>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  [/\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  // Hex-looking words (object ids, hashes, tokens) that contain a digit and a letter.
  [/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi, '<hex>'],
  [/(?<![A-Za-z_])[-+]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?/gi, '<n>'],
];

/** The message with what varies per task replaced by `<str>`, `<path>`, `<uuid>`, `<n>`, ... */
export function normaliseMessage(message: string): string {
  let s = message;
  for (const [re, to] of RULES) s = s.replace(re, to);
  return s.replace(/\s+/g, ' ').trim();
}

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

/** 64-bit FNV-1a, hex: stable across processes and runtimes (no crypto needed client-side). */
function fnv1a64(s: string): string {
  let h = 0xcbf29ce484222325n;
  const bytes = new TextEncoder().encode(s);
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

export function fingerprintError(e: ErrorParts): Fingerprint {
  const message = normaliseMessage(e.message);
  const pattern = e.type ? (message ? `${e.type}: ${message}` : e.type) : message;
  const frame = ownFrame(e.frames);
  return { key: `fp-${fnv1a64(`${e.type ?? ''}\n${message}\n${frame ?? ''}`)}`, pattern, type: e.type, frame };
}
