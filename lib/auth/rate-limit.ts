import 'server-only';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { limiterFactory, type Limiter } from '@/lib/audit/limiters';

/**
 * Sign-in throttling, counted in the state store (shared by every console instance on it), in
 * atomic counters taken BEFORE the password is checked, so a parallel burst gets no more
 * evaluations than the limit. Two keys, both must allow the attempt:
 *
 * - user name + client address: 5 attempts per window (a guesser from elsewhere cannot lock
 *   the user out; only that pair waits);
 * - client address: 20 attempts per window, whatever the user names.
 *
 * An attempt already refused writes nothing (the counters are read first), and the client's
 * counter is taken before the pair's, so a refused client creates no row for each new user name
 * it tries: the rows a caller can make are bounded by its allowed attempts.
 *
 * Back-off instead of a lock-out: a window starts at its first attempt and lasts 1 minute; each
 * window that runs out of attempts makes the next one twice as long (2, 4, … up to 60 minutes),
 * remembered for a day. A successful sign-in clears its pair and gives the client its attempt
 * back. Counts only expire with time:
 * no number of keys clears the table. The client address is the trusted one (client.ts).
 */

export interface ThrottleRule {
  name: string;
  free: number;
  baseSeconds: number;
  maxSeconds: number;
}

export const PAIR: ThrottleRule = { name: 'pair', free: 5, baseSeconds: 60, maxSeconds: 3600 };
export const CLIENT: ThrottleRule = { name: 'client', free: 20, baseSeconds: 60, maxSeconds: 3600 };
const STRIKE_LIFETIME = 24 * 3600;

interface Counters {
  window: Limiter;
  strikes: Limiter;
}

export interface Throttle {
  /** Takes one attempt; seconds to wait (0: go ahead and check the password). */
  take(user: string, client: string): Promise<number>;
  /** After a good password: the pair starts afresh. */
  succeeded(user: string, client: string): Promise<void>;
  close(): Promise<void>;
}

const pairKey = (user: string, client: string) => `${user.toLowerCase()}|${client}`;

/** Seconds a key still waits, read without writing (0: it has attempts left). */
async function waiting(c: Counters, rule: ThrottleRule, key: string): Promise<number> {
  const r = await c.window.get(key);
  return r && r.consumedPoints >= rule.free && r.msBeforeNext > 0 ? Math.max(1, Math.ceil(r.msBeforeNext / 1000)) : 0;
}

async function takeOne(c: Counters, rule: ThrottleRule, key: string): Promise<number> {
  const strikes = (await c.strikes.get(key))?.consumedPoints ?? 0;
  const window = Math.min(rule.baseSeconds * 2 ** Math.min(strikes, 20), rule.maxSeconds);
  try {
    const r = await c.window.consume(key, 1, { customDuration: window });
    // Exactly one attempt per window sees the last free point: it lengthens the next window.
    if (r.consumedPoints === rule.free) await c.strikes.consume(key);
    return 0;
  } catch (e) {
    if (e instanceof RateLimiterRes) return Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    throw e;
  }
}

export async function createThrottle(factory = limiterFactory(), rules = { pair: PAIR, client: CLIENT }): Promise<Throttle> {
  const counters = async (rule: ThrottleRule): Promise<Counters> => ({
    window: await factory.make({ keyPrefix: `login-${rule.name}`, points: rule.free, duration: rule.baseSeconds }),
    strikes: await factory.make({ keyPrefix: `login-${rule.name}-strikes`, points: 1_000_000, duration: STRIKE_LIFETIME }),
  });
  const pair = await counters(rules.pair);
  const client = await counters(rules.client);
  return {
    async take(user, address) {
      // A refused caller writes nothing: its counters are read first, and the pair (a new row
      // for every user name tried) is only counted once the client's own counter allowed the
      // attempt. Rows per client address stay bounded, whatever names it tries.
      const key = pairKey(user, address);
      const [waitClient, waitPair] = await Promise.all([waiting(client, rules.client, address), waiting(pair, rules.pair, key)]);
      if (waitClient > 0 || waitPair > 0) return Math.max(waitClient, waitPair);
      const b = await takeOne(client, rules.client, address);
      if (b > 0) return b;
      return takeOne(pair, rules.pair, key);
    },
    async succeeded(user, address) {
      const key = pairKey(user, address);
      // The client gets its attempt back too (an office behind one address signs in often),
      // never more than it used: successes do not bank attempts for later failures.
      const used = (await client.window.get(address))?.consumedPoints ?? 0;
      await Promise.all([pair.window.delete(key), pair.strikes.delete(key), used > 0 ? client.window.reward(address, 1) : null]);
    },
    close: () => factory.close(),
  };
}

const THROTTLE = Symbol.for('potatoq.console.loginThrottle');
type Global = typeof globalThis & { [THROTTLE]?: Promise<Throttle> };

export function getThrottle(): Promise<Throttle> {
  const g = globalThis as Global;
  g[THROTTLE] ??= createThrottle();
  g[THROTTLE].catch(() => {
    delete g[THROTTLE];
  });
  return g[THROTTLE];
}
