import { describe, expect, it } from 'vitest';
import { buildMessage, BuildMessageError, decodeCeleryMessage, decodeJsonValue, decodePayload, previewPayload, toTyped } from './index';
import { parseJson, PyJsonError, reasonSummary, reasonSummaryFull } from '@/lib/pyvalues';

const msg = (extra: string) => `{"task":"t.boom","id":"i1","enqueued_at":1.5${extra}}`;

describe('hostile payloads', () => {
  it('decodes a 10 MB payload within seconds and previews it in one short line', () => {
    const big = 'x'.repeat(9_000_000);
    const nums = Array.from({ length: 150_000 }, (_, i) => i * 1.5).join(',');
    const raw = msg(`,"args":["${big}",[${nums}]]`);
    expect(raw.length).toBeGreaterThan(10_000_000);
    const t0 = performance.now();
    const d = decodePayload(raw);
    const p = previewPayload(d);
    // ~0.3 s on an idle core; the bound leaves room for a loaded CI machine.
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(d.kind).toBe('potatoq');
    expect(p.text.length).toBeLessThanOrEqual(160);
    if (d.kind === 'potatoq' && d.args.t === 'list') {
      const first = d.args.items[0];
      expect(first?.t === 'str' && first.truncated).toBe(9_000_000 - 100_000);
    }
  });

  it('handles 1,000-deep nesting without overflowing, reporting what Python raises', () => {
    const raw = msg(`,"args":[${'['.repeat(1000)}${']'.repeat(1000)}]`);
    const d = decodePayload(raw);
    expect(d.kind).toBe('foreign');
    if (d.kind === 'foreign') {
      expect(d.foreign).toBe('invalid-json');
      expect(d.reason).toBe('maximum recursion depth exceeded while decoding a JSON array from a unicode string');
    }
  });

  it('fails gracefully on 100,000-deep nesting', () => {
    const raw = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    expect(() => parseJson(raw)).toThrow(PyJsonError);
    expect(decodePayload(raw).kind).toBe('foreign');
  });

  it('caps rendering depth at 64 but keeps decoding deeper data', () => {
    const v = toTyped(`${'['.repeat(200)}1${']'.repeat(200)}`);
    let node = v;
    let depth = 0;
    while (node.t === 'list') {
      node = node.items[0] as typeof node;
      depth++;
    }
    expect(depth).toBe(64);
    expect(node).toEqual({ t: 'deep', depth: 64 });
  });

  it('keeps <script> and javascript: strings as inert plain text data', () => {
    const d = decodePayload(msg(',"args":["<script>alert(1)</script>"],"kwargs":{"url":"javascript:alert(1)"}'));
    expect(d.kind === 'potatoq' && d.args).toEqual({ t: 'list', items: [{ t: 'str', v: '<script>alert(1)</script>' }] });
    expect(previewPayload(d).text).toBe(`t.boom('<script>alert(1)</script>', url='javascript:alert(1)')`);
  });

  it('never throws on garbage bytes', () => {
    for (const bytes of [new Uint8Array([0xff, 0xfe]), new Uint8Array(0), new TextEncoder().encode('\u0000')]) {
      expect(decodePayload(bytes).kind).toBe('foreign');
    }
  });
});

describe('decodePayload', () => {
  it('flags tag anomalies and ignored fields', () => {
    const d = decodePayload(
      msg(`,"args":[{"__potatoq__":"uuid","v":"nope"},{"__potatoq__":"x","v":1},{"__type__":"uuid","__value__":"a"}],"extra":1`),
    );
    expect(d.kind).toBe('potatoq');
    if (d.kind !== 'potatoq') return;
    expect(d.flags.sort()).toEqual(['legacy-tag', 'malformed-tag', 'unknown-tag']);
    expect(d.ignoredFields).toEqual(['extra']);
    expect(d.queue).toBe('default');
    expect(d.v).toBe('1');
  });

  it('decodes a tagged aware datetime with its instant', () => {
    const v = toTyped('{"__potatoq__":"datetime","v":"2026-01-01T10:00:00+02:00"}');
    expect(v).toEqual({ t: 'datetime', v: '2026-01-01T10:00:00+02:00', aware: true, epochMs: Date.UTC(2026, 0, 1, 8) });
  });

  it('reads a kombu envelope with a base64 body', () => {
    const body = Buffer.from('[[2,3],{"x":1},{"callbacks":null,"errbacks":null,"chain":null,"chord":null}]').toString('base64');
    const d = decodePayload(JSON.stringify({ body, headers: { task: 'tasks.add', id: 'c1' }, properties: { body_encoding: 'base64' } }));
    expect(d.kind === 'foreign' && d.foreign).toBe('kombu-envelope');
    if (d.kind !== 'foreign') return;
    expect(d.task).toBe('tasks.add');
    expect(d.id).toBe('c1');
    expect(d.celery?.args).toEqual({
      t: 'list',
      items: [
        { t: 'int', v: '2' },
        { t: 'int', v: '3' },
      ],
    });
    expect(previewPayload(d).text).toBe('Celery/kombu envelope: tasks.add(2, 3, x=1)');
    expect(d.crashesWorkers).toBe(true);
  });

  it('reads Celery headers and body for RabbitMQ', () => {
    const info = decodeCeleryMessage(
      { task: 'tasks.add', id: 'c2', retries: 1, eta: null, group: 'g' },
      '[[1],{},{"chain":[{"task":"n"}]}]',
    );
    expect(info).toMatchObject({ task: 'tasks.add', id: 'c2', retries: '1', eta: null, groupId: 'g' });
    expect(info.chain).toEqual({ t: 'list', items: [{ t: 'dict', entries: [['task', { t: 'str', v: 'n' }]] }] });
  });

  it('gives advice for every foreign kind', () => {
    const d = decodePayload(msg(',"v":2'));
    expect(d.kind === 'foreign' && d.advice).toMatch(/upgrade potatoq/);
  });
});

describe('buildMessage', () => {
  const base = { task: 't.add', id: '00000000-0000-4000-8000-000000000001', now: 1000 };

  it('writes the compact form with root_id = id and a uuid4 id by default', () => {
    const built = buildMessage({ task: 't.add', args: '[1]', now: 1000 });
    expect(built.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(built.json).toBe(
      `{"task":"t.add","args":[1],"id":"${built.id}","queue":"default","root_id":"${built.id}","enqueued_at":1000.0,"v":1}`,
    );
  });

  it('accepts arguments nested up to the limit potatoq can still re-encode', () => {
    const nested = `[${'['.repeat(399)}${']'.repeat(399)}]`;
    expect(buildMessage({ ...base, args: nested }).json).toContain(nested);
  });

  it('drops an eta in the past and converts an aware ISO eta', () => {
    expect(buildMessage({ ...base, eta: '1970-01-01T00:00:00Z' }).eta).toBeNull();
    expect(buildMessage({ ...base, eta: '1970-01-01T01:00:00+01:00' }).eta).toBeNull();
    expect(buildMessage({ ...base, eta: '1970-01-01T00:20:00.5Z' }).eta).toBe(1200.5);
    expect(buildMessage({ ...base, countdown: 10 }).json).toContain('"eta":1010.0');
  });

  it.each([
    [{ args: '{"a":1}' }, 'args', 'args must be a JSON list'],
    [{ kwargs: '[1]' }, 'kwargs', 'kwargs must be a JSON object'],
    [{ args: '[1,' }, 'args', 'args is not valid JSON: Expecting value: line 1 column 4 (char 3)'],
    [{ eta: '2026-01-01T10:00:00' }, 'eta', 'eta: naive datetimes are ambiguous; give an offset (e.g. +00:00 or Z)'],
    [{ args: '[{"__potatoq__":"uuid","v":1}]' }, 'args', "potatoq could not decode this message: 'int' object has no attribute 'replace'"],
    [
      { kwargs: `{"a":${'['.repeat(401)}${']'.repeat(401)}}` },
      'kwargs',
      'kwargs is nested 402 levels deep; potatoq can decode about 990 but re-encodes (retry, dead-letter) only about 496, so the console accepts at most 400',
    ],
  ])('refuses %j', (input, field, message) => {
    try {
      buildMessage({ ...base, ...input });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BuildMessageError);
      expect((e as BuildMessageError).field).toBe(field);
      expect((e as BuildMessageError).message).toBe(message);
    }
  });
});

describe('reasons and previews', () => {
  it('keeps the full last line for grouping', () => {
    const tb = `Traceback (most recent call last):\n  File "x"\nValueError: ${'z'.repeat(100)}\n`;
    expect(reasonSummaryFull(tb)).toBe(`ValueError: ${'z'.repeat(100)}`);
    expect(reasonSummary(tb)).toHaveLength(70);
  });

  it('cuts previews at the limit', () => {
    const d = decodePayload(msg(`,"args":[${Array.from({ length: 100 }, (_, i) => i).join(',')}]`));
    const p = previewPayload(d, 40);
    expect([...p.text]).toHaveLength(40);
    expect(p.text.endsWith('…')).toBe(true);
  });

  it('decodes stored JSON without throwing', () => {
    expect(decodeJsonValue('{"a":NaN}')).toEqual({ ok: true, value: { t: 'dict', entries: [['a', { t: 'float', v: 'NaN' }]] } });
    expect(decodeJsonValue('')).toEqual({ ok: false, error: 'Expecting value: line 1 column 1 (char 0)' });
  });
});
