import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// The layering check (scripts/check-layers.mjs) run as `npm test` runs it, on tiny trees in a
// temp folder: each rule fails on the import that breaks it and passes without it.

const SCRIPT = path.resolve(__dirname, '../../scripts/check-layers.mjs');
const MODEL = "export const SYSTEM_KINDS = ['potatoq', 'celery', 'queueflow'] as const;\n";
const dirs: string[] = [];

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  dirs.push(root);
  for (const [f, text] of Object.entries({ 'lib/brokers/model.ts': MODEL, ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), text);
  }
  return root;
}

function check(files: Record<string, string>): { ok: boolean; out: string } {
  try {
    return { ok: true, out: execFileSync(process.execPath, [SCRIPT, '--root', tree(files)], { encoding: 'utf8', stdio: 'pipe' }) };
  } catch (e) {
    const err = e as { status: number; stderr: string };
    expect(err.status).toBe(1);
    return { ok: false, out: err.stderr };
  }
}

afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('check-layers', () => {
  it('passes a tree that keeps every rule, and counts its imports', () => {
    const r = check({
      'lib/brokers/types.ts': "import type { X } from './model';\n",
      'lib/brokers/celery/adapter.ts': "import type { B } from '@/lib/brokers/types';\nimport { z } from 'zod';\n",
      'components/x/view.tsx': "import { SYSTEM_KINDS } from '@/lib/brokers/model';\n",
      'app/page.tsx': "import { View } from '@/components/x/view';\n",
    });
    expect(r).toEqual({ ok: true, out: expect.stringContaining('5 files, 4 imports, no cycle') });
  });

  it('fails on a cycle and prints its files, whatever kind of import closes it', () => {
    for (const closing of ["import type { A } from '@/lib/a';", "export { a } from '../lib/a';", "const m = () => import('./a');"]) {
      const r = check({ 'lib/a.ts': "import { b } from './b';\n", 'lib/b.ts': `${closing}\n` });
      expect(r.ok).toBe(false);
      expect(r.out).toContain('cycle    lib/a.ts -> lib/b.ts -> lib/a.ts');
    }
  });

  it('resolves index files and .tsx, and ignores imports in comments and strings', () => {
    const r = check({
      'lib/a/index.ts': "import { C } from '@/components/c';\n",
      'components/c.tsx':
        "// import { a } from '@/lib/a';\nconst glob = '**/*.ts'; /* import x from '@/app/p' */\nexport const s = `import '@/app/p'`;\n",
      'app/p.ts': '',
    });
    expect(r.ok).toBe(false);
    expect(r.out).toContain('upward   lib/a/index.ts -> components/c.tsx');
    expect(r.out).toContain('1 finding(s)');
  });

  it('fails when lib/ imports components/ or app/, or components/ imports app/', () => {
    const r = check({
      'lib/x.ts': "import { P } from '@/app/page';\n",
      'app/page.tsx': '',
      'components/y.tsx': "import { P } from '../app/page';\n",
    });
    expect(r.out).toContain('upward   lib/x.ts -> app/page.tsx');
    expect(r.out).toContain('upward   components/y.tsx -> app/page.tsx');
  });

  it("fails when a system's folder imports another system's", () => {
    const r = check({
      'lib/brokers/potatoq/options.ts': '',
      'lib/brokers/celery/adapter.ts': "import { parseOptions } from '@/lib/brokers/potatoq/options';\n",
    });
    expect(r.ok).toBe(false);
    expect(r.out).toContain('system   lib/brokers/celery/adapter.ts -> lib/brokers/potatoq/options.ts');
  });

  it("fails when a system imports a block named for another system, or a shared block imports a system's code", () => {
    const r = check({
      'lib/potatoq/decode.ts': '',
      'lib/pyvalues/json.ts': "import { decodePayload } from '@/lib/potatoq/decode';\n",
      'lib/brokers/celery/letter.ts':
        "import { decodePayload } from '@/lib/potatoq/decode';\nimport { parseJson } from '@/lib/pyvalues/json';\n",
      'lib/brokers/potatoq/reads.ts': "import { decodePayload } from '@/lib/potatoq/decode';\n",
    });
    expect(r.ok).toBe(false);
    expect(r.out).toContain('system   lib/brokers/celery/letter.ts -> lib/potatoq/decode.ts');
    expect(r.out).toContain('block    lib/pyvalues/json.ts -> lib/potatoq/decode.ts');
    expect(r.out).not.toContain('lib/brokers/potatoq/reads.ts');
  });

  it("fails when an adapter imports one of the console's services, but not its tests", () => {
    const files = {
      'lib/leases/store.ts': '',
      'lib/trends/ranges.ts': '',
      'lib/brokers/queueflow/holds.ts':
        "import { bucketTimes } from '@/lib/trends/ranges';\nimport type { L } from '@/lib/leases/store';\n",
      'lib/brokers/queueflow/holds.test.ts': "import { getAuditStore } from '@/lib/audit/store';\nimport '@/lib/leases/store';\n",
    };
    const r = check(files);
    expect(r.ok).toBe(false);
    expect(r.out).toContain('service  lib/brokers/queueflow/holds.ts -> lib/leases/store.ts');
    expect(r.out).toContain('1 finding(s)');
  });

  it('accepts what the baseline lists, and fails once a listed crossing is gone', () => {
    const files = {
      'lib/brokers/potatoq/options.ts': '',
      'lib/brokers/celery/adapter.ts': "import { parseOptions } from '@/lib/brokers/potatoq/options';\n",
      'scripts/layers-baseline.txt': '# moving\nsystem lib/brokers/celery/adapter.ts -> lib/brokers/potatoq/options.ts\n',
    };
    expect(check(files)).toEqual({ ok: true, out: expect.stringContaining('(1 baselined)') });
    const fixed = check({ ...files, 'lib/brokers/celery/adapter.ts': '' });
    expect(fixed.ok).toBe(false);
    expect(fixed.out).toContain('fixed    system lib/brokers/celery/adapter.ts -> lib/brokers/potatoq/options.ts  (no longer occurs');
  });

  it('has no baseline for cycles', () => {
    const r = check({
      'lib/a.ts': "import './b';\n",
      'lib/b.ts': "import './a';\n",
      'scripts/layers-baseline.txt': 'cycle lib/a.ts -> lib/b.ts -> lib/a.ts\n',
    });
    expect(r.out).toContain('cycle    lib/a.ts -> lib/b.ts -> lib/a.ts');
    expect(r.out).toContain('fixed    cycle lib/a.ts');
  });
});
