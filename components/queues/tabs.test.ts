import { describe, expect, it } from 'vitest';
import type { StateDecl } from '@/lib/brokers/schema';
import { allCapabilities } from '@/lib/brokers/schema';
import { pickTab, queueTabs, tabOff } from './tabs';

const state = (key: string, label: string): StateDecl => ({
  key,
  label,
  time: { field: 'createdAt', label: 'Enqueued' },
  order: { by: 'claim', label: 'claim order' },
  owned: false,
});

describe('queue page tabs', () => {
  it("follow the adapter's declared states in order, then dead letters", () => {
    const sdj = ['pending', 'running', 'waiting', 'paused', 'failed', 'cancelled', 'completed'].map((k) =>
      state(k, k[0]!.toUpperCase() + k.slice(1)),
    );
    expect(queueTabs(sdj).map((t) => t.key)).toEqual([
      'pending',
      'running',
      'waiting',
      'paused',
      'failed',
      'cancelled',
      'completed',
      'dead',
    ]);
    expect(queueTabs([state('ready', 'Ready')])).toEqual([
      { key: 'ready', label: 'Ready' },
      { key: 'dead', label: 'Dead' },
    ]);
  });

  it('open the asked state, or the first one when it is not declared', () => {
    const tabs = queueTabs([state('pending', 'Pending'), state('paused', 'Paused')]);
    expect(pickTab(tabs, 'paused')).toBe('paused');
    expect(pickTab(tabs, 'dead')).toBe('dead');
    expect(pickTab(tabs, 'ready')).toBe('pending');
    expect(pickTab(tabs, undefined)).toBe('pending');
  });

  it('open the state that plays `waiting` when none is asked, wherever it is declared', () => {
    // Its own `waiting` (on child jobs) plays no role; `pending` is its waiting work.
    const tabs = queueTabs([state('waiting', 'Waiting'), state('paused', 'Paused'), { ...state('pending', 'Pending'), role: 'waiting' }]);
    expect(tabs.find((t) => t.key === 'pending')?.role).toBe('waiting');
    expect(pickTab(tabs, undefined)).toBe('pending');
    expect(pickTab(tabs, 'ready')).toBe('pending');
    expect(pickTab(tabs, 'waiting')).toBe('waiting');
  });

  it("are disabled with the broker's reason where it cannot list a state or its dead letters", () => {
    const caps = allCapabilities([state('ready', 'Ready'), state('running', 'Running')]);
    caps['list:running'] = { on: false, why: "RabbitMQ can't list queued messages without taking them" };
    caps.browseDead = { on: false, why: 'RabbitMQ 3.10: browsing the DLQ would delete its messages' };
    expect(tabOff(caps, 'ready')).toBeNull();
    expect(tabOff(caps, 'running')).toBe("RabbitMQ can't list queued messages without taking them");
    expect(tabOff(caps, 'dead')).toBe('RabbitMQ 3.10: browsing the DLQ would delete its messages');
    expect(tabOff(caps, 'paused')).toMatch(/does not list/);
    expect(tabOff(undefined, 'running')).toBeNull();
  });
});
