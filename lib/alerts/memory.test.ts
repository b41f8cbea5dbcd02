import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateDbForTests } from '@/lib/state/sql';
import { createAlertMemoryStore } from './memory';

const dirs: string[] = [];
const tempFile = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'alert-memory-'));
  dirs.push(d);
  return path.join(d, 'state.sqlite3');
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("the alert evaluator's memory in the state store", () => {
  it('is read back by another handle (a restart, another instance), as it was left', async () => {
    const file = tempFile();
    const a = await openStateDbForTests(file);
    const store = createAlertMemoryStore(a);
    const m = await store.load(['slow', 'dead', 'fresh']);
    expect(m.since.size + m.sent.size + m.facts.dead.size + m.facts.seen.size).toBe(0);
    m.since.set('slow', 1_000);
    m.facts.dead.set('dead', { at: 2_000, count: 7 });
    m.facts.seen.set('fresh', new Set(['fp-b', 'fp-a']));
    await store.save(m, m.was, 3_000);
    await a.run("INSERT INTO console_alert_sends (target, state, changed_at) VALUES ('slow', 'firing', 'x')", []);

    const b = await openStateDbForTests(file);
    const again = await createAlertMemoryStore(b).load(['slow', 'dead', 'fresh']);
    expect(again.since.get('slow')).toBe(1_000);
    expect(again.sent.get('slow')).toBe('firing');
    expect(again.facts.dead.get('dead')).toEqual({ at: 2_000, count: 7 });
    expect([...again.facts.seen.get('fresh')!].sort()).toEqual(['fp-a', 'fp-b']);
    // A breach that ended is forgotten for everyone.
    again.since.set('slow', undefined);
    await createAlertMemoryStore(b).save(again, again.was, 4_000);
    expect((await store.load(['slow'])).since.get('slow')).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });

  it('writes only the targets whose memory changed, and drops those no longer watched', async () => {
    const db = await openStateDbForTests(tempFile());
    const writes: string[] = [];
    const counted = {
      ...db,
      batch: (s: Parameters<typeof db.batch>[0]) => (writes.push(...s.map(([q]) => q.trim().split(' ')[0]!)), db.batch(s)),
    };
    const store = createAlertMemoryStore(counted);
    const m = await store.load(['a', 'b', 'c']);
    m.since.set('a', 5);
    m.since.set('b', 6);
    await store.save(m, m.was, 10);
    expect(writes).toEqual(['INSERT', 'INSERT']);
    writes.length = 0;
    const n = await store.load(['a', 'b', 'c']);
    n.since.set('a', 5);
    await store.save(n, n.was, 20);
    expect(writes).toEqual([]);
    const later = await store.load(['a']);
    expect(writes).toEqual(['DELETE']);
    expect((await store.load(['a', 'b'])).since.get('b')).toBeUndefined();
    expect(later.since.get('a')).toBe(5);
    await db.close();
  });
});
