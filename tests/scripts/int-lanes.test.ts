import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script with no declarations
import { lanes } from '../../scripts/int-lanes.mjs';

// The split of the integration files into the lanes scripts/test-all.sh runs side by side
// (scripts/int-lanes.mjs), on tiny trees in a temp folder, and on this checkout.

type Lanes = { shared: string[]; isolated: string[]; why: Map<string, string> };
const dirs: string[] = [];

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lanes-'));
  dirs.push(root);
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), text);
  }
  return root;
}

afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('int-lanes', () => {
  it('puts a file that reaches a shared service, itself or through a test helper, in the shared lane', () => {
    const l = lanes(
      tree({
        'tests/a.int.test.ts': "const url = 'redis://127.0.0.1:6379/3';\n",
        'tests/b.int.test.ts': "import { rig } from './support/rig';\n",
        'tests/support/rig.ts': "import { x } from '@/tests/support/deep';\nexport const rig = x;\n",
        'tests/support/deep.ts': "export const x = process.env.POTATOQ_TEST_RABBITMQ4_URL ?? 'amqp://localhost';\n",
        'tests/c.int.test.ts': "import { pg } from '@/tests/support/pg';\n",
        'tests/support/pg.ts': "export const pg = 'postgresql://localhost/test';\n",
      }),
    ) as Lanes;
    expect(l.shared).toEqual(['tests/a.int.test.ts', 'tests/b.int.test.ts']);
    expect(l.isolated).toEqual(['tests/c.int.test.ts']);
    expect(l.why.get('tests/b.int.test.ts')).toBe('tests/support/deep.ts names amqp');
  });

  it('reads code, not comments, and lets a file say it is isolated', () => {
    const l = lanes(
      tree({
        'tests/comment.int.test.ts': "// unlike Celery, this one needs no broker\n/* nor Redis */\nconst u = 'sqlite://x';\n",
        'tests/url.int.test.ts': "const u = 'valkey://h:1/0'; // a URL keeps its //\n",
        'tests/marked.int.test.ts': "// int-lane: isolated (closed ports only)\nconst u = 'redis://127.0.0.1:1/0';\n",
        'tests/unit.test.ts': "const u = 'redis://not-an-int-file';\n",
      }),
    ) as Lanes;
    expect(l.isolated).toEqual(['tests/comment.int.test.ts', 'tests/marked.int.test.ts']);
    expect(l.shared).toEqual(['tests/url.int.test.ts']);
    expect(l.why.get('tests/marked.int.test.ts')).toBe('marked isolated');
  });

  it("splits this checkout's integration files into two lanes, each file in exactly one", () => {
    const root = path.resolve(__dirname, '../..');
    const l = lanes(root) as Lanes;
    const all = [...l.shared, ...l.isolated];
    expect(new Set(all).size).toBe(all.length);
    expect(l.shared.length).toBeGreaterThan(0);
    expect(l.isolated.length).toBeGreaterThan(0);
    // The suites that restart RabbitMQ or flush numbered Redis databases stay in the shared lane.
    expect(l.shared).toContain('tests/brokers/potatoq/rabbitmq/rabbitmq-faults.int.test.ts');
    expect(l.shared).toContain('tests/brokers/celery/redis/celery-stuck.int.test.ts');
  });
});
