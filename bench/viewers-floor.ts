// The floor for `npm run bench:viewers`: the polled answers as the console gave them, served by
// a bare node:http process (bench/floor-server.mjs), so the same viewers' CPU can be compared
// with what answering those requests costs at all.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@/tests/support/free-port';
import { ROOT, type Dashboard } from './potatoq-side';

const DROP = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** Each path's answer from the console now: status, headers (as sent) and body. */
export async function captureAnswers(url: string, paths: string[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const p of new Set(paths)) {
    const r = await fetch(`${url}${p}`, { headers: { 'accept-encoding': 'identity' } });
    const headers = Object.fromEntries([...r.headers].filter(([k]) => !DROP.has(k)));
    out[p] = { status: r.status, headers, body: Buffer.from(await r.arrayBuffer()).toString('base64') };
  }
  return out;
}

/** A bare node:http server answering `answers` (captureAnswers) and nothing else. */
export async function startFloor(answers: Record<string, unknown>): Promise<Dashboard> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pq-bench-floor-'));
  const file = path.join(dir, 'answers.json');
  fs.writeFileSync(file, JSON.stringify(answers));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/floor-server.mjs'), String(port), file], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) await new Promise((r) => (child.once('exit', r), child.kill('SIGTERM')));
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${url}/api/health/live`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, pid: child.pid ?? 0, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error('the floor server did not start');
}
