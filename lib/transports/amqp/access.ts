import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Channel } from 'amqplib';
import type { AccessCheck } from '@/lib/brokers/types';
import type { Capability } from '@/lib/brokers/model';
import type { AmqpLink } from './connection';
import type { Management } from './management';

/** The AMQP permissions of the link's user on its vhost, as RabbitMQ enforces them. */
export interface AmqpAccess {
  configure: boolean;
  write: boolean;
  read: boolean;
}

const refused = (e: unknown): boolean => (e as { code?: unknown })?.code === 403;

/**
 * Each permission probed by a command that changes nothing, on a queue name nobody uses (the
 * server checks the permission before it looks the queue up): `queue.delete` of an absent
 * queue (configure; deleting nothing is answered delete-ok), `basic.get` from it (read; 404
 * when allowed), a confirmed publish to it through the default exchange (write; unroutable,
 * so dropped). A refusal (403) closes only that probe's channel.
 */
export async function probeAmqpAccess(link: AmqpLink): Promise<AmqpAccess> {
  const name = `potatoq-console.doctor.${randomBytes(6).toString('hex')}`;
  const probe = async (fn: (ch: Channel) => Promise<unknown>, allowedIf: (e: unknown) => boolean): Promise<boolean> => {
    try {
      await link.withChannel(fn);
      return true;
    } catch (e) {
      if (refused(e)) return false;
      if (allowedIf(e)) return true;
      throw e;
    }
  };
  const configure = await probe(
    (ch) => ch.deleteQueue(name),
    () => false,
  );
  const read = await probe(
    (ch) => ch.get(name, { noAck: true }),
    (e) => (e as { code?: unknown })?.code === 404,
  );
  const write = await probeWrite(link, name);
  return { configure, write, read };
}

/** A refused publish closes the channel asynchronously: the error event carries the 403. */
async function probeWrite(link: AmqpLink, name: string): Promise<boolean> {
  let closedWith: unknown = null;
  try {
    await link.withConfirmChannel(async (ch) => {
      ch.on('error', (e: unknown) => (closedWith = e));
      ch.publish('', name, Buffer.alloc(0));
      await ch.waitForConfirms();
    });
    return closedWith === null || !refused(closedWith);
  } catch (e) {
    if (refused(e) || refused(closedWith)) return false;
    throw e;
  }
}

/** What each AMQP permission is for on one system: the capabilities its absence turns off. */
export interface AmqpNeeds {
  configure: { for: string; off: Capability[] };
  read: { for: string; off: Capability[] };
  write: { for: string; off: Capability[] };
}

/** The doctor's rows for the three permissions, each saying what its absence switches off. */
export async function amqpAccessChecks(link: AmqpLink, vhost: string, needs: AmqpNeeds): Promise<AccessCheck[]> {
  const access = await probeAmqpAccess(link);
  return (['configure', 'read', 'write'] as const).map((p) => ({
    check: `AMQP ${p} permission on vhost ${JSON.stringify(vhost)}`,
    ok: access[p],
    detail: access[p] ? `granted (${needs[p].for})` : `refused: the console cannot ${needs[p].for}`,
    ...(access[p] ? {} : { switchesOff: needs[p].off }),
  }));
}

/**
 * The management API's rows: its version and the login's tags, or why it is not there; then
 * the plugins enabled on the nodes (the console needs only the management plugin itself; the
 * rest is said so an operator sees what runs there), or why they cannot be listed.
 */
export async function managementChecks(mgmt: Management | null, without: string): Promise<AccessCheck[]> {
  const check = 'RabbitMQ management API';
  if (!mgmt) return [{ check, ok: false, detail: `not configured (managementUrl): ${without}` }];
  let tags: string[];
  try {
    const [version, me] = await Promise.all([mgmt.version(), mgmt.whoami()]);
    tags = me.tags;
    const said = me.tags.length ? me.tags.join(', ') : 'none';
    const api: AccessCheck = {
      check,
      ok: true,
      detail: `management plugin ${version ?? '(version unknown)'}, user ${me.name} (tags: ${said})`,
    };
    return [api, await pluginsCheck(mgmt, tags)];
  } catch (e) {
    return [{ check, ok: false, detail: `${(e as Error).message}: ${without}` }];
  }
}

const SEES_NODES = ['administrator', 'monitoring'];

async function pluginsCheck(mgmt: Management, tags: string[]): Promise<AccessCheck> {
  const check = 'RabbitMQ plugins';
  if (!tags.some((t) => SEES_NODES.includes(t)))
    return { check, ok: null, detail: 'unknown: the management login needs the monitoring tag to list the nodes and their plugins' };
  try {
    const plugins = await mgmt.plugins();
    return { check, ok: true, detail: plugins.length ? `enabled: ${plugins.join(', ')}` : 'none listed' };
  } catch (e) {
    return { check, ok: null, detail: `could not list: ${(e as Error).message}` };
  }
}
