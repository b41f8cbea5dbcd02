import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServerOptions } from './command';

/**
 * Starts the package's standalone Next server (dist/server) in this process, as the
 * server.js Next writes for `output: 'standalone'` does, minus its `process.chdir`: relative
 * paths the operator gives (demo and state files, `sqlite:///` URLs, the config file) stay
 * relative to the directory the command was started in. scripts/pack-build.mjs saves the
 * build's resolved config beside it as next-config.json.
 */
export async function startStandaloneServer(serverDir: string, { host, port }: ServerOptions): Promise<void> {
  const configFile = path.join(serverDir, 'next-config.json');
  if (!fs.existsSync(configFile))
    throw new Error(`no prebuilt server at ${serverDir} (a checkout builds it with "npm run pack:build"; the npm package ships it)`);
  const config: unknown = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  Object.assign(process.env, { NODE_ENV: 'production' });
  process.env.NEXT_TELEMETRY_DISABLED ??= '1';
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
  // Read by the console's bind check (lib/auth/bind.ts) when the socket cannot be found.
  process.env.HOSTNAME = host;
  process.env.PORT = String(port);
  const load = createRequire(path.join(serverDir, 'server.js'));
  load('next');
  const { startServer } = load('next/dist/server/lib/start-server') as {
    startServer: (o: Record<string, unknown>) => Promise<void>;
  };
  // 65 s idle keep-alive, as `npm start`: longer than the usual proxy idle timeout (docs/operations.md).
  await startServer({ dir: serverDir, isDev: false, config, hostname: host, port, allowRetry: false, keepAliveTimeout: 65_000 });
  // Next names the process "next-server"; ps and top should show the command the operator ran.
  process.title = 'potatoq-console';
}
