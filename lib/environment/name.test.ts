import { describe, expect, it } from 'vitest';
import { ZEnvironmentName, confirmPhrase, environmentTone } from './name';

describe('environment names', () => {
  it('shows production-like names in red, pre-production in amber, others in blue', () => {
    expect(environmentTone('production')).toBe('red');
    expect(environmentTone('PROD')).toBe('red');
    expect(environmentTone('prod-eu')).toBe('red');
    expect(environmentTone('staging')).toBe('yellow');
    expect(environmentTone('uat')).toBe('yellow');
    expect(environmentTone('dev')).toBe('blue');
    // A name that merely contains "prod" is not production.
    expect(environmentTone('nonprod')).toBe('blue');
    expect(environmentTone('products')).toBe('blue');
  });

  it('asks for the environment before the name where one is set', () => {
    expect(confirmPhrase('production', 'emails')).toBe('production/emails');
    expect(confirmPhrase(null, 'emails')).toBe('emails');
    expect(confirmPhrase(undefined, 'emails')).toBe('emails');
  });

  it('refuses names an operator could not type plainly', () => {
    expect(ZEnvironmentName.safeParse('production').success).toBe(true);
    expect(ZEnvironmentName.safeParse('eu-west.prod_2').success).toBe(true);
    for (const bad of ['', 'has space', '/slash', 'x'.repeat(33), '<b>', '-lead'])
      expect(ZEnvironmentName.safeParse(bad).success).toBe(false);
  });
});
