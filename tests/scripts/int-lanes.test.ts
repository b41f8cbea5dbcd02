import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script with no declarations
import { claimsOf, conflicts, lanes } from '../../scripts/int-lanes.mjs';

// The split of the integration files into the two lanes scripts/test-all.sh runs side by side
// (scripts/int-lanes.mjs), on tiny trees in a temp folder, and on this checkout.

type Claims = { file: string; owns: string[]; uses: string[]; why: string };
type Group = { members: Claims[]; ms: number; lane: 1 | 2 };
type Lanes = { 1: string[]; 2: string[]; ms: { 1: number; 2: number }; groups: Group[] };
const dirs: string[] = [];

function tree(files: Record<string, string>, timings?: Record<string, number>, defaultMs = 1000): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lanes-'));
  dirs.push(root);
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), text);
  }
  if (timings) fs.writeFileSync(path.join(root, 'tests/int-timings.json'), JSON.stringify({ defaultMs, files: timings }));
  return root;
}

/** The lane each file is in. */
const laneOf = (l: Lanes) => new Map([...l[1].map((f) => [f, 1] as const), ...l[2].map((f) => [f, 2] as const)]);

afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('int-lanes', () => {
  it('runs files that reach a shared service and declare nothing in one lane, with every file that declares a resource', () => {
    const root = tree(
      {
        'tests/a.int.test.ts': "const url = 'redis://127.0.0.1:6379/3';\n",
        'tests/b.int.test.ts': "import { rig } from './support/rig';\n",
        'tests/support/rig.ts': "import { x } from '@/tests/support/deep';\nexport const rig = x;\n",
        'tests/support/deep.ts': "export const x = process.env.POTATOQ_TEST_RABBITMQ4_URL ?? 'amqp://localhost';\n",
        'tests/c.int.test.ts': "// int-lane: uses redis/0 (a prefix of its own)\nconst u = 'redis://h/0';\n",
        'tests/d.int.test.ts': "import { pg } from '@/tests/support/pg';\n",
        'tests/support/pg.ts': "export const pg = 'postgresql://localhost/test';\n",
      },
      { 'tests/a.int.test.ts': 10, 'tests/b.int.test.ts': 10, 'tests/c.int.test.ts': 10, 'tests/d.int.test.ts': 30 },
    );
    const l = lanes(root) as Lanes;
    const lane = laneOf(l);
    expect(lane.get('tests/b.int.test.ts')).toBe(lane.get('tests/a.int.test.ts'));
    expect(lane.get('tests/c.int.test.ts')).toBe(lane.get('tests/a.int.test.ts'));
    expect(lane.get('tests/d.int.test.ts')).not.toBe(lane.get('tests/a.int.test.ts'));
    const b = claimsOf(root, path.join(root, 'tests/b.int.test.ts')) as Claims;
    expect(b).toMatchObject({ owns: ['*'], uses: [] });
    expect(b.why).toBe('tests/support/deep.ts names amqp and declares nothing: owns everything');
  });

  it('keeps a file that owns a resource with every file that owns or uses it (or a part of it), and lets users run apart', () => {
    const files = {
      'tests/flush3.int.test.ts': '// int-lane: owns redis/3 (flushed)\n',
      'tests/prefix3.int.test.ts': '// int-lane: uses redis/3 (a prefix of its own)\n',
      'tests/prefix0.int.test.ts': '// int-lane: uses redis/0 (a prefix of its own)\n',
      'tests/prefix0b.int.test.ts': '// int-lane: uses redis/0 (a prefix of its own)\n',
      'tests/restart.int.test.ts': '// int-lane: owns rabbitmq; uses redis/9 (restarts the server)\n',
      'tests/vhost.int.test.ts': '// int-lane: uses rabbitmq/vh redis/3 (queues of its own)\n',
    };
    const root = tree(files, {}, 1000);
    const c = (f: string) => claimsOf(root, path.join(root, f)) as Claims;
    expect(c('tests/restart.int.test.ts')).toMatchObject({ owns: ['rabbitmq'], uses: ['redis/9'] });
    expect(conflicts(c('tests/flush3.int.test.ts'), c('tests/prefix3.int.test.ts'))).toBe(true);
    expect(conflicts(c('tests/prefix0.int.test.ts'), c('tests/prefix0b.int.test.ts'))).toBe(false);
    expect(conflicts(c('tests/prefix3.int.test.ts'), c('tests/vhost.int.test.ts'))).toBe(false);
    expect(conflicts(c('tests/restart.int.test.ts'), c('tests/vhost.int.test.ts'))).toBe(true);
    const l = lanes(root) as Lanes;
    // flush3 - prefix3 - vhost - restart form one group, through each other.
    const big = l.groups.find((g) => g.members.length > 1)!;
    expect(big.members.map((m) => m.file).sort()).toEqual([
      'tests/flush3.int.test.ts',
      'tests/prefix3.int.test.ts',
      'tests/restart.int.test.ts',
      'tests/vhost.int.test.ts',
    ]);
    const lane = laneOf(l);
    expect(lane.get('tests/prefix0.int.test.ts')).not.toBe(big.lane);
    expect(lane.get('tests/prefix0b.int.test.ts')).not.toBe(big.lane);
  });

  it('balances the lanes by the recorded times, the longest groups first, an unknown file at the default', () => {
    const files = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((n) => [`tests/${n}.int.test.ts`, 'const x = 1;\n']));
    const root = tree(
      files,
      { 'tests/a.int.test.ts': 50, 'tests/b.int.test.ts': 40, 'tests/c.int.test.ts': 30, 'tests/d.int.test.ts': 20 },
      25,
    );
    const l = lanes(root) as Lanes;
    // a 50 -> 1; b 40 -> 2; c 30 -> 2 (70); e, unknown, 25 -> 1 (75); d 20 -> 2 (90).
    expect(l[1]).toEqual(['tests/a.int.test.ts', 'tests/e.int.test.ts']);
    expect(l[2]).toEqual(['tests/b.int.test.ts', 'tests/c.int.test.ts', 'tests/d.int.test.ts']);
    expect(l.ms).toEqual({ 1: 75, 2: 90 });
  });

  it('reads code, not comments, for the services; refuses a declaration it cannot read, naming the file', () => {
    const root = tree({
      'tests/comment.int.test.ts': "// unlike Celery, this one needs no broker\n/* nor Redis */\nconst u = 'sqlite://x';\n",
      'tests/url.int.test.ts': "const u = 'valkey://h:1/0'; // a URL keeps its //\n",
      'tests/marked.int.test.ts': "// int-lane: isolated (closed ports only)\nconst u = 'redis://127.0.0.1:1/0';\n",
    });
    const c = (f: string) => claimsOf(root, path.join(root, f)) as Claims;
    expect(c('tests/comment.int.test.ts')).toMatchObject({ owns: [], uses: [], why: 'names no shared service' });
    expect(c('tests/url.int.test.ts').owns).toEqual(['*']);
    expect(c('tests/marked.int.test.ts')).toMatchObject({ owns: [], uses: [], why: 'marked isolated' });
    for (const bad of ['owns (why)', 'takes redis/3 (why)', 'uses Redis/3 (why)', 'owns redis/3 ; keeps x']) {
      const f = tree({ 'tests/bad.int.test.ts': `// int-lane: ${bad}\n` });
      expect(() => claimsOf(f, path.join(f, 'tests/bad.int.test.ts'))).toThrow(/^tests\/bad\.int\.test\.ts: int-lane: /);
    }
  });

  it("puts each of this checkout's files in one lane, and every two files that conflict in the same one", () => {
    const root = path.resolve(__dirname, '../..');
    const l = lanes(root) as Lanes;
    const all = [...l[1], ...l[2]];
    expect(new Set(all).size).toBe(all.length);
    expect(l[1].length).toBeGreaterThan(0);
    expect(l[2].length).toBeGreaterThan(0);
    const lane = laneOf(l);
    const claims = l.groups.flatMap((g) => g.members);
    for (const x of claims) {
      for (const y of claims) if (conflicts(x, y)) expect(lane.get(x.file), `${x.file} and ${y.file}`).toBe(lane.get(y.file));
    }
    // The suite that restarts RabbitMQ and one that flushes a Redis db, with a file using each.
    const same = (a: string, b: string) => expect(lane.get(`tests/${a}.int.test.ts`)).toBe(lane.get(`tests/${b}.int.test.ts`));
    same('brokers/potatoq/rabbitmq/rabbitmq-faults', 'services');
    same('brokers/celery/redis/celery-stuck', 'brokers/celery/rabbitmq/celery-stuck-rabbit');
  });
});
