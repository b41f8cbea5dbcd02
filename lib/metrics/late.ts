import 'server-only';

// Parts of the /metrics answer that read brokers besides the snapshot (the schedule series, the
// queue-health targets): each waits at most its share of the budget, so a hung broker costs
// only that part's freshness, never the scrape.

const g = globalThis as unknown as { __potatoqLastParts?: Map<string, string> };
const last = () => (g.__potatoqLastParts ??= new Map());

/**
 * `work`'s text if it comes within `ms`; else the last text of `key` that came (empty before
 * the first). `work` goes on: when it lands it is the last text for the next answer.
 */
export async function textWithin(key: string, work: Promise<string>, ms: number): Promise<string> {
  const kept = work.then(
    (text) => (last().set(key, text), text),
    () => last().get(key) ?? '',
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), Math.max(0, ms))));
  try {
    return (await Promise.race([kept, late])) ?? last().get(key) ?? '';
  } finally {
    clearTimeout(timer);
  }
}
