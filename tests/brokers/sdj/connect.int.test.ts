// Connecting to an application's database and reading SDJ's migration ledger: verified, not
// verified (writes refused, versions named), no SDJ tables, unreachable (no secret in the text).
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { isoOf } from '@/lib/brokers/sdj/db';
import { openSdjStore } from '@/lib/brokers/sdj/store';
import { availableDialects, DIALECTS, freshSdj, type Sdj } from './support';

const up = await availableDialects();

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ store connection on ${dialect}`, () => {
    let s: Sdj | undefined;
    afterEach(async () => {
      await s?.done();
      s = undefined;
    });

    it('reads schema version 35 as verified and lets writes through', async () => {
      s = await freshSdj(dialect);
      expect(await s.store.schema()).toMatchObject({ version: 35, applied: 35, preMigrationComplete: true, verified: true, reason: null });
      await expect(s.store.requireWritable()).resolves.toBeUndefined();
    });

    it('keeps a newer schema readable and refuses writes, naming both versions', async () => {
      s = await freshSdj(dialect, { ledger: 'newer' });
      const schema = await s.store.schema();
      expect(schema).toMatchObject({ version: 36, applied: 36, verified: false });
      expect(schema.reason).toContain('not verified against this console');
      const err = await s.store.requireWritable().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConsoleError);
      expect((err as ConsoleError).code).toBe('ReadOnly');
      expect((err as ConsoleError).message).toMatch(/schema version 36.*version 35 \(Simple Durable Jobs v4\.5\.1\)/);
    });

    it('refuses writes when the uuid_binary_conversion pre-migration is not complete', async () => {
      s = await freshSdj(dialect, { ledger: 'pre-migration-incomplete' });
      expect(await s.store.schema()).toMatchObject({ version: 35, verified: false });
      await expect(s.store.requireWritable()).rejects.toThrow(/pre-migration is not complete/);
    });

    it('says "no Simple Durable Jobs tables here" on a database without them', async () => {
      s = await freshSdj(dialect, { ledger: 'none' });
      const err = await s.store.schema().catch((e: unknown) => e);
      expect((err as ConsoleError).code).toBe('NotMigrated');
      expect((err as Error).message).toContain('no Simple Durable Jobs tables here');
    });

    it('runs MySQL sessions on UTC and reads timestamps with their full precision', async () => {
      s = await freshSdj(dialect);
      // A fixed instant whose last microsecond digit is not 0: NOW() ends in 0 one time in ten,
      // and PostgreSQL prints it without that trailing zero.
      const [row] = await s.store.db.all(
        dialect === 'postgres'
          ? "SELECT current_setting('TimeZone') AS tz, '2026-01-02 03:04:05.123457+00'::timestamptz AS at"
          : "SELECT @@session.time_zone AS tz, CAST('2026-01-02 03:04:05.123457' AS DATETIME(6)) AS at",
      );
      expect(String(row!.tz)).toMatch(/^(UTC|\+00:00)$/);
      expect(isoOf(row!.at)).toBe('2026-01-02T03:04:05.123457Z');
    });
  });
}

describe('SDJ store connection failures', () => {
  it('reports an unreachable database without its password', async () => {
    for (const url of ['postgresql://u:s3cretpassw0rd@127.0.0.1:1/app', 'mysql://u:s3cretpassw0rd@127.0.0.1:1/app']) {
      const err = await openSdjStore(url).catch((e: unknown) => e);
      expect((err as ConsoleError).code).toBe('BrokerUnavailable');
      expect((err as Error).message).toMatch(/not reachable/);
      expect(JSON.stringify((err as ConsoleError).toJSON())).not.toContain('s3cretpassw0rd');
    }
  });
});
