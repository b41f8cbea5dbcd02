// The columns of the exports of the lists that are not task pages: dead-letter groups, workers,
// workflow runs and schedules. The same fields the views show, nothing more (a schedule's
// payload only as its read gives it: hidden where the console hides arguments). Pure, for tests.
import type { DeadGroup, WorkerInfo } from '@/lib/brokers/schema';
import type { Schedule } from '@/lib/brokers/schedule';
import type { WorkflowRun } from '@/lib/brokers/workflow-schema';
import type { ExportShape } from './rows';

/** Dead letters by error fingerprint: the group's key (the dead list's `group` filter), its
 *  pattern, how many, where from, when first and last seen, and its newest letter's reason. */
export const GROUP_SHAPE: ExportShape<DeadGroup> = {
  list: 'dead-groups',
  noun: 'groups',
  columns: [
    ['fingerprint', (g) => g.fingerprint],
    ['count', (g) => g.count],
    ['pattern', (g) => g.pattern],
    ['excType', (g) => g.excType],
    ['frame', (g) => g.frame],
    ['tasks', (g) => g.tasks],
    ['queues', (g) => g.queues],
    ['firstSeen', (g) => g.oldestAt],
    ['lastSeen', (g) => g.newestAt],
    ['exampleId', (g) => g.example.id],
    ['exampleReason', (g) => g.example.summary],
  ],
};

export const WORKER_SHAPE: ExportShape<WorkerInfo> = {
  list: 'workers',
  noun: 'workers',
  columns: [
    ['id', (w) => w.id],
    ['status', (w) => w.status],
    ['hostname', (w) => w.hostname],
    ['pid', (w) => w.pid],
    ['queues', (w) => w.queues],
    ['concurrency', (w) => w.concurrency],
    ['threads', (w) => w.threads],
    ['running', (w) => w.running],
    ['heartbeatAt', (w) => w.heartbeatAt],
    ['ageSeconds', (w) => w.ageSeconds],
    ['registered', (w) => w.registered],
  ],
};

export const WORKFLOW_SHAPE: ExportShape<WorkflowRun> = {
  list: 'workflows',
  noun: 'runs',
  columns: [
    ['id', (r) => r.id],
    ['name', (r) => r.name],
    ['status', (r) => r.status],
    ['createdAt', (r) => r.createdAt],
    ['startedAt', (r) => r.startedAt],
    ['completedAt', (r) => r.completedAt],
    ['retries', (r) => r.retries],
    ['stepCount', (r) => r.stepCount],
    ['parentId', (r) => r.parent?.id ?? null],
    ['parentStep', (r) => r.parent?.step ?? null],
    ['error', (r) => r.error],
  ],
};

/** Schedules with their last firing flattened and their problems as `kind: cause` texts. */
export const SCHEDULE_SHAPE: ExportShape<Schedule> = {
  list: 'schedules',
  noun: 'schedules',
  columns: [
    ['id', (s) => s.id],
    ['name', (s) => s.name],
    ['task', (s) => s.task],
    ['queue', (s) => s.queue],
    ['cron', (s) => s.cron],
    ['words', (s) => s.words],
    ['timeZone', (s) => s.timeZone],
    ['paused', (s) => s.paused],
    ['nextAt', (s) => s.nextAt],
    ['lastAt', (s) => s.last?.at ?? null],
    ['lastJobId', (s) => s.last?.jobId ?? null],
    ['lastState', (s) => s.last?.state ?? null],
    ['problems', (s) => s.problems.map((p) => `${p.kind}: ${p.cause}`)],
    ['payload', (s) => s.payload],
  ],
};
