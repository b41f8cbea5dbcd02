import 'server-only';
import type { SchedulesDecl } from '@/lib/brokers/schedule-model';

/** The least time between two firings a schedule created here may have. QueueFlow itself takes
 *  a seconds field (`* * * * * *` fires at every janitor tick, about once a second): the console
 *  creates schedules of minutes only, as QueueFlow's documented 5-field crontab. */
export const QF_MIN_SCHEDULE_SECONDS = 60;

/** QueueFlow's cron schedules (server 0.6.0, `/api/v1/cron`): data on the server, each firing a
 *  job under the idempotency key `cron:<id>:<due epoch s>`. docs/systems/queueflow.md. */
export const QUEUEFLOW_SCHEDULES: SchedulesDecl = {
  source:
    "QueueFlow's cron schedules (GET /api/v1/cron), each with the job its last firing made (found by the firing's cron_id in the job's metadata). Expressions are evaluated in UTC; days of the week count from Sunday = 1.",
  cannotSee: [
    'Firings before the last one: QueueFlow keeps only the last firing time on a schedule; older jobs are found on the Results page by task name.',
    'When a paused schedule was paused or resumed: QueueFlow records neither, so firings skipped while paused are not flagged as missed.',
    'Schedules of other tenants: the configured token sees its own tenant only.',
  ],
  timeZones: ['UTC'],
  actions: {
    pause: { does: 'QueueFlow stops firing this schedule (POST /api/v1/cron/{id}/pause); jobs it already made are not touched.' },
    resume: {
      does: 'QueueFlow fires this schedule again from its next occurrence after now (POST /api/v1/cron/{id}/resume); occurrences missed while paused are not caught up.',
    },
    delete: { does: 'QueueFlow deletes this schedule (DELETE /api/v1/cron/{id}); jobs it already made are not touched.' },
    runNow: {
      does: "The console creates one job with this schedule's task, payload, queue and settings (POST /api/v1/jobs) under an idempotency key of its own: sent twice, it makes one job. The schedule's own next firing is unchanged.",
    },
    create: {
      does: 'QueueFlow creates the schedule (POST /api/v1/cron); its first firing is the next occurrence after now, in UTC. Names are unique per tenant.',
      minSeconds: QF_MIN_SCHEDULE_SECONDS,
      fields: [
        {
          key: 'payload',
          kind: 'json-object',
          label: 'Payload (JSON object)',
          default: '{}',
          help: 'Sent as the payload of every job a firing makes.',
        },
        { key: 'priority', kind: 'integer', label: 'Priority', min: -1000, max: 1000, advanced: true },
        { key: 'max_retries', kind: 'integer', label: 'Max retries', min: 0, max: 1000, advanced: true, help: 'QueueFlow default 3.' },
        { key: 'timeout_secs', kind: 'integer', label: 'Timeout (s)', min: 1, max: 86400, advanced: true, help: 'QueueFlow default 300.' },
      ],
    },
    edit: {
      how: 'replace',
      does: 'QueueFlow cannot change a schedule: the console deletes it (DELETE /api/v1/cron/{id}) and creates it again under the same name with the new fields (POST /api/v1/cron). The new schedule has a new id, no last firing, and fires from its next occurrence; between the two calls it does not exist.',
    },
  },
};
