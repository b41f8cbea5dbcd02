import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { seedDemoDatabase } from '../lib/demo/seed';
import { freePortSync } from '../tests/support/free-port';
import { extraBrokerEntries, extraBrokers, prepareExtraBrokers } from './brokers-extra';
import { E2E_SYSTEMS } from './systems';

// The brokers the e2e server is configured with. Created once per `playwright test` run by
// the config (main process only); workers find them through POTATOQ_E2E_DIR.
//
// - `main`: potatoq's SQLite layout seeded natively with the demo data; specs add their own
//   rows in their own queues (see e2e/seed.ts), so they can run in parallel.
// - `gone`: a file that does not exist, to prove one broken broker leaves the others working.
// - the demo server (second webServer) starts with no configuration and creates its own
//   demo file at boot, as `npm run demo` does.
// - `pg` and `rmq`: PostgreSQL and RabbitMQ 4 brokers (e2e/brokers-extra.ts), created and
//   seeded with the real potatoq by e2e/global-setup.ts.
// - the brokers each system brings (e2e/systems.ts): `qf`, the real QueueFlow server
//   (e2e/queueflow-server.ts), started here and seeded by its spec; `sdj-pg`, `sdj-my`, Simple
//   Durable Jobs databases (e2e/sdj-dbs.ts), made by global setup.

// The two shared servers' ports: chosen free once per run by the config (main process) and
// handed to workers through the environment, so a busy port on the machine never fails a run.
// POTATOQ_E2E_PORT / POTATOQ_E2E_DEMO_PORT pin them.
process.env.POTATOQ_E2E_PORT ||= String(freePortSync());
process.env.POTATOQ_E2E_DEMO_PORT ||= String(freePortSync());
export const E2E_PORT = Number(process.env.POTATOQ_E2E_PORT);
export const DEMO_PORT = Number(process.env.POTATOQ_E2E_DEMO_PORT);

export interface E2eBrokers {
  dir: string;
  main: string;
  gone: string;
  demo: string;
}

export function e2eBrokers(): E2eBrokers {
  const dir = process.env.POTATOQ_E2E_DIR;
  if (!dir) throw new Error('POTATOQ_E2E_DIR is not set: run the specs through playwright.config.ts');
  return {
    dir,
    main: path.join(dir, 'main.sqlite3'),
    gone: path.join(dir, 'missing', 'gone.sqlite3'),
    demo: path.join(dir, 'demo', 'demo.sqlite3'),
  };
}

/** Creates the run's broker files (once per run; idempotent for config re-evaluation). */
export function prepareE2eBrokers(): E2eBrokers {
  if (!process.env.POTATOQ_E2E_DIR) {
    process.env.POTATOQ_E2E_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'potatoq-console-e2e-'));
    const brokers = e2eBrokers();
    const db = new Database(brokers.main);
    try {
      seedDemoDatabase(db);
    } finally {
      db.close();
    }
    prepareExtraBrokers(brokers.dir);
    for (const sys of E2E_SYSTEMS) sys.prepare(brokers.dir);
    return brokers;
  }
  return e2eBrokers();
}

export function brokersEnv(b: E2eBrokers): string {
  return JSON.stringify([
    { id: 'main', name: 'Main (SQLite)', url: `sqlite:///${b.main}` },
    { id: 'gone', name: 'Gone (missing file)', url: `sqlite:///${b.gone}` },
    ...extraBrokerEntries(extraBrokers(b.dir)),
    ...E2E_SYSTEMS.flatMap((sys) => sys.entries(b.dir)),
  ]);
}
