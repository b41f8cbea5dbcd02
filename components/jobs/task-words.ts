import type { BrokerModel, MessageView, TaskDecl, TypedValue } from '@/lib/brokers/schema';

// What a page calls a task, its arguments, its delivery count and the revoke action: the
// system's own words (its adapter's `model.task` and `actions.revoke.words`), never another
// system's. Without a declaration (or before the overview loads), potatoq's and Celery's.

export const DEFAULT_TASK: TaskDecl = {
  noun: 'task',
  nouns: 'tasks',
  payload: { shape: 'call' },
  deliveries: { label: 'Deliveries', help: 'How many times a worker received it' },
};

export const taskWords = (model: BrokerModel | undefined | null): TaskDecl => model?.task ?? DEFAULT_TASK;

/** "1 job", "3 jobs": a count with the system's noun. */
export const taskNoun = (t: TaskDecl, n: number): string => (n === 1 ? t.noun : t.nouns);

/** The revoke action's verb and past tense on this system ("Cancel", "cancelled"). */
export const revokeWords = (model: BrokerModel | undefined | null): { verb: string; past: string } =>
  model?.actions.revoke.words ?? { verb: 'Revoke', past: 'revoked' };

/** The one value a `value`-shaped payload is (SDJ's args, QueueFlow's payload), wherever the
 *  adapter put it: the positional list, the keyword object, or its `args` field (a scalar,
 *  ciphertext). Null when the task has none. */
export function payloadValue(m: MessageView): { value: TypedValue; field: string | null } | null {
  if (m.args) return { value: m.args, field: null };
  if (m.kwargs) return { value: m.kwargs, field: null };
  const f = m.fields.find((x) => x.name === 'args');
  return f ? { value: f.value, field: f.name } : null;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The filter bars' and headings' words: what the name and id inputs are called, and what a
 *  text search looks in ("arguments", SDJ's "args", QueueFlow's "payload"). */
export function listWords(model: BrokerModel | undefined | null): { title: string; name: string; id: string; args: string } {
  const t = taskWords(model);
  return {
    title: capital(t.noun),
    name: t.name ?? `${capital(t.noun)} name`,
    id: `${capital(t.noun)} id`,
    args: t.payload.shape === 'value' ? t.payload.label.toLowerCase() : 'arguments',
  };
}
