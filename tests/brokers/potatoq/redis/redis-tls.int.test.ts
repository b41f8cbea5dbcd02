// rediss:// and valkeys:// against a real TLS-only redis-server of this test (a CA and a server
// certificate made by openssl now, a password): the console trusts the private CA through the
// broker option `tlsCaFile`, reads and writes, and the real potatoq 26.1a8 worker (its own
// redis-py TLS, `?ssl_ca_certs=`) runs the task the console enqueued. A CA that did not sign
// the certificate, or none, fails as BrokerUnavailable naming TLS, without the password.
// int-lane: isolated (only a TLS redis-server of its own, on a free port)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import { ZEnqueueRequest } from '@/lib/brokers/schema';
import type { BrokerAdapter } from '@/lib/brokers/types';
import { opensslAvailable, TlsRedis } from '@/tests/support/redis-tls';
import { newPrefix, newWorld, redisServerAvailable, runs, until, Worker } from '@/tests/support/redis';
import { createRedisAdapter } from '@/lib/brokers/potatoq/redis/adapter';
import { redisKeys } from '@/lib/brokers/potatoq/redis/keys';
import { taskQuery } from '@/tests/support/task-query';

const up = redisServerAvailable('the Redis TLS suite') && opensslAvailable('the Redis TLS suite');

describe.skipIf(!up)('Redis over TLS (rediss://, valkeys://) with a private CA', () => {
  const server = new TlsRedis();
  const adapters: BrokerAdapter[] = [];
  const prefix = newPrefix();
  const make = (url: string, options: Record<string, unknown>) => {
    const a = createRedisAdapter({
      id: 'tls',
      name: 'TLS',
      url,
      readOnly: false,
      options: { global_keyprefix: prefix, timeoutMs: 3000, ...options },
    });
    adapters.push(a);
    return a;
  };
  const failure = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => expect.fail('the call succeeded'),
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ConsoleError);
    return e as ConsoleError;
  };

  beforeAll(() => server.start(), 60_000);
  afterAll(async () => {
    await Promise.all(adapters.map((a) => a.close()));
    await server.stop();
  });

  it('reads and writes over rediss:// trusting the CA in tlsCaFile; the real potatoq worker runs what it enqueued', async () => {
    const a = make(server.url('rediss'), { tlsCaFile: server.caFile });
    const queue = `q-${prefix}`;
    const r = await a.enqueue(ZEnqueueRequest.parse({ task: 'rt.record', queue, fields: { args: '[7]' } }));
    expect(r.state).toBe('ready');
    const id = r.id;
    // The write is on the server (read back with a client of its own), and the console reads it.
    const raw = server.client();
    try {
      expect(await raw.hget(redisKeys(prefix).job(id), 'q')).toBe(queue);
    } finally {
      raw.disconnect();
    }
    expect((await a.overview()).queues.find((q) => q.name === queue)).toMatchObject({ counts: { ready: 1 } });
    expect((await a.listTasks(taskQuery({ queue, state: 'ready' }))).items.map((t) => t.id)).toEqual([id]);
    expect((await a.getTask(id))?.task).toBe('rt.record');

    const w = newWorld({ RT_PREFIX: prefix, RT_QUEUE: queue }, `${server.url('rediss')}?ssl_ca_certs=${server.caFile}`);
    const worker = new Worker(w);
    worker.start([queue]);
    try {
      await until(
        'the worker to run the task',
        async () => runs(w).get(id)?.[0]?.args[0] === '7',
        60_000,
        () => worker.log,
      );
    } finally {
      await worker.stop();
    }
    expect((await a.overview()).queues.find((q) => q.name === queue)).toMatchObject({ counts: { ready: 0, running: 0 } });
  }, 90_000);

  it("reads over valkeys:// (the same TLS), with potatoq's ?ssl_ca_certs= left in the URL", async () => {
    const a = make(`${server.url('valkeys', 3)}?ssl_ca_certs=${server.caFile}`, { tlsCaFile: server.caFile });
    expect((await a.overview()).queues).toEqual(expect.any(Array));
  });

  it('fails as BrokerUnavailable naming TLS, without the password, when the CA did not sign the certificate or none is given', async () => {
    for (const options of [{ tlsCaFile: server.otherCaFile }, {}]) {
      const a = make(server.url('rediss'), options);
      for (const call of [() => a.overview(), () => a.enqueue(ZEnqueueRequest.parse({ task: 'rt.record', queue: 'q-none', fields: {} }))]) {
        const e = await failure(call());
        expect(e.code).toBe('BrokerUnavailable');
        expect(e.message).toMatch(/TLS connection failed: .*(self-signed certificate|unable to verify)/i);
        expect(e.message).toContain('tlsCaFile');
        expect(e.message).not.toContain(server.password);
      }
    }
  });

  it('refuses tlsCaFile on a plain URL, an unreadable file or a file without a certificate, naming the option', async () => {
    const bad = (url: string, tlsCaFile: string) => {
      try {
        make(url, { tlsCaFile });
      } catch (e) {
        expect(e).toBeInstanceOf(ConsoleError);
        expect((e as ConsoleError).code).toBe('InvalidInput');
        return (e as ConsoleError).message;
      }
      return expect.fail('accepted');
    };
    expect(bad(`redis://127.0.0.1:${server.port}/0`, server.caFile)).toMatch(/^broker option tlsCaFile: is only for a TLS url/);
    expect(bad(server.url(), `${server.dir}/missing.pem`)).toMatch(/^broker option tlsCaFile: cannot read .*missing\.pem \(ENOENT\)/);
    expect(bad(server.url(), `${server.dir}/ext.cnf`)).toMatch(/^broker option tlsCaFile: .*holds no PEM certificate/);
  });
});
