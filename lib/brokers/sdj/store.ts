import 'server-only';
import { z } from 'zod';
import { openSdjDb, type SdjDb } from './db';
import { readSchema, requireVerified, type SdjSchema } from './ledger';
import { parseSdjUrl } from './url';

// The SDJ store: one connection pool to the application's database and the schema gate. Reads
// and writes live in their own modules and take the store; the adapter sits on top of this.

/** What an `sdj` broker entry may set besides its URL. Table names are fixed by the library
 *  (its raw SQL names them literally), so there is no prefix; PostgreSQL's schema is the one
 *  placement choice (MySQL: the URL's database). */
export const ZSdjOptions = z.strictObject({
  schema: z
    .string({ error: 'schema must be a PostgreSQL schema name (a string)' })
    .regex(/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/, 'schema must be a plain PostgreSQL identifier')
    .optional(),
  lockWaitMs: z
    .number({ error: 'lockWaitMs must be a number of milliseconds' })
    .int('lockWaitMs must be a whole number')
    .min(100, 'lockWaitMs must be at least 100')
    .max(30_000, 'lockWaitMs must be at most 30000')
    .optional(),
});
export type SdjOptions = z.infer<typeof ZSdjOptions>;

export interface SdjStore {
  db: SdjDb;
  /** The ledger as read now (each call reads it again: an upgrade mid-session is seen). */
  schema(): Promise<SdjSchema>;
  /** Throws ReadOnly, naming the versions, unless the schema is the verified one. */
  requireWritable(): Promise<void>;
  close(): Promise<void>;
}

export async function openSdjStore(url: string, options: SdjOptions = {}): Promise<SdjStore> {
  const target = parseSdjUrl(url);
  const db = await openSdjDb(target, { lockWaitMs: options.lockWaitMs ?? 2_000, schema: options.schema });
  return {
    db,
    schema: () => readSchema(db),
    async requireWritable() {
      requireVerified(await readSchema(db));
    },
    close: () => db.close(),
  };
}
