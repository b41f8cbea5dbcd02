// Readiness (GET /api/health/ready) is "the state store answers": a real SQLite file answers;
// a PostgreSQL store nobody listens on, or one that accepts and never speaks, is not ready
// within the bound instead of holding the load balancer's probe.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStateHandle, type StateHandle } from '@/lib/state/handle';
import { stateStoreAnswers } from '@/lib/state/ready';
import { freePort } from '../support/free-port';

const opened: StateHandle[] = [];
const open = (where: string) => {
  const h = openStateHandle(where);
  opened.push(h);
  return () => h;
};
afterAll(async () => {
  for (const h of opened) await h.close().catch(() => undefined);
});

describe('state store readiness', () => {
  it('is ready on a SQLite file it can open', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ready-'));
    expect(await stateStoreAnswers(2_000, open(path.join(dir, 'state.sqlite3')))).toBe(true);
  });

  it('is not ready when nobody listens at the PostgreSQL URL', async () => {
    const port = await freePort();
    expect(await stateStoreAnswers(2_000, open(`postgresql://console@127.0.0.1:${port}/state`))).toBe(false);
  });

  it('is not ready, within the bound, when the PostgreSQL server never answers', async () => {
    const mute = net.createServer(() => undefined);
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
    const { port } = mute.address() as net.AddressInfo;
    const t0 = performance.now();
    expect(await stateStoreAnswers(500, open(`postgresql://console@127.0.0.1:${port}/state`))).toBe(false);
    expect(performance.now() - t0).toBeLessThan(2_000);
    mute.close();
  });
});
