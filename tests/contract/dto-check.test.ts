import { describe, expect, it } from 'vitest';
import { CAPABILITIES, ZBrokerOverview, ZQueueStats, ZTaskDetail, type QueueStats, type TypedValue } from '@/lib/brokers/dto';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { assertDto, checkedAdapter } from './dto-check';

// The battery's strict check must be able to fail: a field no definition names, a field under
// its old name, a wrong type deep inside a typed value.
const stats: QueueStats = { name: 'mail', counts: { ready: 3, scheduled: null }, dead: 0, oldestWaitingAt: null, tasks: null };

describe('the DTO check of the shared battery', () => {
  it('accepts an answer with exactly the named fields, optional ones left out', () => {
    expect(() => assertDto('overview', ZQueueStats, stats)).not.toThrow();
    expect(() =>
      assertDto('overview', ZQueueStats, { ...stats, paused: true, capped: { ready: { atLeast: 0, estimate: null } } }),
    ).not.toThrow();
  });

  it('refuses a field the definition does not name, naming it and the method', () => {
    expect(() => assertDto('overview', ZQueueStats, { ...stats, claimable: 2 })).toThrow(/overview: .*\n.*claimable/);
  });

  it('refuses the field under its former name (oldestReadyAt is oldestWaitingAt)', () => {
    const { oldestWaitingAt: _gone, ...rest } = stats;
    expect(() => assertDto('overview', ZQueueStats, { ...rest, oldestReadyAt: null })).toThrow(
      /oldestReadyAt[\s\S]*oldestWaitingAt|oldestWaitingAt[\s\S]*oldestReadyAt/,
    );
  });

  it('refuses a capability that is neither fixed nor a state listing', () => {
    const caps = Object.fromEntries(CAPABILITIES.map((k) => [k, { on: true }]));
    const overview = {
      id: 'b',
      name: 'b',
      kind: 'sqlite',
      serverInfo: null,
      readOnly: false,
      queues: [stats],
      totals: { counts: {}, dead: 0 },
      workers: null,
      readAt: 'x',
    };
    expect(() =>
      assertDto('overview', ZBrokerOverview, { ...overview, capabilities: { ...caps, 'list:ready': { on: true } } }),
    ).not.toThrow();
    expect(() => assertDto('overview', ZBrokerOverview, { ...overview, capabilities: { ...caps, teleport: { on: true } } })).toThrow(
      /teleport/,
    );
  });

  it('checks typed values at any depth', () => {
    const deep = (v: unknown): TypedValue => ({ t: 'list', items: [{ t: 'dict', entries: [['k', v as TypedValue]] }] });
    const preview = { kind: 'native', text: 'x' };
    const payload = {
      format: 'potatoq',
      task: 't',
      id: '1',
      queue: 'q',
      args: null,
      kwargs: null,
      fields: [],
      headers: [],
      flags: [],
      foreign: null,
      value: null,
    };
    const detail = {
      ...{ id: '1', queue: 'q', task: 't', state: 'ready', priority: '0', runAt: null, createdAt: null, claimedAt: null },
      ...{ worker: null, pid: null, deliveries: '0', preview, seq: '1', raw: '{}', rawSize: 2, rawTruncated: false, result: null },
    };
    expect(() => assertDto('getTask', ZTaskDetail, { ...detail, payload: { ...payload, args: deep({ t: 'int', v: '7' }) } })).not.toThrow();
    expect(() => assertDto('getTask', ZTaskDetail, { ...detail, payload: { ...payload, args: deep({ t: 'int', v: 7 }) } })).toThrow(
      /payload.args/,
    );
  });

  it('wraps an adapter so an answer that does not match fails the call that returned it', async () => {
    const fake = { model: undefined, listWorkers: async () => [{ id: 'w' }] } as unknown as BrokerAdapter;
    expect(() => checkedAdapter(fake)).toThrow(/model/);
    const model = {
      system: 'potatoq',
      states: [],
      actions: {
        replay: { does: 'r', bulkRate: null },
        discard: { does: 'd' },
        revoke: { does: 'v', bulk: 'b' },
        purge: { does: 'p', what: 'w', counts: [], stays: 's' },
        enqueue: { does: 'e', fields: [], defaultQueue: 'default' },
      },
    };
    const a = checkedAdapter({ ...fake, model } as unknown as BrokerAdapter);
    await expect(a.listWorkers()).rejects.toThrow(/listWorkers: [\s\S]*hostname/);
  });
});
