import { describe, expect, it } from 'vitest';
import { MASK, redactSecrets, rememberSecret, rememberSecretsOf, secretsIn } from './secrets';

// The secret in every row is `S3cr3t` plus something hostile; each row asserts that no piece of
// it survives, wherever the URL sits in the text.
const S = 'S3cr3t';

/** [url, the secret it carries, what must still be shown]. */
type Row = [string, string, string];

const STORES: Record<string, Row[]> = {
  redis: [
    [`redis://u:${S}@host:6379/0`, S, 'host:6379'],
    [`redis://u:${S}@host/cache`, S, 'host/cache'],
    [`redis://:${S}@host/0`, S, 'host/0'],
    [`redis://u:p@${S}@host/0`, `p@${S}`, 'host/0'],
    [`redis://u:${S}@@host/0`, `${S}@`, 'host/0'],
    [`redis://u:p ${S}@host/0`, `p ${S}`, 'host/0'],
    [`redis://u:p:${S}/x@host/0`, `p:${S}/x`, 'host/0'],
    [`redis://u:p%40${S}%20x@host/0`, `p%40${S}%20x`, 'host/0'],
    [`redis://host:6379/0?password=${S}`, S, 'host:6379'],
    [`redis://host/0?db=cache&password=${S}&x=1`, S, 'x=1'],
    [`redis://host/0?user=u&password=p ${S}`, `p ${S}`, 'user=u'],
    [`redis://host/0?%70assword=${S}`, S, 'host/0'],
    [`rediss://default:${S}@tls-host:6380/2`, S, 'tls-host:6380'],
    [`valkey://u:${S}@vk/1`, S, 'vk/1'],
    [`valkeys://u:${S}@vk/1`, S, 'vk/1'],
    [`unix://:${S}@/run/redis.sock?db=2`, S, '/run/redis.sock'],
    [`redis+socket://u:${S}@/run/redis.sock`, S, '/run/redis.sock'],
    [`redis://${S}@host/0`, S, 'host/0'],
  ],
  rabbitmq: [
    [`amqp://guest:${S}@rabbit:5672/%2F`, S, 'rabbit:5672'],
    [`amqps://guest:${S}@rabbit/vhost`, S, 'rabbit/vhost'],
    [`amqp://guest:p@ss@${S}@rabbit/vhost`, `p@ss@${S}`, 'rabbit/vhost'],
    [`amqp://guest:${S} x@rabbit/vhost?heartbeat=10`, `${S} x`, 'heartbeat=10'],
    [`https://admin:${S}@rabbit:15672/api`, S, 'rabbit:15672'],
  ],
  postgres: [
    [`postgresql://u:${S}@db:5432/app`, S, 'db:5432/app'],
    [`postgres://u:${S}@db/app?sslmode=require`, S, 'sslmode=require'],
    [`postgresql://u:${S}@/app?host=/var/run/postgresql`, S, 'host=/var/run/postgresql'],
    [`postgresql://u:p@${S}@db/app`, `p@${S}`, 'db/app'],
    [`postgresql://db/app?user=u&password=${S}`, S, 'user=u'],
    [`postgresql://u@db/app?sslpassword=${S}&sslmode=verify-full`, S, 'sslmode=verify-full'],
    [`host=db user=u password=${S} dbname=app`, S, 'dbname=app'],
    [`host=db password='p ${S}\\'x' dbname=app`, `p ${S}\\'x`, 'dbname=app'],
    [`host=db password=p\\ ${S} dbname=app`, `p\\ ${S}`, 'dbname=app'],
  ],
  mysql: [
    [`mysql://root:${S}@mysql:3306/jobs`, S, 'mysql:3306/jobs'],
    [`mysql://root:p@${S}@mysql/jobs?ssl=true`, `p@${S}`, 'ssl=true'],
    [`mysql://mysql/jobs?user=root&password=${S}`, S, 'user=root'],
  ],
  queueflow: [
    [`http://qf:8080/api?token=${S}`, S, 'qf:8080'],
    [`https://qf/api?auth=${S}&tenant=t`, S, 'tenant=t'],
    [`https://qf/api?access_token=${S}`, S, 'qf/api'],
  ],
};

const SURROUNDINGS: Array<(url: string) => string> = [
  (u) => u,
  (u) => `the database in ${u} must be a whole number`,
  (u) => `connect ECONNREFUSED (${u})\nnext line stays`,
  (u) => JSON.stringify({ event: 'console.api', message: `failed: ${u}` }),
  (u) => `{ url: '${u}', code: 'ECONNREFUSED' }`,
];

describe('redactSecrets: hostile URLs per store', () => {
  for (const [store, rows] of Object.entries(STORES)) {
    describe(store, () => {
      it.each(rows)('%s', (url, secret, kept) => {
        for (const wrap of SURROUNDINGS) {
          const out = redactSecrets(wrap(url));
          expect(out).not.toContain(S);
          expect(out).not.toContain(secret);
          expect(out).toContain(MASK);
          if (wrap === SURROUNDINGS[0]) expect(out).toContain(kept);
        }
      });
    });
  }
});

describe('redactSecrets', () => {
  it('keeps the user name, the host and the rest of the message', () => {
    expect(redactSecrets('Redis at redis://alice:pw12@cache:6379/0 failed: ECONNREFUSED')).toBe(
      'Redis at redis://alice:***@cache:6379/0 failed: ECONNREFUSED',
    );
  });

  it('is idempotent', () => {
    const once = redactSecrets(`redis://u:p@ss@h/0 password=${S} Bearer abcdef123`);
    expect(redactSecrets(once)).toBe(once);
  });

  it('hides JSON and util.inspect credentials, and bearer tokens', () => {
    for (const t of [`{"password":"${S}"}`, `{ sslpassword: '${S}' }`, `authorization: Bearer ${S}xyz`, `token = "${S}"`])
      expect(redactSecrets(t)).not.toContain(S);
  });

  it('leaves prose and URLs without credentials alone', () => {
    for (const t of [
      "QueueFlow refused the console's token for reads (401 nope): check the broker's token",
      'RabbitMQ at rabbit:5672 refused the login (check the user and password)',
      'see https://docs.example.com/x for details',
      'put the QueueFlow credential in "token", not in the URL',
    ])
      expect(redactSecrets(t)).toBe(t);
  });

  it('hides a remembered secret in any form, even where no pattern finds it', () => {
    rememberSecretsOf(`redis://u:Zq9@w x@host/0`);
    rememberSecret('managementPw1');
    const out = redactSecrets('auth failed with Zq9@w x, Zq9%40w%20x and managementPw1');
    expect(out).toBe('auth failed with ***, *** and ***');
  });

  it('finds the secrets a URL carries', () => {
    expect(secretsIn(`redis://u:p@ss@h/0?password=q1&token=t2`)).toEqual(['p@ss', 'q1', 't2']);
  });

  it('does linear work on a long hostile text', () => {
    const hostile = `${'redis://a:'.repeat(20_000)}${'@'.repeat(20_000)}${' password='.repeat(20_000)}`;
    const out = redactSecrets(hostile);
    expect(out.length).toBeGreaterThan(0);
  });
});

describe('rememberSecretsOf', () => {
  it('does not remember a password the URL shows in another part', () => {
    rememberSecretsOf('postgresql://postgres:postgres@db/postgres');
    expect(redactSecrets('postgres brokers are fine')).toBe('postgres brokers are fine');
    expect(redactSecrets('postgresql://postgres:postgres@db/postgres')).toBe('postgresql://postgres:***@db/postgres');
  });
});
