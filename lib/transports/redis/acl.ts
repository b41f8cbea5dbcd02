import 'server-only';
import type { Redis } from 'ioredis';
import type { Capability } from '@/lib/brokers/model';
import type { AccessCheck } from '@/lib/brokers/types';

// What the Redis login may do (Redis/Valkey ACLs, 6.0+), for the doctor. Each need names a few
// commands the console runs on its system's keys. They are asked of `ACL DRYRUN` where the login
// may run it (exact, runs nothing); otherwise each command is run for real, so every command a
// need lists must change nothing (a read, or a removal of a key or member nobody uses), and a
// NOPERM answer means refused while any other answer (NOSCRIPT, WRONGTYPE) means the ACL let it by.
// A subscribe command (SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE) would turn the connection into a
// subscriber, so without ACL DRYRUN it is run on a connection of its own, closed right after.

export interface RedisNeed {
  /** What the console does with it: "read potatoq's keys". */
  for: string;
  /** Harmless commands standing for the need (see above). */
  commands: string[][];
  off: Capability[];
  /** Without it the console can read nothing here. */
  fatal?: boolean;
  /** Said when refused, besides what is off ("the overview reads key by key instead"). */
  instead?: string;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const noPerm = (e: unknown) => /^NOPERM/.test(message(e));

/** The login's name (`ACL WHOAMI`), or null on a server without ACLs or a login that may not ask. */
async function whoami(client: Redis): Promise<string | null> {
  try {
    return String(await client.call('ACL', 'WHOAMI'));
  } catch {
    return null;
  }
}

const SUBSCRIBERS = new Set(['SUBSCRIBE', 'PSUBSCRIBE', 'SSUBSCRIBE']);

/** Whether the ACL lets a subscribe command by, run on a connection of its own (same server
 *  and login) that is closed right after. A connection that cannot be made is an error, not a yes. */
async function onItsOwn(client: Redis, cmd: string[]): Promise<boolean> {
  const own = client.duplicate({ lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  own.on('error', () => undefined);
  try {
    await own.connect();
    try {
      await own.call(cmd[0]!, ...cmd.slice(1));
      return true;
    } catch (e) {
      return !noPerm(e);
    }
  } finally {
    own.disconnect();
  }
}

/** `login`: the user the URL names (`default` when none), said when the login may not ask ACL WHOAMI. */
export async function redisAclChecks(client: Redis, needs: RedisNeed[], login: string): Promise<AccessCheck[]> {
  const user = await whoami(client);
  let dryrun = user !== null;
  async function allowed(cmd: string[]): Promise<boolean> {
    if (dryrun && user !== null) {
      try {
        const r = await client.call('ACL', 'DRYRUN', user, ...cmd);
        return r === 'OK';
      } catch (e) {
        // A login that may not run ACL DRYRUN (or a server before 7.0): try the command itself.
        if (!noPerm(e) && !/unknown (sub)?command|syntax|wrong number/i.test(message(e))) throw e;
        dryrun = false;
      }
    }
    if (SUBSCRIBERS.has(cmd[0]!.toUpperCase())) return onItsOwn(client, cmd);
    try {
      await client.call(cmd[0]!, ...cmd.slice(1));
      return true;
    } catch (e) {
      if (noPerm(e)) return false;
      return true;
    }
  }
  const who = `user "${user ?? login}"`;
  const out: AccessCheck[] = [];
  for (const need of needs) {
    const refused: string[] = [];
    for (const cmd of need.commands) if (!(await allowed(cmd))) refused.push(cmd[0]!.toUpperCase());
    const check = `Redis ACL: ${need.for}`;
    if (!refused.length) out.push({ check, ok: true, detail: `granted to ${who}` });
    else
      out.push({
        check,
        ok: false,
        detail: `${who} may not run ${[...new Set(refused)].join(', ')}: the console cannot ${need.for}${need.instead ? `; ${need.instead}` : ''}`,
        switchesOff: need.off,
        ...(need.fatal ? { fatal: true } : {}),
      });
  }
  return out;
}
