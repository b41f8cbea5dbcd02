import { describe, expect, it } from 'vitest';
import { SLOW_MS, healthOf, lastHourOf, summarise, type BrokerSignals } from './overview-summary';

const b = (id: string, over: Partial<BrokerSignals> = {}): BrokerSignals => ({ id, down: false, readMs: 10, stuck: 0, ...over });

describe('overview summary', () => {
  it('calls a broker down, slow, stuck or up, and unknown until it answered', () => {
    expect(healthOf(b('a', { down: true, readMs: 5 }))).toBe('down');
    expect(healthOf(b('a', { readMs: SLOW_MS + 1, stuck: 3 }))).toBe('slow');
    expect(healthOf(b('a', { readMs: SLOW_MS }))).toBe('up');
    expect(healthOf(b('a', { stuck: 2 }))).toBe('stuck');
    expect(healthOf({ id: 'a', down: false })).toBe('unknown');
  });

  it('puts down brokers first, then slow, then with stuck work, the rest in config order', () => {
    const s = summarise(
      [
        b('ok1'),
        b('stuck', { stuck: 1 }),
        b('ok2'),
        b('slow', { readMs: 5000 }),
        b('down', { down: true }),
        b('new', { readMs: undefined }),
      ],
      null,
    );
    const byPlace = Object.entries(s.order)
      .sort((x, y) => x[1] - y[1])
      .map(([id]) => id);
    expect(byPlace).toEqual(['down', 'slow', 'stuck', 'ok1', 'ok2', 'new']);
    expect([s.up, s.slow, s.down, s.unknown]).toEqual([3, 1, 1, 1]);
  });

  it('says "47 up · 2 slow · 1 down" for fifty brokers, the troubled three first', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `b${String(i).padStart(2, '0')}`);
    const s = summarise(
      ids.map((id, i) => b(id, { down: i === 31, readMs: i === 7 || i === 44 ? SLOW_MS + 1000 : 15 })),
      null,
    );
    expect([s.up, s.slow, s.down, s.unknown]).toEqual([47, 2, 1, 0]);
    expect(['b31', 'b07', 'b44', 'b00', 'b49'].map((id) => s.order[id])).toEqual([0, 1, 2, 3, 49]);
  });

  it('sums stuck work and last-hour deaths over brokers that said, null when none did', () => {
    const s = summarise([b('a', { stuck: 2, deadLastHour: 4 }), b('b', { stuck: undefined }), b('c', { down: true, stuck: 9 })], null);
    expect(s.stuck).toBe(2);
    expect(s.deadLastHour).toBe(4);
    expect(summarise([b('a', { stuck: undefined })], null)).toMatchObject({ stuck: null, deadLastHour: null });
  });

  it('counts fingerprints not seen at the last look, none on the first look or for a broker never seen', () => {
    const brokers = [b('a', { fingerprints: ['fp-1', 'fp-2', 'fp-3'] }), b('b', { fingerprints: ['fp-9'] })];
    expect(summarise(brokers, null).newFingerprints).toBeNull();
    expect(summarise(brokers, { a: ['fp-1'] }).newFingerprints).toBe(2);
    expect(summarise(brokers, { a: ['fp-1', 'fp-2', 'fp-3'], b: [] }).newFingerprints).toBe(1);
  });

  it('counts the last hour of a trend by its buckets', () => {
    const day = { bucketSeconds: 900, counts: [...new Array<number>(92).fill(1), 2, 3, 0, 5] };
    expect(lastHourOf(day)).toBe(10);
    expect(lastHourOf({ bucketSeconds: 60, counts: new Array<number>(60).fill(1) })).toBe(60);
  });
});
