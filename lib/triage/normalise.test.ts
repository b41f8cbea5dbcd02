import { describe, expect, it } from 'vitest';
import { fingerprintError, fnv1a64 } from './fingerprint';
import { MESSAGE_PREFIX_CHARS, normaliseMessage, type Work } from './normalise';
import { parsePythonError } from './python-traceback';
import { textKey } from './text-key';

// Texts built to make a backtracking rule retry at every position: the URL and e-mail rules
// were quadratic in "a." * 30000 (5.6 s per groups read in the field).
const HOSTILE: Array<[string, (n: number) => string]> = [
  ['"a." runs', (n) => 'bad input: ' + 'a.'.repeat(n / 2)],
  ['"@" runs', (n) => '@'.repeat(n)],
  ['"a@" runs', (n) => 'a@'.repeat(n / 2)],
  ['"://" runs', (n) => 'a://'.repeat(n / 4)],
  ['"x:/" runs', (n) => 'x:/'.repeat(n / 3)],
  ['digits', (n) => '1'.repeat(n)],
  ['digits and dots', (n) => '1.'.repeat(n / 2)],
  ['dots', (n) => '.'.repeat(n)],
  ['punctuation', (n) => '.,:;'.repeat(n / 4)],
  ['open quotes', (n) => "'a ".repeat(n / 3)],
  ['escapes', (n) => "'\\".repeat(n / 2)],
  ['escaped quotes', (n) => "'" + "\\'".repeat(n / 2) + "'a"],
  ['slashes', (n) => '/a'.repeat(n / 2)],
  ['hex', (n) => 'f'.repeat(n)],
  ['spaces inside', (n) => 'a' + ' '.repeat(n) + 'b'],
  ['ids', (n) => 'cus_1 '.repeat(n / 6)],
  ['colons', (n) => 'a:'.repeat(n / 2)],
  ['ipv6-like', (n) => 'f:'.repeat(n / 2)],
  ['host-like', (n) => 'a-1.'.repeat(n / 4) + '_'],
  ['brackets and lists', (n) => '(1, '.repeat(n / 4)],
  ['exception reprs', (n) => "E('a: ".repeat(n / 6)],
];

const workOf = (text: string): number => {
  const w: Work = { ops: 0 };
  normaliseMessage(text, w);
  return w.ops;
};

describe('normaliseMessage is linear and bounded', () => {
  it.each(HOSTILE)('%s: twice the text costs about twice the work', (_name, make) => {
    const n = MESSAGE_PREFIX_CHARS / 4;
    const one = workOf(make(n));
    const two = workOf(make(2 * n));
    expect(one).toBeGreaterThan(0);
    expect(two).toBeLessThanOrEqual(2.2 * one + 100);
    // A few dozen looks per character at most.
    expect(two).toBeLessThanOrEqual(80 * 2 * n);
  });

  it.each(HOSTILE)('%s: 60,000 characters cost no more than the prefix', (_name, make) => {
    const ops = workOf(make(60_000));
    expect(ops).toBeLessThanOrEqual(80 * MESSAGE_PREFIX_CHARS);
  });

  it('completes the field case: ValueError("bad input: " + "a." * 30000) through the whole fingerprint', () => {
    const reason = `Traceback (most recent call last):\n  File "/srv/shop/tasks.py", line 3, in run\n    f()\nValueError: bad input: ${'a.'.repeat(30_000)}`;
    const fp = fingerprintError(parsePythonError(reason));
    expect(fp.pattern.startsWith('ValueError: bad input: a.a.')).toBe(true);
    expect(fp.pattern.endsWith(' …')).toBe(true);
    expect(fp.pattern.length).toBeLessThan(MESSAGE_PREFIX_CHARS + 40);
    expect(fp.frame).toBe('shop/tasks.py in run');
  });

  it('groups long messages by their prefix: letters that differ past it share a group', () => {
    const head = 'upstream said: ' + 'x'.repeat(MESSAGE_PREFIX_CHARS);
    expect(normaliseMessage(`${head} tail one`)).toBe(normaliseMessage(`${head} tail two`));
    // A surrogate pair is never cut in half.
    const emoji = 'a'.repeat(MESSAGE_PREFIX_CHARS - 1) + '😀';
    expect(normaliseMessage(emoji).endsWith('a …')).toBe(true);
  });
});

describe('hashes', () => {
  /** The BigInt FNV-1a the keys were made with: the fast one must give the same keys. */
  const reference = (s: string) => {
    let h = 0xcbf29ce484222325n;
    for (const b of new TextEncoder().encode(s)) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
    return h.toString(16).padStart(16, '0');
  };

  it.each(['', 'a', 'ValueError\nbad <n>\nshop/x.py in f', 'ÿ€😀 mixed', 'z'.repeat(3000)])('fnv1a64(%j) keeps its value', (s) => {
    expect(fnv1a64(s)).toBe(reference(s));
  });

  it('textKey tells texts apart by length and content', () => {
    expect(textKey('abc')).toBe(textKey('abc'));
    expect(new Set([textKey('abc'), textKey('abd'), textKey('abcd'), textKey(''), textKey('bac')]).size).toBe(5);
  });
});

describe('names are not values', () => {
  it.each([
    'utf8',
    'codec_v2',
    'python311',
    'ipv4address',
    'SHA256Digest',
    'X509Certificate',
    'Base64Encoder',
    's3.amazonaws.com',
    'oauth2.googleapis.com',
    'shop.v2.billing',
    'web1.prod',
    'QueuePool',
  ])('keeps %s', (name) => {
    expect(normaliseMessage(`failed in ${name} now`)).toBe(`failed in ${name} now`);
  });

  it.each([
    ['cus_412345', '<id>'],
    ['ord_4123', '<id>'],
    ['evt_1NG8Du2eZvKYlo2CXXXXXXXX', '<id>'],
    ['pi_3MtwBwLkdIwHu7ix28a3tqPa', '<id>'],
    ['cs_test_a1B2c3D4e5F6g7H8', '<id>'],
    ['cus_NffrFeUfNVaHib', '<id>'],
    ['U024BE7LH', '<id>'],
    ['MDQ6VXNlcjU4MzIzMQ==', '<id>'],
    ['I_kwDOABCD5M5XyZ12', '<id>'],
    ['ip-10-0-1-23.ec2.internal', '<host>'],
    ['db-7.prod:5432', '<host>:<n>'],
    ['web01.lan', '<host>'],
    ['localhost:6379', 'localhost:<n>'],
    ['37.2s', '<dur>'],
    ['1500ms', '<dur>'],
    ['1h30m', '<dur>'],
    ['99.5%', '<pct>'],
    ['192.168.0.1', '<ip>'],
    ['::1', '<ip>'],
    ['2001:db8::ff00:42:8329', '<ip>'],
    ['$1', '$<n>'],
    ['IN (1, 2, 3)', 'IN (<list>)'],
    ["VALUES (1, 'a', NULL)", 'VALUES (<list>)'],
    ['IN (42)', 'IN (<list>)'],
    ['Key (id)=(42)', 'Key (id)=(<n>)'],
  ])('%s -> %s', (value, out) => {
    expect(normaliseMessage(`got ${value} here`)).toBe(`got ${out} here`);
  });
});
