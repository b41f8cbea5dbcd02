import 'server-only';
import type http from 'node:http';
import { gzip } from 'node:zlib';
import { UNCOMPRESSED_JSON_BYTES, errorParts, jsonParts, type JsonParts } from '@/lib/actions/http';
import { deadGroupsRead, deadListRead, overviewRead, tasksRead, workersRead } from '@/lib/actions/reads';
import { gate } from '@/lib/auth/gate';
import { readDeadOne } from '@/lib/auth/redact';
import { setRequestHook } from '@/lib/auth/peer';
import { etagOf, notModified } from './etag';

// The JSON reads the open pages poll, GET /api/brokers/:broker/dead, /queues, /tasks, /workers
// and /dead/groups, and one dead letter (/dead/:id, the read a failure's page and a bench of
// Flower's task detail ask), answered
// as soon as the request arrives, before Next's routing: Next's own handling of a request costs
// more CPU than the read itself (docs/performance.md, "The polled reads"). They pass the same
// gate as every other request (lib/auth/gate.ts: Host allow-list, sign-in) and call the same
// read functions as their route handlers (lib/actions/reads.ts), so the answer is the same but
// for Next's `vary` header and the validator: a 200 here carries an `ETag`, and a poll that sends
// it back (`If-None-Match`, lib/client/api.ts) while the answer is unchanged gets a 304 without
// the body (lib/http/etag.ts; Next's routes, e.g. under `next dev`, always answer 200). Anything else — another path or method, a HEAD, a request that
// declares a body (Content-Length, even 0, or Transfer-Encoding), an absolute-form target — goes
// to Next as before. Production servers only: `next dev` reloads modules this hook would keep.

const ROUTE = /^\/api\/brokers\/([^/]+)\/(dead|queues|tasks|workers|dead\/groups)$/;
/** One dead letter, GET /api/brokers/:broker/dead/:id. `export` is a page of its own; the
 *  action paths (replay, move, ...) answer GET with the letter of that id, as this does. */
const DETAIL = /^\/api\/brokers\/([^/]+)\/dead\/([^/]+)$/;
const NOT_AN_ID = new Set(['export', 'groups']);

type ReadName = 'dead' | 'queues' | 'tasks' | 'workers' | 'dead/groups' | 'dead/:id';

/** Each fast read's function: the one its route handler calls. */
const READS: Record<ReadName, (m: FastRead, params: URLSearchParams, headers: Headers) => Promise<unknown>> = {
  dead: (m, params) => deadListRead(m.broker, params),
  queues: (m, params, headers) => overviewRead(m.broker, headers, params),
  tasks: (m, params) => tasksRead(m.broker, params),
  workers: (m) => workersRead(m.broker),
  'dead/groups': (m, params) => deadGroupsRead(m.broker, params),
  'dead/:id': (m) => readDeadOne(m.broker, m.id ?? ''),
};

export interface FastRead {
  read: ReadName;
  broker: string;
  /** The dead letter's id, decoded as Next decodes a route segment (`dead/:id` only). */
  id?: string;
  pathname: string;
  search: string;
}

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null; // the gate's 400, from Next
  }
}

/** The fast read this request is, or null when Next should answer it. */
export function matchFastRead(method: string | undefined, url: string | undefined, headers: http.IncomingHttpHeaders): FastRead | null {
  if (method !== 'GET' || !url || url[0] !== '/') return null;
  if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return null;
  const q = url.indexOf('?');
  const pathname = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? '' : url.slice(q);
  const m = ROUTE.exec(pathname);
  if (m) {
    const broker = decoded(m[1]!);
    return broker === null ? null : { read: m[2] as ReadName, broker, pathname, search };
  }
  const d = DETAIL.exec(pathname);
  if (!d) return null;
  const [broker, id] = [decoded(d[1]!), decoded(d[2]!)];
  // Checked raw and decoded: which of Next's routes an encoded `export` reaches is Next's call.
  if (broker === null || id === null || NOT_AN_ID.has(d[2]!) || NOT_AN_ID.has(id)) return null;
  return { read: 'dead/:id', broker, id, pathname, search };
}

function toHeaders(h: http.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) out.append(k, x);
    else out.set(k, v);
  }
  return out;
}

/** An answer ready for the socket: its bytes, and a validator when it is a 200. */
interface Wire {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  etag: string | null;
}

function wireOf(p: JsonParts): Wire {
  const body = Buffer.from(p.body);
  return { status: p.status, headers: p.headers, body, etag: p.status === 200 ? etagOf(body) : null };
}

function send(req: http.IncomingMessage, res: http.ServerResponse, w: Wire, security: Record<string, string>): void {
  if (w.etag && notModified(req.headers['if-none-match'], w.etag)) {
    // What the client holds is byte for byte this principal's answer now (lib/http/etag.ts).
    res.writeHead(304, { ...security, 'cache-control': w.headers['cache-control'] ?? 'no-store', etag: w.etag });
    res.end();
    return;
  }
  const headers: Record<string, string | number> = { ...security, ...w.headers, ...(w.etag ? { etag: w.etag } : {}) };
  const body = w.body;
  const accepts = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  if (body.length <= UNCOMPRESSED_JSON_BYTES || !accepts) {
    res.writeHead(w.status, { ...headers, 'content-length': body.length });
    res.end(body);
    return;
  }
  gzip(body, (err, zipped) => {
    if (err) {
      res.writeHead(w.status, { ...headers, 'content-length': body.length });
      res.end(body);
      return;
    }
    res.writeHead(w.status, { ...headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-length': zipped.length });
    res.end(zipped);
  });
}

// A shared read's answer is one object for every viewer who asks it within its reuse time
// (lib/brokers/read-cache.ts; never changed once made; a viewer's masked overview likewise,
// lib/auth/mask.ts): its JSON, bytes and tag are made once, not per request.
const written = new WeakMap<object, Wire>();
function wireFor(data: unknown): Wire {
  if (data === null || typeof data !== 'object') return wireOf(jsonParts(data));
  let w = written.get(data);
  if (!w) written.set(data, (w = wireOf(jsonParts(data))));
  return w;
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse, m: FastRead): Promise<void> {
  let security: Record<string, string> = {};
  let wire: Wire;
  try {
    const headers = toHeaders(req.headers);
    const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
    const verdict = gate({ method: 'GET', pathname: m.pathname, search: m.search, headers, protocol: encrypted ? 'https' : 'http' });
    security = verdict.headers;
    if (verdict.kind === 'text') {
      const headers = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
      wire = wireOf({ status: verdict.status, body: `${verdict.text}\n`, headers });
    } else if (verdict.kind === 'json')
      wire = wireOf({
        ...jsonParts(verdict.body, verdict.status),
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    else if (verdict.kind === 'login') wire = wireOf(jsonParts({ error: { code: 'Unauthorized', message: 'sign in first' } }, 401));
    else wire = wireFor(await READS[m.read](m, new URLSearchParams(m.search), headers));
  } catch (e) {
    wire = wireOf(errorParts(e));
  }
  send(req, res, wire, security);
}

/** Handles a fast read (true), or leaves the request to Next (false). Never throws. */
export function fastReadHook(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const m = matchFastRead(req.method, req.url, req.headers);
  if (!m) return false;
  void answer(req, res, m).catch(() => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end();
  });
  return true;
}

export function installFastReads(): void {
  if (process.env.NODE_ENV !== 'production') return;
  setRequestHook(fastReadHook);
}
