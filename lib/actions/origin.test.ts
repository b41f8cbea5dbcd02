import { describe, expect, it } from 'vitest';
import { crossSiteReason } from './origin';

const h = (init: Record<string, string>) => new Headers(init);

describe('crossSiteReason', () => {
  it('allows same-origin browser requests and header-less scripts', () => {
    expect(crossSiteReason(h({ host: 'localhost:3000', origin: 'http://localhost:3000' }))).toBeNull();
    expect(crossSiteReason(h({ host: 'localhost:3000' }))).toBeNull();
    expect(crossSiteReason(h({ host: 'x', 'sec-fetch-site': 'same-origin' }))).toBeNull();
  });
  it('refuses an Origin that does not match the Host', () => {
    expect(crossSiteReason(h({ host: 'localhost:3000', origin: 'http://evil.example' }))).toMatch(/does not match/);
  });
  it('refuses cross-site fetch metadata and opaque origins', () => {
    expect(crossSiteReason(h({ host: 'a', 'sec-fetch-site': 'cross-site' }))).toMatch(/cross-site/);
    expect(crossSiteReason(h({ host: 'a', origin: 'null' }))).toMatch(/opaque/);
  });
  it('compares against the forwarded host behind a proxy', () => {
    expect(
      crossSiteReason(h({ host: '127.0.0.1:3000', 'x-forwarded-host': 'console.example', origin: 'https://console.example' })),
    ).toBeNull();
  });
});
