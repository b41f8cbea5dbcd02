import 'server-only';
import { ConsoleError, isConsoleError } from '@/lib/brokers/errors';

/**
 * QueueFlow's REST API (server 0.6.0, docs/systems/queueflow.md), one call at a time. The
 * tenant token goes only into the Authorization header: never into a URL, a log line or an
 * error message. Every call has its own deadline well under the server's 30 s database wait,
 * so a hung or down server becomes a BrokerTimeout / BrokerUnavailable the page can show.
 */
export interface QfClient {
  get<T>(route: string, query?: Record<string, string | number | boolean | undefined>): Promise<T>;
  /** `body` is always sent as JSON (QueueFlow answers 415 to a POST without a JSON body). */
  post<T>(route: string, body: unknown, headers?: Record<string, string>): Promise<T>;
  /** DELETE (cron schedules: 204, empty body). Optional so test doubles need not have it. */
  del?<T>(route: string): Promise<T>;
  /** Where the server is, for messages: host and port, never credentials. */
  readonly where: string;
}

export interface QfClientSettings {
  url: string;
  token: string;
  timeoutMs: number;
  /** For tests: the fetch to use. */
  fetch?: typeof fetch;
}

/** The first word of a validation message, when it names a field (`task_name is required`). */
const FIELD_AT_START = /^(?:validation error: )?([a-z_][a-z0-9_]*)(?::| is | must )/;
/** axum's JSON errors: `…target type: payload: invalid type…`, `…: missing field \`task_name\`…`. */
const AXUM_FIELD = /target type: ([a-z_][a-z0-9_]*): |missing field `([a-z_][a-z0-9_]*)`/;

/** The field a QueueFlow 400/422 text is about, or null (then the whole form shows it). */
export function fieldOf(message: string): string | null {
  const axum = AXUM_FIELD.exec(message);
  if (axum) return axum[1] ?? axum[2] ?? null;
  const m = FIELD_AT_START.exec(message);
  return m?.[1] && m[1] !== 'conflict' ? m[1] : null;
}

/** The server's own words from an error body: JSON `{error}` or axum's plain text. */
export function serverMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string') {
      return (parsed as { error: string }).error;
    }
  } catch {
    // plain text (axum's extractor rejections)
  }
  const t = text.trim();
  // A proxy's error page or a login page in front of QueueFlow: named by its title, never
  // passed on as markup.
  if (/^(<!doctype html|<html)/i.test(t)) {
    const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(t.slice(0, 4096))?.[1]?.trim();
    return `an HTML page${title ? ` titled "${title}"` : ''}, not QueueFlow's answer (is something else in front of it?)`;
  }
  return t.slice(0, 500) || '(empty answer)';
}

/** Marks QueueFlow's own 403 (`access denied`): another tenant's id, or a credential of the wrong
 *  class. Reads of one id take it as "not visible to this tenant" (QueueFlow: 403, not 404). */
const DENIED = Symbol.for('potatoq.console.queueflowDenied');

/** Was this QueueFlow's 403 (`access denied`)? */
export const isDenied = (e: unknown): boolean => isConsoleError(e) && (e as unknown as Record<symbol, unknown>)[DENIED] === true;

/**
 * An HTTP error answer as the console's typed error, with the server's message. QueueFlow's 401
 * and 403 are the broker refusing the console's configured token, not the operator: they become
 * BrokerUnavailable (the broker's card and the page say so), never the console's own 401/403,
 * which a browser takes for "signed out" or "not allowed".
 */
export function errorFor(status: number, text: string, what: string): ConsoleError {
  const msg = serverMessage(text);
  switch (status) {
    case 401:
      return new ConsoleError(
        'BrokerUnavailable',
        `QueueFlow refused the console's token (401 ${msg}) for ${what}: check the broker's token`,
      );
    case 403:
      return Object.defineProperty(
        new ConsoleError(
          'BrokerUnavailable',
          `QueueFlow refused the console's token (403 ${msg}) for ${what}: the token is read-only, belongs to another tenant, or is a worker token`,
        ),
        DENIED,
        { value: true },
      );
    case 404:
      return new ConsoleError('NotFound', `QueueFlow: ${msg}`);
    case 409:
      return new ConsoleError('Conflict', `QueueFlow: ${msg}`);
    case 400:
    case 415:
    case 422: {
      const field = fieldOf(msg);
      return new ConsoleError('InvalidInput', `QueueFlow refused ${what}: ${msg}`, field ? { [field]: msg } : undefined);
    }
    default:
      return new ConsoleError('BrokerUnavailable', `QueueFlow answered ${status} to ${what}: ${msg}`);
  }
}

function causeOf(e: unknown): string {
  const c = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (c && typeof c.code === 'string') return c.code;
  if (c && typeof c.message === 'string') return c.message;
  return e instanceof Error ? e.message : String(e);
}

export function createQfClient(s: QfClientSettings): QfClient {
  const base = new URL(s.url);
  const where = base.host;
  const doFetch = s.fetch ?? fetch;
  const prefix = base.pathname.replace(/\/+$/, '');

  async function send<T>(
    method: 'GET' | 'POST' | 'DELETE',
    route: string,
    init: { query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> },
  ): Promise<T> {
    const u = new URL(`${prefix}${route}`, base);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    const what = `${method} ${route.split('?')[0]}`;
    let r: Response;
    try {
      r = await doFetch(u, {
        method,
        headers: {
          authorization: `Bearer ${s.token}`,
          accept: 'application/json',
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(s.timeoutMs),
        redirect: 'error',
        cache: 'no-store',
      });
    } catch (e) {
      const name = (e as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new ConsoleError('BrokerTimeout', `QueueFlow at ${where} did not answer ${what} within ${s.timeoutMs / 1000}s`);
      throw new ConsoleError('BrokerUnavailable', `cannot reach QueueFlow at ${where} (${causeOf(e)})`);
    }
    let text: string;
    try {
      text = await r.text();
    } catch (e) {
      const name = (e as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new ConsoleError('BrokerTimeout', `QueueFlow at ${where} did not finish answering ${what} within ${s.timeoutMs / 1000}s`);
      throw new ConsoleError('BrokerUnavailable', `QueueFlow at ${where} broke off its answer to ${what}`);
    }
    if (!r.ok) throw errorFor(r.status, text, what);
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ConsoleError('BrokerUnavailable', `QueueFlow at ${where} answered ${what} with something that is not JSON`);
    }
  }

  return {
    where,
    get: (route, query) => send('GET', route, { query }),
    post: (route, body, headers) => send('POST', route, { body, headers }),
    del: (route) => send('DELETE', route, {}),
  };
}
