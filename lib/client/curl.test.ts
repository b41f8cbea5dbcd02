import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REASON_PLACEHOLDER, curlBulkStart, curlCommand } from './curl';

// Runs the command in a real bash with a stand-in `curl` that prints the arguments it got, so
// the quoting is checked by the shell itself.
function argsSeenByCurl(command: string, env: Record<string, string> = {}): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curl-stub-'));
  fs.writeFileSync(path.join(dir, 'curl'), `#!/usr/bin/env node\nprocess.stdout.write(JSON.stringify(process.argv.slice(2)))\n`, {
    mode: 0o755,
  });
  try {
    return JSON.parse(
      execFileSync('bash', ['-c', command], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, ...env }, encoding: 'utf8' }),
    ) as string[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('curlCommand', () => {
  it('posts the ids, reason and queue to the action’s route, with the token from the shell variable', () => {
    const cmd = curlCommand({
      origin: 'https://console.example',
      brokerId: 'shop',
      action: 'discard',
      ids: ["it's", '$(rm -rf ~)', 'a b'],
      queue: 'emails',
      reason: 'OPS-1 "bad" input',
    });
    expect(cmd).toContain('$POTATOQ_CONSOLE_TOKEN');
    const argv = argsSeenByCurl(cmd, { POTATOQ_CONSOLE_TOKEN: 'pqc_from-env' });
    expect(argv).toEqual([
      '-sS',
      '-X',
      'POST',
      '-H',
      'Authorization: Bearer pqc_from-env',
      '-H',
      'content-type: application/json',
      'https://console.example/api/brokers/shop/dead/discard',
      '-d',
      expect.any(String),
    ]);
    expect(JSON.parse(argv[9]!)).toEqual({ ids: ["it's", '$(rm -rf ~)', 'a b'], reason: 'OPS-1 "bad" input', queue: 'emails' });
  });

  it('maps each action to its route and a purge to its queue, URL-encoded', () => {
    const url = (a: Parameters<typeof curlCommand>[0]) => argsSeenByCurl(curlCommand(a))[7];
    expect(url({ origin: 'http://h', brokerId: 'b', action: 'replay', ids: ['x'] })).toBe('http://h/api/brokers/b/dead/replay');
    expect(url({ origin: 'http://h', brokerId: 'b', action: 'revoke', ids: ['x'] })).toBe('http://h/api/brokers/b/tasks/revoke');
    expect(url({ origin: 'http://h', brokerId: 'b', action: 'convert', ids: ['x'] })).toBe('http://h/api/brokers/b/dead/convert');
    const purge = argsSeenByCurl(curlCommand({ origin: 'http://h', brokerId: 'b', action: 'purge', queue: 'a/b c', reason: 'drain' }));
    expect(purge[7]).toBe('http://h/api/brokers/b/queues/a%2Fb%20c/purge');
    expect(JSON.parse(purge[9]!)).toEqual({ confirm: 'a/b c', reason: 'drain' });
  });

  it('puts a placeholder where a required reason is not typed yet, and leaves an optional one out', () => {
    expect(
      JSON.parse(
        argsSeenByCurl(curlCommand({ origin: 'http://h', brokerId: 'b', action: 'revoke', ids: ['x'], reasonRequired: true }))[9]!,
      ),
    ).toEqual({ ids: ['x'], reason: REASON_PLACEHOLDER });
    expect(JSON.parse(argsSeenByCurl(curlCommand({ origin: 'http://h', brokerId: 'b', action: 'replay', ids: ['x'] }))[9]!)).toEqual({
      ids: ['x'],
    });
  });

  it('posts an enqueue request as the form would send it, JSON text kept exact', () => {
    const body = { task: 'app.add', queue: 'default', args: '[1, 123456789012345678901234567890]', kwargs: '{}', priority: 0 };
    const argv = argsSeenByCurl(curlCommand({ origin: 'http://h', brokerId: 'b', action: 'enqueue', body }));
    expect(argv[7]).toBe('http://h/api/brokers/b/enqueue');
    expect(JSON.parse(argv[9]!)).toEqual(body);
  });

  it('starts a captured bulk job by its id with the count confirmed and the reason', () => {
    const argv = argsSeenByCurl(
      curlBulkStart({ origin: 'http://h', brokerId: 'b', jobId: '6f1c-aa', confirmCount: 1200, reason: 'OPS-2', rate: 20 }),
    );
    expect(argv[7]).toBe('http://h/api/brokers/b/bulk/6f1c-aa/start');
    expect(JSON.parse(argv[9]!)).toEqual({ confirmCount: 1200, reason: 'OPS-2', rate: 20 });
  });
});
