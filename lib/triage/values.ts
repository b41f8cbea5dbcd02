// The values a run, a piece of one or a word can be as a whole, for `./normalise.ts`: each rule
// is anchored at both ends and has no nested quantifier over overlapping classes, so it looks at
// each character a bounded number of times. Pure and client-safe.

export interface Work {
  ops: number;
}

type Rule = [RegExp, string];

const DURATION_UNIT = '(?:ns|us|µs|ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)';
// A whole run (or piece, or word) that is one value.
const VALUE_RULES: Rule[] = [
  [/^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/, '<email>'],
  [/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i, '<uuid>'],
  [/^(?:[A-Za-z]:)?(?:[\\/][\w.@%+~-]+){2,}[\\/]?$|^(?:\.{1,2}|~)(?:\/[\w.@%+~-]+)+\/?$/, '<path>'],
  [/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, '<time>'],
  [/^\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?$/, '<time>'],
  [/^\d{1,3}(?:\.\d{1,3}){3}$/, '<ip>'],
  // IPv6: with `::`, or all eight groups; an optional zone (`%eth0`).
  [/^(?=[0-9a-f:]*::)(?=[:.]*[0-9a-f])[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?:%[\w.]+)?$|^[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){7}$/i, '<ip>'],
  [new RegExp(`^[-+]?\\d+(?:\\.\\d+)?${DURATION_UNIT}(?:\\d+(?:\\.\\d+)?${DURATION_UNIT})*$`), '<dur>'],
  [/^[-+]?\d+(?:\.\d+)?%$/, '<pct>'],
  [/^0x[0-9a-f]+$/i, '<hex>'],
  // Hex words (object ids, hashes, SHAs) of 8+ with a digit and a letter.
  [/^(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{8,}$/i, '<hex>'],
  [/^[-+]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?$/i, '<n>'],
];

/** `ch_3MqLiJLkdIwHu7ix0snN0B15`, `cus_412345`, `cs_test_a1B2…`: a short lowercase prefix, `_`,
 *  and a suffix that has a digit (3+ long) or is 10+ letters of both cases. `codec_v2` stays. */
function isPrefixedId(w: string): boolean {
  const m = /^[a-z]{1,12}(?:_[a-z]{1,12})?_([A-Za-z0-9]+)$/.exec(w);
  if (!m) return false;
  const tail = m[1]!;
  if (/\d/.test(tail)) return tail.length >= 3;
  return tail.length >= 10 && /[a-z]/.test(tail) && /[A-Z]/.test(tail);
}

/** Random-looking ids: Slack's `U024BE7LH`, GitHub node ids (`MDQ6VXNlcjU4MzIzMQ==`,
 *  `PR_kwDOABCD5M5XyZ12`), base-62 tokens: 8+ letters and digits that switch between letters
 *  and digits 3+ times. Names with a number in them switch less (`python311`, `SHA256Digest`,
 *  `X509Certificate`, `ipv4address`) and stay. */
function isOpaqueId(w: string): boolean {
  if (/^[A-Z]{1,3}_kwD[A-Za-z0-9_-]+$/.test(w)) return true;
  if (!/^[A-Za-z0-9]{8,}={0,2}$/.test(w)) return false;
  let switches = 0;
  for (let i = 1; i < w.length; i++) if (isDigit(w[i]!) !== isDigit(w[i - 1]!) && w[i] !== '=') switches++;
  return switches >= 3;
}
const isDigit = (c: string) => c >= '0' && c <= '9';

/** A host name with a numbered label (`ip-10-0-1-23.ec2.internal`, `db-7.prod`, `web01.lan`),
 *  and an optional port. Names without one (`s3.amazonaws.com`, `oauth2.googleapis.com`) stay. */
function hostAndPort(w: string): string | null {
  const m = /^((?:[a-z0-9-]+\.)+[a-z][a-z0-9-]*)(:\d{1,5})?$/i.exec(w);
  if (!m) return null;
  const labels = m[1]!.split('.');
  if (!labels.some((l) => /\d/.test(l) && (l.includes('-') || /\d\D*\d/.test(l)))) return null;
  return m[2] ? '<host>:<n>' : '<host>';
}

/** The placeholder for a value, null when `w` is not one. */
export function classify(w: string, work: Work): string | null {
  if (w === '') return null;
  work.ops += w.length * (VALUE_RULES.length + 6);
  for (const [re, to] of VALUE_RULES) if (re.test(w)) return to;
  const ipPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(w);
  if (ipPort) return '<ip>:<n>';
  const host = hostAndPort(w);
  if (host) return host;
  if (isPrefixedId(w) || isOpaqueId(w)) return '<id>';
  return null;
}
