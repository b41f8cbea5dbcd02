import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';

// Every route file under app/api, with each method it exports, is in the description: a
// route added later without its entry fails here.
const API = path.resolve(__dirname, '../../app/api');

function routeFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === 'route.ts' ? [path.join(dir, e.name)] : []));
}

const doc = openApiDocument({ brokers: ['main', 'other'], mode: 'accounts', version: 'test' }) as {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
        requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
        responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
        security: unknown[];
      }
    >
  >;
  components: { schemas: Record<string, unknown> };
};

describe('the OpenAPI description', () => {
  // The catch-all (app/api/[...path]) is no endpoint: it answers unknown paths with the JSON
  // NotFound error every route documents.
  const routes = routeFiles(API)
    .filter((f) => !f.includes('[...'))
    .map((f) => {
      const rel = path.relative(path.resolve(API, '..'), path.dirname(f));
      const openApiPath = `/${rel
        .split(path.sep)
        .map((s) => s.replace(/^\[(\w+)\]$/, '{$1}'))
        .join('/')}`;
      const methods = [...fs.readFileSync(f, 'utf8').matchAll(/export (?:async )?function (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) =>
        m[1]!.toLowerCase(),
      );
      return { openApiPath, methods };
    });

  it('finds the route files', () => expect(routes.length).toBeGreaterThan(25));

  it.each(routes)('describes $openApiPath with every method it exports', ({ openApiPath, methods }) => {
    expect(methods.length, openApiPath).toBeGreaterThan(0);
    expect(Object.keys(doc.paths[openApiPath] ?? {}).sort(), openApiPath).toEqual([...methods].sort());
  });

  it('describes no route that does not exist (besides /metrics)', () => {
    const known = new Set([...routes.map((r) => r.openApiPath), '/api/openapi.json', '/metrics']);
    expect(Object.keys(doc.paths).filter((p) => !known.has(p))).toEqual([]);
  });

  it('is OpenAPI 3.1 with the broker ids as the broker parameter and the zod limits of the inputs', () => {
    expect(doc.openapi).toBe('3.1.0');
    const tasks = doc.paths['/api/brokers/{broker}/tasks']!.get!;
    expect(tasks.parameters!.find((p) => p.name === 'broker')).toMatchObject({ in: 'path', schema: { enum: ['main', 'other'] } });
    expect(tasks.parameters!.find((p) => p.name === 'limit')).toMatchObject({ in: 'query', schema: { maximum: 500, minimum: 1 } });
    const replay = doc.paths['/api/brokers/{broker}/dead/replay']!.post!;
    expect(replay.requestBody!.content['application/json']!.schema).toMatchObject({
      required: ['ids'],
      properties: { ids: { maxItems: 1000, minItems: 1, items: { maxLength: 256 } }, reason: { maxLength: 1000 } },
    });
    for (const p of [
      '/api/brokers/{broker}/dead/discard',
      '/api/brokers/{broker}/tasks/revoke',
      '/api/brokers/{broker}/queues/{queue}/purge',
    ]) {
      expect(doc.paths[p]!.post!.requestBody!.content['application/json']!.schema, p).toMatchObject({
        required: expect.arrayContaining(['reason']),
        properties: { reason: { minLength: 1 } },
      });
    }
  });

  it('gives every operation its auth and the console’s error shape for each error status', () => {
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops)) {
        const isPublic = p === '/api/health/live' || p === '/api/health/ready' || p.startsWith('/api/auth/');
        expect(op.security, `${m} ${p}`).toEqual(isPublic ? [] : p === '/metrics' ? undefined : [{ bearer: [] }, { session: [] }]);
        for (const [status, r] of Object.entries(op.responses)) {
          const json = r.content?.['application/json']?.schema;
          if (Number(status) >= 400 && json) expect(json, `${m} ${p} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        }
        if (!isPublic && p !== '/metrics') expect(Object.keys(op.responses), `${m} ${p}`).toEqual(expect.arrayContaining(['401', '403']));
      }
    }
    expect(doc.components.schemas.Error).toMatchObject({ properties: { error: { required: ['code', 'message'] } } });
  });

  it('lets anonymous callers in only in mode none', () => {
    const none = openApiDocument({ brokers: [], mode: 'none', version: 't' }) as typeof doc;
    expect(none.paths['/api/brokers']!.get!.security).toEqual([{ bearer: [] }, { session: [] }, {}]);
  });
});

describe('docs/api.md', () => {
  const text = fs.readFileSync(path.resolve(__dirname, '../../docs/api.md'), 'utf8');
  const literalIds = /\/(tasks\/(revoke|move)|dead\/(replay|discard|convert|convert-celery|move))$/;
  const ops = Object.entries(doc.paths).flatMap(([p, o]) => Object.keys(o).map((m) => ({ m: m.toUpperCase(), p })));
  it.each(ops.filter(({ m, p }) => p !== '/metrics' && !(m === 'GET' && literalIds.test(p))))('walks through $m $p', ({ m, p }) => {
    expect(text).toContain(`${m} ${p}`);
  });
  it('sends a token and a reason in the curl examples of the actions that require one', () => {
    for (const line of text.split('\n').filter((l) => l.startsWith('curl ') && !l.includes('/api/auth/') && !l.includes('-b cookies')))
      expect(line).toContain('Authorization: Bearer $TOKEN');
    for (const action of ['dead/discard', 'tasks/revoke', 'purge', '/start']) {
      const i = text.indexOf(
        `curl -s -H "Authorization: Bearer $TOKEN" -X POST`,
        text.indexOf(action === '/start' ? 'bulk/{jobId}/{op}' : `/${action}`),
      );
      expect(text.slice(i, text.indexOf('```', i)), action).toMatch(/"reason":"[^"]+"/);
    }
  });
});
