import 'server-only';
// Login throttling, in memory (per console process): at most MAX_PER_USER failed sign-ins per
// user name and MAX_PER_PEER per client address in a sliding WINDOW. A success clears the
// user's count. Several console instances each keep their own counts.

const WINDOW_MS = 15 * 60 * 1000;
const MAX_PER_USER = 5;
const MAX_PER_PEER = 20;
const MAX_KEYS = 10_000;

const failures = new Map<string, number[]>();

function recent(key: string, now: number): number[] {
  const list = (failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  if (list.length) failures.set(key, list);
  else failures.delete(key);
  return list;
}

/** Seconds until another attempt is allowed, or 0 when one is allowed now. */
export function loginBlockedFor(user: string, peer: string, now = Date.now()): number {
  const checks: Array<[string, number]> = [[`u:${user.toLowerCase()}`, MAX_PER_USER], [`p:${peer}`, MAX_PER_PEER]];
  let wait = 0;
  for (const [key, max] of checks) {
    const list = recent(key, now);
    if (list.length >= max) wait = Math.max(wait, Math.ceil((list[list.length - max]! + WINDOW_MS - now) / 1000));
  }
  return wait;
}

export function noteLoginFailure(user: string, peer: string, now = Date.now()): void {
  if (failures.size > MAX_KEYS) failures.clear(); // a flood of fresh names must not grow memory forever
  for (const key of [`u:${user.toLowerCase()}`, `p:${peer}`]) failures.set(key, [...recent(key, now), now]);
}

export function noteLoginSuccess(user: string): void {
  failures.delete(`u:${user.toLowerCase()}`);
}

/** Tests only. */
export function resetLoginThrottle(): void {
  failures.clear();
}
