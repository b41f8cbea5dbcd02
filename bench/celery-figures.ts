// Pure helpers of `npm run bench:celery` (bench/celery.ts): medians, the Flower ÷ console ratio
// line, and resident memory of a process tree read from /proc. Unit-tested in
// tests/bench/celery-figures.test.ts; no broker or process needed.
import fs from 'node:fs';

/** The median of `xs` (the mean of the middle two for an even count); NaN for none. */
export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The goal of issue 36: every console read at least this many times faster than Flower's. */
export const GOAL = 3;

/**
 * One line of the comparison: how many times Flower's median is the console's (above 1 the
 * console is faster) and whether that meets `goal`. Unknown or zero figures say so instead of
 * printing Infinity or NaN.
 */
export function ratioLine(what: string, flowerMs: number | undefined, consoleMs: number | undefined, goal = GOAL): string {
  const label = what.padEnd(64);
  if (flowerMs === undefined || consoleMs === undefined || !Number.isFinite(flowerMs) || !Number.isFinite(consoleMs))
    return `${label} not measured`;
  if (consoleMs <= 0) return `${label} console figure is 0 ms: no ratio`;
  const r = flowerMs / consoleMs;
  const verdict = r >= goal ? `goal ≥ ${goal}× met` : `goal ≥ ${goal}× NOT met`;
  return `${label} ${r.toFixed(2).padStart(7)}×  (Flower ${flowerMs.toFixed(1)} ms ÷ console ${consoleMs.toFixed(1)} ms; ${verdict})`;
}

/** VmRSS of a /proc/<pid>/status text in KiB; null when absent (a zombie, a kernel thread). */
export function parseVmRssKb(status: string): number | null {
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  return m ? Number(m[1]) : null;
}

/** The parent pid in a /proc/<pid>/stat text (the command may hold spaces and parentheses). */
export function parsePpid(stat: string): number | null {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(rest[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

/** `root` and every descendant of it, given each pid's parent. */
export function treeOf(root: number, parents: Map<number, number>): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parents) if (ppid === out[i] && !out.includes(pid)) out.push(pid);
  return out;
}

const readOr = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null; // the process ended between the listing and the read
  }
};

/** Resident memory of `root` and its descendants (a server's workers), in MiB, from /proc. */
export function treeRssMb(root: number): { mb: number; processes: number } {
  const parents = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readOr(`/proc/${name}/stat`);
    const ppid = stat === null ? null : parsePpid(stat);
    if (ppid !== null) parents.set(Number(name), ppid);
  }
  const pids = treeOf(root, parents);
  let kb = 0;
  for (const pid of pids) kb += parseVmRssKb(readOr(`/proc/${pid}/status`) ?? '') ?? 0;
  return { mb: kb / 1024, processes: pids.length };
}

/** A count with thousands separators, or "—" for unknown. */
export const count = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));
