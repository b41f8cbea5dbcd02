// The fingerprint app (tests/py/fp_tasks.py) on a broker of its own: potatoq's tables made by
// `potatoq migrate`, `n` failing tasks of its two bugs enqueued (fp_produce.py: every third an
// export bug, the rest a card decline), and a real `potatoq worker` started on both queues to
// fail them. The caller waits for the letters and stops the worker.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { POTATOQ, PYTHON, ROOT } from './potatoq-seeder';
import { SoloWorker } from './solo-worker';

const PY_DIR = path.join(ROOT, 'tests/py');

/** `env` names the broker: FP_BROKER (its URL) and FP_OPTIONS (JSON transport options). */
export function startFpWorker(env: NodeJS.ProcessEnv, n: number): SoloWorker {
  const e = { ...env, POTATOQ_NO_EMOJI: '1', NO_COLOR: '1', PYTHONUNBUFFERED: '1' };
  execFileSync(POTATOQ, ['-A', 'fp_tasks', '--no-color', '--no-emoji', 'migrate'], { cwd: PY_DIR, env: e, stdio: 'pipe' });
  execFileSync(PYTHON, ['fp_produce.py', String(n)], { cwd: PY_DIR, env: e });
  const worker = new SoloWorker('fp_tasks', PY_DIR, e);
  worker.start(['fp-billing', 'fp-exports']);
  return worker;
}
