import { describe, expect, it } from 'vitest';
import { count, median, parsePpid, parseVmRssKb, ratioLine, treeOf } from '@/bench/celery-figures';

describe('bench:celery figures', () => {
  it('takes the middle sample, or the mean of the middle two, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('says Flower ÷ console and whether the 3× goal is met', () => {
    expect(ratioLine('overview', 30, 10)).toMatch(/ 3\.00×.*Flower 30\.0 ms ÷ console 10\.0 ms; goal ≥ 3× met/);
    expect(ratioLine('overview', 29.9, 10)).toMatch(/2\.99×.*NOT met/);
    expect(ratioLine('overview', 5, 50)).toMatch(/0\.10×/);
  });

  it('prints no Infinity or NaN when a figure is missing or zero', () => {
    expect(ratioLine('x', undefined, 3)).toMatch(/not measured$/);
    expect(ratioLine('x', 3, Number.NaN)).toMatch(/not measured$/);
    expect(ratioLine('x', 3, 0)).toMatch(/no ratio$/);
  });

  it('reads VmRSS and the parent pid from /proc texts', () => {
    expect(parseVmRssKb('Name:\tnode\nVmPeak:\t 900 kB\nVmRSS:\t  123456 kB\nThreads: 11\n')).toBe(123456);
    expect(parseVmRssKb('Name:\tkworker\nThreads: 1\n')).toBeNull();
    // A command with spaces and a parenthesis: the fields start after the last ')'.
    expect(parsePpid('4242 (celery (flower) x) S 4100 4242 4242 0 -1')).toBe(4100);
  });

  it('finds every descendant of a server, not its siblings', () => {
    const parents = new Map([
      [11, 10],
      [12, 11],
      [13, 10],
      [20, 1],
    ]);
    expect(treeOf(10, parents).sort()).toEqual([10, 11, 12, 13]);
    expect(treeOf(20, parents)).toEqual([20]);
  });

  it('writes counts with separators and unknown as a dash', () => {
    expect(count(100000)).toBe('100,000');
    expect(count(null)).toBe('—');
  });
});
