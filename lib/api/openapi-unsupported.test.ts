import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConsoleError } from '@/lib/brokers/errors';
import type { BrokerConfig } from '@/lib/brokers/types';

// Every broker read can meet an adapter that lacks what it needs (RabbitMQ lists no queued
// messages, 3.x cannot browse a DLQ, no result backend, QueueFlow has no worker registry, a
// Redis Cluster is refused on every call): the route then answers 501 `Unsupported`. This runs
// each GET route under app/api/brokers/[broker] against an adapter that refuses everything and
// checks that every 501 it answers is in the OpenAPI description.
const config: BrokerConfig = { id: 'b', name: 'b', kind: 'potatoq', url: 'sqlite:///x', readOnly: false, options: {} };
const refusing = new Proxy(
  {},
  {
    get: (_t, key) =>
      key === 'then' || key === 'model' ? undefined : () => Promise.reject(new ConsoleError('Unsupported', `no ${String(key)} here`)),
  },
);

vi.mock('@/lib/brokers/registry', () => ({
  findBrokerConfig: (id: string) => {
    if (id !== config.id) throw new ConsoleError('NotFound', `no broker "${id}" is configured`);
    return config;
  },
  getAdapter: () => refusing,
  brokerKindOf: () => 'sqlite',
  listBrokerConfigs: () => [config],
}));

const { openApiDocument } = await import('./openapi');
const doc = openApiDocument({ brokers: ['b'], mode: 'none', version: 'test' }) as {
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
};

const API = path.resolve(__dirname, '../../app/api');
const BROKER = path.join(API, 'brokers/[broker]');

function routeFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === 'route.ts' ? [path.join(dir, e.name)] : []));
}

const getters = routeFiles(BROKER)
  .filter((f) => /export (?:async )?function GET\b/.test(fs.readFileSync(f, 'utf8')))
  .map((f) => {
    const segments = path.relative(path.resolve(API, '..'), path.dirname(f)).split(path.sep);
    const params = Object.fromEntries(
      segments.flatMap((s) => (/^\[\w+\]$/.test(s) ? [[s.slice(1, -1), s === '[broker]' ? 'b' : 'x1']] : [])),
    );
    const openApiPath = `/${segments.map((s) => s.replace(/^\[(\w+)\]$/, '{$1}')).join('/')}`;
    const url = `http://127.0.0.1:3000/${segments.map((s) => (/^\[\w+\]$/.test(s) ? params[s.slice(1, -1)] : s)).join('/')}`;
    return { file: f, openApiPath, params, url };
  });

describe('501 in the OpenAPI description', () => {
  it('finds the broker read routes', () => expect(getters.length).toBeGreaterThan(10));

  it.each(getters)('declares 501 wherever GET $openApiPath answers it', async ({ file, openApiPath, params, url }) => {
    const mod = (await import(file)) as { GET: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response> };
    const res = await mod.GET(new Request(url), { params: Promise.resolve(params) });
    const declared = Object.keys(doc.paths[openApiPath]?.get?.responses ?? {});
    if (res.status === 501) expect(declared, openApiPath).toContain('501');
    else expect(declared, `${openApiPath} answered ${res.status}`).toContain(String(res.status));
  });

  it('answers 501 on the reads a system can lack', async () => {
    const lacking = getters.filter((g) =>
      /^\/api\/brokers\/{broker}\/(tasks|dead|dead\/groups|results|workers|trends\/dead|queues|task-names)$/.test(g.openApiPath),
    );
    for (const g of lacking) {
      const mod = (await import(g.file)) as { GET: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response> };
      expect((await mod.GET(new Request(g.url), { params: Promise.resolve(g.params) })).status, g.openApiPath).toBe(501);
    }
  });
});
