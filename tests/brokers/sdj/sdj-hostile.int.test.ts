// What a database (or something in its place) can do to the SDJ adapter, over real sockets: a
// "server" that answers bytes that are not PostgreSQL's or MySQL's protocol, or closes at once,
// and a real server whose reply is cut in the middle of a query. Each call fails, as a typed
// console error where the connection never opened; nothing escapes to the process; once the
// server answers again, so does the next call.
import { afterEach, describe, expect, it } from 'vitest';
import { createSdjAdapter } from '@/lib/brokers/sdj/adapter';
import { adapterContext } from '@/lib/brokers/systems-context';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { brokerFailure, escapedDuring, HostileProxy, hostileServer } from '@/tests/support/hostile';
import { createTestDb, type Dialect } from '@/tests/sdj/databases';
import { createSdjSchema } from './schema-fixture';
import { availableDialects, DIALECTS, guarded } from './support';

const up = await availableDialects();
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

function adapterAt(url: string): BrokerAdapter {
  const a = createSdjAdapter({ id: 'sdj-h', name: 'SDJ', url, readOnly: false, options: { lockWaitMs: 500 } }, adapterContext());
  cleanups.push(() => a.close());
  return a;
}
const scheme = (d: Dialect) => (d === 'postgres' ? 'postgresql' : 'mysql');

for (const dialect of DIALECTS) {
  describe.skipIf(!up[dialect])(`SDJ adapter against a hostile ${dialect} peer`, () => {
    for (const [name, bytes] of [
      ['answers with an HTML page', Buffer.from('HTTP/1.1 400 Bad Request\r\ncontent-type: text/html\r\n\r\n<html>no</html>')],
      ['answers garbage and closes', Buffer.from([0x52, 0xff, 0xff, 0xff, 0xff, 0x00])],
      ['closes the connection at once', Buffer.alloc(0)],
    ] as const) {
      it(`a server that ${name} fails the call as unavailable, without the password, and nothing escapes`, async () => {
        // MySQL speaks first: a server that waits for the client is answered by its connect timeout.
        const peer = await hostileServer(bytes, true);
        cleanups.push(() => peer.stop());
        const a = adapterAt(
          `${scheme(dialect)}://console:pw-s3cret@127.0.0.1:${peer.port}/app${dialect === 'mysql' ? '?connectTimeout=2000' : ''}`,
        );
        const escaped = await escapedDuring(async () => {
          const e = await brokerFailure(a.overview());
          expect(e.message).not.toContain('pw-s3cret');
        });
        expect(escaped).toEqual([]);
      });
    }

    it('a reply cut mid-query fails that call; nothing escapes; the next call answers', async () => {
      const db = guarded(await createTestDb(dialect));
      cleanups.push(() => db.drop());
      await createSdjSchema(db, 'verified');
      const real = new URL(db.url);
      const proxy = new HostileProxy(Number(real.port || (dialect === 'postgres' ? 5432 : 3306)), real.hostname);
      await proxy.start();
      cleanups.push(() => proxy.stop());
      real.hostname = '127.0.0.1';
      real.port = String(proxy.port);
      const a = adapterAt(real.toString());
      expect((await a.overview()).queues).toEqual([]);
      proxy.fault = { kind: 'cut', bytes: 5 };
      const escaped = await escapedDuring(async () => {
        await expect(a.overview()).rejects.toBeDefined();
      });
      expect(escaped).toEqual([]);
      proxy.fault = { kind: 'pass' };
      let answered = false;
      for (let i = 0; i < 5 && !answered; i++)
        answered = await a.overview().then(
          () => true,
          () => false,
        );
      expect(answered).toBe(true);
    });
  });
}
