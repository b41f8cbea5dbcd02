import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ensureDemoDatabase, seedDemoDatabase } from './seed';

const NOW = 1_796_000_000;

function seeded(): Database.Database {
  const db = new Database(':memory:');
  seedDemoDatabase(db, NOW);
  return db;
}

describe('the demo broker seed', () => {
  it('has ready, scheduled and running work in every demo queue, scheduled rows due at their eta', () => {
    const db = seeded();
    const counts = db.prepare('SELECT queue, state, count(*) AS n FROM potatoq_jobs GROUP BY queue, state ORDER BY queue, state').all();
    expect(counts).toEqual([
      { queue: 'billing', state: 0, n: 1 },
      { queue: 'billing', state: 1, n: 1 },
      { queue: 'billing', state: 2, n: 1 },
      { queue: 'default', state: 1, n: 5 },
      { queue: 'emails', state: 0, n: 1 },
      { queue: 'emails', state: 1, n: 3 },
      { queue: 'poison', state: 1, n: 2 },
      { queue: 'reports', state: 0, n: 1 },
      { queue: 'reports', state: 1, n: 1 },
      { queue: 'reports', state: 2, n: 1 },
    ]);
    for (const row of db.prepare('SELECT run_at, payload FROM potatoq_jobs WHERE state = 0').all() as Array<{
      run_at: number;
      payload: string;
    }>) {
      expect(row.run_at).toBeGreaterThan(NOW);
      expect(row.payload).toContain(`"eta":${row.run_at}`);
    }
  });

  it('owns its running rows by the worker whose heartbeat is fresh', () => {
    const db = seeded();
    const running = db.prepare('SELECT worker FROM potatoq_jobs WHERE state = 2').all() as Array<{ worker: string }>;
    const fresh = db.prepare('SELECT id FROM potatoq_workers WHERE heartbeat >= ?').all(NOW - 15) as Array<{ id: string }>;
    expect(fresh).toHaveLength(1);
    expect(new Set(running.map((r) => r.worker))).toEqual(new Set([fresh[0]!.id]));
  });

  it('has a dead letter for every reason kind potatoq writes', () => {
    const reasons = (seeded().prepare('SELECT reason FROM potatoq_dead').all() as Array<{ reason: string }>).map((r) => r.reason);
    const lastLines = reasons.map((r) => r.trim().split('\n').at(-1));
    expect(lastLines).toEqual(
      expect.arrayContaining([
        'ValueError: card declined',
        expect.stringMatching(/^potatoq\.exceptions\.MaxRetriesExceededError: Can't retry demo\.send_email\[/),
        'unregistered task demo.resize_image',
        'worker lost too many times',
        expect.stringMatching(/^TimeLimitExceeded: Task demo\.build_report\[.+\] exceeded its time limit \(300s\) and was killed$/),
        'mailbox does not exist',
      ]),
    );
    expect(reasons.filter((r) => r.startsWith('Traceback (most recent call last):\n')).length).toBeGreaterThanOrEqual(4);
  });

  it("stores potatoq's internal result records next to task results", () => {
    const ids = seeded().prepare('SELECT id, state FROM potatoq_results ORDER BY state, id').all() as Array<{ id: string; state: string }>;
    expect(ids.filter((r) => r.id.startsWith('potatoq-registered-'))).toEqual([
      { id: 'potatoq-registered-819567a83846c079', state: 'SUCCESS' },
    ]);
    expect(ids.filter((r) => r.id.startsWith('group:'))).toHaveLength(1);
    expect(new Set(ids.map((r) => r.state))).toEqual(new Set(['FAILURE', 'REVOKED', 'SUCCESS']));
  });

  it('creates the file once and then leaves it alone', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-seed-'));
    try {
      const file = path.join(dir, 'nested', 'demo.sqlite3');
      expect(ensureDemoDatabase(file, NOW)).toEqual({ created: true });
      fs.writeFileSync(path.join(dir, 'marker'), '');
      const size = fs.statSync(file).size;
      expect(ensureDemoDatabase(file, NOW + 60)).toEqual({ created: false });
      expect(fs.statSync(file).size).toBe(size);
      expect(fs.readdirSync(path.join(dir, 'nested'))).toEqual(['demo.sqlite3']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
