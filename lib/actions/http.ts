import 'server-only';
import { NextResponse } from 'next/server';
import type { z } from 'zod';
import { ConsoleError } from '@/lib/brokers/errors';
import { toConsoleError } from '@/lib/brokers/service';
import { parseInput } from './zod-fields';

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

export function jsonOk(data: unknown, status = 200): NextResponse {
  const body = JSON.stringify(data) ?? 'null';
  const cacheControl = Buffer.byteLength(body) <= UNCOMPRESSED_JSON_BYTES ? 'no-store, no-transform' : 'no-store';
  return new NextResponse(body, { status, headers: { 'content-type': 'application/json', 'cache-control': cacheControl } });
}

export function jsonError(e: unknown): NextResponse {
  if (e instanceof PayloadTooLarge) {
    return NextResponse.json({ error: { code: 'PayloadTooLarge', message: e.message } }, { status: 413 });
  }
  const err = toConsoleError(e);
  if (err.status >= 500 && err.code === 'BrokerUnavailable')
    console.error(JSON.stringify({ event: 'console.api', code: err.code, message: err.message }));
  return NextResponse.json(err.toJSON(), { status: err.status, headers: { 'cache-control': 'no-store' } });
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
  const params = Object.fromEntries(new URL(req.url).searchParams.entries());
  return parseInput(schema, params);
}

export type Params<T> = { params: Promise<T> };
