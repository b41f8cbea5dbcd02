import { queueflowEntries, startE2eQueueflow, stopE2eQueueflow } from './queueflow-server';
import { dropSdjBrokers, prepareSdjBrokers, sdjEntries, setupSdjBrokers } from './sdj-dbs';

// The e2e console's brokers that a system brings itself, one entry per system: the one list a
// new system adds a line to (docs/adding-a-system.md, "The files outside it"). The config,
// global setup and teardown iterate it and never name a system. potatoq's and Celery's brokers
// on the shared services are older and live in e2e/brokers-extra.ts and e2e/global-setup.ts.

export interface E2eSystem {
  /** For log lines: "SDJ", "QueueFlow". */
  label: string;
  /** The config's main process, once per run, before the web server starts: choose names,
   *  start a server of the run. Writes what it chose into the run's dir. */
  prepare(dir: string): void;
  /** The console's broker entries (a broker whose service is not here is left out). */
  entries(dir: string): Record<string, unknown>[];
  /** Global setup: create what the brokers need (databases, schemas); records why not. */
  setup?(dir: string): Promise<void>;
  /** Teardown, always (even with POTATOQ_E2E_KEEP=1): processes of the run. */
  stop?(dir: string): void;
  /** Teardown unless POTATOQ_E2E_KEEP=1: the run's data. A failure is logged, never thrown. */
  drop?(dir: string): Promise<void>;
}

export const E2E_SYSTEMS: E2eSystem[] = [
  { label: 'QueueFlow', prepare: (dir) => void startE2eQueueflow(dir), entries: queueflowEntries, stop: stopE2eQueueflow },
  { label: 'SDJ', prepare: (dir) => void prepareSdjBrokers(dir), entries: sdjEntries, setup: setupSdjBrokers, drop: dropSdjBrokers },
];
