import 'server-only';
import { buildFamily } from '@/lib/brokers/family/build';
import type { TaskFamily } from '@/lib/brokers/family/schema';
import { numbered, sqlFamilySource } from '../family-sql';
import type { PgNames } from './names';
import type { Sql } from './pool';

/** The family of `id` on a PostgreSQL broker (one read connection's statements). */
export function pgFamily(sql: Sql, names: PgNames, id: string, limit: number): Promise<TaskFamily | null> {
  const tables = { jobs: names.jobs, dead: names.dead, results: names.results, chordParts: names.chordParts, chords: names.chords };
  return buildFamily(sqlFamilySource({ all: (text, params) => sql(numbered(text), params), tables }), id, limit);
}
