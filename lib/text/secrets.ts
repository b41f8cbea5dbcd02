// The one redaction step every error message and log line passes through (ConsoleError,
// ConfigError, the console's log). Client-safe and pure apart from the process-wide set of
// known secrets, which server code fills at boot (lib/config.ts) and the browser never has.
//
// Two nets, both linear in the text:
// - patterns: the password of any `scheme://user:password@host` (the userinfo ends at the LAST
//   `@` of the URL, as drivers split it, so a raw `@`, a space or a `:` in the password is
//   covered), credentials in a query string or a key=value DSN (`password=`, `sslpassword=`,
//   `token=`, `auth=`, quoted or not, keys percent-decoded), `"password": "…"` as JSON or
//   util.inspect print it, and `Bearer …` / `Basic …`;
// - the configured secrets themselves (broker URLs' passwords and credential parameters, secret
//   options), as typed, percent-encoded and decoded: whatever form a driver's text takes.

export const MASK = '***';

/** A parameter whose value is a credential (after percent-decoding, case-insensitive). */
const SECRET_KEY = /(?:pass|passwd|password|pwd|secret|token|auth|authorization|api[_-]?key|credentials?)s?$/i;
const SCHEME = /[a-z][a-z0-9+.-]{0,31}:\/\//gi;
// A key and its separator. The key starts the text, or follows a delimiter of a query string,
// a DSN, JSON or util.inspect: never the middle of a word.
const KEY_VALUE = /(^|[?&;\s,{(["'])(["']?)([A-Za-z0-9_.%-]{1,64})\2[ \t]{0,8}([=:])[ \t]{0,8}/g;
const BEARER = /\b(?:Bearer|Basic)[ \t]+([A-Za-z0-9._~+/=-]{4,})/g;
const MIN_KNOWN = 4;

type Span = [number, number];

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Where a URL's password (or its whole userinfo when it has no `:`) sits. */
function urlSpans(text: string, out: Span[]): void {
  const starts: Array<{ at: number; auth: number }> = [];
  for (const m of text.matchAll(SCHEME)) starts.push({ at: m.index, auth: m.index + m[0].length });
  starts.forEach(({ auth }, i) => {
    // The URL's line, up to the next URL: each character is looked at once.
    const rest = text.slice(auth, starts[i + 1]?.at ?? text.length);
    const nl = rest.indexOf('\n');
    const segment = nl < 0 ? rest : rest.slice(0, nl);
    const colon = segment.indexOf(':');
    // A user name never holds `/`, `?` or `#` (they end the authority before any `@`).
    const badInUser = segment.search(/[/?#]/);
    const space = segment.search(/\s/);
    for (let at = segment.lastIndexOf('@'); at >= 0; at = at === 0 ? -1 : segment.lastIndexOf('@', at - 1)) {
      const userEnd = colon >= 0 && colon < at ? colon : at;
      if (badInUser >= 0 && badInUser < userEnd) continue;
      if (userEnd === at) {
        // No password part: the whole userinfo may be a token (`amqp://token@host`).
        if (at > 0 && (space < 0 || space > at)) out.push([auth, auth + at]);
      } else if (at > userEnd + 1) out.push([auth + userEnd + 1, auth + at]);
      return;
    }
  });
}

/** The end of a value that starts at `from`: a quoted one ends at its closing quote. */
function valueEnd(text: string, from: number, query: boolean): Span | null {
  const q = text[from];
  if (q === '"' || q === "'") {
    let i = from + 1;
    while (i < text.length && text[i] !== q && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
    return [from + 1, Math.min(i, text.length)];
  }
  let i = from;
  if (query) {
    // A query value runs to the next parameter: a raw space is part of the password.
    while (i < text.length && !'&#"\n<>'.includes(text[i]!)) i++;
  } else {
    // libpq: an unquoted value ends at white space; a backslash escapes the next character
    // (a run of them too: the same DSN inside a JSON log line has its backslash doubled).
    while (i < text.length && !/\s/.test(text[i]!)) {
      if (text[i] === '\\') while (text[i] === '\\') i++;
      i++;
    }
  }
  return i > from ? [from, Math.min(i, text.length)] : null;
}

function keyValueSpans(text: string, out: Span[]): void {
  for (const m of text.matchAll(KEY_VALUE)) {
    const [whole, before, , key, sep] = m;
    if (!SECRET_KEY.test(decodeKey(key!))) continue;
    const from = m.index + whole.length;
    const quoted = text[from] === '"' || text[from] === "'";
    // `token: the token is read-only` is prose; `password: 'x'` (util.inspect) and JSON are not.
    if (sep === ':' && !quoted) continue;
    const span = valueEnd(text, from, before === '?' || before === '&' || before === ';');
    if (span) out.push(span);
  }
}

const KNOWN = Symbol.for('potatoq-console.knownSecrets');
type Global = typeof globalThis & { [KNOWN]?: Set<string> };
const known = (): Set<string> => ((globalThis as Global)[KNOWN] ??= new Set());

function spansOf(text: string): Span[] {
  const spans: Span[] = [];
  urlSpans(text, spans);
  keyValueSpans(text, spans);
  return spans;
}

/** The secrets found in a text (a broker URL, a DSN): what `redactSecrets` would hide. */
export function secretsIn(text: string): string[] {
  return spansOf(text)
    .map(([a, b]) => text.slice(a, b))
    .filter((s) => s !== MASK);
}

/** Remembers a configured secret, so that it is hidden wherever it shows up, in any form. */
export function rememberSecret(value: string | null | undefined): void {
  if (!value || value.length < MIN_KNOWN || value === MASK) return;
  const set = known();
  set.add(value);
  set.add(encodeURIComponent(value));
  try {
    set.add(decodeURIComponent(value));
  } catch {
    // Not percent-encoded: its raw form is enough.
  }
}

/**
 * Remembers the credentials a URL or DSN carries (its password, credential parameters). One the
 * URL also shows in another part (`postgres://postgres:postgres@h/postgres`) is no secret from
 * whoever reads the redacted URL, and hiding it everywhere would blank out the word in every
 * message: the patterns still hide it in its place.
 */
export function rememberSecretsOf(url: string): void {
  for (const [a, b] of spansOf(url)) {
    const secret = url.slice(a, b);
    if (!(url.slice(0, a) + url.slice(b)).includes(secret)) rememberSecret(secret);
  }
}

function mask(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [a, b] of spans) {
    if (b <= pos) continue;
    out += text.slice(pos, Math.max(a, pos)) + MASK;
    pos = b;
  }
  return out + text.slice(pos);
}

/** The text with every credential it holds replaced by `***`. Idempotent. */
export function redactSecrets(text: string): string {
  const spans = spansOf(text);
  for (const m of text.matchAll(BEARER)) spans.push([m.index + m[0].length - m[1]!.length, m.index + m[0].length]);
  let out = mask(text, spans);
  // Longest first: a secret's encoded form may contain another remembered one.
  for (const s of [...known()].sort((a, b) => b.length - a.length)) if (out.includes(s)) out = out.split(s).join(MASK);
  return out;
}
