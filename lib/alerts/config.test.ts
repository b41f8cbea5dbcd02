import { describe, expect, it } from 'vitest';
import { parseAlertSettings } from './config';
import { alertRules } from './rules';
import { targetLink } from './links';

const env = (alerts: unknown, extra: Record<string, string> = {}) => ({ POTATOQ_CONSOLE_ALERTS: JSON.stringify(alerts), ...extra });

describe('parseAlertSettings', () => {
  it('names the field of a bad target', () => {
    expect(() => parseAlertSettings(env({ targets: [{ id: 'x', broker: 'b', kind: 'oldestWaiting' }] }), ['b'])).toThrow(
      /^POTATOQ_CONSOLE_ALERTS\.targets\[0\]\.threshold: threshold is required for oldestWaiting/,
    );
    expect(() => parseAlertSettings(env({ targets: [{ id: 'x', broker: 'b', kind: 'stuck', bogus: 1 }] }), ['b'])).toThrow(
      /^POTATOQ_CONSOLE_ALERTS\.targets\[0\]: .*bogus/,
    );
    expect(() => parseAlertSettings(env({ targets: [{ id: 'x', broker: 'nope', kind: 'stuck' }] }), ['b'])).toThrow(
      'POTATOQ_CONSOLE_ALERTS.targets[0].broker: no broker "nope" is configured (known: b)',
    );
    const twice = {
      targets: [
        { id: 'x', broker: 'b', kind: 'stuck' },
        { id: 'x', broker: 'b', kind: 'noConsumer' },
      ],
    };
    expect(() => parseAlertSettings(env(twice), ['b'])).toThrow('POTATOQ_CONSOLE_ALERTS.targets[1].id: id "x" is used twice');
    expect(() => parseAlertSettings(env({ targets: [{ id: 'x', broker: 'b', kind: 'unreachable', queue: 'q' }] }), ['b'])).toThrow(
      'POTATOQ_CONSOLE_ALERTS.targets[0].queue: unreachable watches the whole broker and takes no queue',
    );
  });

  it('reads targets with their defaults and the public address without its trailing slash', () => {
    const s = parseAlertSettings(
      env({ targets: [{ id: 'x', broker: 'b', kind: 'stuck' }] }, { POTATOQ_CONSOLE_PUBLIC_URL: 'https://q.example.com/' }),
      ['b'],
    );
    expect(s).toEqual({
      targets: [{ id: 'x', broker: 'b', kind: 'stuck', for: '5m', severity: 'warning' }],
      publicUrl: 'https://q.example.com',
    });
    expect(parseAlertSettings({}, [])).toEqual({ targets: [], publicUrl: null });
  });
});

describe('alert links and rules', () => {
  const base = { broker: 'pq main', for: '5m', severity: 'warning' } as const;
  it('links each kind to the filtered view that shows it', () => {
    expect(targetLink({ ...base, id: 'a', kind: 'deadPerMinute', threshold: 1, queue: 'e/mail' }, 'https://c.example')).toBe(
      'https://c.example/brokers/pq%20main/dead?queue=e%2Fmail',
    );
    expect(targetLink({ ...base, id: 'a', kind: 'oldestWaiting', threshold: 1, queue: 'q' }, null)).toBe('/brokers/pq%20main/queues/q');
    expect(targetLink({ ...base, id: 'a', kind: 'missedSchedule' }, null)).toBe('/brokers/pq%20main/schedules');
    expect(targetLink({ ...base, id: 'a', kind: 'noConsumer' }, null)).toBe('/brokers/pq%20main/workers');
    expect(targetLink({ ...base, id: 'a', kind: 'unreachable' }, null)).toBe('/brokers/pq%20main');
  });

  it('writes one rule per target whose annotation carries the link, and keeps a name from becoming a template', () => {
    const yaml = alertRules([{ ...base, id: 'mail-slow', kind: 'oldestWaiting', threshold: 600, queue: 'm{{x}}' }], 'https://c.example');
    expect(yaml).toContain('alert: PotatoqTarget_mail_slow');
    expect(yaml).toContain(
      'potatoq_console_alert_value{target="mail-slow"} and on (target) potatoq_console_alert_breached{target="mail-slow"} == 1',
    );
    expect(yaml).toContain('console_url: https://c.example/brokers/pq%20main/queues/m%7B%7Bx%7D%7D');
    expect(yaml).toContain('pq main/m{ {x} }');
    // A broker's own target names the broker alone, not "every queue".
    expect(alertRules([{ ...base, id: 'main-down', kind: 'unreachable' }], null)).toContain("summary: 'unreachable on pq main: {{ $value");
  });
});
