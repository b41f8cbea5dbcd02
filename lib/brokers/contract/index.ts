// The shared battery every adapter must pass, against a real broker. Each broker's
// `*.int.test.ts` calls `runAdapterContract(name, makeFixture)`; the fixture seeds through a
// seeder that writes potatoq's own layout (ideally by running the real potatoq).
import { afterEach, beforeEach, describe } from 'vitest';
import { registerActions } from './actions';
import { registerDead } from './dead';
import { collect } from './helpers';
import { registerListing } from './listing';
import type { BrokerAdapter } from '../types';

export { TRACEBACK, uniqueQueue } from './helpers';

export type { ContractFixture, ContractSeeder, SeededResult, SeedMessage } from './types';
import type { ContractFixture, ContractSeeder } from './types';

/**
 * `skips`: test title -> why this broker can't do what the test asks (e.g. RabbitMQ can't
 * list queued messages); such tests are reported as skipped with that reason.
 */
export function runAdapterContract(name: string, makeFixture: () => Promise<ContractFixture>, skips: Record<string, string> = {}): void {
  describe(`${name} adapter contract`, () => {
    let fx: ContractFixture | undefined;
    let a: BrokerAdapter;
    let s: ContractSeeder;
    beforeEach(async (t) => {
      fx = undefined;
      const why = skips[t.task.name];
      if (why) t.skip(why);
      fx = await makeFixture();
      a = fx.adapter;
      s = fx.seeder;
    });
    afterEach(async () => {
      await fx?.cleanup();
    });

    registerListing(() => ({ fx: fx!, a, s }), collect);
    registerDead(() => ({ fx: fx!, a, s }));
    registerActions(() => ({ fx: fx!, a, s }));
  });
}

