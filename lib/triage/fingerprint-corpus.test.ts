import { describe, expect, it } from 'vitest';
import { fingerprintError } from './fingerprint';
import { parsePythonError } from './python-traceback';

// Real-world error messages (as the libraries word them) and the group each must fall into:
// rows with the same group name must share one fingerprint, rows with different names must not.
// `Type: message` is how the last line of a Python traceback reads.
const CORPUS: Array<[group: string, reason: string]> = [
  // The case: a customer id with a letter prefix split 300 letters into 10 groups.
  ['card-declined', 'shop.billing.CardError: card ending 4242 declined for customer cus_412345 (amount 12.50 EUR)'],
  ['card-declined', 'shop.billing.CardError: card ending 0005 declined for customer cus_298765 (amount 7 EUR)'],
  ['card-declined', 'shop.billing.CardError: card ending 4242 declined for customer cus_NffrFeUfNV2Hib (amount 1,200.00 EUR)'],
  ['order-missing', 'shop.orders.OrderError: order ord_412345 not found'],
  ['order-missing', 'shop.orders.OrderError: order ord_298 not found'],
  // Stripe (stripe-python): request ids, object ids of base 62.
  ['stripe-declined', 'stripe.error.CardError: Request req_8PqVc5mRkTGl1A: Your card was declined.'],
  ['stripe-declined', 'stripe.error.CardError: Request req_J2kLmN0pQrStUv: Your card was declined.'],
  ['stripe-no-customer', "stripe.error.InvalidRequestError: Request req_a1B2c3D4e5F6g7: No such customer: 'cus_NffrFeUfNV2Hib'"],
  ['stripe-no-customer', "stripe.error.InvalidRequestError: Request req_Zz9Yy8Xx7Ww6Vv: No such customer: 'cus_Ogh4TQ2sMvKjLp'"],
  ['stripe-refunded', 'stripe.error.InvalidRequestError: Charge ch_3MqLiJLkdIwHu7ix0snN0B15 has already been refunded.'],
  ['stripe-refunded', 'stripe.error.InvalidRequestError: Charge ch_1NrTbkLkdIwHu7ixAbCdEfGh has already been refunded.'],
  [
    'stripe-pi-state',
    "stripe.error.InvalidRequestError: This PaymentIntent's amount could not be updated because it has a status of succeeded. (pi_3MtwBwLkdIwHu7ix28a3tqPa)",
  ],
  [
    'stripe-pi-state',
    "stripe.error.InvalidRequestError: This PaymentIntent's amount could not be updated because it has a status of succeeded. (pi_3OabCdLkdIwHu7ix0aZ9yXwV)",
  ],
  ['stripe-rate', 'stripe.error.RateLimitError: Request req_Qw3Er4Ty5Ui6Op: Too many requests made to the API too quickly'],
  ['stripe-rate', 'stripe.error.RateLimitError: Request req_As1Df2Gh3Jk4Lz: Too many requests made to the API too quickly'],
  // botocore / boto3: the error code and the operation tell errors apart, ids and retries do not.
  [
    's3-no-key',
    'botocore.exceptions.ClientError: An error occurred (NoSuchKey) when calling the GetObject operation: The specified key does not exist.',
  ],
  ['s3-denied', 'botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the GetObject operation: Access Denied'],
  [
    'throttled',
    'botocore.exceptions.ClientError: An error occurred (ThrottlingException) when calling the DescribeInstances operation (reached max retries: 4): Rate exceeded',
  ],
  [
    'throttled',
    'botocore.exceptions.ClientError: An error occurred (ThrottlingException) when calling the DescribeInstances operation (reached max retries: 9): Rate exceeded',
  ],
  [
    'no-instance',
    "botocore.exceptions.ClientError: An error occurred (InvalidInstanceID.NotFound) when calling the DescribeInstances operation: The instance ID 'i-0abcd1234ef567890' does not exist",
  ],
  [
    'no-instance',
    "botocore.exceptions.ClientError: An error occurred (InvalidInstanceID.NotFound) when calling the DescribeInstances operation: The instance ID 'i-0123456789abcdef0' does not exist",
  ],
  [
    'sqs-endpoint',
    'botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/orders"',
  ],
  [
    'sqs-endpoint',
    'botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: "https://sqs.us-east-2.amazonaws.com/210987654321/refunds"',
  ],
  // requests / urllib3: the cause inside the repr stays readable and apart.
  [
    'http-refused',
    "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.stripe.com', port=443): Max retries exceeded with url: /v1/charges (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f9c1c2d3e50>: Failed to establish a new connection: [Errno 111] Connection refused'))",
  ],
  [
    'http-refused',
    "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='hooks.example.com', port=8443): Max retries exceeded with url: /v1/refunds (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f0011223344>: Failed to establish a new connection: [Errno 111] Connection refused'))",
  ],
  [
    'http-dns',
    "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.stripe.com', port=443): Max retries exceeded with url: /v1/charges (Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object at 0x7f9c1c2d3e50>: Failed to resolve 'api.stripe.com' ([Errno -2] Name or service not known)\"))",
  ],
  [
    'http-read-timeout',
    "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='hooks.slack.com', port=443): Read timed out. (read timeout=30)",
  ],
  [
    'http-read-timeout',
    "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='hooks.slack.com', port=443): Read timed out. (read timeout=10.0)",
  ],
  ['http-503', 'requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: https://api.example.com/v2/orders/991'],
  [
    'http-503',
    'requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: https://api.example.com/v2/orders/992?expand=items',
  ],
  ['http-404', 'requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://api.example.com/v2/orders/991'],
  // psycopg / psycopg2: constraint and relation names tell faults apart; keys and hosts do not.
  [
    'pg-unique-email',
    'psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "users_email_key"\nDETAIL:  Key (email)=(jane@example.com) already exists.',
  ],
  [
    'pg-unique-email',
    'psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "users_email_key"\nDETAIL:  Key (email)=(bob.smith+x@example.org) already exists.',
  ],
  [
    'pg-unique-pkey',
    'psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "orders_pkey"\nDETAIL:  Key (id)=(42) already exists.',
  ],
  [
    'pg-unique-pkey',
    'psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "orders_pkey"\nDETAIL:  Key (id)=(1234567) already exists.',
  ],
  [
    'pg-fk',
    'psycopg.errors.ForeignKeyViolation: insert or update on table "order_items" violates foreign key constraint "order_items_order_id_fkey"\nDETAIL:  Key (order_id)=(98765) is not present in table "orders".',
  ],
  [
    'pg-fk',
    'psycopg.errors.ForeignKeyViolation: insert or update on table "order_items" violates foreign key constraint "order_items_order_id_fkey"\nDETAIL:  Key (order_id)=(7) is not present in table "orders".',
  ],
  [
    'pg-conn',
    'psycopg2.OperationalError: connection to server at "10.0.3.17", port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?',
  ],
  [
    'pg-conn',
    'psycopg2.OperationalError: connection to server at "10.0.4.2", port 6432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?',
  ],
  [
    'pg-no-invoices',
    'psycopg2.errors.UndefinedTable: relation "invoices" does not exist\nLINE 1: SELECT * FROM invoices WHERE id = 42\n                      ^',
  ],
  [
    'pg-no-invoices',
    'psycopg2.errors.UndefinedTable: relation "invoices" does not exist\nLINE 1: SELECT * FROM invoices WHERE id = 9\n                      ^',
  ],
  [
    'pg-no-refunds',
    'psycopg2.errors.UndefinedTable: relation "refunds" does not exist\nLINE 1: SELECT * FROM refunds WHERE id = 42\n                      ^',
  ],
  [
    'pg-in-list',
    'psycopg.errors.QueryCanceled: canceling statement due to statement timeout\nCONTEXT:  SELECT id FROM orders WHERE id IN (1, 2, 3) AND state = $1',
  ],
  [
    'pg-in-list',
    'psycopg.errors.QueryCanceled: canceling statement due to statement timeout\nCONTEXT:  SELECT id FROM orders WHERE id IN (17) AND state = $2',
  ],
  [
    'pg-deadlock',
    'psycopg2.errors.DeadlockDetected: deadlock detected\nDETAIL:  Process 12345 waits for ShareLock on transaction 67890; blocked by process 12346.\nHINT:  See server log for query details.\nCONTEXT:  while updating tuple (0,12) in relation "accounts"',
  ],
  [
    'pg-deadlock',
    'psycopg2.errors.DeadlockDetected: deadlock detected\nDETAIL:  Process 77 waits for ShareLock on transaction 901; blocked by process 78.\nHINT:  See server log for query details.\nCONTEXT:  while updating tuple (3,4) in relation "accounts"',
  ],
  // SQLAlchemy wraps the driver's error and adds the statement and its parameters.
  [
    'sa-unique',
    "sqlalchemy.exc.IntegrityError: (psycopg2.errors.UniqueViolation) duplicate key value violates unique constraint \"users_email_key\"\nDETAIL:  Key (email)=(a@b.co) already exists.\n[SQL: INSERT INTO users (email, name) VALUES (%(email)s, %(name)s) RETURNING users.id]\n[parameters: {'email': 'a@b.co', 'name': 'Ann'}]\n(Background on this error at: https://sqlalche.me/e/20/gkpj)",
  ],
  [
    'sa-unique',
    "sqlalchemy.exc.IntegrityError: (psycopg2.errors.UniqueViolation) duplicate key value violates unique constraint \"users_email_key\"\nDETAIL:  Key (email)=(zed@example.net) already exists.\n[SQL: INSERT INTO users (email, name) VALUES (%(email)s, %(name)s) RETURNING users.id]\n[parameters: {'email': 'zed@example.net', 'name': 'Zed Z.'}]\n(Background on this error at: https://sqlalche.me/e/20/gkpj)",
  ],
  [
    'sa-pool',
    'sqlalchemy.exc.TimeoutError: QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00 (Background on this error at: https://sqlalche.me/e/14/3o7r)',
  ],
  [
    'sa-pool',
    'sqlalchemy.exc.TimeoutError: QueuePool limit of size 20 overflow 0 reached, connection timed out, timeout 10.00 (Background on this error at: https://sqlalche.me/e/14/3o7r)',
  ],
  ['sa-stale', "sqlalchemy.orm.exc.StaleDataError: UPDATE statement on table 'orders' expected to update 1 row(s); 0 were matched."],
  ['sa-stale', "sqlalchemy.orm.exc.StaleDataError: UPDATE statement on table 'orders' expected to update 3 row(s); 2 were matched."],
  [
    'sa-values',
    'sqlalchemy.exc.DataError: (psycopg.errors.NumericValueOutOfRange) integer out of range\n[SQL: INSERT INTO ledger (account, cents) VALUES (42, 99999999999)]',
  ],
  [
    'sa-values',
    'sqlalchemy.exc.DataError: (psycopg.errors.NumericValueOutOfRange) integer out of range\n[SQL: INSERT INTO ledger (account, cents) VALUES (7, 88888888888)]',
  ],
  // Django.
  ['dj-order-missing', 'shop.models.Order.DoesNotExist: Order matching query does not exist.'],
  [
    'dj-unique-ref',
    'django.db.utils.IntegrityError: duplicate key value violates unique constraint "shop_order_ref_key"\nDETAIL:  Key (ref)=(ORD-2024-0042) already exists.',
  ],
  [
    'dj-unique-ref',
    'django.db.utils.IntegrityError: duplicate key value violates unique constraint "shop_order_ref_key"\nDETAIL:  Key (ref)=(ORD-2025-0911) already exists.',
  ],
  [
    'dj-db-down',
    'django.db.utils.OperationalError: could not connect to server: Connection refused\n\tIs the server running on host "db-7.prod" (10.0.3.17) and accepting\n\tTCP/IP connections on port 5432?',
  ],
  [
    'dj-db-down',
    'django.db.utils.OperationalError: could not connect to server: Connection refused\n\tIs the server running on host "db-12.prod" (10.0.3.18) and accepting\n\tTCP/IP connections on port 5433?',
  ],
  // Celery and billiard.
  ['soft-limit', 'celery.exceptions.SoftTimeLimitExceeded: SoftTimeLimitExceeded()'],
  ['hard-limit', 'billiard.exceptions.TimeLimitExceeded: TimeLimitExceeded(300.0,)'],
  ['hard-limit', 'billiard.exceptions.TimeLimitExceeded: TimeLimitExceeded(60,)'],
  ['worker-killed', 'billiard.exceptions.WorkerLostError: Worker exited prematurely: signal 9 (SIGKILL) Job: 1234.'],
  ['worker-killed', 'billiard.exceptions.WorkerLostError: Worker exited prematurely: signal 9 (SIGKILL) Job: 17.'],
  ['worker-terminated', 'billiard.exceptions.WorkerLostError: Worker exited prematurely: signal 15 (SIGTERM) Job: 1234.'],
  ['retry-redis', "celery.exceptions.Retry: Retry in 60s: ConnectionError('Error 111 connecting to redis:6379. Connection refused.')"],
  ['retry-redis', "celery.exceptions.Retry: Retry in 1500ms: ConnectionError('Error 111 connecting to redis:6380. Connection refused.')"],
  ['retry-timeout', "celery.exceptions.Retry: Retry in 60s: TimeoutError('Timeout reading from socket')"],
  [
    'max-retries',
    "celery.exceptions.MaxRetriesExceededError: Can't retry shop.tasks.charge[4f9c2a1e-7b3d-4e8f-9a0b-1c2d3e4f5a6b] args:(42,) kwargs:{'amount': 12.5}",
  ],
  [
    'max-retries',
    "celery.exceptions.MaxRetriesExceededError: Can't retry shop.tasks.charge[0a1b2c3d-4e5f-4a7b-8c9d-0e1f2a3b4c5d] args:(7,) kwargs:{'amount': 3}",
  ],
  // redis-py and kombu: hosts with numbers and ports merge, the kind of failure does not.
  ['redis-refused', 'redis.exceptions.ConnectionError: Error 111 connecting to 10.0.3.17:6379. Connection refused.'],
  ['redis-refused', 'redis.exceptions.ConnectionError: Error 111 connecting to 10.0.9.4:6380. Connection refused.'],
  ['redis-timeout', 'redis.exceptions.ConnectionError: Error 110 connecting to redis-7.cache.internal:6379. Connection timed out.'],
  ['redis-timeout', 'redis.exceptions.ConnectionError: Error 110 connecting to redis-3.cache.internal:6380. Connection timed out.'],
  ['redis-oom', "redis.exceptions.ResponseError: OOM command not allowed when used memory > 'maxmemory'."],
  ['kombu-refused', 'kombu.exceptions.OperationalError: [Errno 111] Connection refused'],
  ['kombu-encode', 'kombu.exceptions.EncodeError: Object of type Decimal is not JSON serializable'],
  // Slack-, GitHub-style ids, SHAs, hosts, durations, percentages, IPv6, UUIDs.
  ['slack-not-in-channel', 'shop.notify.SlackError: user U024BE7LH is not in channel C1H9RESGL'],
  ['slack-not-in-channel', 'shop.notify.SlackError: user W012A3CDE is not in channel C0G9QF9GW'],
  ['gh-commit', 'shop.ci.GitHubError: commit 3f786850e387550fdab836ed7e6dc881de23001b not found in PR_kwDOABCD5M5XyZ12'],
  ['gh-commit', 'shop.ci.GitHubError: commit a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 not found in PR_kwDOHIJKL85abCD9'],
  ['disk', 'shop.ops.DiskAlarm: disk usage on ip-10-0-1-23.ec2.internal at 91.5%, threshold 90%'],
  ['disk', 'shop.ops.DiskAlarm: disk usage on ip-10-0-7-201.ec2.internal at 97%, threshold 95%'],
  ['lock-wait', 'shop.ops.LockTimeout: lock wait took 37.2s (budget 1500ms)'],
  ['lock-wait', 'shop.ops.LockTimeout: lock wait took 2m3s (budget 500ms)'],
  ['v6', 'shop.ops.ConnectFailed: connect to [2001:db8::ff00:42:8329]:5432 failed'],
  ['v6', 'shop.ops.ConnectFailed: connect to [fe80::1%eth0]:5433 failed'],
  ['job-running', 'shop.jobs.AlreadyRunning: job 7d3c1a9e-5b0f-4c1e-9a7b-2f4d6e8a0b1c already running'],
  ['job-running', 'shop.jobs.AlreadyRunning: job 0B9E2F4A1C3D4E5F8A7B9C0D1E2F3A4B already running'],
  // Words with digits are names, not values: they keep errors apart.
  ['codec-v2', 'shop.codec.CodecError: cannot decode utf8 payloads with codec_v2'],
  ['codec-v3', 'shop.codec.CodecError: cannot decode utf8 payloads with codec_v3'],
];

const keyOf = (reason: string) => fingerprintError(parsePythonError(reason)).key;

describe('fingerprints of real-world errors', () => {
  it('has a corpus of 50+ messages, several variants per group', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(CORPUS.map(([g]) => g)).size).toBeLessThan(CORPUS.length - 20);
  });

  const byGroup = new Map<string, string[]>();
  for (const [g, reason] of CORPUS) byGroup.set(g, [...(byGroup.get(g) ?? []), reason]);

  it.each([...byGroup].filter(([, rs]) => rs.length > 1))('merges the variants of %s', (_g, reasons) => {
    const patterns = reasons.map((r) => fingerprintError(parsePythonError(r)).pattern);
    expect(new Set(patterns).size, patterns.join('\n')).toBe(1);
    expect(new Set(reasons.map(keyOf)).size).toBe(1);
  });

  it('keeps different errors apart: one key per group', () => {
    const keyToGroup = new Map<string, string>();
    for (const [g, reason] of CORPUS) {
      const k = keyOf(reason);
      const other = keyToGroup.get(k);
      expect(other === undefined || other === g, `${g} merged into ${other}: ${reason}`).toBe(true);
      keyToGroup.set(k, g);
    }
    expect(keyToGroup.size).toBe(byGroup.size);
  });

  it('300 card declines of 300 customers form one group, with readable placeholders', () => {
    const keys = new Set<string>();
    for (let n = 0; n < 300; n++) {
      const customer = `cus_${412345 + n * 7919}`;
      keys.add(keyOf(`CardError: card ending 4242 declined for customer ${customer} (amount ${(n % 90) + 10}.50 EUR)`));
    }
    expect(keys.size).toBe(1);
    expect(fingerprintError(parsePythonError(CORPUS[0]![1])).pattern).toBe(
      'shop.billing.CardError: card ending <n> declined for customer <id> (amount <n> EUR)',
    );
  });
});
