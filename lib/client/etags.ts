// The last validated answer of each polled GET, so a poll can ask "changed since?" (If-None-Match)
// and a 304 reuses what this tab already holds instead of the server sending it again. Only
// answers the server tagged are kept; the server decides a 304 against the exact answer it would
// give the asker now (lib/http/etag.ts), so a tag kept from another sign-in is simply not matched.

/** URLs remembered at most (least recently used go first): the queries a tab has open. */
export const MAX_TAGGED = 200;

interface Tagged {
  etag: string;
  body: unknown;
}

export interface TagMemory {
  /** The tag to send for `url`, if an answer is held. */
  tagOf(url: string): string | undefined;
  /** The answer held for `url` under `etag` (a 304 names it), or undefined. */
  take(url: string, etag: string | null): { body: unknown } | undefined;
  remember(url: string, etag: string | null, body: unknown): void;
  size(): number;
}

export function createTagMemory(max = MAX_TAGGED): TagMemory {
  const held = new Map<string, Tagged>(); // insertion order = least recently used first
  return {
    tagOf: (url) => held.get(url)?.etag,
    take(url, etag) {
      const t = held.get(url);
      // A 304 without a tag, or naming another one, does not say which answer still holds.
      if (!t || etag === null || t.etag !== etag) return undefined;
      held.delete(url);
      held.set(url, t);
      return { body: t.body };
    },
    remember(url, etag, body) {
      held.delete(url);
      if (!etag) return;
      held.set(url, { etag, body });
      for (const oldest of held.keys()) {
        if (held.size <= max) break;
        held.delete(oldest);
      }
    },
    size: () => held.size,
  };
}
