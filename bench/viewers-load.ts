// The load side of `npm run bench:viewers`: simulated viewers polling a console like open pages
// do, and a process tree's CPU time.
import fs from 'node:fs';
import { cpuMs } from './potatoq-side';

/** One open page's polled GETs (paths with their query), asked together every `everyMs`. */
export interface Poller {
  paths: string[];
  everyMs: number;
  /** When it first asks, from the start (ms). */
  offsetMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** mulberry32. */
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

/** A seeded random in [0, 1): the same offsets and intervals in every run (BENCH_SEED). */
export const benchRandom = () => seeded(Number(process.env.BENCH_SEED ?? 1));

/**
 * Every poller for `seconds`, as react-query's refetchInterval polls an open page: its GETs at
 * once, then again every `everyMs`. Bodies are read in full. Returns the requests made, those
 * answered 304 (unchanged since the page's last answer) and those that failed (neither 200 nor 304).
 */
export async function polling(
  url: string,
  pollers: Poller[],
  seconds: number,
): Promise<{ requests: number; errors: number; unchanged: number }> {
  const t0 = Date.now();
  const end = t0 + seconds * 1000;
  let requests = 0;
  let errors = 0;
  let unchanged = 0;
  // Like a tab (lib/client/api.ts): each page sends back the tag of its last answer per path.
  const get = async (p: string, tags: Map<string, string>) => {
    requests++;
    try {
      const tag = tags.get(p);
      const r = await fetch(`${url}${p}`, { headers: tag ? { 'if-none-match': tag } : {} });
      await r.arrayBuffer();
      if (r.status === 304) unchanged++;
      else if (r.status !== 200) errors++;
      const etag = r.headers.get('etag');
      if (r.status === 200 && etag) tags.set(p, etag);
    } catch {
      errors++;
    }
  };
  await Promise.all(
    pollers.map(async (p) => {
      const tags = new Map<string, string>();
      for (let next = t0 + p.offsetMs; next < end; next += p.everyMs) {
        await sleep(next - Date.now());
        await Promise.all(p.paths.map((path) => get(path, tags)));
      }
    }),
  );
  return { requests, errors, unchanged };
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
