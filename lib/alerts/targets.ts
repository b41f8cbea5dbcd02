import 'server-only';
import { brokerList } from '@/lib/brokers/service';
import { rememberSecret } from '@/lib/text/secrets';
import { getAlertSettings } from './config';
import type { AlertTarget } from './schema';
import { getAlertStore } from './store';
import type { WebhookSettings, WebhookStatus } from './webhook-schema';

// Every target the console watches: the config file's (read-only here) and the ones edited in
// the console (state store). An id is one target: a console-edited one whose id the config
// file took later, or whose broker is no longer configured, is listed with why and not watched.

export interface ListedTarget {
  target: AlertTarget | null;
  id: string;
  origin: 'config' | 'console';
  /** Why a console-edited target is not watched; null when it is. */
  problem: string | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

export async function listTargets(): Promise<ListedTarget[]> {
  const { targets } = await getAlertSettings();
  const fromFile: ListedTarget[] = targets.map((t) => ({
    target: t,
    id: t.id,
    origin: 'config',
    problem: null,
    updatedAt: null,
    updatedBy: null,
  }));
  const ids = new Set(targets.map((t) => t.id));
  const brokers = new Set(brokerList().map((b) => b.id));
  const stored = await (await getAlertStore()).listTargets();
  const edited: ListedTarget[] = stored.map((s) => {
    const problem = ids.has(s.id)
      ? `the config file has a target "${s.id}" too: that one is watched, remove this one or rename it`
      : s.target && !brokers.has(s.target.broker)
        ? `no broker "${s.target.broker}" is configured`
        : s.problem;
    return { target: s.target, id: s.id, origin: 'console', problem, updatedAt: s.updatedAt, updatedBy: s.updatedBy };
  });
  return [...fromFile, ...edited];
}

/** The targets evaluated: the config file's, then the console's that have no problem. */
export async function watchedTargets(): Promise<AlertTarget[]> {
  const { targets } = await getAlertSettings();
  let stored: ListedTarget[] = [];
  try {
    stored = (await listTargets()).filter((t) => t.origin === 'console');
  } catch {
    // The state store does not answer: the config file's targets are still watched.
  }
  return [...targets, ...stored.flatMap((t) => (t.target && !t.problem ? [t.target] : []))];
}

/** The webhook in effect: the console's (state store) over the config file's. */
export async function effectiveWebhook(): Promise<{ settings: WebhookSettings; status: WebhookStatus } | null> {
  const stored = await (await getAlertStore()).getWebhook().catch(() => null);
  const fromFile = (await getAlertSettings()).webhook;
  const w = stored?.settings ?? fromFile;
  if (!w) return null;
  // Hidden in every log line (a store edited by another instance is read here first).
  rememberSecret(w.url);
  rememberSecret(w.secret);
  return {
    settings: w,
    status: {
      configured: true,
      origin: stored ? 'console' : 'config',
      secretSet: !!w.secret,
      minIntervalSeconds: w.minIntervalSeconds,
      sendResolved: w.sendResolved,
      updatedAt: stored?.updatedAt ?? null,
      updatedBy: stored?.updatedBy ?? null,
    },
  };
}

export const NO_WEBHOOK: WebhookStatus = {
  configured: false,
  origin: 'none',
  secretSet: false,
  minIntervalSeconds: null,
  sendResolved: null,
  updatedAt: null,
  updatedBy: null,
};
