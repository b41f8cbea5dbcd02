'use server';
import type { ScheduleAction, SchedulePreview } from '@/lib/brokers/schedule';
import { respond } from './respond';
import { createScheduleOp, editScheduleOp, previewScheduleOp, scheduleActionOp, type ScheduleResult } from './schedules';
import type { ActionResponse } from './response';

// Server actions of the Schedules tab: thin wrappers over the gated operations (./schedules.ts).

export async function scheduleAction(brokerId: string, action: ScheduleAction, input: unknown): Promise<ActionResponse<ScheduleResult>> {
  return respond((h) => scheduleActionOp(brokerId, action, input, h));
}

export async function createScheduleAction(brokerId: string, input: unknown): Promise<ActionResponse<ScheduleResult>> {
  return respond((h) => createScheduleOp(brokerId, input, h));
}

export async function editScheduleAction(brokerId: string, input: unknown): Promise<ActionResponse<ScheduleResult>> {
  return respond((h) => editScheduleOp(brokerId, input, h));
}

export async function previewScheduleAction(brokerId: string, input: unknown): Promise<ActionResponse<SchedulePreview>> {
  return respond((h) => previewScheduleOp(brokerId, input, h));
}
