// The shared battery every adapter must pass, against a real broker. Each broker's
// `*.int.test.ts` calls `runAdapterContract(name, makeFixture)`; the fixture seeds through a
// seeder that writes the system natively (ideally by running the system's own code).
import { afterEach, beforeEach, describe } from 'vitest';
import { registerActions } from './actions';
import { registerDead } from './dead';
import { registerTimeRange } from './time-range';
import { registerTaskRange } from './task-range';
import { checkedAdapter } from './dto-check';
import { collect, type Ctx } from './helpers';
import { registerListing } from './listing';
import { registerDtoShapes } from './shapes';
import { registerEditReplay, registerStuck } from './stuck';
import { registerTrends } from './trends';
import { registerWorkflows } from './workflows';
import type { BrokerAdapter } from '@/lib/brokers/types';

export { contractCase, TRACEBACK, uniqueQueue, type Ctx, type Needs } from './helpers';

export type { ContractFixture, ContractSeeder, SeededResult, SeedMessage } from './types';
import type { ContractFixture, ContractSeeder } from './types';

/**
 * A battery over fresh fixtures: each case gets its own (seeded per test, cleaned after).
 * `register` adds the cases (`contractCase`), given the current fixture. The adapters a case
 * gets check each answer against its DTO definition, exactly (dto-check.ts).
 */
export function runBattery(title: string, makeFixture: () => Promise<ContractFixture>, register: Array<(ctx: Ctx) => void>): void {
  describe(title, () => {
    let fx: ContractFixture | undefined;
    let a: BrokerAdapter;
    let s: ContractSeeder;
    beforeEach(async () => {
      fx = undefined;
      const made = await makeFixture();
      fx = { ...made, adapter: checkedAdapter(made.adapter), makeSecond: () => checkedAdapter(made.makeSecond()) };
      a = fx.adapter;
      s = fx.seeder;
    });
    afterEach(async () => {
      await fx?.cleanup();
    });
    for (const r of register) r(() => ({ fx: fx!, a, s }));
  });
}

/**
 * The neutral contract. Each case says which capabilities and states it needs
 * (`contractCase`); a broker that has a capability off (with its reason) or does not declare
 * a state skips the case with that reason. What one system does beyond the contract (potatoq's
 * REVOKED marks and FAILURE records) is tested by that system's own battery.
 */
export function runAdapterContract(name: string, makeFixture: () => Promise<ContractFixture>): void {
  runBattery(`${name} adapter contract`, makeFixture, [
    (ctx) => registerListing(ctx, collect),
    registerDtoShapes,
    registerDead,
    registerTimeRange,
    registerTaskRange,
    registerActions,
    registerStuck,
    registerEditReplay,
    registerTrends,
    registerWorkflows,
  ]);
}
