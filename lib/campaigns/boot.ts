import 'server-only';
import { ConfigError } from '@/lib/config-error';
import { consoleEnv } from '@/lib/config-file/env';
import { taskFates } from '@/lib/brokers/service-fate';
import { createFollower, parseFollowInterval, type Follower } from './background';
import { getCampaignStore } from './open';

const KEY = Symbol.for('potatoq.console.campaignFollower');
type Global = typeof globalThis & { [KEY]?: Follower };

/** Boot: a bad interval stops the server naming the variable; then this instance's follower starts. */
export function bootCampaignFollower(): void {
  let intervalMs: number;
  try {
    intervalMs = parseFollowInterval(consoleEnv());
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`potatoq console: bad configuration: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const g = globalThis as Global;
  if (g[KEY] || intervalMs === 0) return;
  g[KEY] = createFollower({ store: getCampaignStore, fates: taskFates, intervalMs });
  g[KEY].start();
}
