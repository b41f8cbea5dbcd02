// Browser-side fetch helpers for the console's own GET routes.

import { createTagMemory } from './etags';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = code;
  }
}

type QueryValue = string | number | undefined | null;

export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export const brokerPath = (brokerId: string, rest = ''): string => `/api/brokers/${encodeURIComponent(brokerId)}${rest}`;

// One per tab. Never on the server (a module there would be shared by every user's render).
const tags = createTagMemory(typeof window === 'undefined' ? 0 : undefined);

/** GET a JSON route. A polled read the server tagged is asked with If-None-Match; its 304
 *  answers with what this tab already holds (lib/client/etags.ts). */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const tag = tags.tagOf(url);
  const headers: Record<string, string> = { accept: 'application/json', ...(tag ? { 'if-none-match': tag } : {}) };
  const res = await fetch(url, { signal, cache: 'no-store', headers });
  if (res.status === 304) {
    const held = tags.take(url, res.headers.get('etag'));
    if (held) return held.body as T;
    tags.remember(url, null, null);
    return getJson<T>(url, signal); // asked again without a tag: a 200 or an error
  }
  const body = (await res.json().catch(() => null)) as unknown;
  tags.remember(url, res.ok ? res.headers.get('etag') : null, body);
  if (!res.ok) {
    const err = (body as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null)?.error;
    throw new ApiError(err?.code ?? 'Internal', err?.message ?? `HTTP ${res.status}`, res.status, err?.fields);
  }
  return body as T;
}

/** POST for calls that change nothing (the enqueue preview): same errors as getJson. Same-site
 *  by construction (a relative URL), so the gate's origin check passes. */
export async function postJson<T>(url: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    signal,
    cache: 'no-store',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const err = (parsed as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null)?.error;
    throw new ApiError(err?.code ?? 'Internal', err?.message ?? `HTTP ${res.status}`, res.status, err?.fields);
  }
  return parsed as T;
}

/** Code and message of anything a query may throw. */
export function describeError(e: unknown): { code: string; message: string } {
  if (e instanceof ApiError) return { code: e.code, message: e.message };
  if (e instanceof Error) return { code: e.name || 'Error', message: e.message };
  return { code: 'Error', message: String(e) };
}
