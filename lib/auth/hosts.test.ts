import { describe, expect, it } from 'vitest';
import { hostAllowed, hostName, parseAllowedHosts } from './hosts';

describe('allowed Host names', () => {
  it('in mode none answers loopback names and IP literals on any port, and no other name', () => {
    const rule = parseAllowedHosts(undefined, 'none');
    for (const h of ['127.0.0.1:3000', 'localhost', 'localhost:8080', '[::1]:3000', 'app.localhost:3000', '192.168.1.20:3000'])
      expect(hostAllowed(rule, h), h).toBe(true);
    for (const h of [
      'evil.example',
      'evil.example:3000',
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      '',
      'a b',
      'evil.example:3000@127.0.0.1',
    ])
      expect(hostAllowed(rule, h), h).toBe(false);
    expect(hostAllowed(rule, null)).toBe(false);
  });

  it('checks no Host in the signed-in modes unless a list is set; a list applies in every mode', () => {
    expect(hostAllowed(parseAllowedHosts('', 'accounts'), 'anything.example')).toBe(true);
    const rule = parseAllowedHosts('console.example.com, *.corp.example', 'accounts');
    expect(hostAllowed(rule, 'console.example.com:443')).toBe(true);
    expect(hostAllowed(rule, 'CONSOLE.example.com.')).toBe(true);
    expect(hostAllowed(rule, 'q.corp.example')).toBe(true);
    expect(hostAllowed(rule, 'corp.example')).toBe(false);
    expect(hostAllowed(rule, 'evilcorp.example')).toBe(false);
    expect(hostAllowed(rule, 'localhost')).toBe(false);
  });

  it('refuses a setting that is not a host name, naming the variable', () => {
    expect(() => parseAllowedHosts('https://console.example.com', 'none')).toThrow(/POTATOQ_CONSOLE_ALLOWED_HOSTS: .* is not a host name/);
    expect(() => parseAllowedHosts('console.example.com:3000', 'none')).toThrow(/POTATOQ_CONSOLE_ALLOWED_HOSTS/);
  });

  it('reads the name out of a Host header', () => {
    expect(hostName('[::1]:3000')).toBe('::1');
    expect(hostName('Example.COM:80')).toBe('example.com');
    expect(hostName('[zz]:1')).toBeNull();
  });
});
