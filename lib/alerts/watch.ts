import 'server-only';
import { Gauge, Registry } from 'prom-client';
import { deadGroups } from '@/lib/brokers/service';
import { listSchedules } from '@/lib/brokers/schedules-service';
import type { Snapshot } from '@/lib/metrics/snapshot';
import { brokerFacts, evaluateTarget, newAlertMemory, type AlertMemory, type AlertReading } from './evaluate';
import type { AlertTarget } from './schema';
import { watchedTargets } from './targets';

// The targets read from each /metrics snapshot (one broker read serves both), plus the reads
// only some kinds need: dead-letter groups for newFingerprint, schedules for missedSchedule,
// one each per target and snapshot. The memory (rates, fingerprints seen) is per process.

const g = globalThis as unknown as { __potatoqAlertMemory?: AlertMemory; __potatoqAlertReadings?: AlertReading[] };
const memory = () => (g.__potatoqAlertMemory ??= newAlertMemory());

export const ALL_QUEUES = '(all)';

async function extraFacts(t: AlertTarget): Promise<{ fingerprints?: string[] | null; scheduleProblems?: number | null }> {
  try {
    if (t.kind === 'newFingerprint')
      return { fingerprints: (await deadGroups(t.broker, { queue: t.queue })).groups.map((x) => x.fingerprint) };
    if (t.kind === 'missedSchedule')
      return { scheduleProblems: (await listSchedules(t.broker)).schedules.filter((s) => s.problems.length).length };
  } catch {
    return t.kind === 'newFingerprint' ? { fingerprints: null } : { scheduleProblems: null };
  }
  return {};
}

export async function evaluateSnapshot(s: Snapshot, targets: AlertTarget[], mem: AlertMemory = memory()): Promise<AlertReading[]> {
  const readings = await Promise.all(
    targets.map(async (t) => {
      const b = brokerFacts(s.brokers.find((x) => x.id === t.broker));
      return evaluateTarget(t, { at: s.takenAt, ...b, ...(b.overview ? await extraFacts(t) : {}) }, mem);
    }),
  );
  g.__potatoqAlertReadings = readings;
  return readings;
}

/** The last readings (the targets page shows them); empty before the first snapshot. */
export const lastReadings = (): AlertReading[] => g.__potatoqAlertReadings ?? [];

export async function renderAlerts(readings: AlertReading[]): Promise<string> {
  if (!readings.length) return '';
  const r = new Registry();
  const labelNames = ['target', 'broker', 'queue', 'kind'] as const;
  const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames, registers: [r] });
  const value = gauge('potatoq_console_alert_value', "A queue-health target's measured value (docs/alerts.md); absent when unknown.");
  const threshold = gauge('potatoq_console_alert_threshold', "The target's threshold, where its kind has one.");
  const breached = gauge('potatoq_console_alert_breached', '1 when the target is crossed now, 0 when not; absent when unknown.');
  for (const x of readings) {
    const labels = { target: x.target.id, broker: x.target.broker, queue: x.target.queue ?? ALL_QUEUES, kind: x.target.kind };
    if (x.target.threshold !== undefined) threshold.set(labels, x.target.threshold);
    if (x.value === null) continue;
    value.set(labels, x.value);
    breached.set(labels, x.breached ? 1 : 0);
  }
  return r.metrics();
}

/** The alert series of one snapshot: '' when no target is configured. */
export async function alertsText(s: Snapshot): Promise<string> {
  const targets = await watchedTargets();
  if (!targets.length) return '';
  return renderAlerts(await evaluateSnapshot(s, targets));
}
