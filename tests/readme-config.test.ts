// The README's quick start is a promise: each system's config block, as printed, boots. Each
// YAML block of "Quick start, per system" is read by the config file loader and the same
// checks boot runs (secret files and variables stand in for the ones the README names).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';
import { settingsEnv } from '@/lib/config-file/env';
import { setSettingOrigins } from '@/lib/config-origins';

const root = path.resolve(__dirname, '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Quick start, per system'), readme.indexOf('## Configuration'));
const blocks = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-config-'));
afterAll(() => {
  setSettingOrigins(null);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the README's quick start", () => {
  it('has one config block per system', () => {
    expect(blocks.length).toBe(4);
    expect(blocks.map((b) => /kind: (\w+)/.exec(b)?.[1] ?? 'potatoq')).toEqual(['potatoq', 'celery', 'queueflow', 'sdj']);
  });

  it.each(blocks.map((b, i) => [i, b] as const))('block %i boots as printed', (i, block) => {
    // A secret file the block names is made here, holding a URL of the broker's kind.
    const text = block.replace(/urlFile: (\S+)/g, () => {
      const f = path.join(dir, `url-${i}`);
      fs.writeFileSync(f, 'postgresql://console:secret@db/billing\n');
      return `urlFile: ${f}`;
    });
    const file = path.join(dir, `console-${i}.yaml`);
    fs.writeFileSync(file, text);
    const config = parseConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: file, QUEUEFLOW_TOKEN: 'tenant-key' }));
    expect(config.brokers).toHaveLength(1);
    expect(config.brokers[0]!.id).toMatch(/^\w+$/);
  });
});
