import 'server-only';
import { z } from 'zod';
import {
  ZScheduleActionRequest,
  ZScheduleCreateRequest,
  ZScheduleEditRequest,
  type ScheduleAction,
  type ScheduleOutcome,
} from '@/lib/brokers/schedule';
import * as schedules from '@/lib/brokers/schedules-service';
import { gate } from './gate';

// Schedule writes, each one gate call (who, role, same-site, zod, reason, capability, audit):
// server actions (./schedule-actions.ts) and POST routes both call these.

/** A schedule write as the audit trail reads it: one id, its outcome. */
export type ScheduleResult = ScheduleOutcome & { requested: 1; succeeded: ScheduleOutcome[]; failed: [] };
const asResult = (o: ScheduleOutcome): ScheduleResult => ({ ...o, requested: 1, succeeded: [o], failed: [] });

/** Pause, resume, delete or run one schedule now; a delete needs a reason. */
export const scheduleActionOp = (brokerId: string, action: ScheduleAction, input: unknown, headers: Headers) =>
  gate({
    action: `schedule-${action}`,
    brokerId,
    capability: 'schedules:write',
    schema: ZScheduleActionRequest,
    input,
    headers,
    reasonRequired: action === 'delete',
    target: (r) => ({ ids: [r.id] }),
    run: async (r) => asResult(await schedules.scheduleAction(brokerId, { id: r.id, action, confirm: r.confirm, key: r.key })),
    audit: (r, res) => ({ schedule: r.id, ...(res.jobId ? { job: res.jobId } : {}), outcome: res.outcome }),
  });

const inputOf = ({ name, cron, timeZone, task, queue, fields }: z.output<typeof ZScheduleCreateRequest>) => ({
  name,
  cron,
  timeZone,
  task,
  queue,
  fields,
});

export const createScheduleOp = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'schedule-create',
    brokerId,
    capability: 'schedules:write',
    schema: ZScheduleCreateRequest,
    input,
    headers,
    reasonRequired: false,
    run: async (r) => asResult(await schedules.createSchedule(brokerId, inputOf(r))),
    audit: (r, res) => ({ schedule: res.id, name: r.name, cron: r.cron, task: r.task }),
  });

/** An edit as the system does it (QueueFlow: delete, then create); the old name is typed. */
export const editScheduleOp = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'schedule-edit',
    brokerId,
    capability: 'schedules:write',
    schema: ZScheduleEditRequest,
    input,
    headers,
    reasonRequired: true,
    target: (r) => ({ ids: [r.id] }),
    run: async (r) => asResult(await schedules.editSchedule(brokerId, r.id, r.confirm, inputOf(r))),
    audit: (r, res) => ({ schedule: r.id, replacedBy: res.id, name: r.name, cron: r.cron, task: r.task }),
  });

const ZPreview = ZScheduleCreateRequest.extend({ replaces: z.string().max(256).optional() });

/** The exact calls a create or edit would make; a read (no audit entry, no capability). */
export const previewScheduleOp = (brokerId: string, input: unknown, headers: Headers) =>
  gate({
    action: 'schedule-preview',
    brokerId,
    capability: null,
    schema: ZPreview,
    input,
    headers,
    reasonRequired: false,
    recorded: false,
    run: (r) => schedules.previewSchedule(brokerId, inputOf(r), r.replaces),
  });
