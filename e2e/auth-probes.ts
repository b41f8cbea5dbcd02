import http from 'node:http';

// Raw HTTP for the hardening specs: any method, any Host header, chunked bodies held open;
// things fetch() and Playwright's request context will not send.

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function raw(
  port: number,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // Node sends a DELETE or OPTIONS body without framing unless told its length.
    const length: Record<string, string> = opts.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(opts.body)) };
    const req = http.request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: { connection: 'close', ...length, ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Starts a chunked upload (no Content-Length) and writes `bytes` of it; `finish` ends it and reads the answer. */
export function chunkedUpload(
  port: number,
  path: string,
  bytes: number,
  headers: Record<string, string> = {},
): { written: Promise<void>; finish: () => Promise<RawResponse> } {
  let answer: Promise<RawResponse> | null = null;
  const req = http.request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', connection: 'close', ...headers },
  });
  answer = new Promise((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
  });
  answer.catch(() => {});
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const written = (async () => {
    req.write('{"pad":"');
    for (let sent = 0; sent < bytes; sent += chunk.length) {
      if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
    }
  })();
  return {
    written,
    finish: async () => {
      await written;
      req.end('"}');
      return answer!;
    },
  };
}
