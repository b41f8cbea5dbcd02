import { describe, expect, it } from 'vitest';
import { parseAmqpUrl, parseManagement } from './url';

describe('parseAmqpUrl reads broker URLs the way potatoq does', () => {
  it.each([
    ['amqp://u:p@h:5673//', '/'],
    ['amqp://u:p@h:5673/', '/'],
    ['amqp://u:p@h', '/'],
    ['amqp://u:p@h/%2F', '/'],
    ['amqp://u:p@h/prod', 'prod'],
    ['pyamqp://u:p@h//', '/'],
    ['amqp://u:p@h//?heartbeat=10', '/'],
  ])('%s is vhost %s', (url, vhost) => {
    const t = parseAmqpUrl(url);
    expect(t.vhost).toBe(vhost);
    expect(new URL(t.url).protocol).toBe('amqp:');
  });

  it('keeps credentials out of what can be shown', () => {
    const t = parseAmqpUrl('amqp://admin:s3cret@rabbit.internal:5672/prod');
    expect(t.display).toBe('rabbit.internal:5672, vhost prod');
    expect(t.display).not.toContain('s3cret');
    expect(t.password).toBe('s3cret');
  });

  it('defaults to guest like pika', () => {
    expect(parseAmqpUrl('amqp://h//')).toMatchObject({ username: 'guest', password: 'guest' });
  });

  it('refuses a non-AMQP URL without echoing it', () => {
    expect(() => parseAmqpUrl('http://u:secret@h/')).toThrow(/amqp/);
    try {
      parseAmqpUrl('http://u:secret@h/');
    } catch (e) {
      expect(String((e as Error).message)).not.toContain('secret');
    }
  });
});

describe('parseManagement', () => {
  const amqp = parseAmqpUrl('amqp://bob:pw@h//');
  it('uses the AMQP login unless the options give one, and never keeps it in the base URL', () => {
    const m = parseManagement({ managementUrl: 'http://h:15672/' }, amqp)!;
    expect(m.base).toBe('http://h:15672');
    expect(Buffer.from(m.authorization.slice(6), 'base64').toString()).toBe('bob:pw');
    const m2 = parseManagement({ managementUrl: 'http://ann:x@h:15672', managementPassword: 'y' }, amqp)!;
    expect(m2.base).not.toContain('ann');
    expect(Buffer.from(m2.authorization.slice(6), 'base64').toString()).toBe('ann:y');
  });
  it('is null when not configured', () => {
    expect(parseManagement({}, amqp)).toBeNull();
  });
});
