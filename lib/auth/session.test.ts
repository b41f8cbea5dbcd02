import { describe, expect, it } from 'vitest';
import { readCookie, signSession, verifySession } from './session';

const SECRET = 'x'.repeat(40);
const claims = { u: 'olga', f: 'fp', iat: 1000, exp: 2000 };

describe('session cookies', () => {
  it('accepts its own signature and refuses an expired one', () => {
    const cookie = signSession(SECRET, claims);
    expect(verifySession(SECRET, cookie, 1500)).toEqual(claims);
    expect(verifySession(SECRET, cookie, 2000)).toBeNull();
  });

  it('refuses every other spelling of the signature, even one that decodes to the same bytes', () => {
    const cookie = signSession(SECRET, claims);
    // The last base64url character of a 32-byte MAC carries 2 unused bits: all 64 letters
    // but the real one must be refused, including the 3 that decode to identical bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const accepted = [...alphabet].filter((c) => verifySession(SECRET, cookie.slice(0, -1) + c, 1500) !== null);
    expect(accepted).toEqual([cookie.at(-1)]);
  });

  it('refuses a changed payload and another secret', () => {
    const cookie = signSession(SECRET, claims);
    const [body, sig] = cookie.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify({ ...claims, u: 'admin' })).toString('base64url');
    expect(verifySession(SECRET, `${other}.${sig}`, 1500)).toBeNull();
    expect(verifySession('y'.repeat(40), `${body}.${sig}`, 1500)).toBeNull();
  });

  it('treats a cookie that is not valid percent-encoding as absent, not as an error', () => {
    expect(readCookie('potatoq_session=%', 'potatoq_session')).toBeNull();
    expect(readCookie('a=1; potatoq_session=%zz%', 'potatoq_session')).toBeNull();
    expect(readCookie('potatoq_session=a%2Eb', 'potatoq_session')).toBe('a.b');
  });
});
