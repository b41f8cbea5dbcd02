import { describe, expect, it } from 'vitest';
import { blockedSteps, layoutSteps } from './workflow-graph';

const s = (name: string, ...dependsOn: string[]) => ({ name, dependsOn });

describe('the layered layout of a workflow DAG', () => {
  it('puts each step one layer after its deepest dependency', () => {
    const l = layoutSteps([s('a'), s('b', 'a'), s('c', 'a'), s('d', 'b', 'c'), s('e', 'a', 'd')]);
    expect([...l].map(([n, p]) => [n, p.layer])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 1],
      ['d', 2],
      ['e', 3],
    ]);
    expect(l.get('b')!.row).not.toBe(l.get('c')!.row);
  });

  it('ignores unknown dependencies and still places steps left on a cycle', () => {
    const l = layoutSteps([s('a', 'ghost'), s('x', 'y'), s('y', 'x')]);
    expect(l.get('a')!.layer).toBe(0);
    expect(l.get('x')!.layer).toBe(l.get('y')!.layer);
    expect(l.get('x')!.row).not.toBe(l.get('y')!.row);
  });

  it('lays out 5,000 steps fast, every edge left to right, no two steps on one spot', () => {
    const steps = Array.from({ length: 5000 }, (_, i) =>
      i ? s(`s${i}`, `s${Math.floor((i - 1) / 3)}`, `s${Math.floor(i / 2)}`) : s('s0'),
    );
    const t = performance.now();
    const l = layoutSteps(steps);
    expect(performance.now() - t).toBeLessThan(1000);
    for (const st of steps) for (const d of st.dependsOn) if (d !== st.name) expect(l.get(d)!.layer).toBeLessThan(l.get(st.name)!.layer);
    expect(new Set([...l.values()].map((p) => `${p.layer}:${p.row}`)).size).toBe(5000);
  });
});

describe('what a failed step blocks', () => {
  const steps = [s('prepare'), s('charge', 'prepare'), s('audit', 'prepare'), s('ship', 'charge'), s('notify', 'ship', 'audit')];

  it('is every step downstream of it that did not finish', () => {
    const b = blockedSteps(steps, ['charge'], (n) => n === 'prepare' || n === 'audit');
    expect(Object.fromEntries(b)).toEqual({ ship: 'charge', notify: 'charge' });
  });

  it('leaves out a dependent that finished before the failure, and what follows only it', () => {
    const b = blockedSteps(steps, ['charge'], (n) => n !== 'charge');
    expect(b.size).toBe(0);
  });
});
