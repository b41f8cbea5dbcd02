// The layered drawing of a workflow's DAG and what a failed step blocks: pure, linear in steps
// plus edges, so a run of thousands of steps is laid out in milliseconds (no layout library).
// Client-safe: no server imports.

export interface GraphStep {
  name: string;
  dependsOn: string[];
}

export interface Placed {
  layer: number;
  row: number;
}

/**
 * Layer = the longest path from a step without dependencies (Kahn's order), so every edge runs
 * left to right. Rows: one sweep per layer ordering steps by the mean row of their parents
 * (barycenter), ties in declaration order, which keeps a chain on one line and a fan-out's
 * branches next to each other. A dependency the run does not declare is ignored; steps left on
 * a cycle (a system that refuses cycles never has one) go to one layer after the rest.
 */
export function layoutSteps(steps: readonly GraphStep[]): Map<string, Placed> {
  const index = new Map(steps.map((s, i) => [s.name, i]));
  const parents = steps.map((s) => [...new Set(s.dependsOn)].flatMap((d) => (index.has(d) && d !== s.name ? [index.get(d)!] : [])));
  const children: number[][] = steps.map(() => []);
  const indegree = parents.map((p) => p.length);
  parents.forEach((ps, i) => ps.forEach((p) => children[p]!.push(i)));
  const layer = steps.map(() => 0);
  const queue: number[] = [];
  indegree.forEach((d, i) => (d === 0 ? queue.push(i) : undefined));
  let seen = 0;
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head]!;
    seen++;
    for (const c of children[i]!) {
      layer[c] = Math.max(layer[c]!, layer[i]! + 1);
      if (--indegree[c]! === 0) queue.push(c);
    }
  }
  if (seen < steps.length) {
    const last = Math.max(0, ...queue.map((i) => layer[i]!)) + 1;
    indegree.forEach((d, i) => (d > 0 ? (layer[i] = last) : undefined));
  }
  const byLayer = new Map<number, number[]>();
  steps.forEach((_, i) => {
    const at = byLayer.get(layer[i]!);
    if (at) at.push(i);
    else byLayer.set(layer[i]!, [i]);
  });
  const row = steps.map(() => 0);
  for (const l of [...byLayer.keys()].sort((a, b) => a - b)) {
    const members = byLayer.get(l)!;
    const weight = (i: number) => {
      const ps = parents[i]!.filter((p) => layer[p]! < l);
      return ps.length ? ps.reduce((t, p) => t + row[p]!, 0) / ps.length : i;
    };
    const w = new Map(members.map((i) => [i, weight(i)]));
    members.sort((a, b) => w.get(a)! - w.get(b)! || a - b).forEach((i, r) => (row[i] = r));
  }
  return new Map(steps.map((s, i) => [s.name, { layer: layer[i]!, row: row[i]! }]));
}

/**
 * For each step a failed step keeps from running: that failed step (the first, in declaration
 * order, that reaches it). A dependent that `finished` (completed, or settled another way the
 * caller counts as done) is not blocked: it ran before the failure or without it.
 */
export function blockedSteps(
  steps: readonly GraphStep[],
  failed: readonly string[],
  finished: (name: string) => boolean,
): Map<string, string> {
  const dependents = new Map<string, string[]>();
  for (const s of steps)
    for (const d of new Set(s.dependsOn)) {
      const at = dependents.get(d);
      if (at) at.push(s.name);
      else dependents.set(d, [s.name]);
    }
  const out = new Map<string, string>();
  for (const root of failed) {
    const stack = [...(dependents.get(root) ?? [])];
    while (stack.length) {
      const n = stack.pop()!;
      if (out.has(n) || n === root || failed.includes(n) || finished(n)) continue;
      out.set(n, root);
      stack.push(...(dependents.get(n) ?? []));
    }
  }
  return out;
}
