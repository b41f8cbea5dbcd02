import { beforeEach, describe, expect, it } from 'vitest';
import { loginBlockedFor, noteLoginFailure, noteLoginSuccess, resetLoginThrottle } from './rate-limit';

beforeEach(() => resetLoginThrottle());

describe('login throttle', () => {
  it('blocks a user name after 5 failures in 15 minutes, until the oldest ages out', () => {
    const t0 = 1_000_000;
    for (let i = 0; i < 5; i++) noteLoginFailure('Olga', `10.0.0.${i}`, t0 + i);
    expect(loginBlockedFor('olga', '10.9.9.9', t0 + 10)).toBeGreaterThan(800);
    expect(loginBlockedFor('olga', '10.9.9.9', t0 + 15 * 60 * 1000 + 1)).toBe(0);
  });
  it('blocks an address after 20 failures across names, and a success clears only the user', () => {
    for (let i = 0; i < 20; i++) noteLoginFailure(`u${i}`, '10.0.0.1', 5);
    expect(loginBlockedFor('someone', '10.0.0.1', 6)).toBeGreaterThan(0);
    expect(loginBlockedFor('someone', '10.0.0.2', 6)).toBe(0);
    noteLoginFailure('ann', '1.1.1.1', 5);
    noteLoginSuccess('ann');
    expect(loginBlockedFor('ann', '1.1.1.2', 6)).toBe(0);
  });
});
