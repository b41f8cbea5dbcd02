import 'server-only';
import { z } from 'zod';

// The options of a Celery broker entry (`{"id", "kind": "celery", "url", ...}`). Checked at boot
// (strict: an unknown key stops startup naming it). No defaults here: the adapter applies them.

const text = (what: string) => z.string({ error: `${what} must be a string` });
const seconds = (what: string) => z.number({ error: `${what} must be a number of seconds` }).positive(`${what} must be more than 0`);
const ms = (what: string) =>
  z
    .number({ error: `${what} must be a number of milliseconds` })
    .int(`${what} must be a whole number`)
    .positive(`${what} must be more than 0`);

export const ZCeleryOptions = z.strictObject({
  /** The app's `result_backend` (redis://...), or "none": failures, results and replay need it. */
  resultBackend: text('resultBackend').optional(),
  /** Queues to show; discovered from kombu's bindings (Redis) when absent. */
  queues: z.array(text('each queue'), { error: 'queues must be a list of queue names' }).optional(),
  /** kombu's `visibility_timeout` transport option (3600): when reserved messages come back. */
  visibilityTimeout: seconds('visibilityTimeout').optional(),
  /** kombu's `global_keyprefix` transport option of the broker (""). */
  globalKeyprefix: text('globalKeyprefix').optional(),
  /** The result backend's `global_keyprefix` (""). */
  resultKeyprefix: text('resultKeyprefix').optional(),
  /** The app's `result_expires` in seconds (86400): how long a REVOKED record the console writes lives. */
  resultExpires: seconds('resultExpires').optional(),
  /** RabbitMQ's management API (`http://host:15672`): queue discovery and unacknowledged counts. */
  managementUrl: text('managementUrl').optional(),
  managementUser: text('managementUser').optional(),
  managementPassword: text('managementPassword').optional(),
  /** RabbitMQ: a dead-letter queue the app's task queues dead-letter into (x-dead-letter-exchange);
   *  its messages are shown with the failures (browsed without loss, RabbitMQ 4 only). */
  deadLetterQueue: text('deadLetterQueue').min(1, 'deadLetterQueue must not be empty').optional(),
  /** At most this many messages of deadLetterQueue are held by one browse (10000). */
  deadBrowseLimit: z
    .number({ error: 'deadBrowseLimit must be a number' })
    .int('deadBrowseLimit must be a whole number')
    .positive('deadBrowseLimit must be more than 0')
    .optional(),
  /** How long a broadcast `inspect`/`ping` waits for workers' replies (1000). */
  inspectTimeoutMs: ms('inspectTimeoutMs').optional(),
});
export type CeleryOptions = z.infer<typeof ZCeleryOptions>;
