// Search-param helpers for pages: Next gives string | string[] | undefined per key.

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export function one(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() ? s.trim().slice(0, 500) : undefined;
}

/** Route segments arrive percent-encoded for some characters; decode once, tolerantly. */
export function segment(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
