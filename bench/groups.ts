// `npm run bench:groups`: the dead-letter groups of 10,000 letters, fingerprinted in-process the
// way every potatoq and Celery adapter does (reasonTriage + DeadGrouper), with one hostile letter
// more per size and shape (bench/hostile-groups.ts). No broker needed; a script, not a test.
import { reasonTriage } from '@/lib/triage/reason-fingerprint';
import { DeadGrouper } from '@/lib/triage/groups';
import { measureHostileGroups } from './hostile-groups';

async function main(): Promise<void> {
  // 10,000 letters of 5 distinct reasons (the broker benchmarks' seed has 5), so the memo holds
  // them and what is left to pay is the hostile letters'.
  const letters: string[] = Array.from(
    { length: 10_000 },
    (_, k) =>
      `Traceback (most recent call last):\n  File "/srv/app/tasks.py", line 9, in run\n    f()\nshop.Err${k % 5}: customer cus_41234${k % 5} failed`,
  );
  const sizes = process.env.BENCH_HOSTILE_SIZES?.split(',').map(Number);
  await measureHostileGroups({
    sizes,
    log: (s) => console.log(s),
    insert: async (reason) => void letters.unshift(reason),
    groups: async () => {
      const g = new DeadGrouper();
      letters.slice(0, 10_000).forEach((r, k) => {
        const t = reasonTriage(r);
        g.add({ id: String(k), task: 'shop.run', queue: 'q', diedAtMs: k, summary: t.summary, fp: t.fp });
      });
      return g.answer();
    },
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
