import 'server-only';
import { brokerBadge } from '@/lib/brokers/naming';
import { brokerList, checkAccess, overview, toConsoleError } from '@/lib/brokers/service';
import type { BrokerEntry } from '@/lib/brokers/naming';
import type { BrokerOverview } from '@/lib/brokers/schema';
import type { AccessCheck } from '@/lib/brokers/types';
import type { DoctorBroker, DoctorCheck } from './types';

/**
 * The doctor: for each configured broker, connect through the service (its timeouts, its
 * read-only rule), name the system and what it says about itself, run the adapter's access
 * checks, and give a verdict. Everything system-specific comes from the adapter: the overview's
 * `serverInfo`, `warnings` and capabilities (each off one with its reason), and `checkAccess`.
 * Messages pass through ConsoleError, which hides every configured secret.
 */
export async function runDoctor(): Promise<DoctorBroker[]> {
  return Promise.all(brokerList().map(examine));
}

async function examine(b: BrokerEntry): Promise<DoctorBroker> {
  const base = { id: b.id, name: b.name, system: brokerBadge(b) };
  let ov: BrokerOverview;
  try {
    ov = await overview(b.id);
  } catch (e) {
    const err = toConsoleError(e);
    const connect: DoctorCheck = {
      check: 'connect and read the overview',
      ok: false,
      detail: `${err.code}: ${err.message}`,
      switchesOff: [],
    };
    // The access checks may say why (a login that may not read the system's keys or tables).
    const access = await checkAccess(b.id).catch(() => [] as AccessCheck[]);
    const failed = access.filter((a) => a.ok === false);
    return {
      ...base,
      verdict: 'unusable',
      why: [err.message, ...failed.filter((a) => a.fatal).map((a) => `${a.check}: ${a.detail}`)],
      version: null,
      checks: [connect, ...failed.map(toCheck)],
      off: [],
    };
  }
  let access: AccessCheck[];
  try {
    access = await checkAccess(b.id);
  } catch (e) {
    const err = toConsoleError(e);
    access = [{ check: 'access checks', ok: null, detail: `could not run: ${err.message}` }];
  }
  const checks: DoctorCheck[] = [
    { check: 'connect and read the overview', ok: true, detail: ov.serverInfo ?? 'connected', switchesOff: [] },
    ...access.map(toCheck),
    // A warning an access check already made (the eviction policy) is said once.
    ...(ov.warnings ?? [])
      .filter((w) => !access.some((a) => a.detail === w))
      .map((w) => ({ check: 'set-up', ok: false, detail: w, switchesOff: [] })),
  ];
  if (ov.readOnly) checks.push({ check: 'read-only', ok: true, detail: 'actions are off on this broker', switchesOff: [] });
  const off = Object.entries(ov.capabilities)
    .filter(([, c]) => !c.on)
    .map(([capability, c]) => ({ capability, why: c.why ?? 'not available' }));
  const listsSomething = Object.entries(ov.capabilities).some(([k, c]) => c.on && (k.startsWith('list:') || k === 'browseDead'));
  const fatal = access.filter((a) => a.ok === false && a.fatal);
  const failed = checks.filter((c) => c.ok === false);
  if (fatal.length)
    return { ...base, verdict: 'unusable', why: fatal.map((a) => `${a.check}: ${a.detail}`), version: ov.serverInfo, checks, off };
  const why = failed.map((c) => `${c.check}: ${c.detail}${c.switchesOff.length ? ` (switches off ${c.switchesOff.join(', ')})` : ''}`);
  if (!listsSomething && !ov.queues.length) why.push('the console can list none of its tasks and sees no queue');
  return { ...base, verdict: why.length ? 'degraded' : 'usable', why, version: ov.serverInfo, checks, off };
}

const toCheck = (a: AccessCheck): DoctorCheck => ({ check: a.check, ok: a.ok, detail: a.detail, switchesOff: [...(a.switchesOff ?? [])] });
