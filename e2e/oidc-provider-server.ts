import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import Provider, { type ClientMetadata, type JWK } from 'oidc-provider';

// A real OpenID provider (panva's oidc-provider, the certified implementation) for the oidc
// e2e specs, run as a child process by e2e/oidc-provider.ts (`vite-node` runs this file): its
// own process so that it can run on a clock of its own (`skewSeconds`: a provider whose clock
// is behind issues ID tokens that are already expired) without touching the test runner's.
// Sign-in and consent are the provider's own development pages (any password; the login is
// the account id). Prints `READY <issuer>` when it serves; a line `skew <seconds>` on its
// stdin sets the clock's lag (answered `SKEW <seconds>`).

export interface ProviderSpec {
  skewSeconds: number;
  idTokenSeconds: number;
  clients: ClientMetadata[];
  /** account id → claims (`sub` is the id). */
  accounts: Record<string, Record<string, unknown>>;
}

const spec = JSON.parse(process.env.OIDC_TEST_PROVIDER_SPEC ?? '{}') as ProviderSpec;
let skew = spec.skewSeconds;
const realNow = Date.now.bind(Date);
// oidc-provider stamps tokens (iat, exp) from Date.now.
Date.now = () => realNow() - skew * 1000;
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = /^skew (-?\d+)$/.exec(line.trim());
  if (!m) return;
  skew = Number(m[1]);
  process.stdout.write(`SKEW ${skew}\n`);
});

const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as JWK;
const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: spec.clients,
    jwks: { keys: [{ ...key, kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['oidc-test-provider-cookie-key-0123456789'] },
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email', 'email_verified'], groups: ['groups'] },
    // Every client, confidential or public, must use PKCE with S256.
    pkce: { required: () => true },
    ttl: { IdToken: spec.idTokenSeconds },
    async findAccount(_ctx, id) {
      const claims = spec.accounts[id];
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ ...claims, sub: id }) };
    },
  });
  provider.on('server_error', (_ctx, err) => console.error('provider server_error', err));
  server.on('request', provider.callback());
  process.stdout.write(`READY ${issuer}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
