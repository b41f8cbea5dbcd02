import 'server-only';
import { buildFamily, type FamilyNode, type FamilySource } from '@/lib/brokers/family/build';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import type { ConsoleError } from '@/lib/brokers/errors';
import { lightLetter, type Letter } from '@/lib/potatoq/amqp-letter';
import type { DeepDlq } from '@/lib/transports/amqp/dlq-notes';
import { nodeOfMessage, nodeOfResult, POTATOQ_FAMILY_UNSEEN, POTATOQ_FAMILY_WORDS } from '../family';
import type { RabbitCtx } from './context';
import { readLetters } from './reads';
import { V3_BROWSE_REFUSAL } from './topology';

// The family on potatoq's RabbitMQ broker: the dead letters (one browse of every DLQ per family
// read, taken on first need, at most `deadBrowseLimit` letters per DLQ) and the result
// backend's records and chord counters (potatoq keeps chords there: contract §7.6). Waiting,
// delayed and running messages are not read: RabbitMQ hands a queued message only to a
// consumer that takes it off its queue.

export const RABBITMQ_FAMILY_WHY =
  "RabbitMQ lets a queued message be read only by taking it off its queue, so waiting, delayed and running members are not read: the family is potatoq's dead letters (RabbitMQ 4) and what its result backend stores (finished tasks, chord counters)";

/** Why the capability is off: nothing this broker's setup can read a family from. */
export const RABBITMQ_NO_FAMILY = `${RABBITMQ_FAMILY_WHY}; with RabbitMQ 3.x and no result backend there is neither: set resultBackend to the result_backend potatoq uses`;

const DEAD = { status: 'dead', state: 'dead', link: 'dead' } as const;

/** Letters whose body names `"<field>":"<id>"` (potatoq writes compact JSON): candidates only. */
const naming = (field: string, id: string) => `"${field}":${JSON.stringify(id)}`;

export async function rabbitFamily(ctx: RabbitCtx, id: string, limit: number): Promise<TaskFamily | null> {
  const browsable = (await ctx.link.serverInfo()).major >= 4;
  const unseen = [
    ...POTATOQ_FAMILY_UNSEEN,
    RABBITMQ_FAMILY_WHY + '.',
    ...(browsable ? [] : [`${V3_BROWSE_REFUSAL}: dead letters are not read, only the result backend.`]),
    ...(ctx.backend
      ? []
      : [
          "No result backend is configured (option resultBackend): potatoq keeps results and chord counters only there, so finished tasks and chords' progress are not seen.",
        ]),
  ];

  // One snapshot of the DLQs for the whole walk, taken when first needed.
  let snapshot: Promise<Map<string, Letter>> | null = null;
  const letters = (): Promise<Map<string, Letter>> =>
    (snapshot ??= (async () => {
      const busy: ConsoleError[] = [];
      const deep: DeepDlq[] = [];
      const read = await readLetters(ctx, undefined, busy, lightLetter, deep);
      for (const e of busy) unseen.push(`A DLQ was skipped: ${e.message}`);
      for (const d of deep)
        unseen.push(
          `${d.dlq} holds ${d.messages.toLocaleString('en-US')} letters: only the first ${ctx.browseLimit.toLocaleString('en-US')} (deadBrowseLimit) were read.`,
        );
      const byId = new Map<string, Letter>();
      for (const l of read) if (!byId.has(l.id)) byId.set(l.id, l);
      return byId;
    })());

  const deadNode = (l: Letter) => nodeOfMessage(l.id, l.body, DEAD, l.task || null);

  async function matching(field: 'root_id' | 'group_id', value: string, keep: (n: FamilyNode) => boolean, cap: number) {
    if (!browsable) return null;
    const needle = naming(field, value);
    const nodes: FamilyNode[] = [];
    let more = false;
    for (const l of (await letters()).values()) {
      if (!l.body.toString('utf8').includes(needle)) continue;
      // The text finds candidates; the decoded field decides (a pattern inside an argument is not a link).
      const n = deadNode(l);
      if (!keep(n)) continue;
      if (nodes.length >= cap) {
        more = true;
        break;
      }
      nodes.push(n);
    }
    return { nodes, more };
  }

  const src: FamilySource = {
    async node(x) {
      const l = browsable ? (await letters()).get(x) : undefined;
      if (l) return deadNode(l);
      const r = ctx.backend ? await ctx.backend.getResult(x) : null;
      return r ? { ...nodeOfResult(x, r.status, null), task: r.name } : null;
    },
    byRoot: (rootId, cap) => matching('root_id', rootId, (n) => n.rootId === rootId, cap),
    byGroup: (groupId, cap) => matching('group_id', groupId, (n) => n.groupId === groupId, cap),
    chord: async (groupId) => (ctx.backend ? ctx.backend.chord(groupId) : null),
    words: POTATOQ_FAMILY_WORDS,
    unseen,
  };
  return buildFamily(src, id, limit);
}
