// The words and tones of a campaign's fates and follow-up, shared by its list and its page.
import type { Tone } from '@/components/ui/badge';
import type { CampaignItem, FollowState, ItemFate } from '@/lib/campaigns/schema';

export const FATE_TONE: Record<ItemFate, Tone> = {
  succeeded: 'green',
  dead: 'red',
  waiting: 'blue',
  running: 'purple',
  gone: 'yellow',
  unknown: 'neutral',
  pending: 'neutral',
};

export const FATE_LABEL: Record<ItemFate, string> = {
  succeeded: 'succeeded',
  dead: 'died again',
  waiting: 'waiting',
  running: 'running',
  gone: 'gone',
  unknown: 'unknown',
  pending: 'not looked at yet',
};

export const FOLLOW_LABEL: Record<FollowState, string> = {
  following: 'following',
  settled: 'settled: every task has its fate',
  stopped: 'stopped following',
  off: 'cannot be followed',
};

/** An item's fate in words: a task that had not run before (`firstRun`) "failed", not "died again". */
export const fateLabel = (fate: ItemFate, firstRun: boolean): string => (firstRun && fate === 'dead' ? 'failed' : FATE_LABEL[fate]);

/** A dead-again item's error, compared with the one it died of before; a task that had not run
 *  before died of no error before: its error is just "error" (its fingerprint follows). */
export function errorWord(i: Pick<CampaignItem, 'fate' | 'same'>, firstRun = false): string | null {
  if (i.fate !== 'dead') return null;
  if (firstRun) return 'error';
  if (i.same === true) return 'same error';
  if (i.same === false) return 'new error';
  return 'error not comparable';
}
