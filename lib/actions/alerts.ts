import 'server-only';
import { z } from 'zod';
import { getAlertSettings } from '@/lib/alerts/config';
import { sendAndAudit, WEBHOOK_BROKER } from '@/lib/alerts/deliveries';
import { lastReadings } from '@/lib/alerts/watch';
import { ZAlertTarget } from '@/lib/alerts/schema';
import { getAlertStore } from '@/lib/alerts/store';
import { effectiveWebhook, listTargets, NO_WEBHOOK } from '@/lib/alerts/targets';
import { ZWebhookSettings } from '@/lib/alerts/webhook-schema';
import { ConsoleError } from '@/lib/brokers/errors';
import { brokerList } from '@/lib/brokers/service';
import { rememberSecret } from '@/lib/text/secrets';
import { gate, ZReason, type GateContext } from './gate';
import { resolvePrincipal } from './principal';

// Queue-health targets and the webhook edited in the console (lib/alerts/store.ts): changed
// through the gate (an operator with write access to the target's broker; the webhook on the
// console itself), audited with the target before and after; read by anyone signed in. The
// webhook's URL and secret are write-only: no answer here carries them.

/** Every target with where it comes from, its last reading, and the webhook's status. */
export async function listAlertsOp(headers: Headers) {
  const who = await resolvePrincipal(headers);
  const readings = new Map(lastReadings().map((r) => [r.target.id, r]));
  const targets = (await listTargets()).map((t) => {
    const r = readings.get(t.id);
    return { ...t, reading: r && !t.problem ? { value: r.value, breached: r.breached, unknown: r.unknown ?? null } : null };
  });
  const hook = await effectiveWebhook();
  return { targets, webhook: hook?.status ?? NO_WEBHOOK, canEdit: who.role === 'operator', brokers: brokerList().map((b) => b.id) };
}

const ZSave = z.strictObject({
  target: ZAlertTarget,
  /** True from the "add" form: an existing id is refused instead of replaced. */
  isNew: z.boolean({ error: 'isNew must be true or false' }).optional(),
});

function brokerOf(input: unknown): string {
  const t = input && typeof input === 'object' ? (input as { target?: unknown }).target : undefined;
  const b = t && typeof t === 'object' ? (t as { broker?: unknown }).broker : undefined;
  return typeof b === 'string' && b ? b.slice(0, 200) : WEBHOOK_BROKER;
}

export const saveTargetOp = (input: unknown, headers: Headers) =>
  gate({
    action: 'alert-target-save',
    brokerId: brokerOf(input),
    capability: null,
    schema: ZSave,
    input,
    headers,
    reasonRequired: false,
    target: ({ target }) => ({ target: target.id }),
    run: async ({ target, isNew }, ctx) => {
      if (!brokerList().some((b) => b.id === target.broker))
        throw new ConsoleError('InvalidInput', `target.broker: no broker "${target.broker}" is configured`, {
          'target.broker': 'not a configured broker',
        });
      if ((await getAlertSettings()).targets.some((t) => t.id === target.id))
        throw new ConsoleError('InvalidInput', `target.id: the config file has a target "${target.id}"; choose another id`, {
          'target.id': 'the config file has a target with this id',
        });
      const store = await getAlertStore();
      if (isNew && (await store.listTargets()).some((t) => t.id === target.id))
        throw new ConsoleError('InvalidInput', `target.id: a target "${target.id}" exists; edit it instead`, {
          'target.id': 'a target with this id exists',
        });
      const before = await store.putTarget(target, ctx.principal.user);
      return { saved: target, before };
    },
    audit: ({ target }, r) => ({ target: target.id, after: target, before: r.before }),
  });

const ZRemove = z.strictObject({ id: z.string({ error: 'id is required' }).min(1, 'id is required').max(63), reason: ZReason.optional() });

export async function removeTargetOp(input: unknown, headers: Headers) {
  const id = input && typeof input === 'object' ? (input as { id?: unknown }).id : undefined;
  const stored = typeof id === 'string' ? (await (await getAlertStore()).listTargets()).find((t) => t.id === id) : undefined;
  if (typeof id === 'string' && !stored && (await getAlertSettings()).targets.some((t) => t.id === id))
    throw new ConsoleError('InvalidInput', `id: "${id}" comes from the config file; remove it there`, { id: 'from the config file' });
  return gate({
    action: 'alert-target-remove',
    brokerId: stored?.target?.broker ?? WEBHOOK_BROKER,
    capability: null,
    schema: ZRemove,
    input,
    headers,
    reasonRequired: false,
    target: (i) => ({ target: i.id }),
    run: async (i) => {
      const before = await (await getAlertStore()).removeTarget(i.id);
      if (!before && !stored) throw new ConsoleError('NotFound', `no target "${i.id}" was edited in the console`);
      return { removed: i.id, before };
    },
    audit: (i, r) => ({ target: i.id, before: r.before, after: null }),
  });
}

/** The webhook's settings saved (URL and secret kept write-only: the audit says only that they changed). */
export const saveWebhookOp = (input: unknown, headers: Headers) =>
  gate({
    action: 'alert-webhook-save',
    brokerId: WEBHOOK_BROKER,
    capability: null,
    schema: ZWebhookSettings,
    input,
    headers,
    reasonRequired: false,
    run: async (w, ctx) => {
      rememberSecret(w.url);
      rememberSecret(w.secret);
      const store = await getAlertStore();
      const was = (await store.getWebhook())?.settings;
      await store.putWebhook(w, ctx.principal.user);
      const safe = (x: typeof w) => ({ minIntervalSeconds: x.minIntervalSeconds, sendResolved: x.sendResolved, secretSet: !!x.secret });
      return { before: was ? safe(was) : null, after: safe(w), urlChanged: was?.url !== w.url, secretChanged: was?.secret !== w.secret };
    },
    audit: (_w, r) => r,
  }).then(async () => (await effectiveWebhook())?.status ?? NO_WEBHOOK);

/** A webhook action that takes no input (`{}`), on the console itself rather than a broker. */
const webhookGate = <R>(action: string, input: unknown, headers: Headers, recorded: boolean, run: (ctx: GateContext) => Promise<R>) =>
  gate({
    action,
    brokerId: WEBHOOK_BROKER,
    capability: null,
    schema: z.strictObject({}),
    input: input ?? {},
    headers,
    reasonRequired: false,
    recorded,
    run: (_i, ctx) => run(ctx),
  });

export const removeWebhookOp = (input: unknown, headers: Headers) =>
  webhookGate('alert-webhook-remove', input, headers, true, async () => ({
    removed: await (await getAlertStore()).removeWebhook(),
  })).then(async (r) => ({ ...r, webhook: (await effectiveWebhook())?.status ?? NO_WEBHOOK }));

const TEST_EVERY_MS = 5_000;
let lastTest = 0;

/** A test message sent now to the webhook in effect; answers how it went (audited as a delivery). */
export const testWebhookOp = (input: unknown, headers: Headers) =>
  webhookGate('alert-webhook-test', input, headers, false, async (ctx) => {
    if (Date.now() - lastTest < TEST_EVERY_MS) throw new ConsoleError('Conflict', 'one test message every 5 seconds: wait a moment');
    lastTest = Date.now();
    const hook = await effectiveWebhook();
    if (!hook) throw new ConsoleError('InvalidInput', 'no webhook is configured: save one first', { url: 'no webhook is configured' });
    const { publicUrl } = await getAlertSettings();
    const who = { user: ctx.principal.user, role: ctx.principal.role, via: ctx.principal.via };
    const d = await sendAndAudit(hook.settings, 'test', null, null, publicUrl, { who, attempts: 1 });
    return { ok: d.ok, status: d.status, attempts: d.attempts, error: d.error };
  });
