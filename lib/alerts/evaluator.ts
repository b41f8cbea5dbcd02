import 'server-only';
import { takeSnapshot } from '@/lib/metrics/snapshot';
import { getAlertSettings } from './config';
import { auditDelivery, sendAndAudit } from './deliveries';
import { getStateDb } from '@/lib/state/sql';
import { newAlertMemory, type AlertReading } from './evaluate';
import { createAlertMemoryStore, type EvaluatorMemory } from './memory';
import { stepFiring } from './firing';
import { getAlertStore, type SendState } from './store';
import { effectiveWebhook, watchedTargets } from './targets';
import { evaluateSnapshot } from './watch';
import { rateLimited, type DeliveryOptions } from './webhook';

// The background evaluator: one per console process, so targets are read (and the webhook
// sent) with nobody viewing a page or scraping /metrics. One tick at a time; each reads every
// watched target's broker once (the same read /metrics takes). Deliveries run beside the ticks,
// at most MAX_IN_FLIGHT at once, so a webhook that hangs never slows an evaluation.
// Several instances on one state store each evaluate; a transition is sent by the one that
// records it first (AlertStore.claimTransition). What an evaluation remembers for the next
// (when a breach began, the last transition sent, the rate and fingerprint memory) is in the
// state store (./memory.ts), so a restart or another instance goes on from it; a store that
// cannot be read leaves this process's own memory, as before there was one.

export const EVERY_MS = 30_000;
const MAX_IN_FLIGHT = 20;

interface EvaluatorState {
  /** This process's memory, used only while the state store cannot be read. */
  own: EvaluatorMemory;
  inFlight: number;
  running: boolean;
  timer?: NodeJS.Timeout;
}
const g = globalThis as unknown as { __potatoqAlertEvaluator?: EvaluatorState };
const state = (): EvaluatorState =>
  (g.__potatoqAlertEvaluator ??= { own: { since: new Map(), sent: new Map(), facts: newAlertMemory() }, inFlight: 0, running: false });

const logError = (e: unknown, target?: string) =>
  console.error(JSON.stringify({ event: 'console.alerts', ...(target ? { target } : {}), message: String(e).slice(0, 300) }));

/** The shared memory of `targets` with how to save it, or this process's own when the store fails. */
async function memoryOf(targets: string[]): Promise<{ m: EvaluatorMemory; save: (now: number) => Promise<void> }> {
  try {
    const store = createAlertMemoryStore(await getStateDb());
    const { was, ...m } = await store.load(targets);
    return { m, save: (now) => store.save(m, was, now).catch((e: unknown) => logError(e)) };
  } catch (e) {
    logError(e);
    return { m: state().own, save: async () => undefined };
  }
}

async function transition(r: AlertReading, next: SendState, now: number, o: DeliveryOptions, sent: EvaluatorMemory['sent']): Promise<void> {
  const s = state();
  const hook = await effectiveWebhook();
  if (!hook) return;
  const t = r.target;
  const claim = await (await getAlertStore()).claimTransition(t.id, next, new Date(now).toISOString());
  sent.set(t.id, next);
  if (!claim.claimed) return;
  const event = next === 'firing' ? 'firing' : claim.before === 'firing' && hook.settings.sendResolved ? 'resolved' : null;
  if (!event) return;
  const { publicUrl } = await getAlertSettings();
  if (rateLimited(claim.sentAt, now, hook.settings.minIntervalSeconds)) {
    const why = `not sent: the last delivery for this target was less than ${hook.settings.minIntervalSeconds} s ago`;
    return auditDelivery(event, t, { skipped: why }, null);
  }
  if (s.inFlight >= MAX_IN_FLIGHT) return auditDelivery(event, t, { skipped: `not sent: ${MAX_IN_FLIGHT} deliveries are under way` }, null);
  await (await getAlertStore()).markSent(t.id, new Date(now).toISOString());
  s.inFlight++;
  void sendAndAudit(hook.settings, event, t, r.value, publicUrl, o).finally(() => s.inFlight--);
}

/** One evaluation of every watched target; answers the readings. Exported for tests. */
export async function runAlertTick(o: DeliveryOptions = {}, now: () => number = Date.now): Promise<AlertReading[]> {
  const targets = await watchedTargets();
  if (!targets.length) return [];
  const snapshot = await takeSnapshot({ now });
  const { m, save } = await memoryOf(targets.map((t) => t.id));
  const readings = await evaluateSnapshot(snapshot, targets, m.facts);
  const at = now();
  for (const r of readings) {
    const step = stepFiring(m.since.get(r.target.id), r, at);
    m.since.set(r.target.id, step.since);
    if (step.firing === null) continue;
    const next: SendState = step.firing ? 'firing' : 'resolved';
    if (m.sent.get(r.target.id) === next) continue;
    await transition(r, next, at, o, m.sent).catch((e: unknown) => logError(e, r.target.id));
  }
  await save(at);
  return readings;
}

/** Starts the evaluator once per process (instrumentation.ts); a failed tick is logged, never fatal. */
export function startAlertEvaluator(every = EVERY_MS): void {
  const s = state();
  if (s.timer) return;
  const tick = () => {
    if (s.running) return;
    s.running = true;
    runAlertTick()
      .catch((e: unknown) => logError(e))
      .finally(() => (s.running = false));
  };
  s.timer = setInterval(tick, every);
  s.timer.unref();
}

/** Deliveries this process has under way (a process that exits waits for them). */
export const deliveriesInFlight = (): number => state().inFlight;

/** Tests only: forgets what this process recorded. */
export function resetAlertEvaluator(): void {
  const s = state();
  if (s.timer) clearInterval(s.timer);
  g.__potatoqAlertEvaluator = undefined;
}
