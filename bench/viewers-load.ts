// The load side of `npm run bench:viewers`: simulated viewers polling a console like open pages
// do, and a process tree's CPU time.
import fs from 'node:fs';
import { cpuMs } from './potatoq-side';

/** Each open page's polled GETs (paths with their query). */
export type ViewerPaths = Record<string, string[]>;

/** mulberry32: the viewers' start offsets are the same in every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `n` viewers for `seconds`, each with every page of `pages` open: every `pollMs` each page asks
 * its GETs at once, as react-query's refetchInterval does. Viewers opened the console at
 * different moments, so each starts at its own offset within the first interval. Bodies are
 * read in full. Returns the requests made and those that failed (not 200).
 */
export async function pollingViewers(
  url: string,
  pages: ViewerPaths,
  n: number,
  seconds: number,
  pollMs: number,
): Promise<{ requests: number; errors: number }> {
  const end = Date.now() + seconds * 1000;
  const random = seeded(Number(process.env.BENCH_SEED ?? 1));
  const paths = Object.values(pages).flat();
  let requests = 0;
  let errors = 0;
  const get = async (p: string) => {
    requests++;
    try {
      const r = await fetch(`${url}${p}`);
      await r.arrayBuffer();
      if (r.status !== 200) errors++;
    } catch {
      errors++;
    }
  };
  await Promise.all(
    Array.from({ length: n }, async () => {
      let next = Date.now() + (n > 1 ? random() * pollMs : 0);
      while (next < end) {
        await sleep(next - Date.now());
        await Promise.all(paths.map(get));
        next += pollMs;
      }
    }),
  );
  return { requests, errors };
}

/** CPU time (ms) of a process and every process under it (a server may fork workers). */
export function treeCpuMs(pid: number): number {
  const children = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const walk = (p: number) => {
    try {
      total += cpuMs(p);
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return total;
}
