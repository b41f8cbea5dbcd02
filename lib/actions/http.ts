import 'server-only';
import { NextResponse } from 'next/server';
import type { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';
import { toConsoleError } from '@/lib/brokers/service';
import { parseInput } from '@/lib/brokers/parse-input';

// Helpers for the JSON route handlers under app/api: one error shape, one body limit.

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export class PayloadTooLarge extends Error {}

/**
 * JSON answers up to this size go out uncompressed (`no-transform` makes Next's compression
 * step pass them by): compressing in-process costs a hand-off to libuv's thread pool and back
 * per chunk, which on a loaded machine took longer than a polled list takes to read (see
 * docs/performance.md). Larger answers are still compressed; a reverse proxy may compress any.
 */
export const UNCOMPRESSED_JSON_BYTES = 64 * 1024;

/** A JSON answer as status, body and headers, for Next's responses and the fast reads alike. */
export interface JsonParts {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export function jsonParts(data: unknown, status = 200): JsonParts {
  const body = JSON.stringify(data) ?? 'null';
  const cacheControl = Buffer.byteLength(body) <= UNCOMPRESSED_JSON_BYTES ? 'no-store, no-transform' : 'no-store';
  return { status, body, headers: { 'content-type': 'application/json', 'cache-control': cacheControl } };
}

/** Any error as the API's `{error:{code,message,fields?}}` with its status. */
export function errorParts(e: unknown): JsonParts {
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (e instanceof PayloadTooLarge) {
    return { status: 413, body: JSON.stringify({ error: { code: 'PayloadTooLarge', message: e.message } }), headers };
  }
  const err = toConsoleError(e);
  if (err.status >= 500 && err.code === 'BrokerUnavailable')
    console.error(JSON.stringify({ event: 'console.api', code: err.code, message: err.message }));
  return { status: err.status, body: JSON.stringify(err.toJSON()), headers };
}

const response = (p: JsonParts) => new NextResponse(p.body, { status: p.status, headers: p.headers });

export function jsonOk(data: unknown, status = 200): NextResponse {
  return response(jsonParts(data, status));
}

export function jsonError(e: unknown): NextResponse {
  return response(errorParts(e));
}

/** Runs a handler, mapping every error to `{error:{code,message,fields?}}` with its status. */
export async function handle(run: () => Promise<unknown>): Promise<NextResponse> {
  try {
    return jsonOk(await run());
  } catch (e) {
    return jsonError(e);
  }
}

/**
 * Reads a body as text, stopping at `max` bytes whether or not it declares a Content-Length
 * (a chunked upload is counted while it streams, never buffered whole). Next's proxy layer
 * already holds at most next.config's proxyClientMaxBodySize of any body.
 */
export async function readBoundedText(req: Request, max: number): Promise<string> {
  const tooLarge = () => new PayloadTooLarge(`request body larger than ${max.toLocaleString('en-US')} bytes`);
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > max) throw tooLarge();
  const reader = req.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Reads a JSON body of at most MAX_BODY_BYTES; an empty body is `{}`. */
export async function readJsonBody(req: Request): Promise<unknown> {
  const text = await readBoundedText(req, MAX_BODY_BYTES);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ConsoleError('InvalidInput', 'request body is not valid JSON');
  }
}

/** Validates a URL's query string with a zod schema (unknown parameters are ignored). */
export function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return parseParams(schema, new URL(req.url).searchParams);
}

export function parseParams<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  return parseInput(schema, Object.fromEntries(params.entries()));
}

export type Params<T> = { params: Promise<T> };
