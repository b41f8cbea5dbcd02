import { spawn } from 'node:child_process';
import type { ClientMetadata } from 'oidc-provider';
import type { ProviderSpec } from './oidc-provider-server';

// Starts e2e/oidc-provider-server.ts (a real OpenID provider) in a child process on a free port;
// vite-node (a dev dependency) runs the TypeScript.

export interface RunningProvider {
  issuer: string;
  /** Sets how far the provider's clock lags behind (seconds), from its next token on. */
  setSkew: (seconds: number) => Promise<void>;
  stop: () => Promise<void>;
  output: () => string;
}

export type { ClientMetadata };

export async function startOidcProvider(
  spec: Partial<ProviderSpec> & Pick<ProviderSpec, 'clients' | 'accounts'>,
): Promise<RunningProvider> {
  const full: ProviderSpec = { skewSeconds: 0, idTokenSeconds: 3600, ...spec };
  const child = spawn(process.execPath, ['node_modules/vite-node/vite-node.mjs', 'e2e/oidc-provider-server.ts'], {
    env: { ...process.env, OIDC_TEST_PROVIDER_SPEC: JSON.stringify(full), DEBUG: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`OpenID provider did not start: ${out}`)), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^READY (\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`OpenID provider exited (${code}): ${out}`));
    });
  });
  return {
    issuer,
    output: () => out,
    setSkew: async (seconds) => {
      const seen = out.length;
      child.stdin.write(`skew ${seconds}\n`);
      const deadline = Date.now() + 10_000;
      while (!out.slice(seen).includes(`SKEW ${seconds}`)) {
        if (Date.now() > deadline) throw new Error(`OpenID provider did not take the skew: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const t = setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(t);
    },
  };
}
