import { describe, expect, it } from 'vitest';
import { safeNext } from './login';
import { loginErrorMessage } from './login-errors';

describe('where sign-in sends you next', () => {
  it('keeps same-site paths with their query', () => {
    expect(safeNext('/brokers/main/dead?queue=emails')).toBe('/brokers/main/dead?queue=emails');
    expect(safeNext('/brokers/main/jobs/%ff')).toBe('/brokers/main/jobs/%ff');
  });

  it('refuses every spelling of another site, and text that cannot go into a Location header', () => {
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example/',
      '/\n/evil.example',
      'https://evil.example',
      '/x/..\\/evil.example',
      '/\r\nSet-Cookie: a=b',
      '/ä',
      'javascript:alert(1)',
      '',
      null,
      undefined,
      `/${'a'.repeat(2001)}`,
    ]) {
      expect(safeNext(bad), String(bad)).toBe('/');
    }
    // Percent-encoded, the tab stays inside one path segment of this site.
    expect(safeNext('/%09/evil.example/')).toBe('/%09/evil.example/');
  });
});

describe('login page errors', () => {
  it('maps known codes to fixed text and ignores anything else', () => {
    expect(loginErrorMessage('wrong-password')).toBe('wrong user name or password');
    expect(loginErrorMessage('Your account is suspended, call +1 555 0100')).toBeUndefined();
    expect(loginErrorMessage('toString')).toBeUndefined();
    expect(loginErrorMessage(undefined)).toBeUndefined();
  });
});
