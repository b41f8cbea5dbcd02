import { describe, expect, it } from 'vitest';
import type { BrokerOverview } from '@/lib/brokers/dto';
import { brokerFacts, evaluateTarget, newAlertMemory } from './evaluate';
import { ZAlertTarget } from './schema';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const target = (o: Record<string, unknown>) => ZAlertTarget.parse({ id: 't', broker: 'b', ...o });

function overview(queues: Array<Record<string, unknown>>, workers: { alive: number; stale: number } | null = null): BrokerOverview {
  return {
    id: 'b',
    model: { states: [{ key: 'ready', role: 'waiting' }] },
    workers,
    queues: queues.map((q) => ({ name: 'q', counts: { ready: 0 }, dead: 0, oldestWaitingAt: null, tasks: null, ...q })),
  } as unknown as BrokerOverview;
}

describe('evaluateTarget', () => {
  it('breaches oldestWaiting above its threshold in seconds, on the worst queue when none is named', () => {
    const o = overview([
      { name: 'a', counts: { ready: 1 }, oldestWaitingAt: new Date(T0 - 90_000).toISOString() },
      { name: 'b', counts: { ready: 1 }, oldestWaitingAt: new Date(T0 - 30_000).toISOString() },
    ]);
    const all = evaluateTarget(target({ kind: 'oldestWaiting', threshold: 60 }), { at: T0, overview: o }, newAlertMemory());
    expect(all).toMatchObject({ value: 90, breached: true });
    const b = evaluateTarget(target({ kind: 'oldestWaiting', threshold: 60, queue: 'b' }), { at: T0, overview: o }, newAlertMemory());
    expect(b).toMatchObject({ value: 30, breached: false });
  });

  it('rates dead letters per minute from two reads, counting only increases, unknown on the first', () => {
    const mem = newAlertMemory();
    const t = target({ kind: 'deadPerMinute', threshold: 5 });
    expect(evaluateTarget(t, { at: T0, overview: overview([{ dead: 10 }]) }, mem)).toMatchObject({ value: null, breached: false });
    expect(evaluateTarget(t, { at: T0 + 30_000, overview: overview([{ dead: 14 }]) }, mem)).toMatchObject({ value: 8, breached: true });
    expect(evaluateTarget(t, { at: T0 + 90_000, overview: overview([{ dead: 2 }]) }, mem)).toMatchObject({ value: 0, breached: false });
  });

  it('is unknown, never 0, when the broker does not count dead letters or did not answer', () => {
    const t = target({ kind: 'deadPerMinute', threshold: 1 });
    expect(evaluateTarget(t, { at: T0, overview: overview([{ dead: null }]) }, newAlertMemory()).unknown).toMatch(/cannot count/);
    expect(evaluateTarget(t, { at: T0, overview: null }, newAlertMemory()).unknown).toMatch(/did not answer/);
  });

  it('counts fingerprints not seen when watching began', () => {
    const mem = newAlertMemory();
    const t = target({ kind: 'newFingerprint' });
    const o = overview([{}]);
    expect(evaluateTarget(t, { at: T0, overview: o, fingerprints: ['fp-a'] }, mem)).toMatchObject({ value: 0, breached: false });
    expect(evaluateTarget(t, { at: T0 + 1, overview: o, fingerprints: ['fp-a', 'fp-b'] }, mem)).toMatchObject({ value: 1, breached: true });
  });

  it('finds no consumer from queue consumers first, else live workers; unknown when neither is reported', () => {
    const t = target({ kind: 'noConsumer', queue: 'q' });
    const m = newAlertMemory();
    expect(
      evaluateTarget(t, { at: T0, overview: overview([{ counts: { ready: 3 }, consumers: 0 }], { alive: 2, stale: 0 }) }, m),
    ).toMatchObject({ value: 1, breached: true });
    expect(evaluateTarget(t, { at: T0, overview: overview([{ counts: { ready: 3 }, consumers: 1 }]) }, m)).toMatchObject({ value: 0 });
    expect(evaluateTarget(t, { at: T0, overview: overview([{ counts: { ready: 3 } }], { alive: 0, stale: 1 }) }, m)).toMatchObject({
      value: 1,
    });
    expect(evaluateTarget(t, { at: T0, overview: overview([{ counts: { ready: 0 } }], { alive: 0, stale: 1 }) }, m)).toMatchObject({
      value: 0,
    });
    expect(evaluateTarget(t, { at: T0, overview: overview([{ counts: { ready: 3 } }]) }, m).value).toBeNull();
  });

  it('judges a broker that did not answer as unreachable, and nothing else by the values of a read that did not finish', () => {
    const sample = {
      ok: true,
      stale: false,
      error: null,
      overview: overview([{ counts: { ready: 1 }, oldestWaitingAt: new Date(T0 - 90_000).toISOString() }]),
    };
    const slow = target({ kind: 'oldestWaiting', threshold: 60 });
    const down = target({ kind: 'unreachable' });
    const judge = (b: Parameters<typeof brokerFacts>[0]) =>
      [slow, down].map((t) => evaluateTarget(t, { at: T0, ...brokerFacts(b) }, newAlertMemory()));
    expect(judge(sample)).toMatchObject([
      { value: 90, breached: true },
      { value: 0, breached: false },
    ]);
    // Stale: the snapshot's budget passed with the read still out; its last overview is not judged.
    expect(judge({ ...sample, stale: true })).toMatchObject([
      {
        value: null,
        breached: false,
        unknown: 'the broker did not answer: no answer within the metrics budget; its last values are not judged',
      },
      { value: 1, breached: true },
    ]);
    expect(judge({ ok: false, error: { message: 'connection refused' }, overview: null })).toMatchObject([
      { value: null, unknown: 'the broker did not answer: connection refused' },
      { value: 1, breached: true },
    ]);
    expect(judge(undefined)[1]).toMatchObject({ value: 1, breached: true });
  });

  it('says a named queue the broker does not list is unknown', () => {
    const r = evaluateTarget(target({ kind: 'stuck', queue: 'nope' }), { at: T0, overview: overview([{}]) }, newAlertMemory());
    expect(r).toMatchObject({ value: null, unknown: 'the broker lists no queue "nope"' });
  });
});
