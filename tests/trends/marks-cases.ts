// A queue's chart marks only that queue's campaigns, on both state stores: SQLite (unit: a temp
// file) and PostgreSQL (int: the real server). `open()` gives the state store's SQL.
import { afterEach, expect, it } from 'vitest';
import type { SqlRunner } from '@/lib/state/sql';
import { createCampaignStore } from '@/lib/campaigns/store';
import type { NewCampaign } from '@/lib/campaigns/schema';
import { campaignMarks } from '@/lib/trends/marks';

export function markCases(open: () => Promise<SqlRunner>, broker: () => string): void {
  const opened: SqlRunner[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close();
  });
  const who = { who: 'olga', reason: 'fixed', auditId: null, parent: null };

  it("marks on a queue's chart only the campaigns of that queue; the broker's chart marks them all", async () => {
    const db = await open();
    opened.push(db);
    const store = createCampaignStore(db);
    const b = broker();
    const made = async (action: string, more: Partial<NewCampaign>) =>
      store.create({ broker: b, action, filter: null, ...who, ...more }, [{ id: `${action}-1`, before: null }]);
    // Queue names that a loose match would confuse: a prefix, LIKE's own characters, a quote.
    const billing = await made('replay', { queues: ['billing', 'emails'] });
    const bill = await made('replay-edited', { queues: ['bill'] });
    const odd = await made('replay-odd', { queues: ['a_%"\\b'] });
    const bulk = await store.openBulk(
      { broker: b, action: 'bulk-replay', ...who, filter: { queue: 'emails' } },
      { id: `job-${b}`, state: 'running', why: null },
      10,
      null,
    );
    const unknown = await made('move', { queues: null });
    const [from, to] = [Date.now() - 60_000, Date.now() + 60_000];
    const ids = async (queue?: string) => (await campaignMarks(db, b, from, to, queue)).map((m) => m.id).sort();
    expect(await ids()).toEqual([billing, bill, odd, bulk, unknown].sort());
    expect(await ids('billing')).toEqual([billing]);
    expect(await ids('emails')).toEqual([billing, bulk].sort());
    expect(await ids('bill')).toEqual([bill]);
    expect(await ids('a_%"\\b')).toEqual([odd]);
    expect(await ids('a')).toEqual([]);
    expect(await ids('%')).toEqual([]);
    // Another broker's campaigns are never its marks.
    expect(await campaignMarks(db, `${b}-other`, from, to, 'billing')).toEqual([]);
  });
}
