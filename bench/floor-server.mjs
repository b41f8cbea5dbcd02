// The floor of `npm run bench:viewers`: a bare node:http server answering the polled paths with
// the exact bytes and headers the console answered them with (read from the JSON file named by
// argv[3]), a 304 when the poll sends the answer's tag back, on port argv[2]. What the console's
// CPU per request is compared against: HTTP parsing, headers and the socket, nothing else.
import fs from 'node:fs';
import http from 'node:http';

const port = Number(process.argv[2]);
/** @type {Record<string, {status: number, headers: Record<string, string>, body: string}>} */
const answers = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const ready = Object.fromEntries(Object.entries(answers).map(([path, a]) => [path, { ...a, body: Buffer.from(a.body, 'base64') }]));

http
  .createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    const a = ready[req.url ?? ''];
    if (req.url === '/api/health/live') return res.writeHead(200).end('ok');
    if (!a) return res.writeHead(404).end();
    const etag = a.headers.etag;
    if (etag && req.headers['if-none-match'] === etag) {
      const { 'content-type': _type, ...rest } = a.headers;
      return res.writeHead(304, rest).end();
    }
    res.writeHead(a.status, { ...a.headers, 'content-length': a.body.length }).end(a.body);
  })
  .listen(port, '127.0.0.1');
