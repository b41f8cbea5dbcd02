import { describe, expect, it } from 'vitest';
import { pyStrip } from './digits';
import { reasonSummary, reasonSummaryFull } from './reason';

// The straightforward reading of cli.py (strip, splitlines, last, cut), kept as the oracle for
// the version that reads only the last line.
const PY_LINES = /\r\n|[\n\r\u000b\u000c\u001c\u001d\u001e\u0085\u2028\u2029]/;
function oracleFull(reason: string): string {
  const lines = pyStrip(reason).split(PY_LINES);
  return lines[lines.length - 1] ?? '';
}
function oracle(reason: string): string {
  const why = [...oracleFull(reason)];
  return why.length <= 70 ? why.join('') : `${why.slice(0, 69).join('')}…`;
}

const PIECES = [
  'a',
  'Zz',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\u000b',
  '\u000c',
  '\u001c',
  '\u001f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u3000',
  '😀',
  '\ud800',
  'é',
  'x'.repeat(40),
];

describe('reasonSummary reads only the last line', () => {
  it('matches strip().splitlines()[-1] cut to 70 code points on edge cases', () => {
    const cases = [
      '',
      '   ',
      '\n  abc',
      'abc\n',
      '  one line  ',
      'a\r\n\r\nb',
      '\u001fx',
      `${'😀'.repeat(70)}`,
      `${'😀'.repeat(71)}`,
      `${'y'.repeat(69)}😀`,
      `${'y'.repeat(69)}😀😀`,
      '\ud800'.repeat(80),
    ];
    for (const c of cases) {
      expect(reasonSummaryFull(c), JSON.stringify(c)).toBe(oracleFull(c));
      expect(reasonSummary(c), JSON.stringify(c)).toBe(oracle(c));
    }
  });

  it('cuts a summary kept beyond one read to max units, ending with …, never splitting a pair', () => {
    const long = reasonSummaryFull(`Traceback (most recent call last):\n  x\nValueError: ${'x'.repeat(5000)}\n`, 2048);
    expect(long).toHaveLength(2048);
    expect(long.startsWith('ValueError: xxx')).toBe(true);
    expect(long.endsWith('x…')).toBe(true);
    expect(reasonSummaryFull('E: 😀😀', 5)).toBe('E: …');
    expect(reasonSummaryFull('E: 😀😀', 6)).toBe('E: 😀…');
    expect(reasonSummaryFull('E: 😀😀', 7)).toBe('E: 😀😀');
    expect(reasonSummaryFull('  short\n', 2048)).toBe('short');
  });

  it('matches the oracle on 5,000 random mixes of line breaks, Python spaces and astral text', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let k = 0; k < 5000; k++) {
      let s = '';
      const len = rnd(12);
      for (let j = 0; j < len; j++) s += PIECES[rnd(PIECES.length)];
      expect(reasonSummary(s), JSON.stringify(s)).toBe(oracle(s));
      expect(reasonSummaryFull(s), JSON.stringify(s)).toBe(oracleFull(s));
    }
  });
});
