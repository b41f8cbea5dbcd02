import { describe, expect, it } from 'vitest';
import { pyStrip } from '@/lib/pyvalues/digits';
import { reasonFingerprint, reasonTriage, triageMemoSize } from '@/lib/triage/reason-fingerprint';

const traceback = (message: string) =>
  `Traceback (most recent call last):\n  File "/srv/shop/tasks.py", line 3, in run\n    f()\nValueError: ${message}\n`;

describe('reasonTriage', () => {
  it('memoises big reasons too, by a hash of the text (the same answer object twice)', () => {
    const big = traceback('bad input: ' + 'a.'.repeat(30_000));
    const first = reasonTriage(big);
    expect(reasonTriage(big)).toBe(first);
    expect(reasonTriage(`${big} `)).not.toBe(first);
    expect(first.fp.pattern.startsWith('ValueError: bad input: a.a.')).toBe(true);
    expect(first.summary).toHaveLength(70);
  });

  it('gives the fingerprint the groups use and the list filters by', () => {
    const r = traceback('customer cus_412345 declined');
    expect(reasonFingerprint(r)).toEqual(reasonTriage(r).fp);
    expect(reasonFingerprint(traceback('customer cus_298765 declined')).key).toBe(reasonFingerprint(r).key);
  });

  it.each([
    ['a. runs', 'a.'.repeat(30_000)],
    ['@ runs', '@'.repeat(60_000)],
    [':// runs', '://'.repeat(20_000)],
    ['digits', '9'.repeat(60_000)],
    ['dots', '.'.repeat(60_000)],
    ['spaces inside', `a${' '.repeat(60_000)}b`],
    ['blank lines', '\n'.repeat(60_000)],
    ['frame-like lines', '  File "x", line 1, in f\n'.repeat(3_000)],
  ])('completes hostile reasons: %s', (_name, text) => {
    for (const reason of [text, traceback(text)]) {
      const t = reasonTriage(reason);
      expect(t.fp.key).toMatch(/^fp-[0-9a-f]{16}$/);
      // Placeholders can be longer than what they replace (`1` -> `<n>`): still bounded.
      expect(t.fp.pattern.length).toBeLessThan(3 * 2_048 + 100);
    }
  });
});

describe('pyStrip', () => {
  it('strips Python whitespace at both ends only', () => {
    expect(pyStrip(' \t\x1c a  b \x85\u3000')).toBe('a  b');
    expect(pyStrip('a' + ' '.repeat(50_000) + 'b')).toHaveLength(50_002);
    expect(pyStrip('   ')).toBe('');
    expect(pyStrip('\ufeffx')).toBe('\ufeffx');
  });
});

describe('the triage memo', () => {
  it('holds a whole window of distinct reasons, and stays bounded in characters', () => {
    const reasons = Array.from({ length: 10_000 }, (_, k) => traceback(`customer cus_${400_000 + k} declined`));
    const first = reasons.map((r) => reasonTriage(r));
    // A second poll finds every one of them: the same answer objects.
    expect(reasons.every((r, k) => reasonTriage(r) === first[k])).toBe(true);
    for (let k = 0; k < 4_000; k++) reasonTriage(traceback(`${k} `.repeat(700)));
    expect(triageMemoSize().chars).toBeLessThanOrEqual(8_000_000);
    expect(triageMemoSize().entries).toBeLessThanOrEqual(24_000);
  });
});
