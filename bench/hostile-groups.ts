// Size x time of the dead-letter groups when one letter's message is built to be expensive
// (`ValueError("bad input: " + "a." * n)`, runs of `@`, `://`, digits, dots): the groups page
// polls every 5 s, so what one letter costs is paid on every poll. Run inside the broker
// benchmarks (bench/sqlite.ts adds one hostile letter per size to its seeded database), or alone
// (bench/groups.ts).
// A script, not a test: no timing is asserted anywhere. See docs/performance.md.
export const HOSTILE_SIZES = [16_000, 64_000, 256_000, 1_000_000];

export const HOSTILE_SHAPES: Array<[string, (n: number) => string]> = [
  ['"a." * n/2', (n) => 'bad input: ' + 'a.'.repeat(n / 2)],
  ['"@" * n', (n) => '@'.repeat(n)],
  ['"://" * n/3', (n) => '://'.repeat(n / 3)],
  ['digits', (n) => '7'.repeat(n)],
  ['spaces inside', (n) => `a${' '.repeat(n)}b`],
];

/** The reason a potatoq worker stores for `raise ValueError(message)`. */
export const hostileReason = (message: string, salt: number) =>
  `Traceback (most recent call last):\n  File "/srv/app/tasks.py", line ${salt}, in run\n    check(x)\nValueError: ${message}`;

const ms = (t0: number) => (performance.now() - t0).toFixed(1).padStart(8);

/**
 * For each size and shape: `insert` one more hostile letter, then time `groups()` twice (the
 * first pays the new letter's fingerprint, the second is a poll that finds it memoised).
 */
export async function measureHostileGroups(o: {
  log: (s: string) => void;
  insert: (reason: string, i: number) => Promise<void>;
  groups: () => Promise<unknown>;
  sizes?: number[];
}): Promise<void> {
  const { log } = o;
  log('\ndead-letter groups with one hostile letter more per row (ms; first read, then a repeat poll):');
  log(`  ${'message'.padEnd(16)} ${'chars'.padStart(9)} ${'first'.padStart(8)} ${'repeat'.padStart(8)}`);
  let i = 0;
  for (const n of o.sizes ?? HOSTILE_SIZES) {
    for (const [name, make] of HOSTILE_SHAPES) {
      await o.insert(hostileReason(make(n), ++i), i);
      let t0 = performance.now();
      await o.groups();
      const first = ms(t0);
      t0 = performance.now();
      await o.groups();
      log(`  ${name.padEnd(16)} ${n.toLocaleString('en-US').padStart(9)} ${first} ${ms(t0)}`);
    }
  }
}
