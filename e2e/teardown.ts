import fs from 'node:fs';

// Removes the run's temp broker files; POTATOQ_E2E_KEEP=1 keeps them for a post-mortem.
export default async function globalTeardown(): Promise<void> {
  const dir = process.env.POTATOQ_E2E_DIR;
  if (!dir || process.env.POTATOQ_E2E_KEEP === '1') return;
  fs.rmSync(dir, { recursive: true, force: true });
}
