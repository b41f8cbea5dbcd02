// Setup of the `component` project (vitest.config.ts). Server actions are the boundary the
// components call: every 'use server' module is replaced by spies here (the real ones import
// the server's request context), and each test says what they answer with vi.mocked(...).
// Each test starts from an empty page, fresh spies and the real fetch.
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Next's client modules read `process.env` (its build replaces them and ships a `process`
// polyfill); a page here has neither, so the same minimal one.
const g = globalThis as { process?: { env: Record<string, string | undefined> } };
g.process ??= { env: { NODE_ENV: 'test' } };

const names = vi.hoisted(() => ({
  broker: [
    'replayDeadAction',
    'convertAction',
    'moveDeadAction',
    'moveWaitingAction',
    'discardDeadAction',
    'revokeAction',
    'purgeAction',
    'deleteFamilyAction',
    'setQueuePausedAction',
    'enqueueAction',
    'previewReplayEditedAction',
    'replayEditedAction',
  ] as const,
  bulk: ['createBulkAction', 'controlBulkAction'] as const,
  reveal: ['revealArgsAction'] as const,
}));
const spies = (list: readonly string[]) => Object.fromEntries(list.map((n) => [n, vi.fn()]));
vi.mock('@/lib/actions/broker-actions', () => spies(names.broker));
vi.mock('@/lib/bulk/actions', () => spies(names.bulk));
vi.mock('@/lib/actions/reveal-action', () => spies(names.reveal));

// A server action added to one of these modules must be listed above (tsc says so here).
type Covers<M, L extends readonly string[]> = [Exclude<keyof M, L[number]>] extends [never] ? true : false;
const covered: [
  Covers<typeof import('@/lib/actions/broker-actions'), typeof names.broker>,
  Covers<typeof import('@/lib/bulk/actions'), typeof names.bulk>,
  Covers<typeof import('@/lib/actions/reveal-action'), typeof names.reveal>,
] = [true, true, true];
void covered;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.resetAllMocks();
});
