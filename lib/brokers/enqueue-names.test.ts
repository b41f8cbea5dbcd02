import { describe, expect, it } from 'vitest';
import { resolveEnqueue } from './enqueue-names';
import type { BrokerAdapter } from './types';

const adapter = (o: { names?: string[]; seenIn?: Record<string, string[]>; queues?: string[]; fail?: boolean }) =>
  ({
    taskNames: async () => (o.fail ? Promise.reject(new Error('down')) : (o.names ?? [])),
    ...(o.seenIn ? { taskQueues: async () => o.seenIn } : {}),
    overview: async () => ({ queues: (o.queues ?? []).map((name) => ({ name })) }),
  }) as unknown as BrokerAdapter;

const shop = adapter({ names: ['shop.email', 'shop.refund'], seenIn: { 'shop.email': ['emails'] }, queues: ['emails', 'default'] });

describe('an enqueue checked against what the broker has shown', () => {
  it('sends a task without a queue to the queue it was seen in, and drops allowUnknown', async () => {
    expect(await resolveEnqueue(shop, { task: 'shop.email', fields: {} }, true)).toEqual({
      task: 'shop.email',
      queue: 'emails',
      fields: {},
    });
    expect(await resolveEnqueue(shop, { task: 'shop.email', queue: 'default', fields: {}, allowUnknown: false }, true)).toEqual({
      task: 'shop.email',
      queue: 'default',
      fields: {},
    });
    // Never seen in a queue: the system's default (no queue).
    expect(await resolveEnqueue(shop, { task: 'shop.refund', fields: {} }, true)).toEqual({ task: 'shop.refund', fields: {} });
  });

  it('refuses a misspelt task or queue under its field, naming the one meant', async () => {
    const err = await resolveEnqueue(shop, { task: 'shop.emial', queue: 'emials', fields: {} }, true).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'InvalidInput',
      fields: {
        task: 'no task named `shop.emial` has been seen on this broker: did you mean `shop.email`?',
        queue: 'no queue named `emials` has been seen on this broker: did you mean `emails`?',
      },
    });
    expect((err as Error).message).toContain('"allowUnknown": true');
  });

  it('sends misspelt names with allowUnknown, new names always, and checks nothing in a preview', async () => {
    expect(await resolveEnqueue(shop, { task: 'shop.emial', fields: {}, allowUnknown: true }, true)).toEqual({
      task: 'shop.emial',
      fields: {},
    });
    expect(await resolveEnqueue(shop, { task: 'billing.invoice', queue: 'invoices', fields: {} }, true)).toMatchObject({
      queue: 'invoices',
    });
    expect(await resolveEnqueue(shop, { task: 'shop.emial', fields: {} }, false)).toEqual({ task: 'shop.emial', fields: {} });
  });

  it('skips the checks when the broker cannot say, rather than refusing', async () => {
    expect(await resolveEnqueue(adapter({ fail: true }), { task: 'shop.emial', fields: {} }, true)).toEqual({
      task: 'shop.emial',
      fields: {},
    });
  });
});
