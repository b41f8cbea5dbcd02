import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAuthConfig } from '@/lib/auth/config';
import { ConfigError, parseConfig } from '@/lib/config';
import { setSettingOrigins } from '@/lib/config-origins';
import { parseTrendConfig } from '@/lib/trends/config';
import { settingsEnv } from './env';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-config-'));
});
afterEach(() => {
  setSettingOrigins(null);
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, body: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
}

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('accepted a bad configuration');
}

const QF = { id: 'flow', kind: 'queueflow', url: 'https://flow.example' };

describe('config file', () => {
  it('gives brokers and settings from the file, and each variable the environment sets wins', () => {
    const file = write('c.json', { brokers: [{ id: 'a', url: 'sqlite:///tmp/a.db' }], readTimeoutMs: 5000, writeTimeoutMs: 7000 });
    const config = parseConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: file, POTATOQ_CONSOLE_READ_TIMEOUT_MS: '9000' }));
    expect(config.brokers.map((b) => b.id)).toEqual(['a']);
    expect(config.timeouts).toEqual({ readMs: 9000, writeMs: 7000 });
    const overridden = parseConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: file, POTATOQ_CONSOLE_BROKERS: 'sqlite:///tmp/b.db' }));
    expect(overridden.brokers.map((b) => b.url)).toEqual(['sqlite:///tmp/b.db']);
  });

  it('leaves the environment as it is without POTATOQ_CONSOLE_CONFIG', () => {
    const env = { POTATOQ_CONSOLE_BROKERS: 'sqlite:///tmp/a.db' };
    expect(settingsEnv(env)).toBe(env);
  });

  it('names the file and the field of a bad broker option', () => {
    const file = write('c.json', {
      brokers: [
        { id: 'a', url: 'sqlite:///tmp/a.db' },
        { ...QF, token: 'k', timeoutMs: 'soon' },
      ],
    });
    expect(messageOf(() => parseConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: file })))).toBe(
      `${file}: brokers[1].timeoutMs: timeoutMs must be a number of milliseconds`,
    );
  });

  it('names the variable when the environment gave the bad value', () => {
    const file = write('c.json', { readTimeoutMs: 5000 });
    expect(messageOf(() => parseConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: file, POTATOQ_CONSOLE_READ_TIMEOUT_MS: 'x' })))).toMatch(
      /^POTATOQ_CONSOLE_READ_TIMEOUT_MS: must be a whole number/,
    );
  });

  it('refuses an unknown setting and a value of the wrong type, naming the field', () => {
    expect(messageOf(() => settingsEnv({ POTATOQ_CONSOLE_CONFIG: write('a.json', { auth: { sesionSecret: 'x' } }) }))).toMatch(
      /a\.json: auth\.sesionSecret: unknown setting \(known here: mode, .*sessionSecret/,
    );
    expect(messageOf(() => settingsEnv({ POTATOQ_CONSOLE_CONFIG: write('b.json', { trends: { maxQueues: true } }) }))).toBe(
      `${path.join(dir, 'b.json')}: trends.maxQueues: must be a number`,
    );
    const range = write('c.json', { trends: { retentionHours: 99999 } });
    expect(messageOf(() => parseTrendConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: range })))).toMatch(
      new RegExp(`^${range}: trends\\.retentionHours: must be a whole number from 1 to 2160`),
    );
  });

  it('stops on a file that is missing or not JSON, saying where and never quoting it', () => {
    const missing = path.join(dir, 'nope.json');
    expect(messageOf(() => settingsEnv({ POTATOQ_CONSOLE_CONFIG: missing }))).toBe(`${missing}: cannot read the config file (ENOENT)`);
    const bad = write('bad.json', '{\n  "auth": {"sessionSecret": "hunter2-hunter2-hunter2-hunter2-x",}\n}');
    const m = messageOf(() => settingsEnv({ POTATOQ_CONSOLE_CONFIG: bad }));
    expect(m).toMatch(new RegExp(`^${bad}: not valid JSON \\(line 2, column \\d+\\)$`));
    expect(m).not.toContain('hunter2');
  });

  it('reads YAML with comments, and names the line of a YAML mistake without quoting it', () => {
    const file = write('c.yaml', '# the console\nbrokers:\n  - id: a   # local\n    url: sqlite:///tmp/a.db\noverdueSeconds: 60\n');
    const config = parseConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: file }));
    expect([config.brokers[0]!.id, config.overdueSeconds]).toEqual(['a', 60]);
    const bad = write('bad.yml', 'auth:\n  sessionSecret: "s3cr3t-value-of-forty-characters-xxxxxx\n');
    const m = messageOf(() => settingsEnv({ POTATOQ_CONSOLE_CONFIG: bad }));
    expect(m).toMatch(new RegExp(`^${bad}: not valid YAML \\(line \\d+, column \\d+\\)`));
    expect(m).not.toContain('s3cr3t');
  });
});

describe('config file secrets', () => {
  it('reads tokenFile, passwordFile-style options and urlFile from files', () => {
    const token = write('qf-token', 'qf-token-value-1234\n');
    const pw = write('mgmt-pw', 'mgmt-password-5678');
    const url = write('pg-url', 'postgresql://console:pg-password-9012@db.example/queues\n');
    const file = write('c.json', {
      brokers: [
        { ...QF, tokenFile: token },
        { id: 'rmq', url: 'amqp://guest@rabbit.example', managementUrl: 'http://rabbit.example:15672', managementPasswordFile: pw },
        { id: 'pg', urlFile: url },
      ],
    });
    const brokers = parseConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: file })).brokers;
    expect(brokers[0]!.options.token).toBe('qf-token-value-1234');
    expect(brokers[1]!.options.managementPassword).toBe('mgmt-password-5678');
    expect(brokers[2]!.url).toBe('postgresql://console:pg-password-9012@db.example/queues');
    // Remembered: no later message shows them.
    const m = new ConfigError('driver said qf-token-value-1234 / mgmt-password-5678 / pg-password-9012').message;
    expect(m).toBe('driver said *** / *** / ***');
  });

  it('takes a secret from a variable named in the file, and says which variable is missing', () => {
    const file = write('c.json', { brokers: [{ ...QF, token: { env: 'QF_TOKEN' } }] });
    const env = { POTATOQ_CONSOLE_CONFIG: file, QF_TOKEN: 'from-the-env-4321' };
    expect(parseConfig(settingsEnv(env)).brokers[0]!.options.token).toBe('from-the-env-4321');
    expect(messageOf(() => settingsEnv({ POTATOQ_CONSOLE_CONFIG: file }))).toBe(
      `${file}: brokers[0].token: the variable QF_TOKEN named here is not set`,
    );
  });

  it('refuses a secret given both inline and as a file, and a secret file that cannot be read', () => {
    const both = write('both.json', { brokers: [{ ...QF, token: 'k', tokenFile: '/x' }] });
    expect(messageOf(() => settingsEnv({ POTATOQ_CONSOLE_CONFIG: both }))).toBe(
      `${both}: brokers[0].tokenFile: give token or tokenFile, not both`,
    );
    const gone = write('gone.json', { auth: { sessionSecretFile: path.join(dir, 'absent') } });
    expect(messageOf(() => settingsEnv({ POTATOQ_CONSOLE_CONFIG: gone }))).toBe(
      `${gone}: auth.sessionSecretFile: cannot read ${JSON.stringify(path.join(dir, 'absent'))} (ENOENT)`,
    );
  });

  it('never shows a secret from a file in the error about it', () => {
    const short = write('proxy-secret', 'tiny-secret');
    const file = write('c.json', { auth: { mode: 'proxy', proxy: { secretFile: short } } });
    const m = messageOf(() => parseAuthConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: file })));
    expect(m).toBe(`${file}: auth.proxy.secret: must be at least 16 characters`);
    expect(new ConfigError(`bad value "tiny-secret"`).message).not.toContain('tiny-secret');
  });

  it('keeps other ...File options (paths, not secrets) as they are', () => {
    const file = write('c.json', { brokers: [{ id: 'r', url: 'rediss://cache.example:6380/0', tlsCaFile: '/etc/ssl/ca.pem' }] });
    expect(parseConfig(settingsEnv({ POTATOQ_CONSOLE_CONFIG: file })).brokers[0]!.options.tlsCaFile).toBe('/etc/ssl/ca.pem');
  });
});
