import 'server-only';

/** How long one broadcast ping's answer stands for the workers in the overviews after it. */
export const PING_REUSE_MS = 10_000;

/**
 * The workers' answer to a broadcast ping, kept between overviews so that no overview waits for
 * it (a ping waits its whole reply window, 500 ms): the first overview waits for a ping; later
 * ones get the last answer at once, with when it was read, and once that is `reuseMs` old
 * start the next ping in the background (one at a time). A failed background ping leaves the
 * last answer standing; a failed first ping is the overview's error, as before.
 */
export function keptPings<T>(ping: () => Promise<T>, reuseMs = PING_REUSE_MS, now: () => number = Date.now) {
  let last: { value: T; at: number } | null = null;
  let going: Promise<{ value: T; at: number }> | null = null;
  const run = () =>
    (going ??= ping()
      .then((value) => (last = { value, at: now() }))
      .finally(() => (going = null)));
  return async (): Promise<{ value: T; at: number }> => {
    if (!last) return run();
    if (now() - last.at >= reuseMs) void run().catch(() => undefined);
    return last;
  };
}
