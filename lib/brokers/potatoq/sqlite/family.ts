import 'server-only';
import type Database from 'better-sqlite3';
import { buildFamily } from '@/lib/brokers/family/build';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import { sqlFamilySource } from '../family-sql';

const TABLES = {
  jobs: 'potatoq_jobs',
  dead: 'potatoq_dead',
  results: 'potatoq_results',
  chordParts: 'potatoq_chord_parts',
  chords: 'potatoq_chords',
};

/** The family of `id` on a SQLite broker file (its read connection). */
export function sqliteFamily(db: Database.Database, id: string, limit: number): Promise<TaskFamily | null> {
  const all = async (sql: string, params: unknown[]) => db.prepare(sql).all(...params) as Record<string, unknown>[];
  return buildFamily(sqlFamilySource({ all, tables: TABLES }), id, limit);
}
