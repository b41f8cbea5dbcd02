import 'server-only';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

// Running a system's Lua scripts on Redis: by SHA, loaded on demand. The scripts themselves
// (their keys and semantics) belong to the system's folder.

export interface LuaScript {
  name: string;
  lua: string;
  sha: string;
}

export const script = (name: string, lua: string): LuaScript => ({ name, lua, sha: createHash('sha1').update(lua).digest('hex') });

/** The server or the user's ACL refuses scripts (EVALSHA/EVAL), so a read must do without them. */
export const scriptRefused = (e: unknown): boolean => e instanceof Error && /NOPERM|unknown command|not allowed|disabled/i.test(e.message);

/** EVALSHA, loading the script with EVAL on NOSCRIPT (a restarted or flushed Redis). */
export async function runScript(client: Redis, s: LuaScript, args: Array<string | number>): Promise<unknown> {
  try {
    return await client.evalsha(s.sha, 0, ...args);
  } catch (e) {
    if (!(e instanceof Error) || !e.message.includes('NOSCRIPT')) throw e;
    return client.eval(s.lua, 0, ...args);
  }
}
